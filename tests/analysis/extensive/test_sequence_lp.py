"""The sequence-form LP against values known by hand, by publication and by the normal form.

Kuhn poker's value -1/18 and its equilibria are Kuhn's (1950); Myerson's card game (Myerson
1991, section 2.1) is solved by hand below; random small games are checked against their
normal form (every pure behaviour strategy, solved exactly by the matrix solver), an
independent method.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria.zero_sum import zero_sum_solution
from analysis.extensive.policy import BehaviourProfile
from analysis.extensive.refinements import sequential_rationality
from analysis.extensive.sequence_form import sequence_form
from analysis.extensive.sequence_lp import solve_zero_sum
from games.errors import DomainError
from games.extensive.model import CHANCE, TERMINAL, Builder, ExtensiveGame
from games.extensive.poker import kuhn_poker, leduc_poker
from games.matrices.model import zero_sum_game

THIRD = Fraction(1, 3)
PURE = ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)))
"""The first action for sure, the second for sure."""


def choices(game: ExtensiveGame, player: int) -> dict[str, tuple[Fraction, ...]]:
    solution = solve_zero_sum(game)
    return {game.infosets[h].name: b for h, b in solution.behaviour[player].items()}


def test_kuhn_poker_is_worth_minus_one_eighteenth_to_the_first_player() -> None:
    solution = solve_zero_sum(kuhn_poker())
    assert solution.value == Fraction(-1, 18)
    assert solution.best_responses == (Fraction(-1, 18), Fraction(-1, 18))


def test_kuhn_poker_second_player_strategy_is_the_unique_one() -> None:
    # Kuhn 1950: player 2 bets a jack after a check 1/3 of the time, calls a bet with a queen
    # 1/3 of the time, never bets a queen after a check, folds a jack, always bets and calls a king
    two = choices(kuhn_poker(), 1)
    assert two == {
        "J, check": (1 - THIRD, THIRD),
        "Q, check": (1, 0),
        "K, check": (0, 1),
        "J, bet": (1, 0),
        "Q, bet": (1 - THIRD, THIRD),
        "K, bet": (0, 1),
    }


def test_kuhn_poker_first_player_strategy_is_in_kuhns_family() -> None:
    # bet a jack with alpha in [0, 1/3], a king with 3 alpha; never bet a queen; after
    # check-bet fold a jack, call a queen with alpha + 1/3, call a king
    one = choices(kuhn_poker(), 0)
    alpha = one["J"][1]
    assert 0 <= alpha <= THIRD
    assert one["K"][1] == 3 * alpha
    assert one["Q"] == PURE[0]
    assert one["J, check, bet"] == PURE[0]
    assert one["Q, check, bet"] == (1 - alpha - THIRD, alpha + THIRD)
    assert one["K, check, bet"] == PURE[1]


def myerson_card_game() -> ExtensiveGame:
    # a red or black card (1/2 each), seen by player 1 alone, who raises or folds; player 2,
    # after a raise, meets or passes; a fold pays player 1 +1 with red, -1 with black; a pass
    # +1; a met raise +2 with red, -2 with black
    builder = Builder(["1", "2"])
    builder.chance([("red", Fraction(1, 2)), ("black", Fraction(1, 2))])
    for sign in (1, -1):
        builder.decision(0, sign, ["raise", "fold"], infoset_name="red" if sign > 0 else "black")
        builder.decision(1, "raised", ["meet", "pass"], infoset_name="raised")
        builder.terminal([2 * sign, -2 * sign])
        builder.terminal([1, -1])
        builder.terminal([sign, -sign])
    return builder.build("Myerson's card game")


def test_myersons_card_game_by_hand() -> None:
    # raising red pays 2 or 1, folding it 1: player 1 raises red. Raising black with r and
    # player 2 meeting with q: meeting pays player 2 (1/2)(-2) + (r/2)(2) = r - 1, passing
    # (1/2 + r/2)(-1); indifference gives r = 1/3. Black raised pays -2q + (1 - q), folded -1:
    # q = 2/3. The value is (1/2)(2q + 1 - q) + (1/2)(-1) = q/2 = 1/3.
    game = myerson_card_game()
    solution = solve_zero_sum(game)
    assert solution.value == THIRD
    named = {game.infosets[h].name: b for h, b in solution.behaviour[0].items()}
    assert named == {"red": (1, 0), "black": (THIRD, 1 - THIRD)}
    assert list(solution.behaviour[1].values()) == [(2 * THIRD, THIRD)]


def test_matching_pennies_in_extensive_form() -> None:
    builder = Builder(["1", "2"])
    builder.decision(0, "a", ["H", "T"])
    for mine in (1, -1):
        builder.decision(1, "b", ["H", "T"])
        builder.terminal([mine, -mine])
        builder.terminal([-mine, mine])
    solution = solve_zero_sum(builder.build())
    assert solution.value == 0
    half = Fraction(1, 2)
    assert [*solution.behaviour[0].values(), *solution.behaviour[1].values()] == [(half, half)] * 2


def test_a_constant_sum_game_is_solved_for_the_first_player() -> None:
    # win probabilities: the payoffs add up to 1 everywhere; matching pennies shifted
    builder = Builder(["1", "2"])
    builder.decision(0, "a", ["H", "T"])
    for mine in (1, 0):
        builder.decision(1, "b", ["H", "T"])
        builder.terminal([mine, 1 - mine])
        builder.terminal([1 - mine, mine])
    assert solve_zero_sum(builder.build()).value == Fraction(1, 2)


def test_a_game_that_is_not_zero_sum_is_refused() -> None:
    builder = Builder(["1", "2"])
    builder.decision(0, "a", ["L", "R"])
    builder.terminal([1, 1])
    builder.terminal([0, 0])
    with pytest.raises(DomainError, match="not zero-sum"):
        solve_zero_sum(builder.build())


def test_leduc_holdem_is_solved_exactly() -> None:
    # OpenSpiel's float sequence-form LP gives the first player -0.0856064; the exact value is
    # certified by the two best replies meeting
    game = leduc_poker()
    solution = solve_zero_sum(game)
    assert abs(float(solution.value) + 0.0856064) < 5e-8
    assert solution.best_responses[0] == solution.best_responses[1] == solution.value
    assert solution.value.denominator > 10**20  # no small fraction would have done
    # an equilibrium plays optimally wherever it is reached; where only the opponent's
    # mistakes lead, the LP leaves play free, and there its answer is not always sensible
    rows: list[tuple[Fraction, ...]] = [()] * len(game.infosets)
    for behaviour in solution.behaviour:
        for h, probabilities in behaviour.items():
            rows[h] = probabilities
    check = sequential_rationality(game, BehaviourProfile(tuple(rows)))
    assert check.flagged and set(check.flagged) <= set(check.unreached)


def normal_form_value(game: ExtensiveGame) -> Fraction:
    """The value from the normal form: every pure behaviour strategy of each player, the
    exact expected payoff of each pair, and the exact matrix-game solver."""
    form = sequence_form(game)
    pures = []
    for player in (0, 1):
        sets = form.infosets(player)
        sizes = [len(game.infosets[h].actions) for h in sets]
        pures.append(
            [
                form.plan(
                    player,
                    {
                        h: [Fraction(int(a == c)) for a in range(n)]
                        for h, c, n in zip(sets, pick, sizes, strict=True)
                    },
                )
                for pick in itertools.product(*(range(n) for n in sizes))
            ]
        )
    matrix = [[form.payoff(x, y)[0] for y in pures[1]] for x in pures[0]]
    value = zero_sum_solution(zero_sum_game(matrix), exact=True).value
    assert isinstance(value, (int, Fraction))
    return Fraction(value)


@st.composite
def small_games(draw: st.DrawFn) -> ExtensiveGame:
    """Random zero-sum games of depth 3 or 4: chance, then moves whose information sets
    hide some of what came before (player 2 never sees player 1's first move when told)."""
    builder = Builder(["1", "2"])
    hide = draw(st.booleans())
    payoffs = st.integers(-3, 3)
    builder.chance([("a", Fraction(1, 3)), ("b", Fraction(2, 3))])
    for deal in ("a", "b"):
        builder.decision(0, deal if draw(st.booleans()) else "blind", ["L", "R"])
        for first in ("L", "R"):
            builder.decision(1, "x" if hide else first, ["l", "r"])
            for second in ("l", "r"):
                if draw(st.booleans()):
                    builder.decision(0, (deal, first, second), ["u", "d"])
                    for _ in range(2):
                        paid = draw(payoffs)
                        builder.terminal([paid, -paid])
                else:
                    paid = draw(payoffs)
                    builder.terminal([paid, -paid])
    return builder.build()


@settings(max_examples=40, deadline=None)
@given(small_games())
def test_the_value_agrees_with_the_normal_form(game: ExtensiveGame) -> None:
    solution = solve_zero_sum(game)
    assert solution.value == normal_form_value(game)
    # the behaviour strategies are probability vectors at every set of each player
    for player in (0, 1):
        assert set(solution.behaviour[player]) == set(game.player_infosets(player))
        assert all(sum(b) == 1 and min(b) >= 0 for b in solution.behaviour[player].values())
    assert all(n.player in (CHANCE, TERMINAL, 0, 1) for n in game.nodes)
