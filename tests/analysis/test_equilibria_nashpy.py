"""Cross-checks against nashpy on seeded random games.

Payoffs with six random decimals make the games nondegenerate (with
overwhelming probability; checked), where nashpy's support enumeration finds
every equilibrium. (Our side reads the decimals exactly.)
"""

from __future__ import annotations

import warnings

import nashpy
import numpy as np
import pytest

from analysis.lemke_howson import lemke_howson
from analysis.mixed_equilibria import extreme_equilibria
from analysis.zero_sum import solve_matrix_game
from games.matrix import bimatrix, exact_array


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("size", [(2, 3), (3, 3), (4, 4), (5, 4)])
def test_all_equilibria_match_nashpy_support_enumeration(seed: int, size: tuple[int, int]) -> None:
    rng = np.random.default_rng(seed)
    first = np.round(rng.random(size), 6)
    second = np.round(rng.random(size), 6)
    found = extreme_equilibria(bimatrix(first.tolist(), second.tolist()))
    assert not found.degenerate
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = list(nashpy.Game(first, second).support_enumeration())
    ours = sorted(
        (tuple(float(p) for p in e.row), tuple(float(q) for q in e.col)) for e in found.equilibria
    )
    theirs = sorted((tuple(x), tuple(y)) for x, y in reference)
    assert len(ours) == len(theirs)
    for (row, col), (x, y) in zip(ours, theirs, strict=True):
        assert row == pytest.approx(x, abs=1e-9) and col == pytest.approx(y, abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_lemke_howson_follows_nashpy_path_for_every_label(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    first, second = rng.random((4, 4)), rng.random((4, 4))
    game = bimatrix(first.tolist(), second.tolist())
    for label in range(8):
        ours = lemke_howson(game, label)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x, y = nashpy.Game(first, second).lemke_howson(initial_dropped_label=label)
        assert ours.row == pytest.approx(tuple(x), abs=1e-9)
        assert ours.col == pytest.approx(tuple(y), abs=1e-9)
        assert ours.max_deviation_gain < 1e-9


@pytest.mark.parametrize("seed", range(5))
def test_zero_sum_value_matches_nashpy_linear_program(seed: int) -> None:
    rng = np.random.default_rng(200 + seed)
    matrix = rng.integers(-50, 50, (7, 9))
    solution = solve_matrix_game(exact_array(matrix.tolist()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x, y = nashpy.Game(matrix).linear_program()
    assert solution.exact
    assert float(solution.value) == pytest.approx(float(x @ matrix @ y), abs=1e-9)
