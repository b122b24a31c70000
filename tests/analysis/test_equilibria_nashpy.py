"""Cross-checks against nashpy on seeded random games.

Payoffs with six random decimals make the games nondegenerate (with overwhelming
probability; checked). The truth is an exact support enumeration in
``tests/reference.py``; nashpy works in floats and can miss an equilibrium or report a
near one, so its profiles are compared only once they are verified exactly (snapped to
the exact mix on their supports and checked to be an equilibrium in fractions).
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import nashpy
import numpy as np
import pytest

from analysis.equilibria.lemke_howson import lemke_howson
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from analysis.equilibria.zero_sum import solve_matrix_game
from games.matrices.model import bimatrix, exact_array
from tests.reference import exact_support_enumeration, indifferent_mix, is_exact_equilibrium

Profile = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]


def _exact(matrix: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(repr(v)) for v in row] for row in matrix.tolist()]


def _verified(
    x: np.ndarray, y: np.ndarray, first: list[list[Fraction]], second: list[list[Fraction]]
) -> Profile | None:
    """nashpy's profile snapped to the exact mix on its supports, if that is an equilibrium
    close to what nashpy reported; ``None`` for a profile that cannot be verified."""
    rows = tuple(int(i) for i in np.flatnonzero(x > 1e-12))
    cols = tuple(int(j) for j in np.flatnonzero(y > 1e-12))
    transposed = [list(column) for column in zip(*second, strict=True)]
    y_part = indifferent_mix(first, rows, cols)
    x_part = indifferent_mix(transposed, cols, rows)
    if x_part is None or y_part is None:
        return None
    row = [Fraction(0)] * len(x)
    col = [Fraction(0)] * len(y)
    for i, p in zip(rows, x_part, strict=True):
        row[i] = p
    for j, q in zip(cols, y_part, strict=True):
        col[j] = q
    close = np.allclose(x, [float(p) for p in row], atol=1e-9) and np.allclose(
        y, [float(q) for q in col], atol=1e-9
    )
    if not close or not is_exact_equilibrium(first, second, row, col):
        return None
    return tuple(row), tuple(col)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("size", [(2, 3), (3, 3), (4, 4), (5, 4)])
def test_all_equilibria_match_exact_support_enumeration(seed: int, size: tuple[int, int]) -> None:
    rng = np.random.default_rng(seed)
    first = np.round(rng.random(size), 6)
    second = np.round(rng.random(size), 6)
    exact_first, exact_second = _exact(first), _exact(second)
    truth = exact_support_enumeration(exact_first, exact_second)
    found = extreme_equilibria(bimatrix(exact_first, exact_second))
    assert not found.degenerate
    ours = {(tuple(e.row), tuple(e.col)) for e in found.equilibria}
    assert ours == set(truth)
    # nashpy, where its answer is verified, agrees; it never finds one the truth lacks
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = list(nashpy.Game(first, second).support_enumeration())
    verified = {_verified(x, y, exact_first, exact_second) for x, y in reference} - {None}
    assert verified <= ours


def test_exact_reference_finds_what_float_support_enumeration_misses() -> None:
    # seed 4, 5x4: nashpy's float support enumeration finds 2 of the 3 equilibria; the
    # third, (0, 0, .685..., 0, .314...) against (0, .., .153..., .846...), has zero
    # deviation gain in exact arithmetic
    rng = np.random.default_rng(4)
    first = np.round(rng.random((5, 4)), 6)
    second = np.round(rng.random((5, 4)), 6)
    truth = exact_support_enumeration(_exact(first), _exact(second))
    found = extreme_equilibria(bimatrix(_exact(first), _exact(second)))
    assert len(truth) == len(found.equilibria) == 3


@pytest.mark.parametrize("seed", range(4))
def test_lemke_howson_follows_nashpy_path_for_every_label(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    first, second = np.round(rng.random((4, 4)), 6), np.round(rng.random((4, 4)), 6)
    exact_first, exact_second = _exact(first), _exact(second)
    game = bimatrix(exact_first, exact_second)
    compared = 0
    for label in range(8):
        ours = lemke_howson(game, label)
        assert _verified(np.array(ours.row), np.array(ours.col), exact_first, exact_second)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x, y = nashpy.Game(first, second).lemke_howson(initial_dropped_label=label)
        if _verified(x, y, exact_first, exact_second) is None:
            continue  # nashpy's float pivoting ended off an equilibrium: nothing to compare
        compared += 1
        assert ours.row == pytest.approx(tuple(x), abs=1e-9)
        assert ours.col == pytest.approx(tuple(y), abs=1e-9)
    assert compared


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
