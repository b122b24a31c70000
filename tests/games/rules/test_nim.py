"""Nim's rules, and Bouton's theorem (normal and misère) checked by brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from games.errors import InvalidInputError
from games.rules.nim import Nim, mover_wins
from tests.games.rules.negamax import negamax


def bouton(piles: tuple[int, ...], misere: bool) -> int:
    """Bouton (1901), as stated independently of the module: +1 if the mover wins, else -1."""
    xor = 0
    for pile in piles:
        xor ^= pile
    if misere and max(piles) <= 1:
        return -1 if piles.count(1) % 2 == 1 else 1
    return -1 if xor == 0 else 1


def test_moves_take_from_one_pile() -> None:
    game = Nim((1, 0, 2))
    start = game.initial_state()
    assert start == (0, (1, 0, 2))
    assert list(game.actions(start)) == [(0, 1), (2, 1), (2, 2)]
    assert [game.move_text(start, m) for m in game.actions(start)] == ["1:1", "3:1", "3:2"]
    after = game.result(start, (2, 2))
    assert after == (1, (1, 0, 0))
    assert game.position_text(after) == "1 0 0 / 2"
    assert game.to_move(after) == 1 and not game.is_terminal(after)


def test_who_takes_the_last_object() -> None:
    normal, misere = Nim((1,)), Nim((1,), misere=True)
    end = normal.result(normal.initial_state(), (0, 1))
    assert normal.is_terminal(end) and list(normal.actions(end)) == []
    # The first player took the last object: a win in normal play, a loss in misère.
    assert normal.utility(end, 0) == 1 and normal.utility(end, 1) == -1
    assert misere.utility(end, 0) == -1 and misere.utility(end, 1) == 1


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_bouton_on_every_position_with_piles_up_to_four(count: int, misere: bool) -> None:
    memo: dict[object, Fraction] = {}
    for piles in itertools.product(range(5), repeat=count):
        game = Nim(piles, misere)
        value = negamax(game, game.initial_state(), memo)
        assert value == bouton(piles, misere), piles
        assert mover_wins(piles, misere) == (value == 1)
        if any(piles):
            estimate = game.bouton(game.initial_state(), 0)
            assert estimate == Fraction(value, 2)
            assert game.bouton(game.initial_state(), 1) == -estimate


def test_the_evaluation_at_the_end_is_the_utility() -> None:
    game = Nim((0, 0))
    assert game.bouton(game.initial_state(), 0) == -1
    assert Nim((0,), misere=True).bouton((0, (0,)), 0) == 1
    assert list(game.evaluations) == ["bouton"]


def test_moves_round_trip() -> None:
    game = Nim()
    state = game.initial_state()
    assert game.parse_move(state, "3:2") == (2, 2)
    assert game.parse_move(state, " 1:3 ") == (0, 3)


@pytest.mark.parametrize(
    "text", ["1:4", "4:1", "0:1", "2:0", "2", "2-1", "a:b", "", "\u00b2:1", "1:" + "1" * 5000]
)
def test_illegal_moves_are_refused(text: str) -> None:
    game = Nim()
    with pytest.raises(InvalidInputError) as caught:
        game.parse_move(game.initial_state(), text)
    assert caught.value.errors[0].parameter == "move"


def test_positions_round_trip() -> None:
    game = Nim()
    assert game.parse_position("3 4 5") == (0, (3, 4, 5))
    assert game.parse_position("2 4 5 / 2") == (1, (2, 4, 5))
    assert game.parse_position("0 4 3") == (0, (0, 4, 3))
    assert game.position_text((1, (0, 0, 1))) == "0 0 1 / 2"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("3 4", "not a position of nim on 3 piles"),
        ("3 4 5 6", "not a position of nim on 3 piles"),
        ("3 x 5", "not a position of nim on 3 piles"),
        ("3 -4 5", "not a position of nim on 3 piles"),
        ("3 4 5 / 3", "not a position of nim on 3 piles"),
        ("3 4 5 / 1", "not a position of nim on 3 piles"),
        ("3 \u00b2 5", "not a position of nim on 3 piles"),
        ("3 4 " + "5" * 5000, "not a position of nim on 3 piles"),
        ("", "not a position of nim on 3 piles"),
        ("3 4 6", "larger than at the start"),
        ("3 4 5 / 2", "0 objects taken cannot leave player 2"),
        ("2 4 5", "1 objects taken cannot leave player 1"),
    ],
)
def test_impossible_positions_are_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidInputError, match=why) as caught:
        Nim().parse_position(text)
    assert caught.value.errors[0].parameter == "position"
