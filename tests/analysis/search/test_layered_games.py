"""Random games with transpositions and evaluations: every option of alpha-beta against minimax."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.search.solve import solve_game
from tests.analysis.search.toy_games import GraphGame, layered_games

OPTIONS = st.fixed_dictionaries(
    {"table": st.booleans(), "ordering": st.booleans(), "all_best_moves": st.booleans()}
)


@settings(max_examples=150, deadline=None)
@given(layered_games(), OPTIONS)
def test_to_the_end(game: GraphGame, options: dict[str, bool]) -> None:
    expected = solve_game(game, "0.0", algorithm="minimax")
    found = solve_game(game, "0.0", **options)
    assert found.value == expected.value and found.complete
    assert found.plies_to_end == expected.plies_to_end
    if options["all_best_moves"]:
        assert found.best_moves == expected.best_moves
    else:
        assert len(found.best_moves) == 1 and found.best_moves[0] in expected.best_moves


@settings(max_examples=150, deadline=None)
@given(layered_games(), st.integers(1, 4), st.booleans())
def test_at_a_cutoff_without_the_table(game: GraphGame, depth: int, ordering: bool) -> None:
    expected = solve_game(game, "0.0", algorithm="minimax", depth=depth)
    found = solve_game(game, "0.0", depth=depth, table=False, ordering=ordering)
    assert (found.value, found.best_moves, found.complete) == (
        expected.value,
        expected.best_moves,
        expected.complete,
    )


@settings(max_examples=100, deadline=None)
@given(layered_games(), st.integers(1, 4))
def test_quiescence_without_captures_changes_nothing(game: GraphGame, depth: int) -> None:
    plain = solve_game(game, "0.0", depth=depth, table=False)
    quiet = solve_game(game, "0.0", depth=depth, table=False, quiescence=True)
    assert (quiet.value, quiet.best_moves) == (plain.value, plain.best_moves)


@settings(max_examples=100, deadline=None)
@given(layered_games(noisy=True), st.integers(1, 4))
def test_quiescence_agrees_with_itself_with_and_without_the_table(
    game: GraphGame, depth: int
) -> None:
    """Quiescence states are never stored, so the table changes no quiescence value here
    (a layered game's lines of one length meet only at the same depth to go)."""
    plain = solve_game(game, "0.0", depth=depth, table=False, quiescence=True)
    tabled = solve_game(game, "0.0", depth=depth, quiescence=True)
    assert tabled.value == plain.value


@settings(max_examples=100, deadline=None)
@given(layered_games())
def test_expectimax_without_chance_is_minimax(game: GraphGame) -> None:
    expected = solve_game(game, "0.0", algorithm="minimax")
    found = solve_game(game, "0.0", algorithm="expectimax")
    assert found.value == expected.value
    assert set(expected.best_moves) <= set(found.best_moves)
