"""Zero-sum games: values of textbook games, security levels, properties, nashpy's LP."""

from __future__ import annotations

import warnings
from fractions import Fraction

import nashpy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria.vertex_enumeration import extreme_equilibria
from analysis.equilibria.zero_sum import security_levels, solve_matrix_game, zero_sum_solution
from games.errors import DomainError
from games.matrices.model import bimatrix, exact_array, zero_sum_game
from games.matrices.parser import parse_game
from tests.strategies import bimatrices, matrices

Matrix = list[list[int]]


LECTURE = {"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]}


@pytest.mark.parametrize("seed", range(5))
def test_zero_sum_value_matches_nashpy_linear_program(seed: int) -> None:
    rng = np.random.default_rng(200 + seed)
    matrix = rng.integers(-50, 50, (7, 9))
    solution = solve_matrix_game(exact_array(matrix.tolist()))
    assert solution.exact
    # the value is certified exactly: the row strategy guarantees it against every
    # column and the column strategy holds the row player to it against every row
    rows, cols = matrix.tolist(), list(zip(*matrix.tolist(), strict=True))
    x, y = solution.row_strategy, solution.col_strategy
    assert min(sum(p * a for p, a in zip(x, col, strict=True)) for col in cols) == solution.value
    assert max(sum(q * a for q, a in zip(y, row, strict=True)) for row in rows) == solution.value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nx, ny = nashpy.Game(matrix).linear_program()
    assert float(solution.value) == pytest.approx(float(nx @ matrix @ ny), abs=1e-9)


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


def test_rock_paper_scissors_value_zero_uniform() -> None:
    solution = zero_sum_solution(zero_sum_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
    third = Fraction(1, 3)
    assert solution.exact
    assert solution.value == 0
    assert solution.row_strategy == (third, third, third)
    assert solution.col_strategy == (third, third, third)


def test_matching_pennies_and_a_textbook_value() -> None:
    assert zero_sum_solution(zero_sum_game([[1, -1], [-1, 1]])).value == 0
    # A = [[2, -1], [-1, 1]]: p = 2/5, value 1/5 (by hand: 2p - (1-p) = -p + (1-p)).
    solution = zero_sum_solution(zero_sum_game([[2, -1], [-1, 1]]))
    assert solution.value == Fraction(1, 5)
    assert solution.row_strategy == (Fraction(2, 5), Fraction(3, 5))


def test_saddle_point_game_value() -> None:
    solution = zero_sum_solution(zero_sum_game([[3, 5], [1, 2]]))
    assert (solution.value, solution.row_strategy, solution.col_strategy) == (3, (1, 0), (1, 0))


def test_zero_sum_refuses_general_sum_games() -> None:
    with pytest.raises(DomainError):
        zero_sum_solution(bimatrix([[1, 0], [0, 1]], [[1, 0], [0, 1]]))


def test_security_levels_of_the_lecture_game() -> None:
    row, col = security_levels(parse_game(LECTURE))
    assert (row.pure, row.mixed, row.mixed_strategy) == (2, 2, (0, 1))
    # Column: 4y + 2(1-y) = y + 3(1-y) at y = 1/4, guaranteeing 5/2.
    assert (col.pure, col.mixed) == (2, Fraction(5, 2))
    assert col.mixed_strategy == (Fraction(1, 4), Fraction(3, 4))


def test_a_diagonal_game_with_a_support_of_60_is_certified_exactly() -> None:
    # A = diag(1, ..., 60): against x the column player picks the smallest i * x_i, so the row
    # player equalises them: x_i proportional to 1/i, and the value is 1 / H_60 (H the
    # harmonic number); the column player mixes the same way. The whole support is optimal.
    size = 60
    matrix = [[i + 1 if i == j else 0 for j in range(size)] for i in range(size)]
    harmonic = sum(Fraction(1, i) for i in range(1, size + 1))
    solution = zero_sum_solution(zero_sum_game(matrix))
    assert solution.exact
    assert solution.value == 1 / harmonic
    expected = tuple(Fraction(1, i) / harmonic for i in range(1, size + 1))
    assert solution.row_strategy == expected
    assert solution.col_strategy == expected
