"""Exact Gaussian elimination (with Fractions, and fraction-free on integers) under a deadline."""

from __future__ import annotations

import random
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria.exact_linear_algebra import solve_exact, solve_integer
from games.errors import TimeLimitError
from games.limits import Limits, limited


def test_exact_elimination_stops_at_the_deadline() -> None:
    rng = random.Random(1)
    size = 80
    rows = [[rng.randrange(10**50) for _ in range(size)] for _ in range(size)]
    start = time.perf_counter()
    with limited(Limits(time_limit=0.05)), pytest.raises(TimeLimitError):
        solve_exact(rows, [1] * size)
    assert time.perf_counter() - start < 1.0


def as_fractions(found: tuple[list[int], int] | None) -> list[Fraction] | None:
    if found is None:
        return None
    numerators, denominator = found
    assert denominator > 0
    return [Fraction(n, denominator) for n in numerators]


def test_integer_elimination_of_hand_solved_systems() -> None:
    # 2x + y = 5, x - y = 1: x = 2, y = 1 (over the determinant, -3, made positive)
    assert solve_integer([[2, 1], [1, -1]], [5, 1]) == ([6, 3], 3)
    # x + 2y = 1, 3x + 4y = 1: x = -1, y = 1
    assert as_fractions(solve_integer([[1, 2], [3, 4]], [1, 1])) == [-1, 1]
    # 2x = 1, 4y = 3: x = 1/2, y = 3/4
    assert as_fractions(solve_integer([[2, 0], [0, 4]], [1, 3])) == [Fraction(1, 2), Fraction(3, 4)]
    assert solve_integer([[3, 3], [1, 1]], [5, 1]) is None  # singular
    assert solve_integer([[1, 0], [0, 1], [1, 1]], [1, 1, 3]) is None  # inconsistent
    assert as_fractions(solve_integer([[1, 0], [0, 1], [1, 1]], [1, 1, 2])) == [1, 1]
    assert solve_integer([[1, 1]], [1]) is None  # too few equations


@settings(max_examples=200, deadline=None)
@given(
    unknowns=st.integers(min_value=1, max_value=6),
    extra=st.integers(min_value=0, max_value=3),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    consistent=st.booleans(),
)
def test_integer_elimination_agrees_with_fraction_elimination(
    unknowns: int, extra: int, seed: int, consistent: bool
) -> None:
    rng = random.Random(seed)
    rows = [[rng.randint(-3, 3) for _ in range(unknowns)] for _ in range(unknowns + extra)]
    if consistent:  # right-hand sides of a known rational point, cleared of denominators
        point = [Fraction(rng.randint(-5, 5), rng.randint(1, 4)) for _ in range(unknowns)]
        scale = 12
        rows = [[v * scale for v in row] for row in rows]
        rhs = [int(sum(a * x for a, x in zip(row, point, strict=True)) * 4) for row in rows]
        rows = [[v * 4 for v in row] for row in rows]
    else:
        rhs = [rng.randint(-5, 5) for _ in rows]
    assert as_fractions(solve_integer(rows, rhs)) == solve_exact(rows, rhs)


def test_integer_elimination_stops_at_the_deadline() -> None:
    rng = random.Random(1)
    size = 120
    rows = [[rng.randrange(10**50) for _ in range(size)] for _ in range(size)]
    start = time.perf_counter()
    with limited(Limits(time_limit=0.05)), pytest.raises(TimeLimitError):
        solve_integer(rows, [1] * size)
    assert time.perf_counter() - start < 1.0
