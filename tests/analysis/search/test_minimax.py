"""Plain minimax counts the whole tree: tic-tac-toe's published sizes and a counted recurrence."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.search.minimax import minimax_solution
from analysis.search.solve import solve_game
from tests.analysis.search.toy_games import Subtraction, TicTacToe


@pytest.mark.slow
def test_the_full_tic_tac_toe_tree() -> None:
    """549,946 states with the root and 255,168 finished games (Bottomley's census)."""
    game = TicTacToe()
    solution = solve_game(game, game.initial_state(), algorithm="minimax")
    assert solution.value == 0 and solution.complete
    assert solution.stats.nodes == 549_946
    assert solution.stats.terminals == 255_168
    assert solution.depth_completed == 9
    assert solution.best_moves == tuple(range(9))  # every first move draws
    assert len(solution.principal_variation) == 9


def tree_size(pile: int) -> tuple[int, int]:
    """(states, finished games) of the subtraction game's tree: counted by its recurrence."""
    states, games = [1], [1]
    for n in range(1, pile + 1):
        takes = range(1, min(3, n) + 1)
        states.append(1 + sum(states[n - t] for t in takes))
        games.append(sum(games[n - t] for t in takes))
    return states[pile], games[pile]


@pytest.mark.parametrize("pile", [1, 2, 4, 7, 10, 12])
def test_subtraction_tree_sizes_and_values(pile: int) -> None:
    game = Subtraction(pile)
    solution = minimax_solution(game, game.initial_state(), depth=None, evaluation=None)
    assert (solution.stats.nodes, solution.stats.terminals) == tree_size(pile)
    assert solution.value == (-1 if pile % 4 == 0 else 1)
    assert solution.depth_completed == pile  # the longest game takes one counter a ply


def test_a_depth_cutoff_reads_the_evaluation() -> None:
    """Two plies of tic-tac-toe from the empty board: 1 + 9 + 72 states, 72 evaluations."""
    game = TicTacToe()
    solution = solve_game(game, game.initial_state(), algorithm="minimax", depth=2)
    assert solution.stats.nodes == 82 and solution.stats.evaluations == 72
    assert not solution.complete
    # AIMA's open lines, x to move: after x in the centre and o in a corner x has 5 lines
    # without an o, o has 4 without an x: 1/10; after o on an edge 6 - 4: o takes a corner.
    # After x in a corner o takes the centre: 4 - 5 < 0; so the centre, worth 1/10
    assert solution.value == Fraction(1, 10)
    assert solution.best_moves == (4,)
