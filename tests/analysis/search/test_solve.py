"""The entry point: options checked and named, finished games, the result's shape."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from analysis.search.results import GameSolution, MctsSolution, MoveChoice, SearchTotals
from analysis.search.scores import from_table, game_value, plies_to_end, terminal_score, to_table
from analysis.search.solve import ALGORITHMS, best_move, solve_game
from games.errors import InvalidInputError
from tests.analysis.search.toy_games import CYCLE, DICE, TicTacToe

TTT = TicTacToe()


@pytest.mark.parametrize(
    ("game", "options", "parameter"),
    [
        (TTT, {"algorithm": "negascout"}, "algorithm"),
        (TTT, {"depth": 0}, "depth"),
        (TTT, {"time_limit": 0}, "time_limit"),
        (TTT, {"depth": 2, "evaluation": "material"}, "evaluation"),
        (TTT, {"evaluation": "open_lines"}, "evaluation"),  # no cutoff to read it at
        (TTT, {"quiescence": True}, "quiescence"),  # no cutoff to extend
        (TTT, {"algorithm": "minimax", "depth": 2, "quiescence": True}, "quiescence"),
        (TTT, {"algorithm": "minimax", "time_limit": 1.0}, "time_limit"),
        (TTT, {"algorithm": "minimax", "table": False}, "table"),
        (TTT, {"algorithm": "expectimax", "ordering": False}, "ordering"),
        (TTT, {"algorithm": "value_iteration", "depth": 3}, "depth"),
        (TTT, {"tolerance": Fraction(1, 100)}, "tolerance"),
        (TTT, {"algorithm": "minimax", "all_best_moves": False}, "all_best_moves"),
        (TTT, {"algorithm": "value_iteration", "tolerance": Fraction(0)}, "tolerance"),
        (DICE, {"algorithm": "alphabeta"}, "algorithm"),
        (CYCLE, {"algorithm": "minimax"}, "algorithm"),
    ],
)
def test_refused_options_name_their_parameter(
    game: Any, options: dict[str, Any], parameter: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve_game(game, game.initial_state(), **options)
    assert caught.value.errors[0].parameter == parameter


def test_a_finished_game() -> None:
    """x has three in a row; o would move: a loss for o, already decided."""
    solution = solve_game(TTT, "xxxoo....")
    assert isinstance(solution, GameSolution)
    assert (solution.value, solution.complete, solution.best_moves) == (-1, True, ())
    assert solution.stats == SearchTotals(1, 0, 0, 0.0, 1, 0) and solution.plies_to_end == 0
    with pytest.raises(InvalidInputError) as caught:
        best_move(TTT, "xxxoo....", 1.0)
    assert caught.value.errors[0].parameter == "position"


def test_a_chance_state_has_no_move_to_choose() -> None:
    with pytest.raises(InvalidInputError) as caught:
        best_move(DICE, "roll", 1.0)
    assert caught.value.errors[0].parameter == "position"


def test_best_move_shape() -> None:
    choice = best_move(TTT, "xx.oo....", 1.0, depth=3)
    assert isinstance(choice, MoveChoice) and choice.move == 2 and choice.depth_completed == 3


def test_every_algorithm_is_dispatched() -> None:
    assert ALGORITHMS == ("auto", "alphabeta", "minimax", "expectimax", "value_iteration", "mcts")
    state = "xx.oo...."
    for algorithm in ALGORITHMS:
        budget = {"simulations": 200} if algorithm == "mcts" else {}
        solution = solve_game(TTT, state, algorithm=algorithm, **budget)
        ran = "alphabeta" if algorithm == "auto" else algorithm  # no chance: alpha-beta
        assert solution.algorithm == ran and solution.value == 1
        if isinstance(solution, MctsSolution):
            assert solution.move == 2
        else:
            assert solution.best_moves == (2,) or algorithm == "expectimax"


def test_auto_runs_what_suits_the_game() -> None:
    # DICE has chance and does not say whether its states repeat: value iteration, which
    # solves it either way (the gamble is worth 1/3 by hand); to a depth, expectimax
    solution = solve_game(DICE, DICE.initial_state())
    assert solution.algorithm == "value_iteration"
    assert abs(solution.value - Fraction(1, 3)) < Fraction(1, 10**6)
    assert solve_game(DICE, DICE.initial_state(), depth=3).algorithm == "expectimax"


def test_scores_order_wins_by_distance() -> None:
    win = 1
    sooner, later = terminal_score(Fraction(1), win, 3), terminal_score(Fraction(1), win, 5)
    losing_sooner = terminal_score(Fraction(-1), win, 3)
    losing_later = terminal_score(Fraction(-1), win, 5)
    assert sooner > later > Fraction(999, 1000) > Fraction(-999, 1000) > losing_later
    assert losing_later > losing_sooner
    assert game_value(later, win) == 1 and plies_to_end(later, win) == 5
    assert game_value(losing_sooner, win) == -1 and plies_to_end(losing_sooner, win) == 3
    # stored at ply 2 (3 plies before the end), read back at ply 4: now 5 plies from root
    assert plies_to_end(from_table(to_table(later, win, 2), win, 4), win) == 7
    assert terminal_score(Fraction(1, 2), win, 9) == Fraction(1, 2)
