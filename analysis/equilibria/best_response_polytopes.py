"""The best-response polytopes P and Q of a bimatrix game, with their labelled vertices.

Each polytope is built from one player's payoffs, shifted to be positive (labels
numbered as in :mod:`analysis.equilibria.vertex_enumeration`). Its vertices, each with
its labels (the bit mask of its tight constraints), come exact from a compiled walk
over its lexicographic bases in integers (:mod:`analysis.equilibria.basis_search`)
unless its entries outgrow 64 bits; otherwise in floating point, by the same walk in
floats for a small simple polytope or by qhull (:mod:`analysis.equilibria.qhull_vertices`).
A float vertex is certified on demand (:func:`certify`): recomputed with rationals from
its tight constraints, checked feasible, and its labels recomputed exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
import numpy.typing as npt

from analysis.equilibria import basis_search
from analysis.equilibria.exact_linear_algebra import solve_integer
from analysis.equilibria.qhull_vertices import (
    TOLERANCE,
    single_threaded_product,
    vertices_by_qhull,
)
from games.limits import Deadline, spend_on_size
from games.matrices.model import (
    FloatArray,
    NormalFormGame,
    ObjectArray,
    entries,
    scaled_to_integers,
)


@dataclass
class BestResponsePolytope:
    """Constraints ``rows @ z <= rhs`` of P or Q in float and exact integer form."""

    rows: FloatArray
    rhs: FloatArray
    exact_rows: ObjectArray
    exact_rhs: list[int]
    vertices: FloatArray
    labels: npt.NDArray[np.int64]
    dimension: int
    unscale: FloatArray
    """Float vertices are in scaled coordinates: ``vertex * unscale`` is proportional to
    the point of the polytope itself."""
    certified: dict[int, tuple[tuple[Fraction, ...], int] | None]
    reliable: bool = True
    """False when the float search met vertices beyond the float range (badly scaled
    payoffs): its vertex list may then be incomplete."""
    exact_points: basis_search.SearchedVertices | None = None
    """The exact vertices and labels when the exact search found them (then ``labels``
    are exact and nothing needs recomputing)."""

    @cached_property
    def label_counts(self) -> npt.NDArray[np.int64]:
        """How many labels each vertex has (more than ``dimension``: a degenerate vertex)."""
        return count_labels(self.labels)


def positive_integers(matrix: ObjectArray, clock: Deadline) -> ObjectArray:
    """``matrix`` shifted to entries >= 1 and scaled to integers (equilibria unchanged)."""
    shifted = matrix - min(entries(matrix)) + 1
    integers, _ = scaled_to_integers(shifted, clock)
    return integers


_LABEL_BITS = np.left_shift(np.int64(1), np.arange(63, dtype=np.int64))
"""Bit ``k`` for label ``k`` (label sets are int64 bit masks)."""

FLOAT_RANGE = 1e8
"""Float mode builds the polytopes from the float payoffs when every nonzero gap to a
player's lowest payoff is at least this fraction of the span (no payoff is lost when
they are mapped onto [1, 2]); otherwise from the exact ones, like the exact mode."""


def positive_floats(game: NormalFormGame, clock: Deadline) -> tuple[FloatArray, FloatArray] | None:
    """Both payoff matrices mapped onto ``[1, 2]`` in floats (a positive affine map per
    player: the equilibria are unchanged), or ``None`` when floats would blur them."""
    mapped = []
    for player in (0, 1):
        values = game.float_payoffs(player)
        clock.spend(values.size)
        lowest = float(values.min())
        span = float(values.max()) - lowest  # nan or infinite when a payoff is not finite
        if not span - span == 0.0:
            return None
        if span == 0.0:
            mapped.append(np.ones_like(values))
            continue
        gaps = values - lowest
        if float(np.min(gaps, where=gaps > 0.0, initial=span)) < span / FLOAT_RANGE:
            return None
        mapped.append(gaps / span + 1.0)
    return mapped[0], mapped[1]


def best_response_polytope(
    matrix: ObjectArray | FloatArray, own_first: bool, clock: Deadline, search: bool = False
) -> BestResponsePolytope:
    """P (``own_first``: labels of z_i = 0 come first) or Q, with its vertices.

    ``matrix`` has one row per payoff constraint and one column per coordinate; its
    entries are positive integers, or positive floats in the float mode (then the
    polytope has no exact form and cannot be certified). With ``search``, integer
    payoffs small enough for the compiled exact search get their vertices from it
    (:mod:`analysis.equilibria.basis_search`); others from qhull, in floating point.
    """
    constraints, dimension = matrix.shape
    zero, one = [0] * dimension, [1] * constraints
    exact_rhs = zero + one if own_first else one + zero
    if matrix.dtype != object:
        largest_floats = matrix.max(axis=0)
        payoff = np.asarray(matrix / largest_floats[None, :], dtype=np.float64)
        unscale = largest_floats.min() / largest_floats
        return float_polytope(
            payoff, own_first, exact_rhs, np.empty((0, dimension), dtype=object), unscale, clock
        )
    identity = -np.eye(dimension, dtype=np.int64).astype(object)
    blocks = [identity, matrix] if own_first else [matrix, identity]
    exact_rows = np.vstack(blocks)
    integers = np.asarray(matrix, dtype=object)
    found = basis_search.exact_vertices(integers, own_first, clock) if search else None
    if found is not None:
        return _searched_polytope(found, exact_rows, exact_rhs, dimension)
    # The float search runs in the coordinates z_i = c_i z'_i, c_i the largest payoff
    # of coordinate i: every coefficient is then at most 1 and every vertex has z <= 1,
    # so one tolerance fits every game and nothing overflows however the payoffs are
    # scaled (the labels, which constraints are tight, are the same). The divisions are
    # done on the integers (correctly rounded): they may be far beyond the float range.
    largest = [max(matrix[:, i].tolist()) for i in range(dimension)]
    payoff = np.array(
        [[matrix[k, i] / largest[i] for i in range(dimension)] for k in range(constraints)],
        dtype=np.float64,
    ).reshape(constraints, dimension)
    smallest = min(largest)
    unscale = np.array([smallest / c for c in largest], dtype=np.float64)
    return float_polytope(payoff, own_first, exact_rhs, exact_rows, unscale, clock)


def _searched_polytope(
    found: basis_search.SearchedVertices,
    exact_rows: ObjectArray,
    exact_rhs: list[int],
    dimension: int,
) -> BestResponsePolytope:
    """The polytope with the exact search's vertices and labels (nothing left in doubt)."""
    rows = np.asarray(exact_rows, dtype=np.float64)
    vertices = found.numerators / found.denominators[:, None].astype(np.float64)
    return BestResponsePolytope(
        rows,
        np.asarray(exact_rhs, dtype=np.float64),
        exact_rows,
        exact_rhs,
        vertices,
        found.labels,
        dimension,
        np.ones(dimension),
        {},
        exact_points=found,
    )


def float_polytope(
    payoff: FloatArray,
    own_first: bool,
    exact_rhs: list[int],
    exact_rows: ObjectArray,
    unscale: FloatArray,
    clock: Deadline,
) -> BestResponsePolytope:
    """The polytope from its payoff constraints scaled to at most 1, with its float vertices
    and their labels (``exact_rows`` is empty in the float mode): by the float basis search
    for a small simple polytope, else by qhull."""
    constraints, dimension = payoff.shape
    rows = np.empty((constraints + dimension, dimension))
    own, payoffs = (slice(0, dimension), slice(dimension, None))
    if not own_first:
        own, payoffs = (slice(constraints, None), slice(0, constraints))
    rows[own] = -np.eye(dimension)
    rows[payoffs] = payoff
    rhs = np.asarray(exact_rhs, dtype=np.float64)
    searched = basis_search.float_vertices(payoff, own_first, clock)
    if searched is not None:
        # a simple polytope: each vertex met once, its labels the nonbasic variables
        return BestResponsePolytope(
            rows, rhs, exact_rows, exact_rhs, searched[1], searched[0], dimension, unscale, {}
        )
    vertices = vertices_by_qhull(rows, rhs, dimension, clock)
    # tiny payoff ratios put vertices near the float range's end: drop what overflows
    with np.errstate(all="ignore"):
        slack = rhs - single_threaded_product(vertices, rows.T)
        row_scale = np.maximum(1.0, np.abs(rows).sum(axis=1))
        vertex_scale = np.maximum(1.0, np.abs(vertices).max(axis=1))
        reliable = bool(np.isfinite(slack).all())
        if not reliable:
            usable = np.isfinite(slack).all(axis=1) & np.isfinite(vertex_scale)
            vertices, slack, vertex_scale = vertices[usable], slack[usable], vertex_scale[usable]
    tight = slack <= np.multiply.outer(TOLERANCE * vertex_scale, row_scale)
    labels = tight.astype(np.int64) @ _LABEL_BITS[: rows.shape[0]]
    # A vertex is determined by its tight constraints: keep one point per label set.
    order = np.argsort(labels, kind="stable")
    ordered = labels[order]
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    keep = np.sort(order[first])
    vertices, labels = vertices[keep], labels[keep]
    return BestResponsePolytope(
        rows, rhs, exact_rows, exact_rhs, vertices, labels, dimension, unscale, {}, reliable
    )


def count_labels(labels: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """How many labels each label set (a bit mask) holds."""
    return np.bitwise_count(labels).astype(np.int64)


def certify(
    polytope: BestResponsePolytope, index: int, clock: Deadline
) -> tuple[tuple[Fraction, ...], int] | None:
    """The exact vertex near float vertex ``index`` and its exact labels, or ``None``."""
    if index in polytope.certified:
        return polytope.certified[index]
    label_bits = int(polytope.labels[index])
    tight = [k for k in range(polytope.rows.shape[0]) if label_bits >> k & 1]
    result = exact_point(polytope, tight, clock)
    polytope.certified[index] = result
    return result


def exact_point(
    polytope: BestResponsePolytope, tight: Sequence[int], clock: Deadline
) -> tuple[tuple[Fraction, ...], int] | None:
    """The point where the constraints ``tight`` hold with equality, if unique and feasible,
    with its exact labels."""
    found = solve_integer(
        polytope.exact_rows[list(tight)].tolist(), [polytope.exact_rhs[k] for k in tight], clock
    )
    if found is None:
        return None
    numerators, denominator = found
    # every constraint at once, in integers: rows @ numerators <= rhs * denominator
    spend_on_size(clock, Fraction(max(numerators, key=abs), denominator))
    clock.spend(polytope.rows.shape[0] * polytope.dimension)
    vector = np.empty(len(numerators), dtype=object)
    vector[:] = numerators
    lhs = (polytope.exact_rows @ vector).tolist()
    labels = 0
    for k, (left, right) in enumerate(zip(lhs, polytope.exact_rhs, strict=True)):
        bound = right * denominator
        if left > bound:
            return None
        if left == bound:
            labels |= 1 << k
    return tuple(Fraction(n, denominator) for n in numerators), labels


def has_degenerate_vertex(polytope: BestResponsePolytope, exact: bool, clock: Deadline) -> bool:
    """Whether some vertex has more labels than its dimension (certified in the exact mode)."""
    suspects = np.flatnonzero(polytope.label_counts > polytope.dimension)
    if not exact or polytope.exact_points is not None:
        return bool(len(suspects))  # the float mode's, or exact labels
    for index in suspects:
        certified = certify(polytope, int(index), clock)
        if certified is not None and bin(certified[1]).count("1") > polytope.dimension:
            return True
    return False
