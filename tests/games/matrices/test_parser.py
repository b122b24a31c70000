"""Reading games in the three forms, and every refusal with its pointer."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from games.errors import ArbiterError, InvalidInputError, LimitExceededError
from games.matrices.parser import MatrixLimits, parse_game


def test_three_forms_give_the_same_game() -> None:
    pairs = parse_game({"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]})
    split = parse_game({"A": [[3, 1], [4, 2]], "B": [[4, 2], [1, 3]]})
    arrays = parse_game({"payoff_arrays": [[[3, 1], [4, 2]], [[4, 2], [1, 3]]]})
    for game in (pairs, arrays):
        assert game.row_payoffs.tolist() == split.row_payoffs.tolist()
        assert game.col_payoffs.tolist() == split.col_payoffs.tolist()
    assert split.labels == (("R1", "R2"), ("C1", "C2"))


def test_zero_sum_exact_numbers_and_labels() -> None:
    game = parse_game(
        {"A": [["1/2", 0.1], ["-3", "2e-1"]], "zero_sum": True, "labels": [["U", "D"], ["L", "R"]]}
    )
    assert game.row_payoffs.tolist() == [[Fraction(1, 2), Fraction(1, 10)], [-3, Fraction(1, 5)]]
    assert game.col_payoffs[0, 0] == Fraction(-1, 2)
    assert game.labels == (("U", "D"), ("L", "R"))
    assert game.is_zero_sum()


def test_three_players_in_cell_form() -> None:
    cells = [
        [[[1, 1, 1], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]]],
        [[[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [2, 2, 2]]],
    ]
    game = parse_game({"payoffs": cells})
    assert game.players == 3 and game.shape == (2, 2, 2)
    assert game.payoffs[2][1, 1, 1] == 2


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"A": [[1, 2], [3]], "B": [[1, 2], [3, 4]]}, "/A/1"),
        ({"A": [[1, 2], [3, 4]], "B": [[1, 2, 3], [3, 4, 5]]}, "/B"),
        ({"A": [[1, 2], [3, "nan"]], "B": [[1, 2], [3, 4]]}, "/A/1/1"),
        ({"A": [[1, True], [3, 4]], "B": [[1, 2], [3, 4]]}, "/A/0/1"),
        ({"A": [[1, 2], [3, 4]]}, "/B"),
        ({"A": [[1, 2], [3, 4]], "B": [[-1, -2], [-3, -5]], "zero_sum": True}, "/zero_sum"),
        ({"A": [[1]], "payoffs": [[[1, 1]]]}, ""),
        ({}, ""),
        ({"payoffs": [[[1, 2], [3]], [[4, 5], [6, 7]]]}, "/payoffs/0/1"),
        # the odd one out is blamed, not its neighbour: a first cell with one payoff of two,
        # a first row shorter than the others
        ({"payoffs": [[[2], [1, 0]], [[0, 1], [1, 1]]]}, "/payoffs/0/0"),
        ({"A": [[1], [3, 4], [5, 6]], "B": [[1, 2], [3, 4], [5, 6]]}, "/A/0"),
        ({"payoffs": [[[1, 2, 3]]]}, "/payoffs/0/0"),
        ({"payoffs": [[1, 2]]}, "/payoffs"),
        ({"A": [[1, 2]], "B": [[1, 2]], "labels": [["U"], ["L"]]}, "/labels/1"),
        ({"A": [[1, 2]], "B": [[1, 2]], "labels": [["U"], ["L", "L"]]}, "/labels/1"),
        ({"A": [[1, 2]], "B": [[1, 2]], "labels": [["U"], ["L", 3]]}, "/labels/1/1"),
        ({"A": [[]], "B": [[]]}, "/A/0"),
        ({"payoff_arrays": [[[1]]]}, "/payoff_arrays"),
    ],
)
def test_invalid_games_point_at_the_field(body: dict[str, Any], pointer: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_game(body)
    assert caught.value.errors[0].pointer == pointer


def test_a_cell_short_of_payoffs_says_how_many_it_needs() -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_game({"payoffs": [[[2], [1, 0]], [[0, 1], [1, 1]]]})
    assert caught.value.errors[0].message == (
        "a game of 2 players needs 2 payoffs in each cell, this one has 1"
    )


def test_size_limits() -> None:
    small = MatrixLimits(max_players=3, max_strategies=3, max_cells=6)
    with pytest.raises(LimitExceededError) as caught:
        parse_game({"A": [[1, 2, 3, 4]], "B": [[1, 2, 3, 4]]}, small)
    assert caught.value.errors[0].pointer == "/A/0"
    with pytest.raises(LimitExceededError):
        parse_game({"A": [[1, 2, 3]] * 3, "B": [[1, 2, 3]] * 3}, small)
    four = [[[[0]]]]
    with pytest.raises(ArbiterError):
        parse_game({"payoff_arrays": [four, four, four, four]}, small)
