"""Property tests of the matrix-game algorithms, each checked by plain arithmetic here."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria.iterated_dominance import iterated_elimination
from analysis.equilibria.pure import pure_nash_equilibria
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from analysis.equilibria.zero_sum import security_levels, zero_sum_solution
from games.matrices.model import bimatrix, zero_sum_game
from games.matrices.parser import parse_game
from tests.matrix_strategies import bimatrices, matrices

Matrix = list[list[int]]


def gains(
    first: Matrix, second: Matrix, row: tuple[Fraction, ...], col: tuple[Fraction, ...]
) -> tuple[Fraction, Fraction]:
    """Each player's best deviation gain, by the textbook formulas."""
    m, n = len(first), len(first[0])
    rows = [sum(first[i][j] * col[j] for j in range(n)) for i in range(m)]
    cols = [sum(row[i] * second[i][j] for i in range(m)) for j in range(n)]
    own_row = sum(row[i] * rows[i] for i in range(m))
    own_col = sum(col[j] * cols[j] for j in range(n))
    return max(rows) - own_row, max(cols) - own_col


@settings(max_examples=150, deadline=None)
@given(bimatrices())
def test_every_equilibrium_has_zero_deviation_gain(game: tuple[Matrix, Matrix]) -> None:
    first, second = game
    found = extreme_equilibria(bimatrix(first, second))
    assert found.equilibria  # Nash: every finite game has one
    for e in found.equilibria:
        row = tuple(Fraction(p) for p in e.row)
        col = tuple(Fraction(q) for q in e.col)
        assert sum(row) == 1 and sum(col) == 1 and min(row) >= 0 and min(col) >= 0
        assert gains(first, second, row, col) == (0, 0)


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
@given(bimatrices(), st.integers(1, 7), st.integers(-9, 9), st.integers(1, 7), st.integers(-9, 9))
def test_equilibria_invariant_under_positive_affine_maps(
    game: tuple[Matrix, Matrix],
    scale_a: int,
    shift_a: int,
    scale_b: int,
    shift_b: int,
) -> None:
    first, second = game
    half = Fraction(scale_a, 2)
    moved_a = [[half * v + shift_a for v in row] for row in first]
    moved_b = [[scale_b * v + shift_b for v in row] for row in second]
    before = extreme_equilibria(bimatrix(first, second))
    after = extreme_equilibria(bimatrix(moved_a, moved_b))
    assert {(e.row, e.col) for e in before.equilibria} == {(e.row, e.col) for e in after.equilibria}
    assert before.degenerate == after.degenerate


@settings(max_examples=150, deadline=None)
@given(matrices(low=-9, high=9))
def test_zero_sum_value_between_pure_security_levels(matrix: Matrix) -> None:
    solution = zero_sum_solution(zero_sum_game(matrix))
    maxmin = max(min(row) for row in matrix)
    minmax = min(max(row[j] for row in matrix) for j in range(len(matrix[0])))
    assert solution.exact
    assert maxmin <= solution.value <= minmax
    row_level, col_level = security_levels(zero_sum_game(matrix))
    assert row_level.mixed == solution.value
    assert col_level.mixed == -solution.value
    x, y = solution.row_strategy, solution.col_strategy
    m, n = len(matrix), len(matrix[0])
    assert min(sum(x[i] * matrix[i][j] for i in range(m)) for j in range(n)) == solution.value
    assert max(sum(matrix[i][j] * y[j] for j in range(n)) for i in range(m)) == solution.value


@settings(max_examples=100, deadline=None)
@given(matrices(low=-9, high=9), st.integers(1, 5), st.integers(-20, 20))
def test_zero_sum_value_moves_with_affine_maps(matrix: Matrix, scale: int, shift: int) -> None:
    value = zero_sum_solution(zero_sum_game(matrix)).value
    moved = [[Fraction(scale, 3) * v + shift for v in row] for row in matrix]
    assert zero_sum_solution(zero_sum_game(moved)).value == Fraction(scale, 3) * value + shift


@settings(max_examples=100, deadline=None)
@given(bimatrices())
def test_strictly_dominated_strategies_are_never_played(game: tuple[Matrix, Matrix]) -> None:
    first, second = game
    g = bimatrix(first, second)
    surviving = iterated_elimination(g).surviving
    for e in extreme_equilibria(g).equilibria:
        assert all(i in surviving[0] for i, p in enumerate(e.row) if p)
        assert all(j in surviving[1] for j, q in enumerate(e.col) if q)


@settings(max_examples=80, deadline=None)
@given(bimatrices())
def test_float_mode_agrees_with_exact_mode(game: tuple[Matrix, Matrix]) -> None:
    first, second = game
    exact = extreme_equilibria(bimatrix(first, second))
    floats = extreme_equilibria(bimatrix(first, second), exact=False)
    assert len(exact.equilibria) == len(floats.equilibria)
    assert exact.degenerate == floats.degenerate


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


@settings(max_examples=100, deadline=None)
@given(bimatrices())
def test_security_levels_are_below_every_equilibrium_payoff(game: tuple[Matrix, Matrix]) -> None:
    first, second = game
    g = bimatrix(first, second)
    row_level, col_level = security_levels(g)
    assert row_level.exact and col_level.exact
    assert row_level.pure == max(min(row) for row in first)
    assert col_level.pure == max(min(row[j] for row in second) for j in range(len(second[0])))
    assert row_level.pure <= row_level.mixed and col_level.pure <= col_level.mixed
    for e in extreme_equilibria(g).equilibria:
        assert row_level.mixed <= e.payoffs[0] and col_level.mixed <= e.payoffs[1]
