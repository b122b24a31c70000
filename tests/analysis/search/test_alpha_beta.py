"""Alpha-beta with iterative deepening, the table and move ordering reaches minimax's answers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.search.alpha_beta import PROVEN, AlphaBeta
from analysis.search.budget import SearchBudget
from analysis.search.solve import solve_game
from tests.analysis.search.toy_games import CAPTURES, Subtraction, TicTacToe, positions

OPTIONS = [
    {"table": True, "ordering": True},
    {"table": True, "ordering": False},
    {"table": False, "ordering": True},
    {"table": False, "ordering": False},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_tic_tac_toe_is_a_draw(options: dict[str, bool]) -> None:
    game = TicTacToe()
    solution = solve_game(game, game.initial_state(), **options)
    assert solution.value == 0 and solution.complete
    assert solution.best_moves == tuple(range(9))
    assert solution.plies_to_end is None


def test_one_best_move_costs_less_than_all() -> None:
    game = TicTacToe()
    every = solve_game(game, game.initial_state())
    one = solve_game(game, game.initial_state(), all_best_moves=False)
    assert one.value == every.value == 0 and len(one.best_moves) == 1
    assert one.best_moves[0] in every.best_moves
    assert one.stats.nodes < every.stats.nodes * 3 // 4


@settings(max_examples=40, deadline=None)
@given(positions(), st.sampled_from(OPTIONS))
def test_one_best_move_is_a_best_move(state: str, options: dict[str, bool]) -> None:
    game = TicTacToe()
    expected = solve_game(game, state, algorithm="minimax")
    found = solve_game(game, state, all_best_moves=False, **options)
    assert found.value == expected.value
    assert len(found.best_moves) <= 1 and set(found.best_moves) <= set(expected.best_moves)


def test_the_table_and_ordering_save_work() -> None:
    game = TicTacToe()
    nodes = [solve_game(game, game.initial_state(), **o).stats.nodes for o in OPTIONS]
    assert nodes[0] < nodes[1] < nodes[3] and nodes[0] < nodes[2] < nodes[3]
    assert nodes[3] < 549_946 // 10  # pruning alone cuts the full tree tenfold


@pytest.mark.parametrize("pile", range(1, 21))
def test_subtraction_values_and_distances(pile: int) -> None:
    """The mover loses iff the pile is a multiple of 4; the winner takes ``pile % 4`` and wins
    in ``1 + 2 * (pile // 4)`` plies (then 3 after each 1); the loser lasts ``pile // 2`` plies
    whatever it takes, so every move is best for it."""
    game = Subtraction(pile)
    solution = solve_game(game, game.initial_state())
    assert solution.complete
    if pile % 4 == 0:
        assert solution.value == -1
        assert solution.best_moves == (1, 2, 3)
        assert solution.plies_to_end == pile // 2
    else:
        assert solution.value == 1
        assert solution.best_moves == (pile % 4,)
        assert solution.plies_to_end == 1 + 2 * (pile // 4)
    assert len(solution.principal_variation) == solution.plies_to_end


def test_the_fastest_win_is_preferred() -> None:
    """x to move in x x . / o o . / . . . wins at once at 2; 5 would block o and still win
    later (a fork), but later."""
    game = TicTacToe()
    solution = solve_game(game, "xx.oo....")
    assert solution.value == 1 and solution.best_moves == (2,) and solution.plies_to_end == 1


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from(OPTIONS))
def test_alpha_beta_agrees_with_minimax(state: str, options: dict[str, bool]) -> None:
    game = TicTacToe()
    expected = solve_game(game, state, algorithm="minimax")
    found = solve_game(game, state, **options)
    assert (found.value, found.best_moves, found.plies_to_end, found.complete) == (
        expected.value,
        expected.best_moves,
        expected.plies_to_end,
        expected.complete,
    )


@settings(max_examples=40, deadline=None)
@given(positions(), st.integers(1, 4))
def test_depth_limited_alpha_beta_agrees_with_minimax(state: str, depth: int) -> None:
    """Without the table (whose deeper entries may answer a shallower search) the values at
    a cutoff are minimax's exactly, whatever the ordering."""
    game = TicTacToe()
    expected = solve_game(game, state, algorithm="minimax", depth=depth)
    found = solve_game(game, state, depth=depth, table=False)
    assert (found.value, found.best_moves) == (expected.value, expected.best_moves)


@settings(max_examples=40, deadline=None)
@given(positions())
def test_best_moves_win_fastest_and_lose_slowest(state: str) -> None:
    """The best moves, worked out again from each child's own value and distance to the end."""
    game = TicTacToe()
    if game.is_terminal(state):
        return
    scored: list[tuple[Fraction, int, Any]] = []
    for move in game.actions(state):
        child = solve_game(game, game.result(state, move), algorithm="minimax")
        value = -child.value
        plies = 1 + (child.plies_to_end or 0)
        # a sooner win ranks higher, a sooner loss lower; draws rank alike
        rank = -plies if value > 0 else plies if value < 0 else 0
        scored.append((value, rank, move))
    best = max((v, r) for v, r, _ in scored)
    expected = tuple(m for v, r, m in scored if (v, r) == best)
    assert solve_game(game, state).best_moves == expected


def test_iteration_stats_add_up() -> None:
    game = TicTacToe()
    solution = solve_game(game, game.initial_state(), depth=9)
    iterations = solution.iterations
    assert [i.depth for i in iterations] == list(range(1, 10))
    assert solution.depth_completed == 9 and solution.complete
    assert solution.stats.nodes == sum(i.nodes for i in iterations)
    assert solution.stats.table_hits == sum(i.table_hits for i in iterations)
    assert solution.stats.cutoffs == sum(i.cutoffs for i in iterations)
    assert solution.stats.seconds == pytest.approx(sum(i.seconds for i in iterations))
    assert iterations[0].effective_branching is None
    for before, after in zip(iterations, iterations[1:], strict=False):
        assert after.effective_branching == after.nodes / before.nodes
    assert iterations[0].nodes == 10  # the root and its nine moves, evaluated


def test_deepening_stops_when_the_search_is_complete() -> None:
    """A pile of 3 is over within 3 plies: the fourth iteration is never run."""
    game = Subtraction(3)
    solution = solve_game(game, game.initial_state(), depth=8)
    assert solution.complete and [i.depth for i in solution.iterations] == [1, 2, 3]
    assert solution.stats.evaluations == 3  # the first iteration's two (2 and 1 left), then 1


def test_proven_entries_serve_every_depth() -> None:
    game = Subtraction(12)
    search = AlphaBeta(
        game,
        None,
        table=True,
        ordering=True,
        quiescence_plies=0,
        budget=SearchBudget(None),
    )
    score, moves, complete = search.root(game.initial_state(), 400, None)
    assert complete and all(entry[0] == PROVEN for entry in search.table.values())
    # every (pile, mover) but (12, 1) and (11, 0), which no line reaches: 24 - 2 states
    assert len(search.table) == 22
    settled = AlphaBeta(
        game, None, table=True, ordering=True, quiescence_plies=0, budget=SearchBudget(None)
    )
    settled.table = search.table
    assert settled.root(game.initial_state(), 2, None) == (score, moves, True)
    assert settled.nodes == 1 + 3  # the root, and its three moves settled by the table
    assert settled.table_hits == 3


def test_quiescence_sees_a_pending_recapture() -> None:
    plain = solve_game(CAPTURES, "root", depth=1)
    quiet = solve_game(CAPTURES, "root", depth=1, quiescence=True)
    assert (plain.value, plain.best_moves) == (Fraction(1, 2), ("grab",))
    assert (quiet.value, quiet.best_moves) == (Fraction(1, 10), ("quiet",))
    assert quiet.stats.nodes == plain.stats.nodes + 1  # the recapture, and nothing else


@pytest.mark.parametrize("state", ["Q", "R", "G"])
def test_quiescence_leaves_quiet_positions_alone(state: str) -> None:
    """No capture is pending one ply from these: the value does not change."""
    plain = solve_game(CAPTURES, state, depth=1)
    quiet = solve_game(CAPTURES, state, depth=1, quiescence=True)
    assert plain.value == quiet.value and plain.best_moves == quiet.best_moves
