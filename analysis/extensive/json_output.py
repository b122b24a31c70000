"""The JSON answer of a solved game with information sets (numbers by docs/numbers.md)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from analysis.extensive.policy import ProfileEvaluation
from analysis.extensive.refinements import SequentialRationality, SubgamePerfectEquilibrium
from analysis.extensive.solve import ExtensiveSolution
from analysis.extensive.strategic_form import StrategicFormEquilibria
from games.extensive.model import ExtensiveGame, node_name
from games.numbers import Exact, normalize, put_number, put_numbers


def solution_json(game: ExtensiveGame, solution: ExtensiveSolution) -> dict[str, Any]:
    """``method``, ``exact``, ``zero_sum``, ``value``, ``payoffs``, ``strategies`` (per
    player, per information set: the actions and their probabilities), ``certificate``
    (each player's payoff beside the best they could get against the others, and NashConv),
    and CFR's run where CFR ran."""
    evaluation = solution.evaluation
    answer: dict[str, Any] = {
        "method": solution.method,
        "exact": solution.exact,
        "zero_sum": solution.zero_sum,
        "players": list(game.players),
    }
    put_number(answer, "value", _plain(solution.value))
    put_numbers(answer, "payoffs", [_plain(v) for v in evaluation.payoffs])
    answer["strategies"] = _strategies(game, solution.profile.probabilities, solution.reached)
    answer["certificate"] = certificate_json(game, evaluation)
    if solution.sequential is not None:
        answer["sequential_rationality"] = sequential_json(game, solution.sequential)
    if solution.subgame_perfect is not None:
        answer["subgames"] = subgames_json(solution.subgame_perfect)
    run = solution.cfr
    if run is not None:
        answer["cfr"] = {
            "iterations": run.iterations,
            "stopped": run.stopped,
            "record_every": run.record_every,
            "seconds": run.seconds,
            "curve": [{"iteration": t, "nash_conv": v} for t, v in _thinned(run.curve)],
        }
    return answer


def check_json(
    game: ExtensiveGame, evaluation: ProfileEvaluation, check: SequentialRationality
) -> dict[str, Any]:
    """A profile checked: ``payoffs``, ``equilibrium`` (NashConv 0), its ``certificate`` and
    ``sequential_rationality``."""
    answer: dict[str, Any] = {"players": list(game.players)}
    put_numbers(answer, "payoffs", [_plain(v) for v in evaluation.payoffs])
    answer["equilibrium"] = evaluation.nash_conv == 0
    answer["certificate"] = certificate_json(game, evaluation)
    answer["sequential_rationality"] = sequential_json(game, check)
    return answer


def certificate_json(game: ExtensiveGame, evaluation: ProfileEvaluation) -> dict[str, Any]:
    """Each player's payoff beside the most they could get against the others, NashConv and
    exploitability."""
    players = []
    for player, name in enumerate(game.players):
        row: dict[str, Any] = {"player": name}
        put_number(row, "payoff", _plain(evaluation.payoffs[player]))
        put_number(row, "best_response", _plain(evaluation.best_responses[player].value))
        players.append(row)
    certificate: dict[str, Any] = {"players": players}
    put_number(certificate, "nash_conv", _plain(evaluation.nash_conv))
    put_number(certificate, "exploitability", _plain(evaluation.exploitability))
    return certificate


def sequential_json(game: ExtensiveGame, check: SequentialRationality) -> dict[str, Any]:
    """Whether the profile is sequentially rational, how many sets it leaves unreached, and
    each set where it is not: the belief over the set's nodes, each action's value and what
    the best action gains over the profile's choice."""
    flagged = []
    for h in check.flagged:
        assessment = check.assessments[h]
        infoset = game.infosets[h]
        entry: dict[str, Any] = {
            "player": game.players[infoset.player],
            "infoset": infoset.name,
            "reached": assessment.reached,
            "actions": list(infoset.actions),
        }
        belief = []
        for node, probability in assessment.belief:
            row: dict[str, Any] = {"node": node_name(game, node)}
            put_number(row, "probability", _plain(probability))
            belief.append(row)
        entry["belief"] = belief
        put_numbers(entry, "action_values", [_plain(v) for v in assessment.action_values])
        put_number(entry, "chosen_value", _plain(assessment.chosen_value))
        put_number(entry, "gain", _plain(assessment.gain))
        flagged.append(entry)
    return {
        "sequentially_rational": check.sequentially_rational,
        "infosets": len(check.assessments),
        "unreached": len(check.unreached),
        "flagged": flagged,
    }


def subgames_json(spe: SubgamePerfectEquilibrium) -> list[dict[str, Any]]:
    """Each subgame in the order it was solved: where it starts, its size, how it was solved
    once the subgames below it were replaced by their payoffs, and its payoffs."""
    found = []
    for subgame, method, values in zip(spe.subgames, spe.methods, spe.values, strict=True):
        entry: dict[str, Any] = {"root": subgame.name, "nodes": subgame.nodes, "method": method}
        put_numbers(entry, "payoffs", [_plain(v) for v in values])
        found.append(entry)
    return found


def equilibria_json(game: ExtensiveGame, found: StrategicFormEquilibria) -> dict[str, Any]:
    """The extreme equilibria of the reduced strategic form: each one's payoffs and behaviour
    strategies (``reached``: whether the player's own plan leads to the set)."""
    form = found.strategic_form.form
    extreme = []
    for equilibrium in found.equilibria:
        rows: list[tuple[Fraction, ...]] = [()] * len(game.infosets)
        reached = [False] * len(game.infosets)
        for player in (0, 1):
            plan = equilibrium.plans[player]
            for h, probabilities in equilibrium.behaviour[player].items():
                rows[h] = probabilities
                reached[h] = bool(plan[form.parent[h]])
        entry: dict[str, Any] = {}
        put_numbers(entry, "payoffs", [_plain(v) for v in equilibrium.payoffs])
        entry["strategies"] = _strategies(game, rows, reached)
        extreme.append(entry)
    sizes = found.strategic_form.game.shape
    return {"reduced_strategies": list(sizes), "extreme": extreme}


def _strategies(
    game: ExtensiveGame, rows: Sequence[Sequence[Fraction | float]], reached: Sequence[bool]
) -> list[dict[str, Any]]:
    """Each player's behaviour strategy: per information set, its actions, probabilities and
    whether the player's own strategy reaches it."""
    strategies = []
    for player, name in enumerate(game.players):
        sets = []
        for h in game.player_infosets(player):
            infoset = game.infosets[h]
            entry: dict[str, Any] = {
                "infoset": infoset.name,
                "actions": list(infoset.actions),
                "reached": reached[h],
            }
            put_numbers(entry, "probabilities", [_plain(p) for p in rows[h]])
            sets.append(entry)
        strategies.append({"player": name, "infosets": sets})
    return strategies


MAX_CURVE_POINTS = 500
"""Most points of CFR's NashConv curve written in an answer (a long run is thinned)."""


def _thinned(curve: tuple[tuple[int, float], ...]) -> list[tuple[int, float]]:
    """At most :data:`MAX_CURVE_POINTS` of ``curve``, evenly spread, the first and last kept."""
    if len(curve) <= MAX_CURVE_POINTS:
        return list(curve)
    last = len(curve) - 1
    picked = sorted({round(k * last / (MAX_CURVE_POINTS - 1)) for k in range(MAX_CURVE_POINTS)})
    return [curve[i] for i in picked]


def _plain(value: Fraction | float | None) -> Exact | float | None:
    """An exact number in its simplest type (a whole Fraction is an int), a float as it is."""
    return normalize(value) if isinstance(value, Fraction) else value
