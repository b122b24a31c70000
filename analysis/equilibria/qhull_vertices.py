"""The vertices of a polytope ``{z : rows @ z <= rhs}`` in floating point, by qhull.

The vertices are read off the facets of the convex hull of the polar points
(``scipy.spatial.ConvexHull``), or, in one dimension or when qhull fails, found by
solving every system of ``dimension`` constraints. A qhull call cannot be
interrupted, so :func:`afford_vertex_search` refuses one up front when the most
vertices the polytope can have (McMullen's upper bound theorem, :func:`most_vertices`)
would cost more than the time left.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from games.errors import DomainError, TimeLimitError
from games.limits import Deadline
from games.matrices.model import FloatArray

QHULL_SECONDS_PER_VERTEX = 1e-4
"""Generous cost of one vertex found by qhull (about 4e-5 s measured in 15 dimensions).
A qhull call cannot be interrupted, so it is made only when the most vertices the
polytope can have (the upper bound theorem) cost less than the time left."""

MAX_BASES = 100_000
"""Most constraint subsets tried when qhull cannot be used."""

TOLERANCE = 1e-9
"""Float tolerance of the vertex search (its coefficients and vertices are scaled to at most 1)."""


def most_vertices(dimension: int, facets: int) -> int:
    """The most vertices a ``dimension``-polytope with ``facets`` facets can have.

    McMullen's upper bound theorem, in its dual form (attained by dual cyclic polytopes).
    """
    if facets <= dimension:
        return 1
    return comb(facets - (dimension + 1) // 2, dimension // 2) + comb(
        facets - dimension // 2 - 1, (dimension + 1) // 2 - 1
    )


def afford_vertex_search(dimension: int, facets: int, clock: Deadline) -> None:
    """Refuse, before it starts, a qhull call that could outlast the deadline."""
    left = clock.remaining()
    if left is None or dimension < 2:
        return
    bound = most_vertices(dimension, facets)
    needed = bound * QHULL_SECONDS_PER_VERTEX
    if needed > left:
        raise TimeLimitError(
            f"enumerating the equilibria may need up to {bound} vertices (about "
            f"{needed:.3g} s), more than the {left:.3g} s left of the time limit of "
            f"{clock.seconds} s; ask for lemke_howson to find one equilibrium"
        )


SINGLE_THREAD_CELLS = 200_000
"""Largest matrix product (rows x columns x inner) done in one BLAS call: OpenBLAS splits larger
ones over threads that keep spinning after the call, and on a busy machine they take the core
qhull needs (measured: 12x12 games twice as slow)."""


def single_threaded_product(left: FloatArray, right: FloatArray) -> FloatArray:
    """``left @ right`` in blocks of rows small enough for one BLAS thread."""
    inner, cols = right.shape
    block = max(1, SINGLE_THREAD_CELLS // max(1, inner * cols))
    if len(left) <= block:
        return np.asarray(left @ right, dtype=np.float64)
    return np.vstack([left[start : start + block] @ right for start in range(0, len(left), block)])


def vertices_by_qhull(
    rows: FloatArray, rhs: FloatArray, dimension: int, clock: Deadline
) -> FloatArray:
    """Vertices of ``{z : rows @ z <= rhs}`` other than 0, by qhull (or bases when 1-D)."""
    with np.errstate(all="ignore"):
        if dimension >= 2:
            interior = np.full(dimension, 0.5 / float(rows.sum(axis=1).max()))
            # the caller checked that the largest possible vertex count fits the time left
            try:
                points = _polar_vertices(rows, rhs, interior)
            except QhullError:
                points = _vertices_by_bases(rows, rhs, dimension, clock)
            clock.spend(len(points) * dimension)
        else:
            points = _vertices_by_bases(rows, rhs, dimension, clock)
        # a vertex at infinity (a direction the float search saw as unbounded) is kept as
        # such: the caller finds it unusable and distrusts the search. Repeated points (one
        # per facet of a merged, degenerate face) are merged by their labels by the caller.
        points = points[~(np.abs(points).max(axis=1) <= TOLERANCE)]
    return np.asarray(points, dtype=np.float64).reshape(-1, dimension)


def _polar_vertices(rows: FloatArray, rhs: FloatArray, interior: FloatArray) -> FloatArray:
    """Vertices of ``{z : rows @ z <= rhs}`` by the convex hull of the polar points.

    With ``z = interior + w`` the constraints read ``d_k @ w <= 1`` for the points
    ``d_k = rows_k / (rhs_k - rows_k @ interior)``; a facet ``n @ d + c = 0`` of their
    hull is the vertex ``w = -n / c`` (what ``HalfspaceIntersection`` computes, without its
    checks). Every facet of a triangulated degenerate face gives the same vertex.
    """
    polar = rows / (rhs - rows @ interior)[:, None]
    equations = ConvexHull(polar).equations
    return np.asarray(interior[None, :] - equations[:, :-1] / equations[:, -1:], dtype=np.float64)


def _vertices_by_bases(
    rows: FloatArray, rhs: FloatArray, dimension: int, clock: Deadline
) -> FloatArray:
    """Vertices by solving every system of ``dimension`` constraints (small cases only)."""
    if comb(rows.shape[0], dimension) > MAX_BASES:
        raise DomainError(
            "qhull could not enumerate the vertices of this game and it is too large to try "
            "every basis; ask for lemke_howson instead",
            parameter="parts",
        )
    found = []
    cost = 10 + dimension**2
    for basis in combinations(range(rows.shape[0]), dimension):
        clock.spend(cost)
        system = rows[list(basis)]
        with np.errstate(all="ignore"):
            if not abs(np.linalg.det(system)) >= 1e-12:
                continue
            point = np.linalg.solve(system, rhs[list(basis)])
            if np.all(rows @ point <= rhs + 1e-9):
                found.append(point)
    return np.array(found).reshape(-1, dimension)
