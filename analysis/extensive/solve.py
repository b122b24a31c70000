"""One entry point for games with information sets: pick the method, solve, certify.

``method``:

- ``"sequence_lp"``: the exact sequence-form LP (two-player zero-sum or constant-sum games),
  :mod:`analysis.extensive.sequence_lp`;
- ``"lemke"``: an exact equilibrium of any two-player game by Lemke's algorithm on the
  sequence form, :mod:`analysis.extensive.lemke`;
- ``"subgame_perfect"``: an exact subgame-perfect equilibrium by backward induction over
  subgames, :mod:`analysis.extensive.refinements`;
- ``"cfr"``, ``"cfr_plus"``: counterfactual regret minimisation in floats,
  :mod:`analysis.extensive.cfr`;
- ``"auto"``: the LP for two-player constant-sum games, Lemke for other two-player games,
  CFR+ for more players.

Whatever ran, the answer's profile is evaluated afresh by the tree walk of
:mod:`analysis.extensive.policy` (a second computation, independent of the solver's own): each
player's payoff and best-response value, and NashConv, their total gap. An exact method's
certificate is that every gap is exactly 0, and an exact answer is also checked for
sequential rationality at every information set (the refinements module's belief).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from analysis.extensive.cfr import CFRSolution, solve_cfr
from analysis.extensive.lemke import solve_lemke
from analysis.extensive.policy import BehaviourProfile, ProfileEvaluation, evaluate_profile
from analysis.extensive.refinements import (
    SequentialRationality,
    SubgamePerfectEquilibrium,
    sequential_rationality,
    subgame_perfect_equilibrium,
)
from analysis.extensive.sequence_form import sequence_form
from analysis.extensive.sequence_lp import solve_zero_sum
from games.errors import DomainError, InvalidInputError
from games.extensive.model import ExtensiveGame

Method = Literal["auto", "sequence_lp", "lemke", "subgame_perfect", "cfr", "cfr_plus"]
METHODS: Final = ("auto", "sequence_lp", "lemke", "subgame_perfect", "cfr", "cfr_plus")
EXACT_METHODS: Final = ("sequence_lp", "lemke", "subgame_perfect")

DEFAULT_ITERATIONS: Final = 1000
"""CFR iterations when none are asked for."""


@dataclass(frozen=True, slots=True)
class ExtensiveSolution:
    """An equilibrium (or CFR's approximation of one) of a game with information sets.

    Attributes
    ----------
    method
        What ran: ``"sequence_lp"``, ``"lemke"``, ``"subgame_perfect"``, ``"cfr"`` or
        ``"cfr_plus"``.
    exact
        Whether the strategies and numbers are exact (and certified so).
    zero_sum
        Whether the game has two players whose payoffs add up to a constant everywhere.
    value
        Player 1's equilibrium payoff in a zero-sum game (exact from the LP; CFR's average
        payoff in floats); ``None`` in other games.
    profile
        A behaviour strategy for each player at each information set.
    reached
        For each information set, whether its own player's strategy can lead to it (at a set
        it cannot, the strategy is a best reply there, or CFR's average).
    evaluation
        The profile evaluated by the tree walk: payoffs, best responses, NashConv.
    cfr
        CFR's run (iterations, the NashConv curve, why it stopped), for the CFR methods.
    sequential
        The exact methods: the profile checked for sequential rationality at every set.
    subgame_perfect
        ``"subgame_perfect"``: the subgames and how each was solved.
    """

    method: str
    exact: bool
    zero_sum: bool
    value: Fraction | float | None
    profile: BehaviourProfile
    reached: tuple[bool, ...]
    evaluation: ProfileEvaluation
    cfr: CFRSolution | None = None
    sequential: SequentialRationality | None = None
    subgame_perfect: SubgamePerfectEquilibrium | None = None


def solve_extensive(
    game: ExtensiveGame,
    method: Method = "auto",
    *,
    iterations: int | None = None,
    target_nash_conv: float | None = None,
) -> ExtensiveSolution:
    """Solve ``game`` by ``method`` (see the module) and evaluate the answer.

    :raises InvalidInputError: an unknown method, or CFR's options out of range (the error
        names the parameter).
    :raises DomainError: the LP asked for a game that is not two-player constant-sum,
        Lemke for one that has more than two players, or subgame_perfect for one with a
        subgame where more than two players move with imperfect information.
    :raises LimitExceededError: the game is too large for the exact method.
    :raises TimeLimitError: the deadline passed (CFR instead stops early and says so).
    """
    if method not in METHODS:
        raise InvalidInputError(
            f"method {method!r} is not one of {list(METHODS)}", parameter="method"
        )
    if method == "auto":
        two = len(game.players) == 2
        method = "sequence_lp" if game.zero_sum else "lemke" if two else "cfr_plus"
    exact = method in EXACT_METHODS
    if exact and (iterations is not None or target_nash_conv is not None):
        raise InvalidInputError(
            f"iterations and target_nash_conv are options of cfr and cfr_plus, not of the "
            f"exact {method}",
            parameter="iterations" if iterations is not None else "target_nash_conv",
        )
    if method == "sequence_lp" and not game.zero_sum:
        raise DomainError(
            "sequence_lp solves two-player games whose payoffs add up to the same total at "
            "every end; this one's do not (use lemke, cfr or cfr_plus)",
            parameter="method",
        )
    if method == "subgame_perfect":
        spe = subgame_perfect_equilibrium(game)
        return ExtensiveSolution(
            method,
            True,
            game.zero_sum,
            spe.payoffs[0] if game.zero_sum else None,
            spe.profile,
            _reached_by_profile(game, spe.profile),
            spe.evaluation,
            sequential=sequential_rationality(game, spe.profile),
            subgame_perfect=spe,
        )
    if method == "lemke" and len(game.players) != 2:
        raise DomainError(
            f"lemke solves two-player games; this one has {len(game.players)} players (use "
            "cfr or cfr_plus)",
            parameter="method",
        )
    if method == "sequence_lp":
        zero_sum = solve_zero_sum(game)
        return _exact(game, method, zero_sum.behaviour, zero_sum.plans, zero_sum.value)
    if method == "lemke":
        found = solve_lemke(game)
        paid = found.payoffs[0] if game.zero_sum else None
        return _exact(game, method, found.behaviour, found.plans, paid)
    if iterations is None:
        iterations = DEFAULT_ITERATIONS
    run = solve_cfr(game, method, iterations, target_nash_conv=target_nash_conv)
    evaluation = run.evaluation  # (evaluating afresh could pass a deadline CFR stopped at)
    value = float(evaluation.payoffs[0]) if game.zero_sum else None
    return ExtensiveSolution(
        method,
        False,
        game.zero_sum,
        value,
        run.profile,
        _reached_by_profile(game, run.profile),
        evaluation,
        run,
    )


def _exact(
    game: ExtensiveGame,
    method: str,
    behaviour: tuple[dict[int, tuple[Fraction, ...]], dict[int, tuple[Fraction, ...]]],
    plans: tuple[list[Fraction], list[Fraction]],
    value: Fraction | None,
) -> ExtensiveSolution:
    """An exact method's answer, checked a second time by the tree walk."""
    rows: list[tuple[Fraction, ...]] = [()] * len(game.infosets)
    for player in (0, 1):
        for h, probabilities in behaviour[player].items():
            rows[h] = probabilities
    profile = BehaviourProfile(tuple(rows))
    evaluation = evaluate_profile(game, profile)
    if evaluation.nash_conv != 0:
        raise DomainError(
            f"the exact equilibrium failed its second check (NashConv {evaluation.nash_conv}); "
            "this should not happen, please report the game"
        )
    reached = _reached_by_plans(game, plans)
    return ExtensiveSolution(
        method,
        True,
        game.zero_sum,
        value,
        profile,
        reached,
        evaluation,
        sequential=sequential_rationality(game, profile),
    )


def _reached_by_plans(
    game: ExtensiveGame, plans: tuple[list[Fraction], list[Fraction]]
) -> tuple[bool, ...]:
    form = sequence_form(game)
    return tuple(bool(plans[s.player][form.parent[h]]) for h, s in enumerate(game.infosets))


def _reached_by_profile(game: ExtensiveGame, profile: BehaviourProfile) -> tuple[bool, ...]:
    """Whether each set's player reaches it with positive probability under ``profile``."""
    reached = [False] * len(game.infosets)
    by_player: list[list[float]] = [[1.0] * len(game.nodes) for _ in game.players]
    for index, node in enumerate(game.nodes):
        if node.player >= 0:
            if by_player[node.player][index] > 0:
                reached[node.infoset] = True
            row = profile.probabilities[node.infoset]
            for a, child in enumerate(node.children):
                for p in range(len(game.players)):
                    weight = float(row[a]) if p == node.player else 1.0
                    by_player[p][child] = by_player[p][index] * weight
        else:
            for child in node.children:
                for p in range(len(game.players)):
                    by_player[p][child] = by_player[p][index]
    return tuple(reached)
