"""Connect four's rules on Tromp's bitboards, by hand-derived games."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from games.errors import InvalidInputError
from games.rules.connect_four import ConnectFour, run_doubling
from tests.games.rules.negamax import negamax


def play(game: ConnectFour, text: str) -> tuple[int, int, str]:
    """Play ``text`` move by move, checking that the game runs on until its last move."""
    state = game.initial_state()
    for index, symbol in enumerate(text):
        assert not game.is_terminal(state), f"over after {text[:index]!r}"
        state = game.result(state, game.parse_move(state, symbol))
    return state


def test_the_empty_board_and_centre_first_order() -> None:
    game = ConnectFour()
    start = game.initial_state()
    assert game.position_text(start) == ""
    assert game.to_move(start) == 0
    assert [game.move_text(start, m) for m in game.actions(start)] == list("4352617")
    assert list(ConnectFour(4, 4).actions(start)) == [1, 2, 0, 3]  # columns 2, 3, 1, 4
    assert len(game.windows) == 69  # the classic count of 4-in-a-row lines on 7 x 6


@pytest.mark.parametrize(
    "text",
    [
        "1212121",  # up column 1
        "1122334",  # across the bottom row
        "12233434464",  # diagonal from column 1 up to column 4
        "76655454424",  # the mirror image: the other diagonal
    ],
)
def test_four_in_a_row_in_every_direction_wins(text: str) -> None:
    game = ConnectFour()
    state = play(game, text)
    assert game.is_terminal(state)
    assert list(game.actions(state)) == []
    assert game.to_move(state) == 1
    assert game.utility(state, 0) == 1 and game.utility(state, 1) == -1


def test_the_second_player_wins_too() -> None:
    game = ConnectFour()
    state = play(game, "71212121")  # the second player stacks four in column 1
    assert game.is_terminal(state)
    assert game.to_move(state) == 0
    assert game.utility(state, 1) == 1 and game.utility(state, 0) == -1


def test_a_column_fills_up() -> None:
    game = ConnectFour()
    state = play(game, "112211")  # column 1 holds 4 stones, column 2 two
    state = play(game, "11221111")
    assert 0 not in game.actions(state)
    assert len(game.actions(state)) == 6


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = ConnectFour(3, 2, 3)
    state = play(game, "123123")
    assert game.is_terminal(state)
    assert game.utility(state, 0) == game.utility(state, 1) == 0


def test_no_line_wraps_over_the_top_of_a_column() -> None:
    # The first player holds rows 5 and 6 of column 1 and rows 1 and 2 of column 2: four
    # consecutive bits if a column had no spare bit on top, no line on the board.
    game = ConnectFour()
    state = play(game, "11112313142")
    mine, mask, _ = state
    first = mine ^ mask  # the first player moved last
    assert first == sum(1 << bit for bit in (0, 2, 4, 5, 7, 8))  # column 1: 0-5; column 2: 7-12
    assert not game.is_terminal(state)


def test_runs_of_k_take_log_k_shifts() -> None:
    assert run_doubling(1, 4) == (1, 2)  # Tromp's two steps
    assert run_doubling(7, 3) == (7, 7)
    assert run_doubling(1, 7) == (1, 2, 3)  # runs of 4 overlapped 3 apart: 7
    assert run_doubling(1, 1) == ()


def test_four_by_four_connect_four_is_a_draw() -> None:
    """Tromp's table: 4 x 4 is a draw (134,289 positions searched by plain negamax)."""
    game = ConnectFour(4, 4)
    assert negamax(game, game.initial_state(), {}) == 0


def test_transpositions_share_a_key_and_boards_do_not() -> None:
    game = ConnectFour()
    a, b, c = (game.parse_position(t) for t in ("1234", "3214", "1243"))
    assert game.key(a) == game.key(b)
    assert game.key(a) != game.key(c)
    assert game.key(game.initial_state()) != game.key(game.parse_position("1"))


def test_the_open_windows_evaluation() -> None:
    game = ConnectFour()
    assert game.weighted_windows(game.initial_state(), 0) == 0
    # A stone in column 4's bottom cell lies in 4 windows across, 1 up, 1 on each diagonal.
    one = game.parse_position("4")
    assert game.weighted_windows(one, 0) == Fraction(7, 69 * 9 + 1)
    assert game.weighted_windows(one, 1) == Fraction(-7, 622)


def test_the_threats_evaluation() -> None:
    game = ConnectFour()
    # Player 1 holds columns 1-3 of the bottom row: column 4's bottom cell completes four.
    state = game.parse_position("11223")
    assert game.threats(state, 0) == Fraction(1, 43)
    assert game.threats(state, 1) == Fraction(-1, 43)
    assert list(game.evaluations) == ["windows", "threats"]


def test_threats_agree_with_a_scan_of_every_window() -> None:
    """The shifted-board threats against the plain definition, on random games of 7 x 6."""
    game = ConnectFour()
    rng = random.Random(5)
    for _ in range(200):
        state = game.initial_state()
        while not game.is_terminal(state):
            mine, mask, _ = state
            for stones in (mine, mine ^ mask):
                by_windows = 0
                for window in game.windows:
                    missing = window & ~stones
                    if missing and not missing & (missing - 1):  # one cell short of a line
                        by_windows |= missing
                assert game.completing_cells(stones) == by_windows
            state = game.result(state, rng.choice(game.actions(state)))


def test_evaluations_equal_the_utility_at_the_end() -> None:
    game = ConnectFour()
    won = game.parse_position("1212121")
    for info in game.evaluations.values():
        assert info.function(won, 0) == 1 and info.function(won, 1) == -1


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("0", "not a column 1 to 7"),
        ("48", "not a column 1 to 7"),
        ("4a", "not a column 1 to 7"),
        ("4 4", "not a column 1 to 7"),
        ("4\u00b2", "not a column 1 to 7"),
        ("1111111", "column 1, which is full"),
        ("12121213", "the game is over after 7 moves"),
    ],
)
def test_impossible_positions_are_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidInputError, match=why) as caught:
        ConnectFour().parse_position(text)
    assert caught.value.errors[0].parameter == "position"


@pytest.mark.parametrize("text", ["1", "0", "8", "x", "", "12", "\u00b2", "2" * 5000])
def test_illegal_moves_are_refused(text: str) -> None:
    game = ConnectFour()
    state = game.parse_position("111111")  # column 1 is full
    with pytest.raises(InvalidInputError) as caught:
        game.parse_move(state, text)
    assert caught.value.errors[0].parameter == "move"
    assert game.parse_move(state, " 2 ") == 1


def test_k_longer_than_the_board_is_refused() -> None:
    with pytest.raises(InvalidInputError) as caught:
        ConnectFour(3, 3, 4)
    assert caught.value.errors[0].parameter == "params.k"
