"""The dense simplex of zero-sum games: textbook values, HiGHS's answers, and the compiled
simplex pivot for pivot against its numpy mirror."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria import maxmin_simplex
from analysis.equilibria.maxmin_simplex import (
    max_pivots,
    python_maxmin,
    python_simplex,
    simplex_maxmin,
)
from analysis.equilibria.zero_sum import maxmin_lp, solve_matrix_game
from games.limits import Deadline
from games.matrices.model import exact_array

UNLIMITED = Deadline(None)


def implementations() -> list[bool]:
    return [False, True] if maxmin_simplex.COMPILED else [False]


def test_the_set_up_built_the_compiled_simplex() -> None:
    # the README set-up compiles it; a silent fallback would hide a broken build
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python simplex was asked for")
    assert maxmin_simplex.COMPILED


@pytest.mark.parametrize("compiled", implementations())
@pytest.mark.parametrize(
    ("matrix", "value", "row", "col"),
    [
        # matching pennies: 0, both mix evenly
        ([[1, -1], [-1, 1]], 0.0, (0.5, 0.5), (0.5, 0.5)),
        # rock-paper-scissors: 0, uniform
        ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], 0.0, (1 / 3,) * 3, (1 / 3,) * 3),
        # saddle point at (row 1, column 0): max of row minima 2 = min of column maxima 2
        ([[1, 5], [2, 3]], 2.0, (0.0, 1.0), (1.0, 0.0)),
        # by hand: x(3) + (1-x)(-2) = x(-1) + (1-x)(4) gives x = 6/10, v = 1; y likewise 3/5
        ([[3, -1], [-2, 4]], 1.0, (0.6, 0.4), (0.5, 0.5)),
        # a constant game: every strategy is optimal; the simplex stops at its first pivot
        ([[7, 7], [7, 7]], 7.0, (1.0, 0.0), (1.0, 0.0)),
    ],
)
def test_textbook_games(
    compiled: bool,
    matrix: list[list[int]],
    value: float,
    row: tuple[float, ...],
    col: tuple[float, ...],
) -> None:
    found = simplex_maxmin(np.array(matrix, dtype=np.float64), UNLIMITED, compiled)
    assert found is not None
    assert found[0] == pytest.approx(value, abs=1e-12)
    assert found[1] == pytest.approx(row, abs=1e-12)
    assert found[2] == pytest.approx(col, abs=1e-12)


@pytest.mark.parametrize("compiled", implementations())
@pytest.mark.parametrize("size", [(1, 1), (1, 4), (4, 1), (3, 7), (12, 5), (40, 40), (90, 60)])
def test_values_and_guarantees_agree_with_highs(compiled: bool, size: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(size))
    values = np.round(rng.normal(size=size) * 100, 3)
    found = simplex_maxmin(values, UNLIMITED, compiled)
    assert found is not None
    value, x, y = found
    assert value == pytest.approx(maxmin_lp(values)[0], abs=1e-7)
    # the strategies are optimal: each guarantees the value against every pure reply
    assert min(np.array(x) @ values) == pytest.approx(value, abs=1e-7)
    assert max(values @ np.array(y)) == pytest.approx(value, abs=1e-7)
    assert min(x) >= 0 and min(y) >= 0
    assert sum(x) == pytest.approx(1.0) and sum(y) == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(min_value=1, max_value=9),
    cols=st.integers(min_value=1, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    spread=st.sampled_from([2, 5, 1000]),
)
def test_compiled_simplex_is_the_numpy_mirror_pivot_for_pivot(
    rows: int, cols: int, seed: int, spread: int
) -> None:
    # small integer ranges make degenerate games, where the pivot rules' ties matter
    if not maxmin_simplex.COMPILED:
        pytest.skip("the compiled simplex is not built (or ARBITER_PURE_PYTHON=1)")
    values = np.random.default_rng(seed).integers(0, spread, (rows, cols)).astype(np.float64)
    assert maxmin_simplex.KERNEL is not None
    compiled = maxmin_simplex.KERNEL.compiled_maxmin(values, max_pivots(rows, cols))
    mirror = python_maxmin(values, max_pivots(rows, cols))
    assert compiled[0] == mirror[0] == 0
    assert compiled[4] == mirror[4]  # the same number of pivots
    assert compiled[1] == mirror[1]  # the same value, to the last bit
    assert compiled[2] == pytest.approx(mirror[2], rel=1e-14, abs=1e-15)
    assert compiled[3] == pytest.approx(mirror[3], rel=1e-14, abs=1e-15)
    assert compiled[5] == pytest.approx(mirror[5], abs=1e-12)


def test_out_of_pivots_falls_back_to_highs(monkeypatch: pytest.MonkeyPatch) -> None:
    values = np.array([[3.0, -1.0], [-2.0, 4.0]])
    status, *_ = python_simplex(values - values.min() + 1.0, 0)
    assert status == 1
    monkeypatch.setattr(maxmin_simplex, "max_pivots", lambda rows, cols: 0)
    assert simplex_maxmin(values, UNLIMITED) is None
    # the zero-sum solver then asks HiGHS, and the exact answer is certified as before
    solution = solve_matrix_game(exact_array([[3, -1], [-2, 4]]))
    assert solution.exact and solution.value == 1
    assert solution.row_strategy == (pytest.approx(0.6), pytest.approx(0.4))


def test_non_finite_payoffs_are_left_to_highs() -> None:
    assert python_maxmin(np.array([[np.inf, 0.0]]), 10)[0] == 2
    assert simplex_maxmin(np.array([[np.inf, 0.0]]), UNLIMITED, False) is None
