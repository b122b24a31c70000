"""Matrix algorithms under hostile sizes: exact envelopes in n log n, vertex bounds,
deadlines inside exact elimination, no float overflow on payoffs near the cap."""

from __future__ import annotations

import random
import time
from fractions import Fraction

import pytest

from analysis.equilibria.drawing import _envelope
from analysis.equilibria.exact_linear_algebra import solve_exact
from analysis.equilibria.iterated_dominance import iterated_elimination
from analysis.equilibria.lemke_howson import lemke_howson
from analysis.equilibria.vertex_enumeration import extreme_equilibria, most_vertices
from games.errors import ExactSizeError, TimeLimitError
from games.limits import Deadline, Limits, limited
from games.matrices.model import bimatrix


def _brute_envelope(
    lines: list[tuple[str, Fraction, Fraction]], lower: bool, t: Fraction
) -> Fraction:
    pick = min if lower else max
    return pick(u1 * t + u2 * (1 - t) for _, u1, u2 in lines)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("lower", [False, True])
def test_envelope_corners_lie_on_the_envelope_and_bound_it(seed: int, lower: bool) -> None:
    rng = random.Random(seed)
    count = rng.randint(1, 12)
    values = [-3, -1, 0, 1, 2, 5]  # few values: parallel and coincident lines, shared crossings
    lines = [
        (f"L{k}", Fraction(rng.choice(values)), Fraction(rng.choice(values))) for k in range(count)
    ]
    corners = _envelope(lines, lower, Deadline(None))
    assert corners[0][0] == 0 and corners[-1][0] == 1
    assert [t for t, _ in corners] == sorted({t for t, _ in corners})
    for t, value in corners:
        assert value == _brute_envelope(lines, lower, t)
    # between corners the envelope is one line: the polyline matches it everywhere
    for (t0, v0), (t1, v1) in zip(corners, corners[1:], strict=False):
        for k in range(1, 5):
            t = t0 + (t1 - t0) * Fraction(k, 5)
            assert v0 + (v1 - v0) * Fraction(k, 5) == _brute_envelope(lines, lower, t)


def test_envelope_of_crossing_lines_has_the_known_corners() -> None:
    # u = t, u = 1 - t, u = 1/4: the lower envelope is t up to 1/4, then 1/4 up to 3/4,
    # then 1 - t; the upper one is 1 - t up to 1/2, then t
    lines = [("a", Fraction(1), Fraction(0)), ("b", Fraction(0), Fraction(1))]
    lines.append(("c", Fraction(1, 4), Fraction(1, 4)))
    corners = _envelope(lines, True, Deadline(None))
    assert corners == [
        (0, 0),
        (Fraction(1, 4), Fraction(1, 4)),
        (Fraction(3, 4), Fraction(1, 4)),
        (1, 0),
    ]
    assert _envelope(lines, False, Deadline(None)) == [
        (0, 1),
        (Fraction(1, 2), Fraction(1, 2)),
        (1, 1),
    ]


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


def test_exact_elimination_stops_at_the_deadline() -> None:
    rng = random.Random(1)
    size = 80
    rows = [[rng.randrange(10**50) for _ in range(size)] for _ in range(size)]
    start = time.perf_counter()
    with limited(Limits(time_limit=0.05)), pytest.raises(TimeLimitError):
        solve_exact(rows, [1] * size)
    assert time.perf_counter() - start < 1.0


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


def test_mixed_dominance_with_payoffs_past_the_float_range_once_scaled() -> None:
    # scaled to integers by a 200-digit denominator, the payoffs reach 1e500: the LP runs on
    # their ratios. R3 pays b/3 against both columns; 1/2 R1 + 1/2 R2 pays b/2 (Fudenberg
    # and Tirole's example of domination by a mixed strategy, scaled)
    big = Fraction(10**300) + Fraction(1, 10**199 + 7)
    row = [[big, 0], [0, big], [big / 3, big / 3]]
    game = bimatrix(row, [[0, 0], [0, 0], [0, 0]])
    result = iterated_elimination(game, mixed=True)
    assert result.steps[0].strategy == 2
    assert result.steps[0].dominated_by == ((0, Fraction(1, 2)), (1, Fraction(1, 2)))


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
