"""Expectiminimax on a dice game derived by hand, and on tic-tac-toe (no chance: minimax)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings

from analysis.search.expectimax import expectimax_solution
from analysis.search.scores import MAX_PLY
from analysis.search.solve import solve_game
from games.errors import LimitExceededError
from tests.analysis.search.toy_games import CYCLE, DICE, TicTacToe, positions


def test_the_dice_game_by_hand() -> None:
    """The gamble: 1/6 a loss, 1/3 a draw (player 1 holds), 1/2 a win: 1/3 > 0 (safe)."""
    solution = solve_game(DICE, "root", algorithm="expectimax")
    assert solution.value == Fraction(1, 3) and solution.complete
    assert solution.best_moves == ("gamble",) and solution.principal_variation == ("gamble",)
    assert solution.depth_completed == 3


@pytest.mark.parametrize(
    ("depth", "value", "complete"),
    [
        (1, Fraction(1, 10), False),  # the roll evaluates to 1/10, the safe draw to 0
        (2, Fraction(-1, 6) + Fraction(1, 3) * Fraction(1, 10) + Fraction(1, 2), False),
        (3, Fraction(1, 3), True),
    ],
)
def test_depth_cutoffs_count_chance_levels(depth: int, value: Fraction, complete: bool) -> None:
    solution = solve_game(DICE, "root", algorithm="expectimax", depth=depth)
    assert (solution.value, solution.complete) == (value, complete)


def test_other_roots() -> None:
    """Player 1 at ``pick`` holds (a draw, not a loss); a chance root has no best move."""
    pick = solve_game(DICE, "pick", algorithm="expectimax")
    assert (pick.value, pick.best_moves) == (0, ("hold",))
    roll = solve_game(DICE, "roll", algorithm="expectimax")
    assert (roll.value, roll.best_moves, roll.principal_variation) == (Fraction(1, 3), (), ())


def test_deepening_under_a_time_limit() -> None:
    solution = expectimax_solution(
        DICE, "root", depth=None, time_limit=1.0, evaluation=DICE.worth, table=True
    )
    assert [i.depth for i in solution.iterations] == [1, 2, 3] and solution.complete
    assert solution.stats.nodes == sum(i.nodes for i in solution.iterations)


def test_a_cycle_searched_to_the_end_is_refused() -> None:
    with pytest.raises(LimitExceededError) as caught:
        solve_game(CYCLE, "A", algorithm="expectimax")
    assert caught.value.errors[0].parameter == "depth"
    assert str(MAX_PLY) in caught.value.message


@settings(max_examples=30, deadline=None)
@given(positions())
def test_without_chance_expectimax_is_minimax(state: str) -> None:
    game = TicTacToe()
    expected = solve_game(game, state, algorithm="minimax")
    found = solve_game(game, state, algorithm="expectimax")
    assert found.value == expected.value and found.complete
    # expectimax knows no distances: its best moves include minimax's
    assert set(expected.best_moves) <= set(found.best_moves)
