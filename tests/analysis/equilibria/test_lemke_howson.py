"""Lemke-Howson: a known game, nashpy's path for every label, payoffs near the cap, deadlines."""

from __future__ import annotations

import random
import time
import warnings

import nashpy
import numpy as np
import pytest

from analysis.equilibria.lemke_howson import lemke_howson
from games.errors import InvalidInputError, TimeLimitError
from games.limits import Deadline
from games.matrices.model import bimatrix
from tests.analysis.equilibria.nashpy_profiles import exact_matrix, verified_profile


@pytest.mark.parametrize("seed", range(4))
def test_lemke_howson_follows_nashpy_path_for_every_label(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    first, second = np.round(rng.random((4, 4)), 6), np.round(rng.random((4, 4)), 6)
    exact_first, exact_second = exact_matrix(first), exact_matrix(second)
    game = bimatrix(exact_first, exact_second)
    compared = 0
    for label in range(8):
        ours = lemke_howson(game, label)
        assert verified_profile(np.array(ours.row), np.array(ours.col), exact_first, exact_second)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x, y = nashpy.Game(first, second).lemke_howson(initial_dropped_label=label)
        if verified_profile(x, y, exact_first, exact_second) is None:
            continue  # nashpy's float pivoting ended off an equilibrium: nothing to compare
        compared += 1
        assert ours.row == pytest.approx(tuple(x), abs=1e-9)
        assert ours.col == pytest.approx(tuple(y), abs=1e-9)
    assert compared


def test_lemke_howson_on_payoffs_near_the_cap_matches_the_scaled_game() -> None:
    # the equilibrium of (A, B) is that of (A / 1e300, B / 1e300); unscaled pivots overflowed
    big = 10**300
    small_a, small_b = [[3, 0], [5, 1]], [[3, 5], [0, 1]]  # prisoner's dilemma
    scaled = lemke_howson(
        bimatrix([[v * big for v in r] for r in small_a], [[v * big for v in r] for r in small_b])
    )
    plain = lemke_howson(bimatrix(small_a, small_b))
    assert scaled.row == pytest.approx(plain.row) and scaled.col == pytest.approx(plain.col)
    assert scaled.row == pytest.approx((0.0, 1.0))  # defect
    assert scaled.payoffs == pytest.approx((1e300, 1e300))


def test_lemke_howson_stops_at_the_deadline() -> None:
    rng = random.Random(4)
    game = bimatrix(
        [[rng.random() for _ in range(150)] for _ in range(600)],
        [[rng.random() for _ in range(150)] for _ in range(600)],
    )
    start = time.perf_counter()
    with pytest.raises(TimeLimitError):
        lemke_howson(game, deadline=Deadline(0.0))
    assert time.perf_counter() - start < 1.0


def test_lemke_howson_on_battle_of_the_sexes() -> None:
    game = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    found = {
        (round(r.row[0], 9), round(r.col[0], 9))
        for r in (lemke_howson(game, label) for label in range(4))
    }
    assert found <= {(1.0, 1.0), (0.0, 0.0), (round(2 / 3, 9), round(1 / 3, 9))}
    with pytest.raises(InvalidInputError):
        lemke_howson(game, 4)
