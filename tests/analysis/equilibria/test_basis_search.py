"""The exact vertex search over bases: hand-counted polytopes, every basis tried in rationals,
the compiled search against its Python mirror, and the equilibria against the qhull path."""

from __future__ import annotations

import os
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.equilibria import basis_search, best_response_polytopes
from analysis.equilibria.basis_search import (
    PythonBasisSearch,
    exact_vertices,
    fits_in_64_bits,
)
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from games.errors import TimeLimitError
from games.limits import Deadline
from games.matrices.model import NormalFormGame, bimatrix

UNLIMITED = Deadline(None)

Vertices = dict[int, tuple[Fraction, ...]]


def implementations() -> list[bool]:
    return [False, True] if basis_search.COMPILED else [False]


def as_matrix(rows: list[list[int]]) -> np.ndarray:
    matrix = np.empty((len(rows), len(rows[0])), dtype=object)
    matrix[:] = rows
    return matrix


def searched(rows: list[list[int]], own_first: bool, compiled: bool) -> Vertices:
    found = exact_vertices(as_matrix(rows), own_first, UNLIMITED, compiled)
    assert found is not None
    return {
        int(labels): tuple(Fraction(int(n), int(d)) for n in numerators)
        for labels, numerators, d in zip(
            found.labels, found.numerators, found.denominators, strict=True
        )
    }


def every_basis(rows: list[list[int]], own_first: bool) -> Vertices:
    """Every vertex other than 0 by solving every square system of constraints in rationals."""
    dimension = len(rows[0])
    # constraint k of a z <= b, numbered as the labels are
    own = [([-1 if i == k else 0 for i in range(dimension)], 0) for k in range(dimension)]
    payoff = [(row, 1) for row in rows]
    system = own + payoff if own_first else payoff + own
    found: Vertices = {}
    for chosen in combinations(range(len(system)), dimension):
        point = solve([system[k][0] for k in chosen], [system[k][1] for k in chosen])
        if point is None or not any(point):
            continue
        slacks = [b - sum(a * z for a, z in zip(row, point, strict=True)) for row, b in system]
        if min(slacks) < 0:
            continue
        found[sum(1 << k for k, s in enumerate(slacks) if s == 0)] = point
    return found


def solve(rows: list[list[int]], rhs: list[int]) -> tuple[Fraction, ...] | None:
    """Gauss-Jordan in rationals; None when singular."""
    n = len(rows)
    a = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(rows, rhs, strict=True)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return tuple(a[r][n] / a[r][r] for r in range(n))


def test_the_set_up_built_the_compiled_search() -> None:
    # the README set-up compiles it; a silent fallback would hide a broken build
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python path was asked for")
    assert basis_search.COMPILED


@pytest.mark.parametrize("compiled", implementations())
def test_square_pyramid_has_a_degenerate_apex(compiled: bool) -> None:
    # z >= 0, z1 + z3 <= 1, z2 + z3 <= 1: the unit square at z3 = 0 under the apex (0, 0, 1),
    # where four constraints meet in three dimensions
    one, half = Fraction(1), Fraction(0)
    found = searched([[1, 0, 1], [0, 1, 1]], True, compiled)
    assert found == {
        0b01110: (one, half, half),  # z2 = z3 = 0 (labels 1, 2), first constraint (label 3)
        0b10101: (half, one, half),
        0b11100: (one, one, half),
        0b11011: (half, half, one),  # the apex: z1 = z2 = 0 and both constraints
    }


@pytest.mark.parametrize("compiled", implementations())
@pytest.mark.parametrize("dimension", [1, 2, 4, 6])
def test_cube_has_every_corner(compiled: bool, dimension: int) -> None:
    # 0 <= z <= 1: 2^d corners, 0 left out; with the constraints first (own_first False),
    # corner c is tight on z_i <= 1 where c_i = 1 (label i) and z_i >= 0 elsewhere (d + i)
    identity = np.eye(dimension, dtype=int).tolist()
    found = searched(identity, False, compiled)
    corners = [c for c in product((0, 1), repeat=dimension) if any(c)]
    assert found == {
        sum(1 << (i if c[i] else dimension + i) for i in range(dimension)): tuple(
            Fraction(v) for v in c
        )
        for c in corners
    }


small_polytopes = st.integers(1, 4).flatmap(
    lambda dimension: st.integers(1, 5).flatmap(
        lambda constraints: st.lists(
            st.lists(st.integers(1, 3), min_size=dimension, max_size=dimension),
            min_size=constraints,
            max_size=constraints,
        )
    )
)


@settings(max_examples=150, deadline=None)
@given(small_polytopes, st.booleans())
def test_search_finds_every_vertex_that_every_basis_finds(
    rows: list[list[int]], own_first: bool
) -> None:
    # payoffs in {1, 2, 3}: ties everywhere, so most of these polytopes are degenerate
    truth = every_basis(rows, own_first)
    for compiled in implementations():
        assert searched(rows, own_first, compiled) == truth


def lexicographic_bases(rows: list[list[int]]) -> set[int]:
    """The bases (bit masks of basic variables z_0.., s_0..) of z >= 0, M z + s = 1 whose rows
    of [B^-1 1 | B^-1] are lexicographically positive: the feasible bases of the perturbed
    right-hand side 1 + (e, e^2, ...), found by trying every basis in rationals."""
    constraints, dimension = len(rows), len(rows[0])

    def column(v: int) -> list[int]:
        if v < dimension:
            return [row[v] for row in rows]
        return [int(r == v - dimension) for r in range(constraints)]

    found = set()
    for basic in combinations(range(constraints + dimension), constraints):
        matrix = [[column(v)[r] for v in basic] for r in range(constraints)]
        # B^-1 [1 | I], one right-hand side at a time
        sides = [[1] * constraints] + [
            [int(r == k) for r in range(constraints)] for k in range(constraints)
        ]
        solutions = [solve(matrix, side) for side in sides]
        if any(x is None for x in solutions):
            continue
        lex_rows = [[x[r] for x in solutions if x is not None] for r in range(constraints)]
        if all(next(v for v in row if v != 0) > 0 for row in lex_rows):
            found.add(sum(1 << v for v in basic))
    return found


@settings(max_examples=100, deadline=None)
@given(small_polytopes)
def test_search_visits_exactly_the_lexicographically_feasible_bases(rows: list[list[int]]) -> None:
    search = PythonBasisSearch(rows, True)
    while not search.advance(100):
        pass
    assert search.bases == lexicographic_bases(rows)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("own_first", [True, False])
def test_compiled_search_is_the_python_mirror_pivot_for_pivot(seed: int, own_first: bool) -> None:
    if not basis_search.COMPILED:
        pytest.skip("the compiled search is not built (or ARBITER_PURE_PYTHON=1)")
    rng = np.random.default_rng(seed)
    rows = rng.integers(1, 4, (9, 8)).tolist()
    python = PythonBasisSearch(rows, own_first)
    assert basis_search.KERNEL is not None
    compiled = basis_search.KERNEL.CompiledBasisSearch(np.array(rows, dtype=np.int64), own_first)
    while not python.advance(50):
        assert not compiled.advance(50)
        assert compiled.pivots == python.pivots
    assert compiled.advance(50)
    assert compiled.pivots == python.pivots > 100
    for ours, theirs in zip(compiled.vertices(), python.vertices(), strict=True):
        assert ours.tolist() == theirs.tolist()


@pytest.mark.parametrize("compiled", implementations())
def test_entries_past_2_to_the_62_are_left_to_qhull(compiled: bool) -> None:
    # Hadamard: the 2 x 2 minors of [1 | M | I] are provably below 2^62 only when the
    # products of column norms are; det [[2^31, 1], [1, 2^31]] = 2^62 - 1 still fits, so the
    # search answers, but det [[2^32, 1], [1, 2^32]] = 2^64 - 1 makes it give up
    assert fits_in_64_bits(as_matrix([[2**30, 1], [1, 2**30]]))
    assert not fits_in_64_bits(as_matrix([[2**31, 1], [1, 2**31]]))
    fitting = [[2**31, 1], [1, 2**31]]
    assert searched(fitting, True, compiled) == every_basis(fitting, True)
    for too_large in ([[2**32, 1], [1, 2**32]], [[10**30, 1], [1, 10**30]]):
        assert exact_vertices(as_matrix(too_large), True, UNLIMITED, compiled) is None


def degenerate_game(
    seed: int, size: int, levels: int = 3
) -> tuple[list[list[int]], list[list[int]]]:
    rng = np.random.default_rng(seed)
    shape = (size, size)
    return rng.integers(0, levels, shape).tolist(), rng.integers(0, levels, shape).tolist()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(("size", "levels"), [(7, 3), (10, 100)])
def test_equilibria_components_and_degeneracy_match_the_qhull_path(
    seed: int, size: int, levels: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # payoffs in {0, 1, 2}: degenerate, entries provably small; in {0, .., 99} at 10 x 10
    # Hadamard's bound passes 2^62 but the entries do not: the search answers both
    if not basis_search.COMPILED:
        pytest.skip("the compiled search is not built (or ARBITER_PURE_PYTHON=1)")
    game = bimatrix(*degenerate_game(seed, size, levels))
    found = extreme_equilibria(game)
    assert found.degenerate or levels > 3
    first = best_response_polytopes.positive_integers(game.row_payoffs, UNLIMITED)
    assert fits_in_64_bits(first) == (levels == 3)
    assert all(p.exact_points is not None for p in _polytopes(game))
    monkeypatch.setattr(basis_search, "COMPILED", False)
    assert all(p.exact_points is None for p in _polytopes(game))
    assert extreme_equilibria(game) == found
    assert repr(extreme_equilibria(game)) == repr(found)


def _polytopes(game: NormalFormGame) -> list[best_response_polytopes.BestResponsePolytope]:
    # the exact mode's two polytopes as extreme_equilibria builds them
    first = best_response_polytopes.positive_integers(game.row_payoffs, UNLIMITED)
    second = best_response_polytopes.positive_integers(game.col_payoffs, UNLIMITED)
    search = basis_search.COMPILED
    return [
        best_response_polytopes.best_response_polytope(second.T, True, UNLIMITED, search),
        best_response_polytopes.best_response_polytope(first, False, UNLIMITED, search),
    ]


def test_the_search_charges_the_deadline() -> None:
    # a 15x15 polytope with payoffs in {1, 2, 3} takes tens of thousands of pivots; a spent
    # deadline stops the search at its first charge, after PIVOTS_PER_CHECK pivots
    rows = (np.array(degenerate_game(2024, 15)[0]) + 1).tolist()
    for compiled in implementations():
        with pytest.raises(TimeLimitError):
            exact_vertices(as_matrix(rows), False, Deadline(0.0), compiled)
        # the float search charges each basis by its elimination (9 x 18^2 units at 9 x 9)
        with pytest.raises(TimeLimitError):
            basis_search.float_vertices(float_polytope(0, (9, 9)), True, Deadline(0.0), compiled)


def float_polytope(seed: int, size: tuple[int, int]) -> np.ndarray:
    # random payoffs in [1, 2] with four decimals, each column scaled to at most 1 (as
    # best_response_polytopes scales them): a simple polytope with probability one
    rng = np.random.default_rng(seed)
    payoff = np.round(rng.random(size), 4) + 1.0
    return np.ascontiguousarray(payoff / payoff.max(axis=0)[None, :])


def qhull_vertices(payoff: np.ndarray, own_first: bool) -> dict[int, list[float]]:
    constraints, dimension = payoff.shape
    rhs = [0] * dimension + [1] * constraints if own_first else [1] * constraints + [0] * dimension
    none = np.empty((0, dimension), dtype=object)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(basis_search, "COMPILED", False)  # float_vertices declines: qhull
        polytope = best_response_polytopes.float_polytope(
            payoff, own_first, rhs, none, np.ones(dimension), UNLIMITED
        )
    assert polytope.exact_points is None
    return dict(zip(polytope.labels.tolist(), polytope.vertices.tolist(), strict=True))


@pytest.mark.parametrize("compiled", implementations())
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("size", [(1, 3), (3, 2), (6, 6), (8, 5), (9, 9)])
def test_float_search_finds_the_vertices_qhull_finds(
    compiled: bool, seed: int, size: tuple[int, int]
) -> None:
    payoff = float_polytope(seed, size)
    for own_first in (True, False):
        found = basis_search.float_vertices(payoff, own_first, UNLIMITED, compiled)
        assert found is not None
        ours = dict(zip(found[0].tolist(), found[1].tolist(), strict=True))
        theirs = qhull_vertices(payoff, own_first)
        assert ours.keys() == theirs.keys()
        for labels, point in ours.items():
            assert point == pytest.approx(theirs[labels], abs=1e-12)
            # a simple vertex: as many labels as coordinates
            assert bin(labels).count("1") == size[1]


@pytest.mark.parametrize("compiled", implementations())
def test_float_search_declines_degenerate_and_large_polytopes(compiled: bool) -> None:
    # the square pyramid's apex has four tight constraints in three dimensions
    pyramid = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    assert basis_search.float_vertices(pyramid, True, UNLIMITED, compiled) is None
    # a tie between two ratios: z1 + z2 / 2 <= 1 and z1 + z2 <= 1 both stop z1 at 1 on its
    # axis (a degenerate vertex); the first constraint alone is a triangle
    tie = np.array([[1.0, 0.5], [1.0, 1.0]])
    assert basis_search.float_vertices(tie, True, UNLIMITED, compiled) is None
    assert basis_search.float_vertices(tie[:1], True, UNLIMITED, compiled) is not None
    half = basis_search.FLOAT_SEARCH_VARIABLES // 2
    large = float_polytope(0, (half + 1, half))
    assert basis_search.float_vertices(large, True, UNLIMITED, compiled) is None


@pytest.mark.parametrize("seed", range(3))
def test_compiled_float_search_is_the_python_mirror(seed: int) -> None:
    if not basis_search.COMPILED:
        pytest.skip("the compiled search is not built (or ARBITER_PURE_PYTHON=1)")
    payoff = float_polytope(seed, (7, 6))
    python = basis_search.PythonFloatSearch(payoff.tolist(), False, 1e-9)
    assert basis_search.KERNEL is not None
    compiled = basis_search.KERNEL.CompiledFloatSearch(payoff, False, 1e-9)
    while not python.advance(10):
        assert not compiled.advance(10)
        assert compiled.nodes == python.nodes
    assert compiled.advance(10)
    assert compiled.nodes == python.nodes > 50
    assert not compiled.degenerate and not python.degenerate
    for ours, theirs in zip(compiled.vertices(), python.vertices(), strict=True):
        assert ours.tolist() == theirs.tolist()  # the same floats, bit for bit


def test_a_search_that_gives_up_midway_leaves_the_game_to_qhull(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # entries near 2^40 pass the first check, but the first pivot's 2 x 2 minors reach 2^80
    big = 2**40
    first = [[big, 1, 3], [5, big, 7], [1, 2, big]]
    second = [[2, big, 1], [big, 3, 1], [1, 1, big]]
    game = bimatrix(first, second)
    matrix = best_response_polytopes.positive_integers(game.row_payoffs, UNLIMITED)
    for compiled in implementations():
        assert exact_vertices(matrix, False, UNLIMITED, compiled) is None
    found = extreme_equilibria(game)
    monkeypatch.setattr(basis_search, "COMPILED", False)
    assert repr(extreme_equilibria(game)) == repr(found)
    # (R3, C3) pays both players their largest payoff against the other's strategy
    assert ((0, 0, 1), (0, 0, 1)) in {(e.row, e.col) for e in found.equilibria}
