"""All extreme Nash equilibria of a bimatrix game, exactly, by vertex enumeration.

With payoffs shifted to be positive, the best-response polytopes are

    P = {x >= 0 : B^T x <= 1}   (labels: i where x_i = 0, m + j where (B^T x)_j = 1)
    Q = {y >= 0 : A y <= 1}     (labels: i where (A y)_i = 1, m + j where y_j = 0)

and ``(x/sum x, y/sum y)`` is a Nash equilibrium exactly when ``(x, y) != (0, 0)``
is a pair of vertices whose labels together cover all ``m + n`` labels (von
Stengel 2007, *Algorithmic Game Theory* ch. 3). In the exact mode each polytope's
vertices come, exact with their labels, from a compiled walk over its
lexicographic bases in integers (:mod:`analysis.equilibria.basis_search`) unless
its entries outgrow 64 bits; otherwise they are found in floating point, by the
same walk in floats for a small simple polytope or by qhull (the facets of
``scipy.spatial.ConvexHull`` of the polar), and each vertex taking part in a
candidate pair is then recomputed with rationals from its tight constraints,
checked feasible, and its labels recomputed exactly, so every published
equilibrium is exact. The game is *degenerate* when some vertex has more labels
than its dimension; then equilibria may form continua: every maximal set
``X x Y`` of extreme equilibria with all pairs equilibria spans the convex set
``conv(X) x conv(Y)`` of equilibria (a maximal Nash subset; Gambit's "cliques"),
and overlapping ones form connected components.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from math import comb, lcm

import numpy as np
import numpy.typing as npt
from scipy.spatial import ConvexHull, QhullError

from analysis.equilibria import basis_search
from analysis.equilibria.exact_linear_algebra import solve_integer
from games.errors import DomainError, ExactSizeError, LimitExceededError, TimeLimitError
from games.limits import Deadline, check_exact_size, current_deadline, spend_on_size
from games.matrices.model import (
    FloatArray,
    NormalFormGame,
    ObjectArray,
    entries,
    scaled_to_integers,
)
from games.numbers import Exact, normalize

MAX_STRATEGIES = 15
"""Most strategies per player for full enumeration (use Lemke-Howson beyond)."""

MAX_BASES = 100_000
"""Most constraint subsets tried when qhull cannot be used."""

MAX_EXACT_BASES = 1_000
"""Most constraint subsets tried with rationals when the float search is in doubt."""

QHULL_SECONDS_PER_VERTEX = 1e-4
"""Generous cost of one vertex found by qhull (about 4e-5 s measured in 15 dimensions).
A qhull call cannot be interrupted, so it is made only when the most vertices the
polytope can have (the upper bound theorem) cost less than the time left."""

_TOL = 1e-9


@dataclass(frozen=True, slots=True)
class MixedEquilibrium:
    """One extreme equilibrium: mixed strategies and expected payoffs.

    ``row_vertex`` and ``col_vertex`` number the distinct extreme strategies of
    each player, as used by :class:`NashSubset`.
    """

    row: tuple[Exact | float, ...]
    col: tuple[Exact | float, ...]
    payoffs: tuple[Exact | float, Exact | float]
    row_vertex: int
    col_vertex: int


@dataclass(frozen=True, slots=True)
class NashSubset:
    """A maximal Nash subset: every mix of ``row`` strategies against every mix of ``col`` ones."""

    row: tuple[int, ...]
    col: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Component:
    """A connected set of equilibria: the union of overlapping maximal Nash subsets."""

    equilibria: tuple[int, ...]
    subsets: tuple[NashSubset, ...]

    @property
    def continuum(self) -> bool:
        return any(len(s.row) > 1 or len(s.col) > 1 for s in self.subsets)


@dataclass(frozen=True, slots=True)
class EquilibriumSet:
    """All extreme equilibria of a bimatrix game.

    Attributes
    ----------
    equilibria
        Extreme equilibria, sorted by the row then the column strategy.
    row_vertices, col_vertices
        The distinct extreme strategies, numbered as in the equilibria.
    degenerate
        Whether some mixed strategy with support size k has more than k pure best
        responses.
    components
        Connected components with their maximal Nash subsets.
    exact
        False in the floating-point mode.
    """

    equilibria: tuple[MixedEquilibrium, ...]
    row_vertices: tuple[tuple[Exact | float, ...], ...]
    col_vertices: tuple[tuple[Exact | float, ...], ...]
    degenerate: bool
    components: tuple[Component, ...]
    exact: bool


@dataclass
class _Polytope:
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
        return _label_counts(self.labels)


def extreme_equilibria(
    game: NormalFormGame,
    exact: bool = True,
    max_strategies: int = MAX_STRATEGIES,
    deadline: Deadline | None = None,
) -> EquilibriumSet:
    """Enumerate the extreme Nash equilibria of a two-player game.

    Parameters
    ----------
    game
        A bimatrix game.
    exact
        True: rational equilibria, each certified. False: floats, faster.
    max_strategies
        Refuse games where a player has more strategies.
    deadline
        Charged by the work done (the request's deadline by default).

    Raises
    ------
    DomainError
        If the game does not have two players.
    LimitExceededError
        If a player has more than ``max_strategies`` strategies.
    TimeLimitError
        When the deadline passes, or the vertex search could not end before it.
    ExactSizeError
        When an exact probability or payoff grows past the exact-size limit.
    """
    if not game.is_bimatrix:
        raise DomainError("mixed equilibria are computed for two-player games only", "")
    rows, cols = game.shape
    if max(rows, cols) > max_strategies:
        raise LimitExceededError(
            f"enumerating all equilibria is limited to {max_strategies} strategies per player; "
            "ask for lemke_howson to find one equilibrium of a larger game",
            "",
        )
    clock = deadline or current_deadline()
    floats = None if exact else _positive_floats(game, clock)
    if floats is not None:
        for dimension in (rows, cols):
            _afford_vertex_search(dimension, rows + cols, clock)
        p = _polytope(floats[1].T, own_first=True, clock=clock)
        q = _polytope(floats[0], own_first=False, clock=clock)
    else:
        first = _positive_integers(game.row_payoffs, clock)
        second = _positive_integers(game.col_payoffs, clock)
        # the exact search is charged by its work; a qhull call must be affordable up front
        searched = exact and basis_search.COMPILED
        for dimension, matrix in ((rows, second.T), (cols, first)):
            if not (searched and basis_search.fits_in_64_bits(matrix)):
                _afford_vertex_search(dimension, rows + cols, clock)
        p = _polytope(second.T, own_first=True, clock=clock, search=searched)
        q = _polytope(first, own_first=False, clock=clock, search=searched)
    clock.check()
    full = (1 << (rows + cols)) - 1
    pairs = _complementary_pairs(
        p.labels, q.labels, rows, cols, clock, p.label_counts, q.label_counts
    )
    clock.check()
    degenerate = _degenerate(p, exact, clock) or _degenerate(q, exact, clock)
    reliable = p.reliable and q.reliable
    small = comb(rows + cols, rows) <= MAX_EXACT_BASES
    if not reliable and not (exact and small):
        raise DomainError(
            "the payoffs span too many orders of magnitude for the floating-point vertex "
            "search" + ("" if exact else " (try arithmetic: exact)") + "; rescale them",
            "",
        )
    if not exact:
        return _float_set(game, p, q, pairs, degenerate, clock)
    doubtful = not reliable
    # each vertex is certified and normalised once; equal strategies get one number
    numbered: tuple[_Numbered, _Numbered] = ({}, {})
    strategies: tuple[_Strategies, _Strategies] = ({}, {})
    found: dict[tuple[int, int], None] = {}
    for x_index, y_index in pairs.tolist():
        x = _numbered_strategy(p, x_index, numbered[0], strategies[0], clock)
        y = _numbered_strategy(q, y_index, numbered[1], strategies[1], clock)
        if x is None or y is None or (x[1] | y[1]) != full:
            doubtful = True
            continue
        found[(x[0], y[0])] = None
    if not found or doubtful:
        # Nash: every finite game has an equilibrium, and a float candidate that fails its
        # exact check means the float search was misled: in a small game, enumerate exactly.
        if small:
            exact_pairs, degenerate = _exact_by_bases(p, q, clock)
            return _exact_set(game, exact_pairs, degenerate, clock)
        if not found:
            raise DomainError(
                "the payoffs are too badly scaled for the floating-point vertex search to be "
                "certified; rescale them",
                "",
            )
    ordered, numbers = _in_order(found, strategies, clock)
    return _exact_set(game, ordered, degenerate, clock, numbers)


_Numbered = dict[int, tuple[int, int] | None]
_Strategies = dict[tuple[Exact, ...], int]


def _numbered_strategy(
    polytope: _Polytope, index: int, numbered: _Numbered, strategies: _Strategies, clock: Deadline
) -> tuple[int, int] | None:
    """The number of vertex ``index``'s mixed strategy in ``strategies`` (vertices certified
    to the same point share it) and its exact labels; ``None`` when it fails certification."""
    if index in numbered:
        return numbered[index]
    result: tuple[int, int] | None = None
    if polytope.exact_points is not None:
        numerators = polytope.exact_points.numerators[index].tolist()
        strategy = _normalised_integers(numerators, clock)
        result = (strategies.setdefault(strategy, len(strategies)), int(polytope.labels[index]))
    else:
        certified = _certify(polytope, index, clock)
        if certified is not None:
            strategy = _normalised(certified[0], clock)
            result = (strategies.setdefault(strategy, len(strategies)), certified[1])
    numbered[index] = result
    return result


def _in_order(
    found: dict[tuple[int, int], None],
    strategies: tuple[_Strategies, _Strategies],
    clock: Deadline,
) -> tuple[list[tuple[tuple[Exact, ...], tuple[Exact, ...]]], list[tuple[int, int]]]:
    """The equilibria ``found`` (pairs of strategy numbers) as strategies, sorted by the row
    then the column strategy (each player's strategies are sorted once), and their numbers."""
    rows, cols = list(strategies[0]), list(strategies[1])
    clock.spend(len(rows) + len(cols) + len(found))
    row_rank, col_rank = [0] * len(rows), [0] * len(cols)
    for rank, k in enumerate(sorted(range(len(rows)), key=rows.__getitem__)):
        row_rank[k] = rank
    for rank, k in enumerate(sorted(range(len(cols)), key=cols.__getitem__)):
        col_rank[k] = rank
    order = sorted(found, key=lambda pair: (row_rank[pair[0]], col_rank[pair[1]]))
    return [(rows[r], cols[c]) for r, c in order], order


def most_vertices(dimension: int, facets: int) -> int:
    """The most vertices a ``dimension``-polytope with ``facets`` facets can have.

    McMullen's upper bound theorem, in its dual form (attained by dual cyclic polytopes).
    """
    if facets <= dimension:
        return 1
    return comb(facets - (dimension + 1) // 2, dimension // 2) + comb(
        facets - dimension // 2 - 1, (dimension + 1) // 2 - 1
    )


def _afford_vertex_search(dimension: int, facets: int, clock: Deadline) -> None:
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


def _positive_integers(matrix: ObjectArray, clock: Deadline) -> ObjectArray:
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


def _positive_floats(game: NormalFormGame, clock: Deadline) -> tuple[FloatArray, FloatArray] | None:
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


def _polytope(
    matrix: ObjectArray | FloatArray, own_first: bool, clock: Deadline, search: bool = False
) -> _Polytope:
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
        return _float_polytope(
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
    return _float_polytope(payoff, own_first, exact_rhs, exact_rows, unscale, clock)


def _searched_polytope(
    found: basis_search.SearchedVertices,
    exact_rows: ObjectArray,
    exact_rhs: list[int],
    dimension: int,
) -> _Polytope:
    """The polytope with the exact search's vertices and labels (nothing left in doubt)."""
    rows = np.asarray(exact_rows, dtype=np.float64)
    vertices = found.numerators / found.denominators[:, None].astype(np.float64)
    return _Polytope(
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


def _float_polytope(
    payoff: FloatArray,
    own_first: bool,
    exact_rhs: list[int],
    exact_rows: ObjectArray,
    unscale: FloatArray,
    clock: Deadline,
) -> _Polytope:
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
        return _Polytope(
            rows, rhs, exact_rows, exact_rhs, searched[1], searched[0], dimension, unscale, {}
        )
    vertices = _float_vertices(rows, rhs, dimension, clock)
    # tiny payoff ratios put vertices near the float range's end: drop what overflows
    with np.errstate(all="ignore"):
        slack = rhs - _single_threaded_product(vertices, rows.T)
        row_scale = np.maximum(1.0, np.abs(rows).sum(axis=1))
        vertex_scale = np.maximum(1.0, np.abs(vertices).max(axis=1))
        reliable = bool(np.isfinite(slack).all())
        if not reliable:
            usable = np.isfinite(slack).all(axis=1) & np.isfinite(vertex_scale)
            vertices, slack, vertex_scale = vertices[usable], slack[usable], vertex_scale[usable]
    tight = slack <= np.multiply.outer(_TOL * vertex_scale, row_scale)
    labels = tight.astype(np.int64) @ _LABEL_BITS[: rows.shape[0]]
    # A vertex is determined by its tight constraints: keep one point per label set.
    order = np.argsort(labels, kind="stable")
    ordered = labels[order]
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    keep = np.sort(order[first])
    vertices, labels = vertices[keep], labels[keep]
    return _Polytope(
        rows, rhs, exact_rows, exact_rhs, vertices, labels, dimension, unscale, {}, reliable
    )


SINGLE_THREAD_CELLS = 200_000
"""Largest matrix product (rows x columns x inner) done in one BLAS call: OpenBLAS splits larger
ones over threads that keep spinning after the call, and on a busy machine they take the core
qhull needs (measured: 12x12 games twice as slow)."""


def _single_threaded_product(left: FloatArray, right: FloatArray) -> FloatArray:
    """``left @ right`` in blocks of rows small enough for one BLAS thread."""
    inner, cols = right.shape
    block = max(1, SINGLE_THREAD_CELLS // max(1, inner * cols))
    if len(left) <= block:
        return np.asarray(left @ right, dtype=np.float64)
    return np.vstack([left[start : start + block] @ right for start in range(0, len(left), block)])


def _float_vertices(
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
        points = points[~(np.abs(points).max(axis=1) <= _TOL)]
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


def _complementary_pairs(
    x_labels: npt.NDArray[np.int64],
    y_labels: npt.NDArray[np.int64],
    rows: int,
    cols: int,
    clock: Deadline,
    x_counts: npt.NDArray[np.int64] | None = None,
    y_counts: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]:
    """Index pairs ``(i, j)`` with ``x_labels[i] | y_labels[j]`` covering all labels.

    Every vertex has at least its dimension in labels. A vertex of P with exactly
    ``rows`` labels needs a partner whose labels are exactly the complement, or a
    superset of it when the partner is degenerate; so pairs are found by a lookup of
    the complement, plus a vectorised scan for the few degenerate vertices only.
    """
    full = (1 << (rows + cols)) - 1
    if len(x_labels) == 0 or len(y_labels) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    # each polytope's label sets are distinct (the caller keeps one vertex per set): a
    # sorted search finds every vertex of Q whose labels are exactly a complement
    clock.spend(1 + (len(y_labels) + len(x_labels)) // 64)
    order = np.argsort(y_labels, kind="stable")
    ordered = y_labels[order]
    complements = np.int64(full) ^ x_labels
    at = np.minimum(np.searchsorted(ordered, complements), len(ordered) - 1)
    hits = np.flatnonzero(ordered[at] == complements)
    clock.spend(len(hits))
    found: set[tuple[int, int]] = set(zip(hits.tolist(), order[at[hits]].tolist(), strict=True))
    x_counts = _label_counts(x_labels) if x_counts is None else x_counts
    y_counts = _label_counts(y_labels) if y_counts is None else y_counts
    # one vectorised scan per degenerate vertex, about a nanosecond per partner
    x_scan, y_scan = 1 + len(y_labels) // 256, 1 + len(x_labels) // 256
    for x_index in np.flatnonzero(x_counts > rows).tolist():
        clock.spend(x_scan)
        need = full ^ int(x_labels[x_index])
        for y_index in np.flatnonzero((y_labels & need) == need).tolist():
            clock.spend(1)
            found.add((x_index, y_index))
    for y_index in np.flatnonzero(y_counts > cols).tolist():
        clock.spend(y_scan)
        for x_index in np.flatnonzero((x_labels | y_labels[y_index]) == full).tolist():
            clock.spend(1)
            found.add((x_index, y_index))
    return np.array(sorted(found), dtype=np.int64).reshape(-1, 2)


def _label_counts(labels: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.bitwise_count(labels).astype(np.int64)


def _certify(
    polytope: _Polytope, index: int, clock: Deadline
) -> tuple[tuple[Fraction, ...], int] | None:
    """The exact vertex near float vertex ``index`` and its exact labels, or ``None``."""
    if index in polytope.certified:
        return polytope.certified[index]
    label_bits = int(polytope.labels[index])
    tight = [k for k in range(polytope.rows.shape[0]) if label_bits >> k & 1]
    result = _exact_point(polytope, tight, clock)
    polytope.certified[index] = result
    return result


def _exact_point(
    polytope: _Polytope, tight: Sequence[int], clock: Deadline
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


def _exact_by_bases(
    p: _Polytope, q: _Polytope, clock: Deadline
) -> tuple[list[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]], bool]:
    """Equilibria and degeneracy by exact vertex enumeration over every basis (small games)."""
    vertices = []
    for polytope in (p, q):
        found: dict[tuple[Fraction, ...], int] = {}
        for basis in combinations(range(polytope.rows.shape[0]), polytope.dimension):
            point = _exact_point(polytope, basis, clock)
            if point is not None and any(point[0]):
                found[point[0]] = point[1]
        vertices.append(found)
    full = (1 << p.rows.shape[0]) - 1
    degenerate = any(
        bin(bits).count("1") > polytope.dimension
        for polytope, found in zip((p, q), vertices, strict=True)
        for bits in found.values()
    )
    clock.spend(len(vertices[0]) * len(vertices[1]))
    pairs = [
        (_normalised(x, clock), _normalised(y, clock))
        for x, x_bits in vertices[0].items()
        for y, y_bits in vertices[1].items()
        if x_bits | y_bits == full
    ]
    return sorted(set(pairs)), degenerate


def _degenerate(polytope: _Polytope, exact: bool, clock: Deadline) -> bool:
    suspects = np.flatnonzero(polytope.label_counts > polytope.dimension)
    if not exact or polytope.exact_points is not None:
        return bool(len(suspects))  # the float mode's, or exact labels
    for index in suspects:
        certified = _certify(polytope, int(index), clock)
        if certified is not None and bin(certified[1]).count("1") > polytope.dimension:
            return True
    return False


def _normalised_integers(numerators: list[int], clock: Deadline) -> tuple[Exact, ...]:
    """The vertex ``numerators / d`` (any ``d``) as a probability vector (0 and 1 as ints),
    each entry within the exact-size limit."""
    total = sum(numerators)
    spend_on_size(clock, total)
    clock.spend(len(numerators))
    probabilities = tuple(Fraction(n, total) if 0 < n < total else n // total for n in numerators)
    # a probability n / total in lowest terms has no more digits than total
    try:
        check_exact_size(total, "", "equilibrium probability")
    except ExactSizeError:
        for probability in probabilities:
            check_exact_size(probability, "", "equilibrium probability")
    return probabilities


def _normalised(vertex: tuple[Fraction, ...], clock: Deadline) -> tuple[Fraction, ...]:
    """The vertex scaled to a probability vector, each entry within the exact-size limit."""
    total = sum(vertex, Fraction(0))
    spend_on_size(clock, total)
    clock.spend(len(vertex))
    probabilities = tuple(z / total for z in vertex)
    for probability in probabilities:
        check_exact_size(probability, "", "equilibrium probability")
    return probabilities


class _ExactPayoffs:
    """Both players' exact payoffs of strategy pairs, in integers: with the payoffs scaled to
    integers and each strategy written over its common denominator, a payoff is one integer
    dot product over the column strategy's support, divided once (each row strategy's
    products with both matrices are kept, by its vertex number)."""

    def __init__(self, game: NormalFormGame, clock: Deadline) -> None:
        first, self.first_scale = scaled_to_integers(game.row_payoffs, clock)
        second, self.second_scale = scaled_to_integers(game.col_payoffs, clock)
        self.first: list[list[int]] = first.tolist()
        self.second: list[list[int]] = second.tolist()
        self.clock = clock
        self.rows: dict[int, tuple[list[int], list[int], int]] = {}
        self.cols: dict[int, tuple[list[tuple[int, int]], int]] = {}

    def of(
        self, x: tuple[Exact | float, ...], y: tuple[Exact | float, ...], r: int, c: int
    ) -> tuple[Exact, Exact]:
        """The payoffs of row strategy ``x`` (vertex number ``r``) against ``y`` (``c``)."""
        row = self.rows.get(r)
        if row is None:
            numerators, denominator = _over_common_denominator(x)
            support = [(i, n) for i, n in enumerate(numerators) if n]
            self.clock.spend(len(support) * len(self.first[0]))
            first = [
                sum(n * self.first[i][j] for i, n in support) for j in range(len(self.first[0]))
            ]
            second = [
                sum(n * self.second[i][j] for i, n in support) for j in range(len(self.first[0]))
            ]
            row = self.rows[r] = (first, second, denominator)
        col = self.cols.get(c)
        if col is None:
            numerators, denominator = _over_common_denominator(y)
            col = self.cols[c] = ([(j, n) for j, n in enumerate(numerators) if n], denominator)
        first, second, row_denominator = row
        support, col_denominator = col
        self.clock.spend(2 * len(support))
        denominator = row_denominator * col_denominator
        payoffs = (
            Fraction(sum(first[j] * n for j, n in support), denominator * self.first_scale),
            Fraction(sum(second[j] * n for j, n in support), denominator * self.second_scale),
        )
        for payoff in payoffs:
            spend_on_size(self.clock, payoff)
            check_exact_size(payoff, "", "equilibrium payoff")
        return normalize(payoffs[0]), normalize(payoffs[1])


def _over_common_denominator(strategy: tuple[Exact | float, ...]) -> tuple[list[int], int]:
    """Integers ``n`` and ``d`` with ``strategy == n / d`` (exact entries only)."""
    ratios = [p.as_integer_ratio() for p in strategy]
    denominator = lcm(*(d for _, d in ratios))
    return [n * (denominator // d) for n, d in ratios], denominator


def _exact_set(
    game: NormalFormGame,
    pairs: Sequence[tuple[tuple[Exact, ...], tuple[Exact, ...]]],
    degenerate: bool,
    clock: Deadline,
    numbers: Sequence[tuple[int, int]] | None = None,
) -> EquilibriumSet:
    """The exact set; ``numbers``, if given, number the distinct row and column strategies of
    ``pairs`` (any numbering: it saves hashing the strategies)."""
    strategies = [
        (tuple(normalize(p) for p in x), tuple(normalize(q) for q in y))  # type: ignore[arg-type]
        for x, y in pairs
    ]
    return _assemble(game, strategies, degenerate, True, clock, numbers=numbers)


def _float_set(
    game: NormalFormGame,
    p: _Polytope,
    q: _Polytope,
    pairs: npt.NDArray[np.int64],
    degenerate: bool,
    clock: Deadline,
) -> EquilibriumSet:
    clock.spend(len(pairs) * (10 + p.dimension + q.dimension))
    with np.errstate(all="ignore"):
        x = p.vertices[pairs[:, 0]] * p.unscale
        y = q.vertices[pairs[:, 1]] * q.unscale
        x /= x.sum(axis=1, keepdims=True)
        y /= y.sum(axis=1, keepdims=True)
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        finite = np.isfinite(x).all(axis=1) & np.isfinite(y).all(axis=1)
        x, y = x[finite], y[finite]
    first = game.float_payoffs(0)
    second = game.float_payoffs(1)
    row_payoffs = ((x @ first) * y).sum(axis=1).tolist()
    col_payoffs = ((x @ second) * y).sum(axis=1).tolist()
    Strategies = tuple[tuple[float, ...], tuple[float, ...]]
    found: dict[Strategies, tuple[Strategies, tuple[float, float]]] = {}
    for x_key, y_key, x_row, y_row, u, v in zip(
        np.round(x, 9).tolist(),
        np.round(y, 9).tolist(),
        x.tolist(),
        y.tolist(),
        row_payoffs,
        col_payoffs,
        strict=True,
    ):
        found.setdefault((tuple(x_key), tuple(y_key)), ((tuple(x_row), tuple(y_row)), (u, v)))
    ordered = sorted(found.values())
    return _assemble(
        game, [pair for pair, _ in ordered], degenerate, False, clock, [pay for _, pay in ordered]
    )


def _assemble(
    game: NormalFormGame,
    strategies: Sequence[tuple[tuple[Exact | float, ...], tuple[Exact | float, ...]]],
    degenerate: bool,
    exact: bool,
    clock: Deadline,
    float_payoffs: Sequence[tuple[float, float]] = (),
    numbers: Sequence[tuple[int, int]] | None = None,
) -> EquilibriumSet:
    """The equilibrium set; ``float_payoffs`` are the payoffs of the float mode's strategies,
    ``numbers`` (optional) stand for the strategies when telling them apart."""
    row_index: dict[object, int] = {}
    col_index: dict[object, int] = {}
    row_vertices: list[tuple[Exact | float, ...]] = []
    col_vertices: list[tuple[Exact | float, ...]] = []
    equilibria: list[MixedEquilibrium] = []
    exact_payoffs = _ExactPayoffs(game, clock) if exact else None
    for k, (x, y) in enumerate(strategies):
        clock.spend(len(x) + len(y))
        r = row_index.setdefault(x if numbers is None else numbers[k][0], len(row_index))
        c = col_index.setdefault(y if numbers is None else numbers[k][1], len(col_index))
        if r == len(row_vertices):
            row_vertices.append(x)
        if c == len(col_vertices):
            col_vertices.append(y)
        payoffs: tuple[Exact | float, Exact | float]
        if exact_payoffs is not None:
            payoffs = exact_payoffs.of(x, y, r, c)
        else:
            payoffs = float_payoffs[len(equilibria)]
        equilibria.append(MixedEquilibrium(x, y, payoffs, r, c))
    components = nash_components([(e.row_vertex, e.col_vertex) for e in equilibria], clock)
    return EquilibriumSet(
        tuple(equilibria), tuple(row_vertices), tuple(col_vertices), degenerate, components, exact
    )


def nash_components(
    edges: list[tuple[int, int]], deadline: Deadline | None = None
) -> tuple[Component, ...]:
    """Maximal Nash subsets and connected components of the extreme-equilibrium graph.

    ``edges`` are (row vertex, column vertex) pairs that are equilibria. The
    maximal subsets are the closed column sets: intersections of neighbourhoods
    of row vertices, closed under intersection (found iteratively).
    """
    clock = deadline or current_deadline()
    clock.spend(1 + len(edges))
    if len({r for r, _ in edges}) == len(edges) == len({c for _, c in edges}):
        # every vertex in one equilibrium only (as in every nondegenerate game): each
        # equilibrium is a component and a maximal Nash subset of its own
        return tuple(Component((k,), (NashSubset((r,), (c,)),)) for k, (r, c) in enumerate(edges))
    neighbours: dict[int, frozenset[int]] = {}
    for r, c in edges:
        clock.spend(1)
        neighbours[r] = neighbours.get(r, frozenset()) | {c}
    closed: set[frozenset[int]] = set(neighbours.values())
    frontier = list(closed)
    while frontier:
        current = frontier.pop()
        clock.spend(len(closed))
        for other in list(closed):
            meet = current & other
            if meet and meet not in closed:
                closed.add(meet)
                frontier.append(meet)
    subsets = []
    for cols in closed:
        clock.spend(len(neighbours))
        rows = frozenset(r for r, near in neighbours.items() if cols <= near)
        subsets.append(NashSubset(tuple(sorted(rows)), tuple(sorted(cols))))
    spans = [(set(s.row), set(s.col)) for s in subsets]
    maximal = []
    for s, (s_rows, s_cols) in zip(subsets, spans, strict=True):
        clock.spend(len(subsets))
        if not any(
            t != s and s_rows <= t_rows and s_cols <= t_cols
            for t, (t_rows, t_cols) in zip(subsets, spans, strict=True)
        ):
            maximal.append(s)
    subsets = maximal
    edge_index = {edge: k for k, edge in enumerate(edges)}
    groups: list[tuple[set[int], set[int], list[NashSubset]]] = []
    for subset in sorted(subsets, key=lambda s: (s.row, s.col)):
        clock.spend(len(groups))
        group_rows, group_cols = set(subset.row), set(subset.col)
        joined = [g for g in groups if g[0] & group_rows or g[1] & group_cols]
        for g in joined:
            groups.remove(g)
            group_rows |= g[0]
            group_cols |= g[1]
        groups.append((group_rows, group_cols, [s for g in joined for s in g[2]] + [subset]))
    components = []
    for group_rows, group_cols, members in groups:
        clock.spend(len(edge_index))
        inside = sorted(
            k for (r, c), k in edge_index.items() if r in group_rows and c in group_cols
        )
        ordered = tuple(sorted(members, key=lambda s: (s.row, s.col)))
        components.append(Component(tuple(inside), ordered))
    return tuple(sorted(components, key=lambda comp: comp.equilibria))
