"""The compiled search (analysis/search/_grid.pyx) against the Python engine it mirrors.

With an evaluation (every depth-limited search) the compiled search is the Python engine move
for move: the same value, best moves, line and counts per iteration (nodes, table hits,
cutoffs), on random positions of tic-tac-toe and connect four of several sizes and k. A solve
to the end of connect four takes shortcuts (a win at once, forced blocks, no stone under a
threat) that enter fewer states, but the answer is the game's: the same value, best moves and
distance to the end. Tic-tac-toe never takes them, so its counts stay the Python engine's.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analysis.search.grid as grid
from analysis.search.alpha_beta import alpha_beta_solution
from analysis.search.results import GameSolution
from analysis.search.solve import best_move, solve_game
from games.errors import TimeLimitError
from games.limits import Limits, limited
from games.rules.catalogue import make_game
from games.rules.game import Game

GAMES = [
    ("tic_tac_toe", {}),
    ("tic_tac_toe", {"rows": 4, "columns": 4, "k": 3}),
    ("tic_tac_toe", {"rows": 3, "columns": 5, "k": 4}),
    ("connect_four", {"columns": 4, "rows": 4}),
    ("connect_four", {"columns": 5, "rows": 4}),
    ("connect_four", {"columns": 7, "rows": 6}),
    ("connect_four", {"columns": 4, "rows": 5, "k": 3}),
    ("connect_four", {"columns": 3, "rows": 3, "k": 2}),
    ("connect_four", {"columns": 6, "rows": 5, "k": 5}),
]


def position(game: Game[Any, Any], choices: list[int]) -> Any:
    state = game.initial_state()
    for choice in choices:
        if game.is_terminal(state):
            break
        moves = game.actions(state)
        state = game.result(state, moves[choice % len(moves)])
    return state


def both(game: Game[Any, Any], state: Any, **options: Any) -> tuple[GameSolution, GameSolution]:
    settings = {"time_limit": None, "quiescence_plies": 0, **options}
    compiled = alpha_beta_solution(game, state, compiled=True, **settings)
    python = alpha_beta_solution(game, state, compiled=False, **settings)
    return compiled, python


def answer(solution: GameSolution) -> tuple[Any, ...]:
    return (solution.value, solution.complete, solution.best_moves, solution.plies_to_end)


def work(solution: GameSolution) -> tuple[Any, ...]:
    return (
        solution.depth_completed,
        solution.principal_variation,
        [(i.depth, i.nodes, i.table_hits, i.cutoffs) for i in solution.iterations],
        solution.stats.terminals,
        solution.stats.evaluations,
    )


COMPILED_ONLY = pytest.mark.skipif(
    os.environ.get("ARBITER_PURE_PYTHON") == "1",
    reason="the compiled search at work: with the pure-Python engine asked for, these games "
    "take it minutes and gigabytes (and a comparison with it would compare it with itself)",
)


def test_the_set_up_built_the_compiled_search() -> None:
    # the README set-up compiles it; a silent fallback would hide a broken build
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python engine was asked for")
    assert grid.COMPILED


@COMPILED_ONLY
@settings(max_examples=150, deadline=None)
@given(
    game_index=st.integers(min_value=0, max_value=len(GAMES) - 1),
    choices=st.lists(st.integers(min_value=0, max_value=63), max_size=14),
    depth=st.integers(min_value=1, max_value=5),
    evaluation_index=st.integers(min_value=0, max_value=1),
    table=st.booleans(),
    ordering=st.booleans(),
    all_best_moves=st.booleans(),
)
def test_a_depth_limited_search_is_the_python_engine_move_for_move(
    game_index: int,
    choices: list[int],
    depth: int,
    evaluation_index: int,
    table: bool,
    ordering: bool,
    all_best_moves: bool,
) -> None:
    name, params = GAMES[game_index]
    game = make_game(name, params)
    state = position(game, choices)
    if game.is_terminal(state):
        return
    evaluation = list(game.evaluations.values())[evaluation_index].function
    compiled, python = both(
        game,
        state,
        depth=depth,
        evaluation=evaluation,
        table=table,
        ordering=ordering,
        all_best_moves=all_best_moves,
    )
    assert answer(compiled) == answer(python)
    assert work(compiled) == work(python)


@COMPILED_ONLY
@settings(max_examples=60, deadline=None)
@given(
    game_index=st.sampled_from([0, 1, 3, 6, 7]),
    choices=st.lists(st.integers(min_value=0, max_value=63), min_size=3, max_size=12),
    table=st.booleans(),
    ordering=st.booleans(),
    all_best_moves=st.booleans(),
)
def test_a_solve_to_the_end_gives_the_python_engines_answer(
    game_index: int, choices: list[int], table: bool, ordering: bool, all_best_moves: bool
) -> None:
    name, params = GAMES[game_index]
    game = make_game(name, params)
    state = position(game, choices)
    if game.is_terminal(state):
        return
    compiled, python = both(
        game,
        state,
        depth=None,
        evaluation=None,
        table=table,
        ordering=ordering,
        all_best_moves=all_best_moves,
    )
    assert answer(compiled) == answer(python)
    if name == "tic_tac_toe":  # no shortcuts: the same search
        assert work(compiled) == work(python)


def test_tic_tac_toe_counts_are_the_python_engines() -> None:
    game = make_game("tic_tac_toe", {})
    solution = solve_game(game, game.initial_state())
    # the figures docs/games.md gives for the Python engine
    assert (solution.stats.nodes, solution.value) == (5_544, 0)
    assert solution.best_moves == tuple(range(9))


@COMPILED_ONLY
def test_connect_four_shortcuts_see_a_win_and_a_double_threat() -> None:
    game = make_game("connect_four", {"columns": 7, "rows": 6})
    # x holds columns 1-3 of the bottom row (o sits on them): x wins at once in column 4
    solution = solve_game(game, game.parse_position("112233"))
    assert (solution.value, solution.plies_to_end, solution.best_moves) == (1, 1, (3,))
    # x holds 2-4 with 1 and 5 open: o blocks one end, x takes the other
    solution = solve_game(game, game.parse_position("22334"))
    assert (solution.value, solution.plies_to_end) == (-1, 2)
    assert sorted(solution.best_moves) == list(range(7))


def test_without_the_extension_the_python_engine_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grid, "COMPILED", False)
    game = make_game("tic_tac_toe", {})
    assert (
        grid.grid_search(
            game,
            None,
            table=True,
            ordering=True,
            quiescence_plies=0,
            budget=grid.SearchBudget(None),
            all_best_moves=True,
        )
        is None
    )
    solution = solve_game(game, game.parse_position("xx.oo...."))
    assert (solution.value, solution.best_moves) == (1, (2,))


@COMPILED_ONLY
def test_a_time_budget_stops_the_compiled_search() -> None:
    game = make_game("connect_four", {"columns": 7, "rows": 6})
    choice = best_move(game, game.initial_state(), time_limit=0.2)
    assert choice.move == 3  # the centre column, from 1: '4'
    assert choice.depth_completed >= 6 and not choice.complete


def test_the_requests_deadline_stops_a_compiled_solve() -> None:
    game = make_game("connect_four", {"columns": 7, "rows": 6})
    with limited(Limits(time_limit=0.2)), pytest.raises(TimeLimitError):
        solve_game(game, game.initial_state())
