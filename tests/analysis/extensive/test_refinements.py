"""Subgames, subgame-perfect equilibria and the sequential-rationality check, against games
solved by hand, Kuhn poker, and two properties on random games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.extensive.policy import BehaviourProfile, evaluate_profile, profile_from_mapping
from analysis.extensive.refinements import (
    sequential_rationality,
    subgame_perfect_equilibrium,
    subgames,
)
from analysis.extensive.solve import solve_extensive
from games.errors import DomainError, TimeLimitError
from games.extensive.model import TERMINAL, Builder, ExtensiveGame
from games.extensive.poker import kuhn_poker, leduc_poker
from games.limits import Limits, limited
from tests.games.extensive.strategies import extensive_games

F = Fraction


def q(*values: int | Fraction) -> tuple[Fraction, ...]:
    return tuple(F(v) for v in values)


def dilemma_after_entry() -> ExtensiveGame:
    # player 1 stays out, (3/2, 0), or comes in to a prisoner's dilemma played
    # simultaneously: (C, C) (2, 2), (C, D) (0, 3), (D, C) (3, 0), (D, D) (1, 1)
    builder = Builder(["1", "2"])
    builder.decision(0, "enter?", ["out", "in"])
    builder.terminal([F(3, 2), 0])
    builder.decision(0, "1 in", ["C", "D"])
    builder.decision(1, "2 in", ["C", "D"])
    builder.terminal([2, 2])
    builder.terminal([0, 3])
    builder.decision(1, "2 in", ["C", "D"])
    builder.terminal([3, 0])
    builder.terminal([1, 1])
    return builder.build()


def test_backward_induction_solves_the_dilemma_first() -> None:
    game = dilemma_after_entry()
    found = subgames(game)
    # the dilemma starts a subgame; player 2's two nodes share a set, so neither starts one
    assert [(s.name, s.nodes) for s in found] == [("root", 9), ("in", 7)]
    spe = subgame_perfect_equilibrium(game)
    # the dilemma's only equilibrium is (D, D), worth (1, 1): staying out (3/2) is better
    assert spe.profile.probabilities == ((1, 0), (0, 1), (0, 1))
    assert spe.payoffs == q(F(3, 2), 0) and spe.evaluation.nash_conv == 0
    assert [s.name for s in spe.subgames] == ["in", "root"]
    assert spe.methods == ("lemke", "best_action")
    assert spe.values == (q(1, 1), q(F(3, 2), 0))


def test_a_nash_equilibrium_that_is_not_sequentially_rational() -> None:
    # staying out is also a Nash equilibrium when player 2 would cooperate with probability
    # 1/4 and player 1 would cooperate: coming in then pays 2/4 + 0 = 1/2 < 3/2. Both
    # choices are off the path and bad where they would be made (by hand below).
    game = dilemma_after_entry()
    profile = profile_from_mapping(
        game, {"enter?": [1, 0], "1 in": [1, 0], "2 in": [F(1, 4), F(3, 4)]}
    )
    assert evaluate_profile(game, profile).nash_conv == 0
    check = sequential_rationality(game, profile)
    assert not check.sequentially_rational
    assert check.unreached == (1, 2) and check.flagged == (1, 2)
    one, two = check.assessments[1], check.assessments[2]
    # player 1 in the dilemma, against 2's mix: C earns 2/4 + 0, D 3/4 + 3/4
    assert one.action_values == (F(1, 2), F(3, 2)) and one.gain == 1 and one.order == 1
    # player 2 believes 1 cooperated (1's tremble to D is of a higher order): C 2, D 3
    assert [mu for _, mu in two.belief] == [1, 0]
    assert two.action_values == q(2, 3) and two.chosen_value == F(11, 4) and two.gain == F(1, 4)
    assert check.assessments[0].optimal and check.assessments[0].reached


def pennies_after_entry() -> ExtensiveGame:
    # zero-sum: out pays player 1 a sure 1/2; in leads to matching pennies for 2
    builder = Builder(["1", "2"])
    builder.decision(0, "enter?", ["out", "in"])
    builder.terminal([F(1, 2), F(-1, 2)])
    builder.decision(0, "1 in", ["heads", "tails"])
    for first in (1, -1):
        builder.decision(1, "2 in", ["heads", "tails"])
        builder.terminal([2 * first, -2 * first])
        builder.terminal([-2 * first, 2 * first])
    return builder.build()


def test_a_zero_sum_subgame_is_solved_by_the_linear_program() -> None:
    spe = subgame_perfect_equilibrium(pennies_after_entry())
    assert spe.methods == ("sequence_lp", "best_action")
    half = (F(1, 2), F(1, 2))
    # pennies is worth 0, so player 1 takes the sure 1/2
    assert spe.profile.probabilities == ((1, 0), half, half)
    assert spe.values == (q(0, 0), q(F(1, 2), F(-1, 2)))


def three_players_with_chance() -> ExtensiveGame:
    # a perfect-information game of three players and a coin, solved backwards by hand:
    # C at "c" takes (0, 0, 3) over (1, 1, 1); B at "b" then gets 0 by "down" against 2 by
    # "gamble", a coin paying (4, 0, 0) or (0, 4, 0): expected (2, 2, 0); A at the root takes
    # "go" (2) over "stop" (1, 5, 5)
    builder = Builder(["A", "B", "C"])
    builder.decision(0, "a", ["stop", "go"])
    builder.terminal([1, 5, 5])
    builder.decision(1, "b", ["down", "gamble"])
    builder.decision(2, "c", ["left", "right"])
    builder.terminal([1, 1, 1])
    builder.terminal([0, 0, 3])
    builder.chance([("heads", F(1, 2)), ("tails", F(1, 2))], "coin")
    builder.terminal([4, 0, 0])
    builder.terminal([0, 4, 0])
    return builder.build()


def test_three_players_and_chance_by_backward_induction() -> None:
    spe = subgame_perfect_equilibrium(three_players_with_chance())
    # reversed prefix order: each subgame before every subgame holding it
    assert [s.name for s in spe.subgames] == ["coin", "go / down", "go", "root"]
    assert spe.methods == ("chance", "best_action", "best_action", "best_action")
    assert spe.profile.probabilities == ((0, 1), (0, 1), (0, 1))
    assert spe.payoffs == q(2, 2, 0)


def test_kuhn_poker_has_no_proper_subgame() -> None:
    game = kuhn_poker()
    # the deal is the root; every decision node shares its set with another deal
    assert [s.name for s in subgames(game)] == ["deal"]
    spe = subgame_perfect_equilibrium(game)
    assert spe.methods == ("sequence_lp",) and spe.payoffs == (F(-1, 18), F(1, 18))


def test_a_half_half_call_with_the_king_is_flagged() -> None:
    # the equilibrium found bets every king, so "K, check, bet" is never reached; any play
    # there keeps the equilibrium (pygambit's lcp_solve answers 1/2-1/2), but with a king
    # calling wins 2 where folding loses 1, against any belief
    game = kuhn_poker()
    solved = solve_extensive(game)
    assert sequential_rationality(game, solved.profile).sequentially_rational
    rows = list(solved.profile.probabilities)
    king = next(h for h, s in enumerate(game.infosets) if s.name == "K, check, bet")
    rows[king] = (F(1, 2), F(1, 2))
    profile = BehaviourProfile(tuple(rows))
    assert evaluate_profile(game, profile).nash_conv == 0
    check = sequential_rationality(game, profile)
    assert check.flagged == (king,)
    flagged = check.assessments[king]
    assert not flagged.reached and flagged.action_values == q(-1, 2)
    assert flagged.chosen_value == F(1, 2) and flagged.gain == F(3, 2)
    # player 2 bets after a check with a jack only (1/3 of the time), never with a queen:
    # the limit belief is all on the jack
    deals = [game.nodes[game.nodes[n].parent].parent for n, _ in flagged.belief]
    named = {game.nodes[0].actions[game.nodes[0].children.index(d)]: mu for d, mu in zip(
        deals, (mu for _, mu in flagged.belief), strict=True
    )}  # fmt: skip
    assert named == {"KJ": 1, "KQ": 0}


def test_more_than_two_players_in_an_imperfect_subgame_are_refused() -> None:
    builder = Builder(["a", "b", "c"])
    builder.decision(0, "a", ["L", "R"])
    for _ in range(2):
        builder.decision(1, "b", ["l", "r"])
        for _ in range(2):
            builder.decision(2, "c", ["x", "y"])
            builder.terminal([1, 0, 0])
            builder.terminal([0, 1, 0])
    with pytest.raises(DomainError, match="3 players moving in a game of 3"):
        subgame_perfect_equilibrium(builder.build())


def test_the_deadline_stops_the_check() -> None:
    game = leduc_poker()
    with limited(Limits(time_limit=0.01)), pytest.raises(TimeLimitError):
        sequential_rationality(game, _uniform(game))


def _uniform(game: ExtensiveGame) -> BehaviourProfile:
    return BehaviourProfile(
        tuple(tuple(F(1, len(s.actions)) for _ in s.actions) for s in game.infosets)
    )


@st.composite
def perfect_information_games(draw: st.DrawFn) -> ExtensiveGame:
    """Random trees of two or three players and chance, every set a single node."""
    count = draw(st.integers(2, 3))
    builder = Builder([str(p) for p in range(count)])
    pending = [0]
    made = 0
    while pending:
        depth = pending.pop()
        made += 1
        kind = draw(st.sampled_from("ppct")) if depth < 4 and made < 30 else "t"
        if kind == "t":
            builder.terminal([draw(st.integers(-3, 3)) for _ in range(count)])
            continue
        width = draw(st.integers(1, 3))
        if kind == "c":
            builder.chance([(str(a), F(1, width)) for a in range(width)])
        else:
            builder.decision(draw(st.integers(0, count - 1)), made, [str(a) for a in range(width)])
        pending.extend([depth + 1] * width)
    return builder.build()


@settings(max_examples=40, deadline=None)
@given(perfect_information_games())
def test_backward_induction_is_sequentially_rational(game: ExtensiveGame) -> None:
    # with perfect information every decision node starts a subgame, so a subgame-perfect
    # equilibrium plays optimally everywhere: the check, written independently, agrees
    spe = subgame_perfect_equilibrium(game)
    assert len(spe.subgames) == sum(n.player != TERMINAL for n in game.nodes)
    assert sequential_rationality(game, spe.profile).sequentially_rational


@settings(max_examples=25, deadline=None)
@given(extensive_games(max_nodes=25).filter(lambda game: len(game.players) == 2))
def test_an_equilibrium_is_optimal_wherever_it_is_reached(game: ExtensiveGame) -> None:
    for solution in (solve_extensive(game), subgame_perfect_equilibrium(game)):
        check = sequential_rationality(game, solution.profile)
        assert set(check.flagged) <= set(check.unreached)


def test_the_deadline_stops_backward_induction_over_many_subgames() -> None:
    # a chain of 20,000 decisions is 20,000 subgames, each solved in turn
    builder = Builder(["a", "b"])
    for i in range(20_000):
        builder.decision(i % 2, i, ["stop", "go"])
        builder.terminal([i % 3, -(i % 5)])
    builder.terminal([1, 1])
    game = builder.build()
    with limited(Limits(time_limit=0.2)), pytest.raises(TimeLimitError):
        subgame_perfect_equilibrium(game)
