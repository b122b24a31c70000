"""Extreme equilibria by vertex enumeration: classic games against their published equilibria
(``classic_games.json``), degenerate games, properties, limits, and cross-checks with nashpy
on seeded random games.

For the nashpy checks, payoffs with six random decimals make the games nondegenerate (with
overwhelming probability; checked). The truth is an exact support enumeration in
``tests/reference.py``; nashpy's float profiles count once verified exactly
(``nashpy_profiles.py``).
"""

from __future__ import annotations

import json
import random
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import nashpy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria.equilibrium_set import EquilibriumSet
from analysis.equilibria.qhull_vertices import most_vertices, single_threaded_product
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from games.errors import DomainError, ExactSizeError, LimitExceededError
from games.limits import Limits, limited
from games.matrices.model import bimatrix
from games.matrices.parser import parse_game
from tests.analysis.equilibria.nashpy_profiles import exact_matrix, verified_profile
from tests.reference import exact_support_enumeration
from tests.strategies import bimatrices

CASES = json.loads((Path(__file__).with_name("classic_games.json")).read_text())["games"]


def as_set(found: EquilibriumSet) -> set[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    return {
        (
            tuple(str(p) for p in e.row),
            tuple(str(q) for q in e.col),
            tuple(str(u) for u in e.payoffs),
        )
        for e in found.equilibria
    }


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


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("size", [(2, 3), (3, 3), (4, 4), (5, 4)])
def test_all_equilibria_match_exact_support_enumeration(seed: int, size: tuple[int, int]) -> None:
    rng = np.random.default_rng(seed)
    first = np.round(rng.random(size), 6)
    second = np.round(rng.random(size), 6)
    exact_first, exact_second = exact_matrix(first), exact_matrix(second)
    truth = exact_support_enumeration(exact_first, exact_second)
    found = extreme_equilibria(bimatrix(exact_first, exact_second))
    assert not found.degenerate
    ours = {(tuple(e.row), tuple(e.col)) for e in found.equilibria}
    assert ours == set(truth)
    # nashpy, where its answer is verified, agrees; it never finds one the truth lacks
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = list(nashpy.Game(first, second).support_enumeration())
    verified = {verified_profile(x, y, exact_first, exact_second) for x, y in reference} - {None}
    assert verified <= ours


def test_exact_reference_finds_what_float_support_enumeration_misses() -> None:
    # seed 4, 5x4: nashpy's float support enumeration finds 2 of the 3 equilibria; the
    # third, (0, 0, .685..., 0, .314...) against (0, .., .153..., .846...), has zero
    # deviation gain in exact arithmetic
    rng = np.random.default_rng(4)
    first = np.round(rng.random((5, 4)), 6)
    second = np.round(rng.random((5, 4)), 6)
    truth = exact_support_enumeration(exact_matrix(first), exact_matrix(second))
    found = extreme_equilibria(bimatrix(exact_matrix(first), exact_matrix(second)))
    assert len(truth) == len(found.equilibria) == 3


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_classic_games_have_their_published_equilibria(case: dict[str, Any]) -> None:
    game = parse_game(case)
    found = extreme_equilibria(game)
    expected = {(tuple(r), tuple(c), tuple(u)) for r, c, u in case["equilibria"]}
    assert as_set(found) == expected
    assert found.degenerate is case["degenerate"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_float_mode_finds_the_same_equilibria(case: dict[str, Any]) -> None:
    found = extreme_equilibria(parse_game(case), exact=False)
    expected = sorted(
        (tuple(float(Fraction(p)) for p in r), tuple(float(Fraction(q)) for q in c))
        for r, c, _ in case["equilibria"]
    )
    got = sorted((e.row, e.col) for e in found.equilibria)
    assert len(got) == len(expected)
    for (row, col), (want_row, want_col) in zip(got, expected, strict=True):
        assert row == pytest.approx(want_row) and col == pytest.approx(want_col)


def test_degenerate_game_reports_its_continuum_of_equilibria() -> None:
    # von Stengel's degenerate 3x2 game: against T the column player is indifferent, so
    # (T, (y, 1-y)) is an equilibrium for every y in [2/3, 1] (hand-checked: T pays 3,
    # M pays 5 - 3y, B pays 6 - 6y).
    found = extreme_equilibria(bimatrix([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]]))
    continua = [c for c in found.components if c.continuum]
    assert len(continua) == 1
    (subset,) = continua[0].subsets
    rows = {found.row_vertices[r] for r in subset.row}
    cols = {found.col_vertices[c] for c in subset.col}
    assert rows == {(1, 0, 0)}
    assert cols == {(1, 0), (Fraction(2, 3), Fraction(1, 3))}


def test_all_indifferent_game_is_one_square_of_equilibria() -> None:
    found = extreme_equilibria(bimatrix([[1, 1], [1, 1]], [[5, 5], [5, 5]]))
    assert found.degenerate
    assert len(found.equilibria) == 4
    (component,) = found.components
    (subset,) = component.subsets
    assert len(subset.row) == 2 and len(subset.col) == 2


def test_single_row_game_lists_every_best_response() -> None:
    found = extreme_equilibria(bimatrix([[1, 2, 2]], [[0, 1, 1]]))
    assert {e.col for e in found.equilibria} == {(0, 1, 0), (0, 0, 1)}
    assert found.degenerate


def test_fractional_payoffs_areexact_matrix() -> None:
    game = parse_game({"A": [["1/2", 0], [0, "1/4"]], "B": [["0.25", 0], [0, "0.5"]]})
    found = extreme_equilibria(game)
    mixed = [e for e in found.equilibria if 0 < e.row[0] < 1]
    # Scaling BoS by 1/4 keeps the mixed equilibrium (2/3, 1/3), (1/3, 2/3); payoffs 1/6.
    assert [(e.row, e.col, e.payoffs) for e in mixed] == [
        (
            (Fraction(2, 3), Fraction(1, 3)),
            (Fraction(1, 3), Fraction(2, 3)),
            (Fraction(1, 6), Fraction(1, 6)),
        )
    ]


def test_limits_and_domain() -> None:
    with pytest.raises(LimitExceededError):
        extreme_equilibria(
            bimatrix(np.zeros((16, 2), dtype=int).tolist(), np.zeros((16, 2), dtype=int).tolist())
        )
    three = parse_game({"payoff_arrays": [[[[0]]], [[[0]]], [[[0]]]]})
    with pytest.raises(DomainError):
        extreme_equilibria(three)


def test_badly_scaled_game_falls_back_to_exact_enumeration() -> None:
    # Battle of the sexes with a payoff of 10^30: the row player's 10^30 against 1 gives
    # p = 10^30 / (10^30 + 1), q = 1 / (10^30 + 1) by the indifference conditions.
    big = 10**30
    found = extreme_equilibria(bimatrix([[big, 0], [0, 1]], [[1, 0], [0, big]]))
    p, q = Fraction(big, big + 1), Fraction(1, big + 1)
    assert {(e.row, e.col) for e in found.equilibria} == {
        ((0, 1), (0, 1)),
        ((1, 0), (1, 0)),
        ((p, 1 - p), (q, 1 - q)),
    }
    assert not found.degenerate


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


@settings(max_examples=80, deadline=None)
@given(bimatrices())
def test_float_mode_agrees_with_exact_mode(game: tuple[Matrix, Matrix]) -> None:
    first, second = game
    exact = extreme_equilibria(bimatrix(first, second))
    floats = extreme_equilibria(bimatrix(first, second), exact=False)
    assert len(exact.equilibria) == len(floats.equilibria)
    assert exact.degenerate == floats.degenerate


@pytest.mark.parametrize(
    ("dimension", "facets", "vertices"),
    [
        (2, 5, 5),  # a pentagon
        (3, 6, 8),  # the cube
        (3, 4, 4),  # the tetrahedron
        (4, 5, 5),  # the 4-simplex
        (15, 30, 341088),  # the best-response polytope of a 15x15 game, at most
    ],
)
def test_upper_bound_theorem(dimension: int, facets: int, vertices: int) -> None:
    assert most_vertices(dimension, facets) == vertices


def test_equilibrium_probabilities_past_the_exact_size_limit_are_refused() -> None:
    # matching pennies with 60-digit payoffs: the one equilibrium is fully mixed and its
    # probabilities (from the indifference conditions) have about 60 digits
    rng = random.Random(9)
    n = 10**60
    r = [rng.randrange(n) for _ in range(8)]
    row = [[2 * n + r[0], r[1]], [r[2], 2 * n + r[3]]]
    col = [[r[4], 2 * n + r[5]], [2 * n + r[6], r[7]]]
    game = bimatrix(row, col)
    with limited(Limits(max_exact_digits=40)), pytest.raises(ExactSizeError):
        extreme_equilibria(game)
    with limited(Limits(max_exact_digits=200)):
        (equilibrium,) = extreme_equilibria(game).equilibria
    p, q = equilibrium.row[0], equilibrium.col[0]
    # the column player is indifferent between its columns, the row player between rows
    assert p * col[0][0] + (1 - p) * col[1][0] == p * col[0][1] + (1 - p) * col[1][1]
    assert q * row[0][0] + (1 - q) * row[0][1] == q * row[1][0] + (1 - q) * row[1][1]
    assert len(str(Fraction(p).denominator)) > 40


def test_float_search_on_payoffs_spanning_450_orders_of_magnitude() -> None:
    # coordination on 1e300 vs 1e-150: dividing by the largest payoff made the small ones
    # underflow, the polytope unbounded in float and its vertices overflow (a RuntimeWarning,
    # an error under this suite's filterwarnings). Each player mixes to make the other
    # indifferent: p tiny = (1 - p) big, q big = (1 - q) tiny.
    big, tiny = Fraction(10**300), Fraction(1, 10**150)
    game = bimatrix([[big, 0], [0, tiny]], [[tiny, 0], [0, big]])
    p, q = big / (big + tiny), tiny / (big + tiny)
    found = [(e.row, e.col) for e in extreme_equilibria(game).equilibria]
    assert found == [((0, 1), (0, 1)), ((p, 1 - p), (q, 1 - q)), ((1, 0), (1, 0))]


@pytest.mark.parametrize("vertices", [0, 1, 694, 695, 696, 5000])
def test_blocked_product_is_the_matrix_product(vertices: int) -> None:
    # blocks of 200_000 // (12 * 24) = 694 rows: on both sides of a block's end
    rng = np.random.default_rng(vertices)
    left, right = rng.random((vertices, 12)), rng.random((12, 24))
    blocked = single_threaded_product(left, right)
    assert blocked.shape == (vertices, 24)
    assert np.allclose(blocked, left @ right, rtol=1e-14, atol=0.0)
