"""Exact Gaussian elimination under a deadline."""

from __future__ import annotations

import random
import time

import pytest

from analysis.equilibria.exact_linear_algebra import solve_exact
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
