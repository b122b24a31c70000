"""Turn a :class:`MatrixReport` into the JSON documented by ``api.schemas.matrices``.

Numbers follow the API convention: a JSON number, plus a ``*_exact`` string when
the value is not an integer; probability vectors are lists of exact strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analysis.equilibria.deviation import DeviationCheck
from analysis.equilibria.indifference import Indifference
from analysis.equilibria.iterated_dominance import DominanceResult
from analysis.equilibria.lemke_howson import LemkeHowsonResult
from analysis.equilibria.pure import BestResponses
from analysis.equilibria.report import MatrixReport
from analysis.equilibria.vertex_enumeration import EquilibriumSet, MixedEquilibrium
from analysis.equilibria.zero_sum import SecurityLevel, ZeroSumSolution
from games.limits import current_deadline
from games.matrices.model import NormalFormGame
from games.numbers import Exact, exact_text, put_number, to_float


def put_value(target: dict[str, Any], name: str, value: Exact | float | None) -> None:
    """``target[name]`` as a JSON number and ``target[name_exact]`` where it is not exact."""
    if value is None or isinstance(value, float):
        target[name] = value
    else:
        put_number(target, name, value)


def number_text(value: Exact | float) -> str:
    """The exact string (``"2/3"``); a float, or an exact value too long to write out
    (past :data:`games.numbers.MAX_EXACT_TEXT_BITS`), as the shortest repr of a double."""
    if isinstance(value, float):
        return repr(value)
    return exact_text(value) or repr(float(to_float(value)))


def texts(values: Sequence[Exact | float]) -> list[str]:
    """Exact strings (``"2/3"``); floats as their shortest repr."""
    return [number_text(v) for v in values]


def numbers(values: Sequence[Exact | float]) -> list[float | int]:
    """JSON numbers under the one rule of :func:`games.numbers.to_float`."""
    return [v if isinstance(v, float) else to_float(v) for v in values]


def report_json(report: MatrixReport) -> dict[str, Any]:
    game = report.game
    out: dict[str, Any] = {
        "players": game.players,
        "shape": list(game.shape),
        "labels": [list(names) for names in game.labels],
    }
    if report.best_responses is not None:
        out["best_responses"] = [_responses(game, entry) for entry in report.best_responses]
    if report.pure_equilibria is not None:
        # a game of equal payoffs has an equilibrium in every cell: writing is charged too
        clock = current_deadline()
        listed = []
        for e in report.pure_equilibria:
            clock.spend(4 * game.players)
            listed.append(
                {
                    "profile": list(e.profile),
                    "labels": game.profile_labels(e.profile),
                    "payoffs": numbers(e.payoffs),
                    "payoffs_exact": texts(e.payoffs),
                }
            )
        out["pure_equilibria"] = listed
    if report.dominance is not None:
        out["dominance"] = _dominance(game, report.dominance)
    if report.equilibria is not None:
        out.update(_equilibria(report.equilibria, report.checks, report.explanations))
    elif "equilibria" in report.parts:
        out.update(
            {"equilibria": None, "equilibria_exact": None, "degenerate": None, "components": None}
        )
    if "zero_sum" in report.parts:
        out["zero_sum"] = None if report.zero_sum is None else _zero_sum(report.zero_sum)
    if report.security_levels is not None:
        out["security_levels"] = [_security(game, level) for level in report.security_levels]
    if report.lemke_howson is not None:
        out["lemke_howson"] = _lemke_howson(report.lemke_howson)
    if report.plot is not None:
        out["plot"] = report.plot
    out["notes"] = list(report.notes)
    return out


def _responses(game: NormalFormGame, entry: BestResponses) -> dict[str, Any]:
    clock = current_deadline()
    others = [p for p in range(game.players) if p != entry.player]
    rows = []
    for against, best in zip(entry.against, entry.best, strict=True):
        clock.spend(2 + len(best))
        rows.append(
            {
                "against": list(against),
                "against_labels": [game.labels[p][s] for p, s in zip(others, against, strict=True)],
                "best": list(best),
                "best_labels": [game.labels[entry.player][s] for s in best],
            }
        )
    return {"player": entry.player, "responses": rows}


def _dominance(game: NormalFormGame, result: DominanceResult) -> dict[str, Any]:
    steps = []
    for step in result.steps:
        steps.append(
            {
                "player": step.player,
                "strategy": step.strategy,
                "label": game.labels[step.player][step.strategy],
                "dominated_by": [
                    {
                        "strategy": k,
                        "label": game.labels[step.player][k],
                        "probability": number_text(p),
                    }
                    for k, p in step.dominated_by
                ],
                "weak": step.weak,
                "explanation": step.explanation,
            }
        )
    return {
        "weak": result.weak,
        "steps": steps,
        "reduced": {
            "strategies": [list(alive) for alive in result.surviving],
            "labels": [
                [game.labels[p][s] for s in alive] for p, alive in enumerate(result.surviving)
            ],
        },
    }


def _equilibrium(
    equilibrium: MixedEquilibrium,
    check: DeviationCheck,
    explanation: tuple[Indifference, ...] | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "row": texts(equilibrium.row),
        "col": texts(equilibrium.col),
        "row_float": numbers(equilibrium.row),
        "col_float": numbers(equilibrium.col),
        "payoffs": numbers(equilibrium.payoffs),
        "payoffs_exact": texts(equilibrium.payoffs),
    }
    put_value(out, "max_deviation_gain", check.max_gain)
    if not isinstance(check.max_gain, float):
        out["max_deviation_gain_exact"] = number_text(check.max_gain)
    if explanation is not None:
        out["explanation"] = [
            {
                "mixer": e.mixer,
                "indifferent": e.indifferent,
                "words": e.words,
                "equations_latex": list(e.equations_latex),
                "equations_text": list(e.equations_text),
                "solution_latex": e.solution_latex,
                "solution_text": e.solution_text,
            }
            for e in explanation
        ]
    return out


def _equilibria(
    found: EquilibriumSet,
    checks: tuple[DeviationCheck, ...],
    explanations: tuple[tuple[Indifference, ...], ...] | None,
) -> dict[str, Any]:
    listed = []
    for index, equilibrium in enumerate(found.equilibria):
        check = checks[index]
        explanation = explanations[index] if explanations else None
        listed.append(_equilibrium(equilibrium, check, explanation))
    components = [
        {
            "equilibria": list(component.equilibria),
            "continuum": component.continuum,
            "subsets": [
                {
                    "row": [texts(found.row_vertices[r]) for r in subset.row],
                    "col": [texts(found.col_vertices[c]) for c in subset.col],
                }
                for subset in component.subsets
            ],
        }
        for component in found.components
    ]
    return {
        "equilibria": listed,
        "equilibria_exact": found.exact,
        "degenerate": found.degenerate,
        "components": components,
    }


def _zero_sum(solution: ZeroSumSolution) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put_value(out, "value", solution.value)
    out.update(
        {
            "row_strategy": texts(solution.row_strategy),
            "col_strategy": texts(solution.col_strategy),
            "row_strategy_float": numbers(solution.row_strategy),
            "col_strategy_float": numbers(solution.col_strategy),
            "exact": solution.exact,
        }
    )
    return out


def _security(game: NormalFormGame, level: SecurityLevel) -> dict[str, Any]:
    out: dict[str, Any] = {"player": level.player}
    put_value(out, "pure", level.pure)
    out["pure_strategies"] = [game.labels[level.player][s] for s in level.pure_strategies]
    put_value(out, "mixed", level.mixed)
    out["strategy"] = None if level.mixed_strategy is None else texts(level.mixed_strategy)
    out["exact"] = level.exact
    return out


def _lemke_howson(result: LemkeHowsonResult) -> dict[str, Any]:
    return {
        "label": result.label,
        "row": list(result.row),
        "col": list(result.col),
        "payoffs": list(result.payoffs),
        "pivots": result.pivots,
        "max_deviation_gain": result.max_deviation_gain,
    }
