"""A time budget returns the move of the deepest finished iteration, and keeps to the clock."""

from __future__ import annotations

import time

import pytest

from analysis.search.budget import BudgetSpent, SearchBudget
from analysis.search.solve import best_move, solve_game
from games.errors import TimeLimitError
from games.limits import Limits, limited
from tests.analysis.search.toy_games import DICE, Subtraction, TicTacToe


def test_a_budgeted_search_answers_from_its_deepest_finished_iteration() -> None:
    # no two lines meet, so the table cannot finish 60 counters' worth of tree in 0.3 s
    game = Subtraction(60, history=True)
    start = time.monotonic()
    solution = solve_game(game, game.initial_state(), time_limit=0.3)
    elapsed = time.monotonic() - start
    depths = [i.depth for i in solution.iterations]
    assert depths == list(range(1, len(depths) + 1))
    assert 2 <= solution.depth_completed == depths[-1] < 60
    assert not solution.complete and solution.best_moves[0] in (1, 2, 3)
    assert elapsed < 0.3 + 0.25


def test_best_move_returns_a_legal_move_and_its_depth() -> None:
    game = Subtraction(60, history=True)
    choice = best_move(game, game.initial_state(), 0.2)
    assert choice.move in (1, 2, 3)
    assert choice.depth_completed >= 1 and not choice.complete


def test_a_budget_that_suffices_solves_the_game() -> None:
    game = Subtraction(10)
    choice = best_move(game, game.initial_state(), 5.0)
    assert (choice.move, choice.value, choice.complete) == (2, 1, True)


def test_best_move_plays_tic_tac_toe_to_win() -> None:
    choice = best_move(TicTacToe(), "xx.oo....", 1.0)
    assert (choice.move, choice.value, choice.complete) == (2, 1, True)


def test_best_move_with_dice_uses_expectimax() -> None:
    choice = best_move(DICE, "root", 1.0)
    assert (choice.move, choice.depth_completed, choice.complete) == ("gamble", 3, True)


def test_the_request_deadline_bounds_the_budget() -> None:
    """Asked for 10 s inside a request of 0.4 s, the search stops in time and still answers."""
    game = Subtraction(60, history=True)
    start = time.monotonic()
    with limited(Limits(time_limit=0.4)):
        choice = best_move(game, game.initial_state(), 10.0)
    assert time.monotonic() - start < 0.6  # the request (0.4 s) did not stop it: no 413
    assert choice.move in (1, 2, 3)


def test_the_budget_is_off_until_armed() -> None:
    budget = SearchBudget(0.0)
    budget.spend(1)  # the first iteration always runs
    budget.armed = True
    with pytest.raises(BudgetSpent):
        budget.spend(1)


def test_a_search_past_the_request_deadline_is_stopped() -> None:
    """Without a time limit of its own, a search runs under the request's deadline (a 413)."""
    game = Subtraction(60, history=True)
    start = time.monotonic()
    with limited(Limits(time_limit=0.2)), pytest.raises(TimeLimitError):
        solve_game(game, game.initial_state(), depth=40)
    assert time.monotonic() - start < 0.2 + 0.15  # the clock is read every 512 nodes
