"""The bounded transposition table, alone and under the searches.

A table that drops entries may cost a search time but never its answer: with tables of a few
entries the searches must still find the published results (tic-tac-toe and connect four on
4 x 4 are draws, hexapawn on 3 x 3 a win for the second player) and the unbounded search's
value and best moves on random positions, while the table never holds more than its bound.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analysis.search.alpha_beta as alpha_beta
import analysis.search.expectimax as expectimax
import analysis.search.score_search as score_search
from analysis.search.alpha_beta import alpha_beta_solution
from analysis.search.budget import SearchBudget
from analysis.search.grid import GridAlphaBeta, grid_search
from analysis.search.results import GameSolution
from analysis.search.scores import MAX_PLY, PROVEN
from analysis.search.solve import solve_game
from analysis.search.table import TranspositionTable
from games.errors import InvalidInputError
from games.rules.catalogue import make_game
from games.rules.game import Game
from tests.analysis.search.test_grid import COMPILED_ONLY, GAMES, both, position
from tests.analysis.search.test_published_results import play_randomly
from tests.analysis.search.toy_games import DICE


class WatchedTable(TranspositionTable[Any]):
    """A table that records the most entries it ever held, checked at every store."""

    most = 0

    def store(self, key: Hashable, entry: Any) -> None:
        super().store(key, entry)
        assert len(self) <= self.capacity
        WatchedTable.most = max(WatchedTable.most, len(self))


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> type[WatchedTable]:
    """Every search's table watched, from a fresh count."""
    WatchedTable.most = 0
    monkeypatch.setattr(alpha_beta, "TranspositionTable", WatchedTable)
    monkeypatch.setattr(expectimax, "TranspositionTable", WatchedTable)
    monkeypatch.setattr(score_search, "TranspositionTable", WatchedTable)
    return WatchedTable


# -- the table alone -------------------------------------------------------------------


def test_a_deeper_entry_replaces_and_a_shallower_one_does_not() -> None:
    table: TranspositionTable[tuple[int, str]] = TranspositionTable(4)
    table.store("a", (3, "first"))
    table.store("a", (2, "shallower"))
    assert table.get("a") == (3, "first")
    table.store("a", (3, "as deep"))
    assert table.get("a") == (3, "as deep")
    assert table.get("b") is None


def test_a_full_table_drops_its_shallowest_quarter_oldest_first() -> None:
    table: TranspositionTable[tuple[int]] = TranspositionTable(8)
    for key, depth in enumerate([5, 1, PROVEN, 2, 1, 7, 2, 3]):
        table.store(key, (depth,))
    table.store("new", (1,))  # full: 8 // 4 = 2 go, the two of depth 1 (keys 1 and 4)
    assert len(table) == 7 and table.dropped == 2
    assert table.get(1) is None and table.get(4) is None and table.get("new") == (1,)
    for key in range(20, 40):
        table.store(key, (2,))
        assert len(table) <= 8
    assert table.get(2) == (PROVEN,)  # proven entries count as the deepest


def test_a_table_of_one_entry_keeps_the_newest() -> None:
    table: TranspositionTable[tuple[int]] = TranspositionTable(1)
    table.store("a", (9,))
    table.store("b", (1,))
    assert (len(table), table.get("a"), table.get("b")) == (1, None, (1,))


@pytest.mark.parametrize("entries", [0, -5, 2.5, True])
def test_a_bound_below_one_entry_is_refused(entries: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        TranspositionTable(entries)
    assert caught.value.errors[0].parameter == "table_entries"


def test_solve_game_takes_the_bound_where_a_table_is_searched() -> None:
    game = make_game("tic_tac_toe", {})
    for options in (
        {"table_entries": 0},
        {"table_entries": 10, "algorithm": "minimax"},
        {"table_entries": 10, "table": False},
    ):
        with pytest.raises(InvalidInputError) as caught:
            solve_game(game, game.initial_state(), **options)
        assert caught.value.errors[0].parameter == "table_entries"


# -- the searches under small tables ---------------------------------------------------


def python_solve(game: Game[Any, Any], entries: int | None) -> GameSolution:
    """The Python engine's solve to the end from the start, its table bounded by ``entries``."""
    return alpha_beta_solution(
        game,
        game.initial_state(),
        depth=None,
        time_limit=None,
        evaluation=None,
        table=True,
        ordering=True,
        quiescence_plies=0,
        compiled=False,
        table_entries=entries,
    )


@pytest.mark.parametrize(
    ("name", "params", "value"),
    [
        ("tic_tac_toe", {}, 0),
        ("connect_four", {"columns": 4, "rows": 4}, 0),
        ("hexapawn", {"columns": 3, "rows": 3}, -1),
    ],
)
@pytest.mark.parametrize("entries", [1, 7, 100])
def test_published_results_with_a_table_of_a_few_entries(
    watched: type[WatchedTable], name: str, params: dict[str, Any], value: int, entries: int
) -> None:
    game = make_game(name, params)
    unbounded = python_solve(game, None)
    watched.most = 0
    bounded = python_solve(game, entries)
    assert (bounded.value, bounded.complete) == (value, True)
    assert bounded.best_moves == unbounded.best_moves
    assert bounded.plies_to_end == unbounded.plies_to_end
    assert 0 < watched.most <= entries


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(["tic_tac_toe", "connect_four", "nim", "hexapawn"]),
    plies=st.integers(0, 8),
    seed=st.integers(0, 10**6),
    depth=st.sampled_from([None, 2, 3, 5]),
    entries=st.integers(1, 60),
)
def test_a_bounded_table_gives_the_unbounded_answer(
    name: str, plies: int, seed: int, depth: int | None, entries: int
) -> None:
    # Under a depth cutoff a table entry searched deeper serves a shallower need, so where a
    # position recurs at another ply (nim, hexapawn) the value found depends on what the
    # table holds, bounded or not; in tic-tac-toe and connect four a position fixes its ply.
    params: dict[str, Any] = {"columns": 4, "rows": 4} if name == "connect_four" else {}
    game = make_game(name, params)
    state = play_randomly(game, plies, seed)
    if game.is_terminal(state):
        return
    options: dict[str, Any] = {"depth": depth if name in ("tic_tac_toe", "connect_four") else None}
    unbounded = solve_game(game, state, **options)
    bounded = solve_game(game, state, table_entries=entries, **options)
    assert (bounded.value, bounded.complete, bounded.best_moves) == (
        unbounded.value,
        unbounded.complete,
        unbounded.best_moves,
    )


@pytest.mark.parametrize("entries", [1, 5, 40])
def test_expectimax_with_a_table_of_a_few_entries(
    watched: type[WatchedTable], entries: int
) -> None:
    # exact values: the dice game derived by hand (1/3, tests/analysis/search/test_expectimax.py)
    # and a tic-tac-toe opening, a draw, searched to the end
    assert solve_game(DICE, "root", algorithm="expectimax", table_entries=entries).value == (
        Fraction(1, 3)
    )
    game = make_game("tic_tac_toe", {})
    state = game.parse_position("x...o....")
    unbounded = solve_game(game, state, algorithm="expectimax")
    watched.most = 0
    bounded = solve_game(game, state, algorithm="expectimax", table_entries=entries)
    assert (bounded.value, bounded.best_moves) == (0, unbounded.best_moves)
    assert 0 < watched.most <= entries


# -- the compiled search's table -------------------------------------------------------


def compiled_search(name: str, params: dict[str, Any], entries: int | None) -> GridAlphaBeta:
    fast = grid_search(
        make_game(name, params),
        None,
        table=True,
        ordering=True,
        quiescence_plies=0,
        budget=SearchBudget(None),
        all_best_moves=True,
        table_entries=entries,
    )
    assert fast is not None
    return fast


@COMPILED_ONLY
@pytest.mark.parametrize(
    ("name", "params", "value"),
    [("tic_tac_toe", {}, 0), ("connect_four", {"columns": 4, "rows": 4}, 0)],
)
@pytest.mark.parametrize("entries", [1, 3, 100, 5000])
def test_the_compiled_table_holds_its_bound_and_the_answer(
    name: str, params: dict[str, Any], value: int, entries: int
) -> None:
    game = make_game(name, params)
    search = compiled_search(name, params, entries)
    score, moves, complete = search.root(game.initial_state(), MAX_PLY, None)
    assert (score, complete) == (value, True)
    assert 0 < search.counters.table_entries <= entries
    unbounded = compiled_search(name, params, None)
    assert unbounded.root(game.initial_state(), MAX_PLY, None)[1] == moves


@COMPILED_ONLY
@settings(max_examples=40, deadline=None)
@given(
    game_index=st.sampled_from([0, 1, 3, 6, 7]),
    choices=st.lists(st.integers(min_value=0, max_value=63), min_size=2, max_size=10),
    depth=st.sampled_from([None, 3]),
    entries=st.integers(1, 200),
)
def test_the_python_and_compiled_engines_agree_with_bounded_tables(
    game_index: int, choices: list[int], depth: int | None, entries: int
) -> None:
    # the same answer; the counts agree only while neither table is full (each makes room
    # its own way: a quarter of the shallowest in Python, a slot on the probe path compiled)
    name, params = GAMES[game_index]
    game = make_game(name, params)
    state = position(game, choices)
    if game.is_terminal(state):
        return
    compiled, python = both(
        game,
        state,
        depth=depth,
        evaluation=None if depth is None else next(iter(game.evaluations.values())).function,
        table=True,
        ordering=True,
        table_entries=entries,
    )
    assert (compiled.value, compiled.complete, compiled.best_moves) == (
        python.value,
        python.complete,
        python.best_moves,
    )
