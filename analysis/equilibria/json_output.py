"""A :class:`MatrixReport` as JSON: what the API documents (``api.schemas.matrices``).

Every number, probability vectors included, is written by :mod:`games.numbers` under
the one rule of ``docs/numbers.md``; values found in floating point (``arithmetic:
"float"``, Lemke-Howson) are JSON numbers without a companion.
"""

from __future__ import annotations

from typing import Any

from analysis.equilibria.correlated import CorrelatedEquilibria, CorrelatedEquilibrium
from analysis.equilibria.deviation import DeviationCheck
from analysis.equilibria.equilibrium_set import EquilibriumSet, MixedEquilibrium
from analysis.equilibria.indifference import Indifference
from analysis.equilibria.iterated_dominance import DominanceResult
from analysis.equilibria.lemke_howson import LemkeHowsonResult
from analysis.equilibria.pure import BestResponses
from analysis.equilibria.report import MatrixReport
from analysis.equilibria.zero_sum import SecurityLevel, ZeroSumSolution
from games.limits import current_deadline
from games.matrices.model import NormalFormGame
from games.numbers import Exact, put_number, put_numbers


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
            entry: dict[str, Any] = {
                "profile": list(e.profile),
                "labels": game.profile_labels(e.profile),
            }
            put_numbers(entry, "payoffs", e.payoffs)
            listed.append(entry)
        out["pure_equilibria"] = listed
    if report.dominance is not None:
        out["dominance"] = _dominance(game, report.dominance)
    if report.equilibria is not None:
        out.update(_equilibria(report.equilibria, report.checks, report.explanations))
    elif "equilibria" in report.parts:
        out.update(
            {
                "equilibria": None,
                "equilibria_arithmetic": None,
                "degenerate": None,
                "components": None,
            }
        )
    if "zero_sum" in report.parts:
        out["zero_sum"] = None if report.zero_sum is None else _zero_sum(report.zero_sum)
    if report.security_levels is not None:
        out["security_levels"] = [_security(game, level) for level in report.security_levels]
    if report.lemke_howson is not None:
        out["lemke_howson"] = _lemke_howson(report.lemke_howson)
    if report.plot is not None:
        out["plot"] = report.plot
    if report.correlated_equilibria is not None:
        out["correlated_equilibria"] = _correlated(game, report.correlated_equilibria)
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
                "dominated_by": [_dominator(game, step.player, k, p) for k, p in step.dominated_by],
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


def _dominator(
    game: NormalFormGame, player: int, strategy: int, p: Exact | float
) -> dict[str, Any]:
    out: dict[str, Any] = {"strategy": strategy, "label": game.labels[player][strategy]}
    put_number(out, "probability", p)
    return out


def _equilibrium(
    equilibrium: MixedEquilibrium,
    check: DeviationCheck,
    explanation: tuple[Indifference, ...] | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put_numbers(out, "row", equilibrium.row)
    put_numbers(out, "col", equilibrium.col)
    put_numbers(out, "payoffs", equilibrium.payoffs)
    put_number(out, "max_deviation_gain", check.max_gain)
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
    components = []
    for component in found.components:
        subsets = []
        for subset in component.subsets:
            vertices: dict[str, Any] = {}
            put_numbers(vertices, "row", [found.row_vertices[r] for r in subset.row])
            put_numbers(vertices, "col", [found.col_vertices[c] for c in subset.col])
            subsets.append(vertices)
        components.append(
            {
                "equilibria": list(component.equilibria),
                "continuum": component.continuum,
                "subsets": subsets,
            }
        )
    return {
        "equilibria": listed,
        "equilibria_arithmetic": "exact" if found.exact else "float",
        "degenerate": found.degenerate,
        "components": components,
    }


def _zero_sum(solution: ZeroSumSolution) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put_number(out, "value", solution.value)
    put_numbers(out, "row_strategy", solution.row_strategy)
    put_numbers(out, "col_strategy", solution.col_strategy)
    out["exact"] = solution.exact
    return out


def _security(game: NormalFormGame, level: SecurityLevel) -> dict[str, Any]:
    out: dict[str, Any] = {"player": level.player}
    put_number(out, "pure", level.pure)
    out["pure_strategies"] = [game.labels[level.player][s] for s in level.pure_strategies]
    put_number(out, "mixed", level.mixed)
    if level.mixed_strategy is None:
        out["strategy"] = None
    else:
        put_numbers(out, "strategy", level.mixed_strategy)
    out["exact"] = level.exact
    return out


def _lemke_howson(result: LemkeHowsonResult) -> dict[str, Any]:
    out: dict[str, Any] = {"label": result.label}
    put_numbers(out, "row", result.row)
    put_numbers(out, "col", result.col)
    put_numbers(out, "payoffs", result.payoffs)
    out["pivots"] = result.pivots
    put_number(out, "max_deviation_gain", result.max_deviation_gain)
    return out


def _correlated(game: NormalFormGame, found: CorrelatedEquilibria) -> dict[str, Any]:
    return {
        "max_welfare": _correlated_one(game, found.max_welfare),
        "min_welfare": _correlated_one(game, found.min_welfare),
        "coarse": {
            "max_welfare": _correlated_one(game, found.coarse_max_welfare),
            "min_welfare": _correlated_one(game, found.coarse_min_welfare),
        },
    }


def _correlated_one(game: NormalFormGame, found: CorrelatedEquilibrium) -> dict[str, Any]:
    clock = current_deadline()
    distribution = []
    for profile, probability in found.distribution:
        clock.spend(4 * game.players)
        entry: dict[str, Any] = {"profile": list(profile), "labels": game.profile_labels(profile)}
        put_number(entry, "probability", probability)
        distribution.append(entry)
    out: dict[str, Any] = {"distribution": distribution}
    put_numbers(out, "payoffs", found.payoffs)
    put_number(out, "welfare", found.welfare)
    binding = []
    for constraint in found.binding:
        clock.spend(4)
        names = game.labels[constraint.player]
        recommended = constraint.recommended
        binding.append(
            {
                "player": constraint.player,
                "recommended": recommended,
                "recommended_label": None if recommended is None else names[recommended],
                "deviation": constraint.deviation,
                "deviation_label": names[constraint.deviation],
            }
        )
    out["binding"] = binding
    out["exact"] = found.exact
    return out
