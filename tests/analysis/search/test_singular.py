"""Singular extensions (Anantharaman, Campbell and Hsu 1988) cure the horizon effect where a
plain depth-limited search falls for it.

Each demonstration position was found by a search over reachable positions, and its facts are
independently known: the exact solver (every move solved to the end, no depth) says which
root move wins and which loses; a plain alpha-beta to the depth given, evaluating at the
cutoff, picks the losing one; with singular extensions it picks the winning one.
docs/games.md walks through them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.search.alpha_beta import AlphaBeta
from analysis.search.budget import SearchBudget
from analysis.search.solve import solve_game
from games.errors import InvalidInputError
from games.rules.catalogue import make_game
from tests.analysis.search.toy_games import GraphGame, Spot, decide, end, layered_games

MARGIN = Fraction(1, 20)


def exact_outcomes(game: Any, state: Any) -> dict[str, Fraction]:
    """Every root move's exact value for the mover, each child solved to the end."""
    mover = game.to_move(state)
    outcomes = {}
    for move in game.actions(state):
        child = game.result(state, move)
        if game.is_terminal(child):
            value = Fraction(game.utility(child, mover))
        else:
            value = solve_game(game, child).value
            value = value if game.to_move(child) == mover else -value
        outcomes[game.move_text(state, move)] = value
    return outcomes


def chosen(game: Any, state: Any, depth: int, **options: Any) -> list[str]:
    solution = solve_game(game, state, algorithm="alphabeta", depth=depth, **options)
    return [game.move_text(state, move) for move in solution.best_moves]


# (game, params, position, depth, the move plain search picks, the move that wins)
HORIZONS = [
    # White to move on 4 x 4: d2-d3 invites a3-a2, and b1xa2 wins a pawn at the horizon, but
    # it leaves b1 empty for black's b2-b1 a ply later; c2-c3 wins in 5 plies
    ("hexapawn", {"columns": 4, "rows": 4}, "...b/b.../.bww/.w.. w", 3, "d2-d3", "c2-c3"),
    # Black to move: d4-d3 looks fine for 3 plies and loses in 4; a3-a2 wins in 7
    ("hexapawn", {"columns": 4, "rows": 4}, "b..b/b.b./..w./.w.w b", 3, "d4-d3", "a3-a2"),
    # connect four on 5 x 4, and its mirror image (column c is column 6 - c)
    ("connect_four", {"columns": 5, "rows": 4}, "2424", 4, "4", "2"),
    ("connect_four", {"columns": 5, "rows": 4}, "4242", 4, "2", "4"),
]


@pytest.mark.parametrize(("name", "params", "position", "depth", "trap", "cure"), HORIZONS)
def test_singular_extensions_see_past_the_horizon(
    name: str, params: dict[str, int], position: str, depth: int, trap: str, cure: str
) -> None:
    game = make_game(name, params)
    state = game.parse_position(position)
    outcomes = exact_outcomes(game, state)
    assert outcomes[trap] == -1 and outcomes[cure] == 1
    assert chosen(game, state, depth) == [trap]
    assert chosen(game, state, depth, singular_margin=MARGIN) == [cure]
    extended = solve_game(game, state, depth=depth, singular_margin=MARGIN)
    assert extended.algorithm == "alphabeta" and not extended.complete


def test_quiescence_misses_the_quiet_push_that_singular_extensions_find() -> None:
    # the threat past the horizon is b2-b1, a pawn push, not a capture: quiescence (captures
    # only) does not follow it, so it still falls for d2-d3; in the second position the
    # refutation starts with a capture (c2xd3), which quiescence does follow
    game = make_game("hexapawn", {"columns": 4, "rows": 4})
    quiet = game.parse_position("...b/b.../.bww/.w.. w")
    assert chosen(game, quiet, 3, quiescence=True) == ["d2-d3"]
    noisy = game.parse_position("b..b/b.b./..w./.w.w b")
    assert chosen(game, noisy, 3, quiescence=True) == ["a3-a2"]


def chain(length: int) -> GraphGame:
    """A line of ``length`` forced moves (each state's only move is singular), then a draw;
    every state before the end is worth its number of plies from the start, in 1/1000s."""
    spots: dict[str, Spot] = {f"s{length}": end(0)}
    for place in range(length):
        spots[f"s{place}"] = decide(place % 2, ("on", f"s{place + 1}"), worth=Fraction(place, 1000))
    return GraphGame("chain", spots, "s0")


@pytest.mark.parametrize("depth", [2, 3, 5, 8])
def test_a_line_is_extended_to_at_most_twice_the_depth(depth: int) -> None:
    game = chain(60)
    reached: list[int] = []

    def worth(state: str, player: int) -> Fraction:
        reached.append(int(state[1:]))
        return game.worth(state, player)

    search = AlphaBeta(
        game,
        worth,
        table=True,
        ordering=True,
        quiescence_plies=0,
        budget=SearchBudget(None),
        singular_margin=MARGIN,
    )
    for limit in range(1, depth + 1):
        reached.clear()
        search.root("s0", limit, None)
    # every state is forced, so the line is extended while it may be, but never past twice
    # the depth (the plain search stops at the depth); at depth 2 no state below the root is
    # 2 plies from the cutoff, so none is tested
    assert depth < max(reached) <= 2 * depth if depth > 2 else max(reached) == depth
    assert (search.extensions > 0) == (depth > 2)


@given(layered_games(), st.integers(1, 4))
def test_extensions_change_no_value_the_search_sees_to_the_end(game: GraphGame, depth: int) -> None:
    # with the depth past every line, the extended search is exact like the plain one
    plain = solve_game(game, game.initial_state())
    extended = solve_game(game, game.initial_state(), depth=6 + depth, singular_margin=MARGIN)
    assert extended.value == plain.value and extended.complete


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"depth": 3, "singular_margin": Fraction(0)}, "singular.margin"),
        ({"depth": 3, "singular_margin": Fraction(-1, 4)}, "singular.margin"),
        ({"depth": 3, "singular_margin": Fraction(5, 2)}, "singular.margin"),
        ({"singular_margin": MARGIN}, "singular"),
        ({"depth": 3, "singular_margin": MARGIN, "table": False}, "singular"),
        ({"depth": 3, "singular_margin": MARGIN, "algorithm": "minimax"}, "singular"),
    ],
)
def test_singular_options_are_checked(options: dict[str, Any], parameter: str) -> None:
    game = make_game("hexapawn", {})
    with pytest.raises(InvalidInputError) as raised:
        solve_game(game, game.initial_state(), **options)
    assert [error.parameter for error in raised.value.errors] == [parameter]
