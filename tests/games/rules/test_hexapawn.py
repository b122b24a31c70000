"""Hexapawn by Gardner's rules: moves, captures, the three ways to win, and 3 x 3 solved."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.errors import InvalidInputError
from games.rules.hexapawn import Hexapawn
from tests.games.rules.negamax import negamax


def texts(game: Hexapawn, position: str) -> list[str]:
    state = game.parse_position(position)
    return [game.move_text(state, m) for m in game.actions(state)]


def test_the_start() -> None:
    game = Hexapawn()
    start = game.initial_state()
    assert game.position_text(start) == "bbb/.../www w"
    assert game.to_move(start) == 0
    assert list(game.actions(start)) == [(0, 3), (1, 4), (2, 5)]
    assert texts(game, "bbb/.../www w") == ["a1-a2", "b1-b2", "c1-c2"]
    assert Hexapawn(4, 5).position_text(Hexapawn(4, 5).initial_state()) == (
        "bbbb/..../..../..../wwww w"
    )


def test_pawns_capture_diagonally_forward_only() -> None:
    game = Hexapawn()
    # After b1-b2 Black may take the pawn from a3 or from c3; b3 is blocked.
    assert texts(game, "bbb/.w./w.w b") == ["a3-a2", "a3xb2", "c3xb2", "c3-c2"]
    state = game.parse_position("bbb/.w./w.w b")
    capture = game.parse_move(state, "a3xb2")
    assert game.is_noisy(state, capture)
    assert not game.is_noisy(state, game.parse_move(state, "a3-a2"))
    after = game.result(state, capture)
    assert game.position_text(after) == ".bb/.b./w.w w"
    # White recaptures from a1 or c1 (never straight ahead, never backwards).
    assert texts(game, ".bb/.b./w.w w") == ["a1-a2", "a1xb2", "c1xb2", "c1-c2"]


def test_a_pawn_cannot_step_onto_any_pawn() -> None:
    game = Hexapawn()
    # a2 faces a pawn on a3 and has nothing to take on b3; c1 takes on b2 or steps.
    assert texts(game, "b.b/wb./..w w") == ["c1xb2", "c1-c2"]


@pytest.mark.parametrize(
    ("position", "winner", "how"),
    [
        ("w.b/.b./... b", 0, "White reached the far row"),
        (".../.w./... b", 0, "Black has no pawns"),
        ("b../w../... b", 0, "Black, to move, is blocked"),
        (".../..w/b.. w", 1, "Black reached the first row"),
        ("b../.../... w", 1, "White has no pawns"),
        ("..b/..w/... w", 1, "White, to move, is blocked"),
    ],
)
def test_the_three_ways_to_win(position: str, winner: int, how: str) -> None:
    game = Hexapawn()
    state = game.parse_position(position)
    assert game.is_terminal(state), how
    assert list(game.actions(state)) == []
    assert game.utility(state, winner) == 1 and game.utility(state, 1 - winner) == -1


def test_reaching_the_far_row_ends_the_game_at_once() -> None:
    game = Hexapawn()
    state = game.parse_position("bb./w../..w w")
    win = game.parse_move(state, "a2xb3")
    assert game.is_terminal(game.result(state, win))


def test_three_by_three_hexapawn_is_a_second_player_win() -> None:
    """Gardner (1962): Black, moving second, wins 3 x 3 hexapawn with correct play."""
    game = Hexapawn()
    assert negamax(game, game.initial_state(), {}) == -1


def test_the_evaluations() -> None:
    game = Hexapawn()
    start = game.initial_state()
    assert game.material_advancement(start, 0) == 0
    # b1-b2: White's pawns 9 (material) + 1 (a row advanced), Black's 9; bound 3 x 4 = 12.
    state = game.parse_position("bbb/.w./w.w b")
    assert game.material_advancement(state, 0) == Fraction(1, 13)
    assert game.material_advancement(state, 1) == Fraction(-1, 13)
    assert game.material(state, 0) == 0
    assert game.material(game.parse_position(".bb/.b./w.w w"), 1) == Fraction(1, 4)
    won = game.parse_position(".../.w./... b")
    assert all(info.function(won, 0) == 1 for info in game.evaluations.values())
    assert list(game.evaluations) == ["material_advancement", "material"]


@pytest.mark.parametrize("text", ["b2-b3", "a1xb2", "a1-a3", "a1a2", "", "z9-z8"])
def test_illegal_moves_are_refused(text: str) -> None:
    game = Hexapawn()
    with pytest.raises(InvalidInputError) as caught:
        game.parse_move(game.initial_state(), text)
    assert caught.value.errors[0].parameter == "move"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("bbb/.../www", "not a 3 x 3 hexapawn position"),
        ("bbb/.../www x", "not a 3 x 3 hexapawn position"),
        ("bbb/.../www  w", "not a 3 x 3 hexapawn position"),
        ("bb/.../www w", "not a 3 x 3 hexapawn position"),
        ("bbb/.../www/... w", "not a 3 x 3 hexapawn position"),
        ("bbb/.p./www w", "not a 3 x 3 hexapawn position"),
        ("bbb/bbb/www w", "more than 3 pawns"),
        (".../.../... w", "no pawns"),
        ("w.b/.../..b w", "ended before White"),  # White reached the far row, then moved again
        (".../.w./... w", "ended before White"),  # Black had lost every pawn
        ("b.w/.../w.b b", "ended before Black"),  # both reached the far row
    ],
)
def test_impossible_positions_are_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidInputError, match=why) as caught:
        Hexapawn().parse_position(text)
    assert caught.value.errors[0].parameter == "position"
