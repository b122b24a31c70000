"""Lemke's algorithm on the sequence form against answers known independently.

Kuhn poker's value -1/18 and its equilibria are Kuhn's (1950); Myerson's card game (Myerson
1991, section 2.1) is worth 1/3; a general-sum signalling game, an inspection game and the
battle of the sexes are solved by hand below. Random general-sum games are checked through
their reduced strategic form, a second representation: the equilibrium found, as a mixed
strategy over reduced strategies, leaves no pure strategy that gains, and in a nondegenerate
form it is one of the extreme equilibria the matrix solver enumerates.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.extensive.lemke import LemkeSolution, solve_lemke
from analysis.extensive.sequence_lp import solve_zero_sum
from analysis.extensive.strategic_form import reduced_strategic_form, strategic_form_equilibria
from games.errors import InvalidInputError, LimitExceededError, TimeLimitError
from games.extensive.model import Builder, ExtensiveGame
from games.extensive.poker import kuhn_poker
from games.limits import Limits, limited

THIRD = Fraction(1, 3)
HALF = Fraction(1, 2)


def named(game: ExtensiveGame, solution: LemkeSolution, player: int) -> dict[str, tuple]:
    return {game.infosets[h].name: b for h, b in solution.behaviour[player].items()}


def test_kuhn_poker_is_worth_minus_one_eighteenth() -> None:
    game = kuhn_poker()
    solution = solve_lemke(game)
    assert solution.payoffs == (Fraction(-1, 18), Fraction(1, 18))
    assert solution.best_responses == solution.payoffs
    # Kuhn 1950: player 2's strategy is unique, so it is the one the LP finds (its own tests
    # hold it to Kuhn's); player 1's is in the family of alpha
    assert solution.behaviour[1] == solve_zero_sum(game).behaviour[1]
    one = named(game, solution, 0)
    alpha = one["J"][1]
    assert 0 <= alpha <= THIRD
    assert one["K"][1] == 3 * alpha
    assert one["Q, check, bet"] == (1 - alpha - THIRD, alpha + THIRD)


def test_kuhn_poker_from_other_starts_is_worth_the_same() -> None:
    game = kuhn_poker()
    for start in ({h: 1 for h in range(len(game.infosets))}, {0: 1, 3: 1}):
        assert solve_lemke(game, start).payoffs == (Fraction(-1, 18), Fraction(1, 18))


def card_game(meeting_costs: int = 0) -> ExtensiveGame:
    """Myerson's card game: a red or black card (1/2 each), seen by player 1, who raises or
    folds; after a raise player 2 meets or passes. A fold pays player 1 +1 with red, -1 with
    black; a pass +1; a met raise +2 with red, -2 with black. Player 2 pays the opposite, and
    ``meeting_costs`` more when meeting."""
    builder = Builder(["1", "2"])
    builder.chance([("red", HALF), ("black", HALF)])
    for sign in (1, -1):
        builder.decision(0, sign, ["raise", "fold"], infoset_name="red" if sign > 0 else "black")
        builder.decision(1, "raised", ["meet", "pass"], infoset_name="raised")
        builder.terminal([2 * sign, -2 * sign - meeting_costs])
        builder.terminal([1, -1])
        builder.terminal([sign, -sign])
    return builder.build()


def test_myersons_card_game_is_worth_one_third() -> None:
    # by hand: player 1 raises red; raises black with 1/3 (making player 2 indifferent);
    # player 2 meets with 2/3 (making a black raise as good as a fold): value q/2 = 1/3
    game = card_game()
    solution = solve_lemke(game)
    assert solution.payoffs == (THIRD, -THIRD)
    assert named(game, solution, 0) == {"red": (1, 0), "black": (THIRD, 1 - THIRD)}
    assert named(game, solution, 1) == {"raised": (1 - THIRD, THIRD)}


@pytest.mark.parametrize("start", [{}, {0: 1}, {1: 1}, {2: 1}, {0: 1, 1: 1, 2: 1}])
def test_a_general_sum_signalling_game_by_hand(start: dict[int, int]) -> None:
    # Myerson's game where meeting costs player 2 one more. A red raise pays 1 + q against
    # a meeting probability q, a fold 1: raise red (at q = 0 too: with red folded, black
    # raises and player 2 passes). Meeting pays player 2 (1/2)(-3) + (r/2)(1) against a black
    # raise probability r, passing (1/2 + r/2)(-1): meeting is worse unless r = 1, so q > 0
    # needs r = 1, and a black raise (1 - 3q against -1 folded) needs q <= 2/3; q = 0 gives
    # r = 1 too. The equilibria: both raise, q in [0, 2/3]; payoffs (1 - q, -1).
    game = card_game(meeting_costs=1)
    solution = solve_lemke(game, start)
    assert named(game, solution, 0) == {"red": (1, 0), "black": (1, 0)}
    meet = solution.behaviour[1][1][0]
    assert 0 <= meet <= 2 * THIRD
    assert solution.payoffs == (1 - meet, -1)
    assert solution.best_responses == solution.payoffs


def simultaneous(one: list[list[int]], two: list[list[int]]) -> ExtensiveGame:
    """A 2x2 bimatrix game ``(one, two)`` played simultaneously."""
    return simultaneous_game([[(one[i][j], two[i][j]) for j in range(2)] for i in range(2)])


def test_an_inspection_game_has_its_one_mixed_equilibrium() -> None:
    # a worker works (1 either way) or shirks (0 if inspected, 2 if not); the boss gets 1
    # inspecting, 2 not inspecting a worker, 0 not inspecting a shirker. The worker is
    # indifferent when the boss inspects with 1/2, the boss when the worker shirks with
    # 1/2: (1 - s) 2 = 1. Payoffs (1, 1), from every start.
    game = simultaneous([[1, 1], [0, 2]], [[1, 2], [1, 0]])
    for start in ({}, {0: 1}, {1: 1}, {0: 1, 1: 1}):
        solution = solve_lemke(game, start)
        assert solution.behaviour == ({0: (HALF, HALF)}, {1: (HALF, HALF)})
        assert solution.payoffs == (1, 1)


def test_different_starts_find_different_equilibria() -> None:
    # the battle of the sexes: each pure equilibrium is strict, so a path started at it
    # ends there at once (every best reply to the prior is the prior itself)
    game = simultaneous([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    first = solve_lemke(game)
    second = solve_lemke(game, {0: 1, 1: 1})
    assert first.behaviour == ({0: (1, 0)}, {1: (1, 0)})
    assert first.payoffs == (2, 1)
    assert second.behaviour == ({0: (0, 1)}, {1: (0, 1)})
    assert second.payoffs == (1, 2)
    assert first.start == ((1, 0), (1, 0)) and second.start == ((0, 1), (0, 1))


def selten_entry_game() -> ExtensiveGame:
    """Selten's entry game: the entrant stays out (0, 2) or enters; the incumbent then
    fights (-1, -1) or accommodates (1, 1)."""
    builder = Builder(["entrant", "incumbent"])
    builder.decision(0, "enter?", ["out", "in"])
    builder.terminal([0, 2])
    builder.decision(1, "entered", ["fight", "accommodate"])
    builder.terminal([-1, -1])
    builder.terminal([1, 1])
    return builder.build()


def test_a_mixed_prior_gives_the_perfect_equilibrium() -> None:
    # the Nash equilibria: (in, accommodate), and out with fighting at least 1/2, which
    # relies on the weakly dominated fight; only (in, accommodate) is perfect. The pure
    # prior (out, fight) is itself an equilibrium, so its path ends there at once; a
    # completely mixed prior in general position ends at a perfect equilibrium (von
    # Stengel, van den Elzen and Talman 2002)
    game = selten_entry_game()
    imperfect = solve_lemke(game)
    assert imperfect.behaviour == ({0: (1, 0)}, {1: (1, 0)})
    assert imperfect.payoffs == (0, 2)
    for prior in (
        {0: [Fraction(2, 3), THIRD], 1: [Fraction(2, 3), THIRD]},
        {0: [THIRD, 1 - THIRD], 1: [Fraction(3, 4), Fraction(1, 4)]},
    ):
        perfect = solve_lemke(game, prior)
        assert perfect.behaviour == ({0: (0, 1)}, {1: (0, 1)})
        assert perfect.payoffs == (1, 1)
        assert perfect.start == (tuple(prior[0]), tuple(prior[1]))


def test_a_game_of_ties_does_not_cycle() -> None:
    # every payoff 0: every profile is an equilibrium, every ratio test ties
    builder = Builder(["1", "2"])
    builder.chance([("a", THIRD), ("b", 1 - THIRD)])
    for _ in range(2):
        builder.decision(0, "blind", ["L", "M", "R"])
        for first in ("L", "M", "R"):
            builder.decision(1, "x", ["l", "r"])
            builder.terminal([0, 0])
            builder.decision(0, ("later", first), ["u", "d"])
            builder.terminal([0, 0])
            builder.terminal([0, 0])
    game = builder.build()
    for start in ({}, {0: 2}, {h: 1 for h in range(len(game.infosets))}):
        # a cycle would run into the cap; the path is a handful of pivots
        solution = solve_lemke(game, start, max_pivots=50)
        assert solution.payoffs == (0, 0)


def test_a_degenerate_game_with_duplicated_columns() -> None:
    # player 2's two actions pay everybody the same: a tie at every best reply
    game = simultaneous([[3, 3], [1, 1]], [[1, 1], [2, 2]])
    for start in ({}, {1: 1}, {0: 1, 1: 1}):
        solution = solve_lemke(game, start)
        assert solution.behaviour[0] == {0: (1, 0)}
        assert solution.payoffs == (3, 1)


@st.composite
def general_sum_games(draw: st.DrawFn) -> ExtensiveGame:
    """Random general-sum games of depth 3 or 4: chance, player 1 (who may not see chance),
    player 2 (who may not see player 1), sometimes player 1 again; small payoff ranges, so
    ties (degeneracy) are common."""
    builder = Builder(["1", "2"])
    low, high = draw(st.sampled_from([(0, 1), (-1, 1), (-4, 4)]))
    payoffs = st.lists(st.integers(low, high), min_size=2, max_size=2)
    hide = draw(st.booleans())
    three = draw(st.booleans())
    builder.chance([("a", THIRD), ("b", 1 - THIRD)])
    for deal in ("a", "b"):
        seen = deal if draw(st.booleans()) else "blind"
        moves = ["L", "M", "R"] if three else ["L", "R"]
        builder.decision(0, seen, moves)
        for first in moves:
            builder.decision(1, "x" if hide else first, ["l", "r"])
            for second in ("l", "r"):
                if draw(st.integers(0, 2)) == 0:
                    builder.decision(0, (seen, first, second), ["u", "d"])
                    builder.terminal(draw(payoffs))
                    builder.terminal(draw(payoffs))
                else:
                    builder.terminal(draw(payoffs))
    return builder.build()


def canonical_mix(game: ExtensiveGame, solution: LemkeSolution, player: int) -> np.ndarray:
    """The mixed strategy over reduced strategies that plays the behaviour strategy: each
    reduced strategy's probability is the product of its actions' probabilities."""
    strategic = reduced_strategic_form(game)
    form = strategic.form
    action_of = {}
    for h in form.infosets(player):
        for a in range(len(game.infosets[h].actions)):
            action_of[form.first[h] + a] = (h, a)
    mix = []
    for sequences in strategic.strategies[player]:
        probability = Fraction(1)
        for s in sequences[1:]:
            h, a = action_of[s]
            probability *= solution.behaviour[player][h][a]
        mix.append(probability)
    return np.array(mix, dtype=object)


@settings(max_examples=30, deadline=None)
@given(general_sum_games(), st.integers(0, 2**16))
def test_random_games_agree_with_the_reduced_strategic_form(game: ExtensiveGame, seed: int) -> None:
    chooser = random.Random(seed)
    start = {h: chooser.randrange(len(s.actions)) for h, s in enumerate(game.infosets)}
    for prior in (None, start):
        solution = solve_lemke(game, prior)
        assert solution.best_responses == solution.payoffs
        # the same equilibrium in the strategic form: no pure strategy gains against it
        matrix = reduced_strategic_form(game).game
        x, y = canonical_mix(game, solution, 0), canonical_mix(game, solution, 1)
        assert sum(x) == sum(y) == 1
        rows = matrix.row_payoffs.dot(y)
        columns = x.dot(matrix.col_payoffs)
        assert x.dot(rows) == solution.payoffs[0] == max(rows)
        assert columns.dot(y) == solution.payoffs[1] == max(columns)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 3).flatmap(
        lambda m: st.integers(2, 3).flatmap(
            lambda n: st.lists(
                st.lists(
                    st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=n, max_size=n
                ),
                min_size=m,
                max_size=m,
            )
        )
    ),
    st.integers(0, 8),
)
def test_random_bimatrix_games_end_at_an_extreme_equilibrium(
    cells: list[list[tuple[int, int]]], pick: int
) -> None:
    # the game played simultaneously: its reduced strategic form is the bimatrix itself,
    # and a nondegenerate bimatrix game's equilibria are finitely many, all extreme
    game = simultaneous_game(cells)
    found = strategic_form_equilibria(game)
    rows, columns = len(cells), len(cells[0])
    solution = solve_lemke(game, {0: pick % rows, 1: pick % columns})
    if not found.matrix_equilibria.degenerate:
        pairs = {(e.behaviour[0][0], e.behaviour[1][1]) for e in found.equilibria}
        assert (solution.behaviour[0][0], solution.behaviour[1][1]) in pairs
    else:
        assert solution.best_responses == solution.payoffs


def simultaneous_game(cells: list[list[tuple[int, int]]]) -> ExtensiveGame:
    """A bimatrix game in extensive form: player 2 does not see player 1's move."""
    builder = Builder(["1", "2"])
    builder.decision(0, "1", [f"r{i}" for i in range(len(cells))])
    for row in cells:
        builder.decision(1, "2", [f"c{j}" for j in range(len(row))])
        for paid in row:
            builder.terminal(list(paid))
    return builder.build()


def large_game(seed: int, depth: int) -> ExtensiveGame:
    """A random general-sum game with 2^(depth + 1) - 1 nodes whose information sets merge
    nodes by a random signal (perfect recall kept: a set's key holds its player's past)."""
    chooser = random.Random(seed)
    builder = Builder(["1", "2"])

    def node(left: int, past: tuple[tuple, tuple]) -> None:
        if left == 0:
            builder.terminal([chooser.randint(-9, 9), chooser.randint(-9, 9)])
            return
        player = chooser.randrange(2)
        key = (past[player], chooser.randrange(2))
        builder.decision(player, key, ["a", "b"])
        for action in ("a", "b"):
            grown = past[player] + ((key, action),)
            node(left - 1, (grown, past[1]) if player == 0 else (past[0], grown))

    node(depth, ((), ()))
    return builder.build()


def test_the_deadline_stops_a_long_path() -> None:
    game = large_game(11, 11)  # 4095 nodes, 2428 sequences: about 20 s to the end
    began = time.monotonic()
    with limited(Limits(time_limit=0.05)), pytest.raises(TimeLimitError):
        solve_lemke(game)
    assert time.monotonic() - began < 0.5


def test_the_pivot_cap_is_a_clear_error() -> None:
    with pytest.raises(LimitExceededError, match="2 pivots") as caught:
        solve_lemke(kuhn_poker(), max_pivots=2)
    assert caught.value.errors[0].parameter == "max_pivots"
    with pytest.raises(InvalidInputError) as refused:
        solve_lemke(kuhn_poker(), max_pivots=0)
    assert refused.value.errors[0].parameter == "max_pivots"


@pytest.mark.parametrize(
    "start, message",
    [
        ({99: 0}, "information set 99"),
        ({0: 2}, "action 2"),
        ({0: -1}, "action -1"),
        ({0: [HALF, HALF, 0]}, "2 exact probabilities"),
        ({0: [Fraction(3, 2), -HALF]}, "add up to 1"),
        ({0: [HALF, THIRD]}, "add up to 1"),
        ({0: [0.5, 0.5]}, "exact"),
        ({0: "ab"}, "probabilities"),
    ],
)
def test_a_bad_start_names_the_parameter(start: dict[int, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as caught:
        solve_lemke(kuhn_poker(), start)  # type: ignore[arg-type]
    assert caught.value.errors[0].parameter == "start"


def test_three_players_are_refused() -> None:
    builder = Builder(["1", "2", "3"])
    builder.decision(0, "a", ["L", "R"])
    builder.terminal([1, 0, 0])
    builder.terminal([0, 1, 0])
    with pytest.raises(InvalidInputError, match="two players"):
        solve_lemke(builder.build())
