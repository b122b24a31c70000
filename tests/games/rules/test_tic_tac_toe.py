"""Tic-tac-toe's rules by hand-derived cases, and the published facts about its game tree."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import pytest

from games.errors import InvalidInputError
from games.rules.tic_tac_toe import TicTacToe, k_in_a_row_lines
from tests.games.rules.negamax import negamax


def test_the_empty_board() -> None:
    game = TicTacToe()
    start = game.initial_state()
    assert game.position_text(start) == "........."
    assert game.to_move(start) == 0
    assert list(game.actions(start)) == list(range(9))  # row-major
    assert not game.is_terminal(start)
    assert len(game.lines) == 8


def test_moves_alternate_and_fill_empty_cells() -> None:
    game = TicTacToe()
    state = game.parse_position("xx.oo....")
    assert game.to_move(state) == 0
    assert list(game.actions(state)) == [2, 5, 6, 7, 8]
    after = game.result(state, 5)
    assert game.position_text(after) == "xx.oox..."
    assert game.to_move(after) == 1
    won = game.result(state, 2)
    assert game.position_text(won) == "xxxoo...."
    assert game.is_terminal(won)
    assert list(game.actions(won)) == []
    assert game.utility(won, 0) == 1 and game.utility(won, 1) == -1


@pytest.mark.parametrize(
    ("text", "winner"),
    [
        ("xxxoo....", 0),  # a row
        ("xo.xo.x..", 0),  # a column
        ("xo.ox...x", 0),  # the diagonal
        ("oox.x.x..", 0),  # the anti-diagonal
        ("xxoxo.o..", 1),  # o on the anti-diagonal
        ("xxxxooxoo", 0),  # two lines through one cell: a fork completed
    ],
)
def test_wins_on_the_three_by_three_board(text: str, winner: int) -> None:
    game = TicTacToe()
    state = game.parse_position(text)
    assert game.is_terminal(state)
    assert game.utility(state, winner) == 1
    assert game.utility(state, 1 - winner) == -1


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = TicTacToe()
    state = game.parse_position("xoxxoooxx")
    assert game.is_terminal(state)
    assert game.utility(state, 0) == game.utility(state, 1) == 0


@pytest.mark.parametrize(
    "rows",
    [
        ("....", ".xxx", "o.o.", "...."),  # across
        ("....", "...x", "o..x", "o..x"),  # down
        ("....", ".x..", "..x.", "o.ox"),  # diagonal
        ("....", "...x", "o.x.", ".x.o"),  # anti-diagonal
    ],
)
def test_three_in_a_row_on_four_by_four_in_every_direction(rows: tuple[str, ...]) -> None:
    game = TicTacToe(4, 4, 3)
    state = game.parse_position("".join(rows))
    assert game.is_terminal(state) and game.utility(state, 0) == 1


def test_a_line_does_not_wrap_from_one_row_into_the_next() -> None:
    game = TicTacToe(4, 4, 3)
    state = game.parse_position("...x" + "xx.." + "o.o." + "....")  # bits 3, 4, 5 in a row
    assert not game.is_terminal(state)


def test_rectangular_boards_count_their_lines() -> None:
    # 3 rows x 4 columns, k = 3: across 3 x 2, down 4 x 1, diagonals 2 x 1 each way.
    assert len(k_in_a_row_lines(3, 4, 3)) == 6 + 4 + 2 + 2
    assert len(TicTacToe(5, 5, 4).lines) == 5 * 2 * 2 + 2 * 2 * 2


def test_aima_open_lines_evaluation() -> None:
    game = TicTacToe()
    assert game.open_lines(game.initial_state(), 0) == 0
    centre = game.parse_position("....x....")
    # x has all 8 lines open; o only the 4 that miss the centre.
    assert game.open_lines(centre, 0) == Fraction(4, 9)
    assert game.open_lines(centre, 1) == Fraction(-4, 9)
    # x: rows 1 and 3, column 3 open; o: row 2, row 3, column 3, the anti-diagonal.
    assert game.open_lines(game.parse_position("xx.oo...."), 0) == Fraction(-1, 9)


def test_aima_weighted_evaluation() -> None:
    game = TicTacToe()
    assert list(game.evaluations) == ["open_lines", "weighted_lines"]
    # Four lines hold the centre x alone: 4 X1 = 4, over 8 x 3 + 1.
    assert game.weighted_lines(game.parse_position("....x...."), 0) == Fraction(4, 25)
    # x: 3 X2 (the top row); o: 3 O2 (the middle row) + O1 (the anti-diagonal).
    assert game.weighted_lines(game.parse_position("xx.oo...."), 0) == Fraction(-1, 25)


def test_evaluations_equal_the_utility_at_the_end() -> None:
    game = TicTacToe()
    won = game.parse_position("xxxoo....")
    for info in game.evaluations.values():
        assert info.function(won, 0) == 1 and info.function(won, 1) == -1


def test_tic_tac_toe_is_a_draw() -> None:
    game = TicTacToe()
    assert negamax(game, game.initial_state(), {}) == 0


def test_the_full_game_tree_has_549946_nodes_and_255168_games() -> None:
    """Published counts: 549,946 nodes with the root; 255,168 games (131,184 won by x,
    77,904 by o, 46,080 drawn)."""
    game = TicTacToe()
    memo: dict[Hashable, tuple[int, int, int, int]] = {}

    def count(state: tuple[int, int]) -> tuple[int, int, int, int]:
        if game.is_terminal(state):
            value = game.utility(state, 0)
            return (1, int(value == 1), int(value == -1), int(value == 0))
        if state not in memo:
            totals = [1, 0, 0, 0]
            for move in game.actions(state):
                for i, n in enumerate(count(game.result(state, move))):
                    totals[i] += n
            memo[state] = (totals[0], totals[1], totals[2], totals[3])
        return memo[state]

    assert count(game.initial_state()) == (549_946, 131_184, 77_904, 46_080)


def test_moves_are_written_row_comma_column() -> None:
    game = TicTacToe()
    state = game.parse_position("x........")
    assert game.move_text(state, 5) == "2,3"
    assert game.parse_move(state, "2,3") == 5
    assert game.parse_move(state, " 3 , 1") == 6


@pytest.mark.parametrize(
    "text", ["1,1", "0,2", "4,1", "2", "b2", "2,2,2", "", "\u00b2,1", "1," + "1" * 5000]
)
def test_illegal_moves_are_refused(text: str) -> None:
    game = TicTacToe()
    with pytest.raises(InvalidInputError) as caught:
        game.parse_move(game.parse_position("x........"), text)
    assert caught.value.errors[0].parameter == "move"


def test_no_move_is_legal_after_the_end() -> None:
    game = TicTacToe()
    with pytest.raises(InvalidInputError):
        game.parse_move(game.parse_position("xxxoo...."), "3,3")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("xx.oo...", "3 x 3"),  # too short
        ("xx.oo....x", "3 x 3"),  # too long
        ("XX.OO....", "3 x 3"),  # capitals
        ("xx.o0....", "3 x 3"),
        ("xxx......", "3 x and 0 o"),  # x ran ahead
        ("o........", "0 x and 1 o"),  # o moved first
        ("xxxooo...", "game would have ended"),  # both have lines
        ("xxxoo.o..", "game would have ended"),  # o moved after x had won
        ("ooo.x.x..", "2 x and 3 o"),
        ("oooxx.xx.", "game would have ended"),  # o has a line, yet x moved last
    ],
)
def test_impossible_positions_are_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidInputError, match=why) as caught:
        TicTacToe().parse_position(text)
    assert caught.value.errors[0].parameter == "position"


def test_two_separate_winning_lines_are_refused() -> None:
    game = TicTacToe(5, 5, 3)
    text = "xxx.." + "oo.oo" + "....." + "o...." + "xxx.."
    with pytest.raises(InvalidInputError, match="share no cell"):
        game.parse_position(text)


def test_long_inputs_are_quoted_short() -> None:
    with pytest.raises(InvalidInputError) as caught:
        TicTacToe().parse_position("x" * 100_000)
    assert len(caught.value.message) < 300
    assert "(100000 characters)" in caught.value.message


def test_k_longer_than_the_board_is_refused() -> None:
    with pytest.raises(InvalidInputError) as caught:
        TicTacToe(2, 3, 4)
    assert caught.value.errors[0].parameter == "params.k"
