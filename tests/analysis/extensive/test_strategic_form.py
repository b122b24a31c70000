"""The reduced strategic form against counts, cells and equilibria known by hand.

Kuhn poker's reduced strategic form is 27 x 64 (each card of player 1: check and fold, check
and call, or bet; each card of player 2: four replies) and its value is -1/18 (Kuhn 1950),
found here by the matrix solver's zero-sum LP on the form, a method independent of the
sequence form's. An entry game and a signalling game are solved by hand.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.equilibria.zero_sum import zero_sum_solution
from analysis.extensive.lemke import solve_lemke
from analysis.extensive.strategic_form import (
    reduced_strategic_form,
    reduced_strategy_counts,
    strategic_form_equilibria,
)
from games.errors import LimitExceededError
from games.extensive.model import Builder, ExtensiveGame
from games.extensive.poker import kuhn_poker
from games.matrices.model import zero_sum_game
from tests.analysis.extensive.test_lemke import card_game

HALF = Fraction(1, 2)
THIRD = Fraction(1, 3)


def test_kuhn_poker_has_27_by_64_reduced_strategies() -> None:
    game = kuhn_poker()
    assert reduced_strategy_counts(game) == (27, 64)
    strategic = reduced_strategic_form(game)
    assert strategic.game.shape == (27, 64)
    labels = strategic.game.labels
    # betting every card cuts off each check-bet set; 3^3 = 27 labels, all different
    assert "bet,*,bet,*,bet,*" in labels[0]
    assert len(set(labels[0])) == 27 and len(set(labels[1])) == 64


def test_kuhn_poker_cells_and_value() -> None:
    strategic = reduced_strategic_form(kuhn_poker())
    labels = strategic.game.labels
    # player 1 bets every card, player 2 folds every card: player 1 wins the ante, 1
    always_bet = labels[0].index("bet,*,bet,*,bet,*")
    folds = next(
        j
        for j, label in enumerate(labels[1])
        if [a for a in label.split(",")[1::2]] == ["fold"] * 3
    )
    assert strategic.game.row_payoffs[always_bet, folds] == 1
    assert strategic.game.col_payoffs[always_bet, folds] == -1
    value = zero_sum_solution(zero_sum_game(strategic.game.row_payoffs), exact=True).value
    assert value == Fraction(-1, 18)


def entry_game() -> ExtensiveGame:
    """An entrant stays out (0 to it, 2 to the incumbent) or enters big or small; the
    incumbent sees the entry, not its size, and fights or accommodates."""
    builder = Builder(["entrant", "incumbent"])
    builder.decision(0, "enter?", ["out", "in"])
    builder.terminal([0, 2])
    builder.decision(0, "size", ["big", "small"])
    for fight, accommodate in (((-2, -1), (2, 0)), ((-1, 1), (1, 0))):
        builder.decision(1, "entered", ["fight", "accommodate"])
        builder.terminal(list(fight))
        builder.terminal(list(accommodate))
    return builder.build()


def test_an_entry_game_by_hand() -> None:
    # against fighting with probability q, big pays 2 - 4q, small 1 - 2q, out 0. The
    # incumbent fights a big entry at -1 against 0 and a small one at 1 against 0, so it is
    # indifferent when big and small are equally likely. Equilibria: (big, accommodate);
    # out with q >= 1/2; and at q = 1/2, where all three pay the entrant 0, out o, big and
    # small (1 - o)/2 each. The extreme ones: (big, accommodate), (out, q = 1/2), (out,
    # q = 1) and (big and small 1/2 each, q = 1/2), paying (2, 0), (0, 2), (0, 2), (0, 0).
    game = entry_game()
    found = strategic_form_equilibria(game)
    assert found.strategic_form.game.labels == (
        ("out,*", "in,big", "in,small"),
        ("fight", "accommodate"),
    )
    got = {(e.mixed, e.payoffs) for e in found.equilibria}
    one, zero = Fraction(1), Fraction(0)
    assert got == {
        (((zero, one, zero), (zero, one)), (2, 0)),
        (((one, zero, zero), (HALF, HALF)), (0, 2)),
        (((one, zero, zero), (one, zero)), (0, 2)),
        (((zero, HALF, HALF), (HALF, HALF)), (0, 0)),
    }
    # mapped back: staying out leaves the size set unreached, filled with the best size
    # against the incumbent's strategy (small against fighting, big against an even mix:
    # both pay 0, the first wins the tie)
    out_fight = next(e for e in found.equilibria if e.mixed[1] == (one, zero))
    assert out_fight.plans[0] == [1, 1, 0, 0, 0]
    assert out_fight.behaviour[0] == {0: (1, 0), 1: (0, 1)}


def test_lemke_on_the_entry_game_from_two_starts() -> None:
    # (in, big, accommodate) is a strict equilibrium, so the path from it ends there; the
    # default start (out, big, fight) ends in the out component, worth 0 to the entrant
    game = entry_game()
    strict = solve_lemke(game, {0: 1, 1: 0, 2: 1})
    assert strict.payoffs == (2, 0)
    assert strict.behaviour == ({0: (0, 1), 1: (1, 0)}, {2: (0, 1)})
    default = solve_lemke(game)
    assert default.payoffs[0] == 0
    fight = default.behaviour[1][2][0]
    assert fight >= HALF


def test_the_signalling_game_has_two_extreme_equilibria() -> None:
    # by hand (see test_lemke): both raise, player 2 meets with q in [0, 2/3]; payoffs
    # (1 - q, -1); the extreme ones are q = 0 and q = 2/3
    found = strategic_form_equilibria(card_game(meeting_costs=1))
    assert found.strategic_form.game.labels == (
        ("raise,raise", "raise,fold", "fold,raise", "fold,fold"),
        ("meet", "pass"),
    )
    assert {e.payoffs for e in found.equilibria} == {(1, -1), (THIRD, -1)}
    for equilibrium in found.equilibria:
        assert equilibrium.behaviour[0] == {0: (1, 0), 2: (1, 0)}
    assert {e.behaviour[1][1] for e in found.equilibria} == {(0, 1), (2 * THIRD, THIRD)}
    assert len(found.matrix_equilibria.components) == 1


def test_too_many_strategies_are_refused() -> None:
    with pytest.raises(LimitExceededError, match="27 reduced strategies") as caught:
        strategic_form_equilibria(kuhn_poker())
    assert caught.value.errors[0].parameter == "max_strategies"
    with pytest.raises(LimitExceededError, match="64 reduced strategies"):
        reduced_strategic_form(kuhn_poker(), max_strategies=50)


def test_a_deep_game_is_no_recursion_problem() -> None:
    # player 1 moves 1500 times with one action each, then player 2 picks a or b: one
    # reduced strategy for player 1, and player 2 picks a (2 against 1)
    builder = Builder(["1", "2"])
    for i in range(1500):
        builder.decision(0, i, ["go"])
    builder.decision(1, "last", ["a", "b"])
    builder.terminal([1, 2])
    builder.terminal([2, 1])
    game = builder.build()
    assert reduced_strategy_counts(game) == (1, 2)
    found = strategic_form_equilibria(game)
    assert [e.payoffs for e in found.equilibria] == [(1, 2)]
    assert solve_lemke(game).payoffs == (1, 2)
