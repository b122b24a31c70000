"""Pure equilibria and best responses on known games, and against brute force."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria.pure import best_responses, pure_nash_equilibria
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from games.matrices.model import bimatrix
from games.matrices.parser import parse_game
from tests.strategies import bimatrices

Matrix = list[list[int]]


LECTURE = {"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]}


@settings(max_examples=150, deadline=None)
@given(bimatrices())
def test_pure_equilibria_are_among_the_extreme_ones(game: tuple[Matrix, Matrix]) -> None:
    first, second = game
    g = bimatrix(first, second)
    extreme = {(e.row, e.col) for e in extreme_equilibria(g).equilibria}
    for pure in pure_nash_equilibria(g):
        i, j = pure.profile
        row = tuple(int(k == i) for k in range(len(first)))
        col = tuple(int(k == j) for k in range(len(first[0])))
        assert (row, col) in extreme


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=3, max_size=3), st.data())
def test_pure_equilibria_of_three_players_match_brute_force(
    shape: list[int], data: st.DataObject
) -> None:
    cells = list(itertools.product(*(range(size) for size in shape)))
    payoff = st.integers(-3, 3)
    tables = [{cell: data.draw(payoff) for cell in cells} for _ in range(3)]

    def stable(cell: tuple[int, ...]) -> bool:
        for player in range(3):
            for other in range(shape[player]):
                moved = cell[:player] + (other,) + cell[player + 1 :]
                if tables[player][moved] > tables[player][cell]:
                    return False
        return True

    arrays = [np.empty(shape, dtype=object) for _ in range(3)]
    for player in range(3):
        for cell in cells:
            arrays[player][cell] = tables[player][cell]
    game = parse_game({"payoff_arrays": [a.tolist() for a in arrays]})
    assert [e.profile for e in pure_nash_equilibria(game)] == [c for c in cells if stable(c)]


def test_lecture_game_pure_equilibrium_and_best_responses() -> None:
    game = parse_game(LECTURE)
    assert [(e.profile, e.payoffs) for e in pure_nash_equilibria(game)] == [((1, 1), (2, 3))]
    rows, cols = best_responses(game)
    assert rows.best == ((1,), (1,))  # R2 pays 4 > 3 and 2 > 1
    assert cols.best == ((0,), (1,))  # against R1: 4 > 2; against R2: 3 > 1


def test_battle_of_the_sexes_two_pure_equilibria() -> None:
    game = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    assert [e.profile for e in pure_nash_equilibria(game)] == [(0, 0), (1, 1)]


def test_three_player_pure_equilibria() -> None:
    # Three-player coordination: everyone gets 1 when all match, else 0.
    same = [[[1, 0], [0, 0]], [[0, 0], [0, 1]]]
    game = parse_game({"payoff_arrays": [same, same, same]})
    assert [e.profile for e in pure_nash_equilibria(game)] == [(0, 0, 0), (1, 1, 1)]
