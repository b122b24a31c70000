"""Every vertex of a best-response polytope, exactly, by a depth-first search over its bases.

The polytope ``{z >= 0 : M z <= 1}`` (``M`` positive integers, one row per constraint) is
written with slacks ``s = 1 - M z >= 0``; a basis is a choice of ``rows`` basic variables
among the ``z`` and ``s``, and its vertex sets the others to 0. The search starts at the
slack basis (``z = 0``) and pivots to every basis reachable by the simplex method's
lexicographic ratio test (the right-hand side, then the columns of the basis inverse,
break the ties of degenerate vertices): these are the vertices of the polytope perturbed to
``M z <= 1 + (e, e^2, ...)``, which is simple, so its vertex graph is connected and a
depth-first search reaches every one; each is a vertex of the polytope itself, and every
vertex of the polytope is reached (Avis and Fukuda's lexicographic rule, as in ``lrs``). A
vertex is recorded once per label set (its tight constraints), exactly: the tableau is kept
in integers, fraction-free (every entry is the basis determinant times the true one), so
the vertex is ``numerators / determinant`` and its labels are exact, with no tolerance.

The walk keeps one tableau and undoes each pivot on the way back, so its memory is the set
of bases visited and the vertices found. :class:`CompiledBasisSearch`
(:mod:`analysis.equilibria._basis_search`, Cython) runs it in 64-bit integers with 128-bit
products and gives up when an entry would reach ``2**62`` (entries are minors of the payoffs:
small integer payoffs, as degenerate games have, keep them small; :func:`fits_in_64_bits`
tells when they provably do); :class:`PythonBasisSearch` is its mirror pivot for pivot, in
Python integers with the same limit, the specification the compiled search is tested against.
Where the compiled search is not built (or ``ARBITER_PURE_PYTHON=1``), or it gives up,
:mod:`analysis.equilibria.vertex_enumeration` uses qhull instead.

:func:`float_vertices` is the same walk in floats for small polytopes (the float mode, and
games whose exact payoffs are too large for 64 bits): each basis's tableau is solved afresh
from the payoffs (Gaussian elimination with partial pivoting, so no error builds up along
the walk), and the walk gives up, leaving the polytope to qhull, at the first sign that the
polytope is not simple (a basic variable or a gap between two ratios within
:data:`FLOAT_TOLERANCE`): a simple polytope has one basis per vertex, so no tie-breaking rule
is needed. :class:`CompiledFloatSearch` runs it in C, :class:`PythonFloatSearch` is its mirror.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from games.compiled import kernel
from games.limits import Deadline
from games.matrices.model import FloatArray, ObjectArray

KERNEL: Final = kernel("analysis.equilibria._basis_search")
"""The compiled searches, where the set-up built them (:mod:`games.compiled`); else qhull
answers instead."""

COMPILED: Final = KERNEL is not None
"""Whether the compiled search is there to use."""

PIVOTS_PER_CHECK: Final = 2048
"""Pivots between two charges of the deadline (a few milliseconds of the compiled search)."""

FLOAT_SEARCH_VARIABLES: Final = 18
"""Largest polytope (coordinates plus constraints) given to the float search: it solves each
basis afresh, which beats qhull up to 9 x 9 games (measured per polytope: 0.04 ms against
0.15 ms at 6 x 6, 0.7 against 1.1 ms at 8 x 8; about even at 10 x 10, slower at 12 x 12)."""

FLOAT_TOLERANCE: Final = 1e-9
"""The float search's margin: a basic variable, a pivot or the gap between two ratios below it
stops the search (the polytope may not be simple)."""

LARGEST_MINOR_BITS: Final = 62
"""The exact search keeps every tableau entry (a minor) below ``2**62``: then an entry fits 64
bits and every product or difference of two products fits 128; past it, it gives up."""


@dataclass(frozen=True, slots=True)
class SearchedVertices:
    """The vertices found: vertex ``k`` has label set ``labels[k]`` (a bit mask) and is the
    point ``numerators[k] / denominators[k]``."""

    labels: npt.NDArray[np.int64]
    numerators: npt.NDArray[np.int64]
    denominators: npt.NDArray[np.int64]


class BasisSearch(Protocol):
    pivots: int
    overflowed: bool

    def advance(self, max_pivots: int) -> bool: ...

    def vertices(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...


def fits_in_64_bits(matrix: ObjectArray) -> bool:
    """Whether every tableau entry of the exact search is provably below ``2**62`` (then the
    search cannot give up: the caller need not keep time for qhull).

    An entry is a ``rows x rows`` minor of ``[1 | M | I]``, at most the product of the
    Euclidean norms of its columns (Hadamard's inequality), so at most the product of the
    ``rows`` largest column norms; the squares are compared in integers.
    """
    constraints = matrix.shape[0]
    squares = [constraints] + [
        sum(int(v) * int(v) for v in matrix[:, i].tolist()) for i in range(matrix.shape[1])
    ]
    product = 1
    for square in sorted(squares, reverse=True)[:constraints]:
        product *= square
    return product < 1 << (2 * LARGEST_MINOR_BITS)


def exact_vertices(
    matrix: ObjectArray, own_first: bool, clock: Deadline, compiled: bool | None = None
) -> SearchedVertices | None:
    """Every vertex of ``{z >= 0 : M z <= 1}`` other than 0, with its exact labels.

    Labels are numbered as in :mod:`analysis.equilibria.vertex_enumeration`: with
    ``own_first``, label ``i`` is ``z_i = 0`` and label ``dimension + j`` is constraint ``j``
    tight; otherwise constraint ``j`` is label ``j`` and ``z_i = 0`` is label ``rows + i``.
    ``None`` when the compiled search is not available (``compiled`` unset: the default) or
    gives up (a tableau entry reaches ``2**62``); ``compiled=False`` runs
    :class:`PythonBasisSearch` instead.

    :raises TimeLimitError: the deadline passed (it is charged every
        :data:`PIVOTS_PER_CHECK` pivots).
    """
    constraints, dimension = matrix.shape
    if compiled is None:
        compiled = COMPILED
        if not compiled:
            return None
    if compiled and not COMPILED:
        return None
    clock.spend(matrix.size)
    entries: list[int] = matrix.ravel().tolist()
    if max(entries) >= 1 << LARGEST_MINOR_BITS:  # entries are positive
        return None
    search: BasisSearch
    if compiled:
        assert KERNEL is not None
        search = KERNEL.CompiledBasisSearch(np.ascontiguousarray(matrix, dtype=np.int64), own_first)
    else:
        search = PythonBasisSearch(matrix.tolist(), own_first)
    done = False
    while not done:
        before = search.pivots
        done = search.advance(PIVOTS_PER_CHECK)
        clock.spend(1 + (search.pivots - before) * constraints * dimension)
    if search.overflowed:
        return None
    labels, numerators, denominators = search.vertices()
    nonzero = numerators.any(axis=1)
    return SearchedVertices(labels[nonzero], numerators[nonzero], denominators[nonzero])


def float_vertices(
    payoff: FloatArray, own_first: bool, clock: Deadline, compiled: bool | None = None
) -> tuple[npt.NDArray[np.int64], FloatArray] | None:
    """Every vertex of ``{z >= 0 : M z <= 1}`` other than 0 with its labels (numbered as in
    :func:`exact_vertices`), in floats, for a simple polytope with entries of ``M`` at most 1.

    ``None`` when the polytope is not clearly simple (a degenerate game: qhull, which merges
    the facets of degenerate vertices, answers instead), when it has more than
    :data:`FLOAT_SEARCH_VARIABLES` variables, or when the compiled search is not available
    (``compiled`` unset); ``compiled=False`` runs :class:`PythonFloatSearch`.

    :raises TimeLimitError: the deadline passed.
    """
    constraints, dimension = payoff.shape
    if constraints + dimension > FLOAT_SEARCH_VARIABLES:
        return None
    if compiled is None:
        compiled = COMPILED
        if not compiled:
            return None
    if compiled and not COMPILED:
        return None
    search: FloatSearch
    if compiled:
        assert KERNEL is not None
        search = KERNEL.CompiledFloatSearch(
            np.ascontiguousarray(payoff, dtype=np.float64), own_first, FLOAT_TOLERANCE
        )
    else:
        search = PythonFloatSearch(payoff.tolist(), own_first, FLOAT_TOLERANCE)
    cost = constraints * (constraints + dimension) ** 2
    done = False
    while not done:
        before = search.nodes
        done = search.advance(max(1, PIVOTS_PER_CHECK // constraints))
        clock.spend(1 + (search.nodes - before) * cost)
    if search.degenerate:
        return None
    labels, points = search.vertices()
    nonzero = points.any(axis=1)
    return labels[nonzero], points[nonzero]


class FloatSearch(Protocol):
    nodes: int
    degenerate: bool

    def advance(self, max_nodes: int) -> bool: ...

    def vertices(self) -> tuple[npt.NDArray[np.int64], FloatArray]: ...


class PythonFloatSearch:
    """The float search in Python: the compiled search's mirror, basis for basis (the same
    operations in the same order, so the same floats)."""

    def __init__(self, payoff: list[list[float]], own_first: bool, tolerance: float) -> None:
        self.payoff, self.own_first, self.tolerance = payoff, own_first, tolerance
        self.rows, self.dimension = len(payoff), len(payoff[0])
        self.variables = self.rows + self.dimension
        start = ((1 << self.variables) - 1) ^ ((1 << self.dimension) - 1)
        self.stack, self.bases = [start], {start}
        self.found: list[tuple[int, list[float]]] = []
        self.nodes = 0
        self.degenerate = self.finished = False

    def _entry(self, variable: int, row: int) -> float:
        if variable < self.dimension:
            return self.payoff[row][variable]
        return 1.0 if variable - self.dimension == row else 0.0

    def _solve(self, basic: list[int], nonbasic: list[int]) -> list[list[float]] | None:
        c, d = self.rows, self.dimension
        a = [
            [self._entry(v, r) for v in basic] + [1.0] + [self._entry(v, r) for v in nonbasic]
            for r in range(c)
        ]
        for k in range(c):
            best, largest = k, abs(a[k][k])
            for i in range(k + 1, c):
                if abs(a[i][k]) > largest:
                    best, largest = i, abs(a[i][k])
            if not largest > self.tolerance:
                return None
            a[k], a[best] = a[best], a[k]
            for i in range(k + 1, c):
                f = a[i][k] / a[k][k]
                if f != 0.0:
                    for j in range(k + 1, len(a[i])):
                        a[i][j] = a[i][j] - f * a[k][j]
        solution = [[0.0] * (d + 1) for _ in range(c)]
        for j in range(d + 1):
            for i in range(c - 1, -1, -1):
                s = a[i][c + j]
                for k in range(i + 1, c):
                    s = s - a[i][k] * solution[k][j]
                solution[i][j] = s / a[i][i]
        return solution

    def _visit(self, mask: int) -> None:
        c, d = self.rows, self.dimension
        basic = [v for v in range(self.variables) if mask >> v & 1]
        nonbasic = [v for v in range(self.variables) if not mask >> v & 1]
        solution = self._solve(basic, nonbasic)
        if solution is None or not all(row[0] > self.tolerance for row in solution):
            self.degenerate = True
            return
        labels = sum(1 << v for v in nonbasic)
        if not self.own_first:
            labels = labels >> d | (labels & ((1 << d) - 1)) << c
        point = [0.0] * d
        for r, v in enumerate(basic):
            if v < d:
                point[v] = solution[r][0]
        self.found.append((labels, point))
        for k, entering in enumerate(nonbasic):
            best, best_ratio, second = -1, 0.0, -1.0
            for r in range(c):
                p = solution[r][1 + k]
                if p <= 0.0:
                    continue
                t = solution[r][0] / p
                if best < 0 or t < best_ratio:
                    if best >= 0:
                        second = best_ratio
                    best, best_ratio = r, t
                elif second < 0.0 or t < second:
                    second = t
            if best < 0 or not solution[best][1 + k] > self.tolerance:
                self.degenerate = True
                return
            if second >= 0.0 and not second - best_ratio > self.tolerance * (1.0 + best_ratio):
                self.degenerate = True
                return
            child = mask ^ 1 << basic[best] ^ 1 << entering
            if child not in self.bases:
                self.bases.add(child)
                self.stack.append(child)

    def advance(self, max_nodes: int) -> bool:
        """Go on with the search for up to ``max_nodes`` bases; True once it is over."""
        stop = self.nodes + max_nodes
        while not self.finished and self.nodes < stop:
            if not self.stack or self.degenerate:
                self.finished = True
                break
            self.nodes += 1
            self._visit(self.stack.pop())
        if self.degenerate:
            self.finished = True
        return self.finished

    def vertices(self) -> tuple[npt.NDArray[np.int64], FloatArray]:
        """``(labels, points)`` of the vertices found (int64 and float64 arrays)."""
        labels = np.array([labels for labels, _ in self.found], dtype=np.int64)
        points = np.array([point for _, point in self.found], dtype=np.float64)
        return labels, points.reshape(len(labels), self.dimension)


class PythonBasisSearch:
    """The search in Python integers: the compiled search's mirror, pivot for pivot."""

    def __init__(self, matrix: list[list[int]], own_first: bool) -> None:
        rows, dimension = len(matrix), len(matrix[0])
        self.rows, self.dimension, self.own_first = rows, dimension, own_first
        self.variables = rows + dimension
        # row r: [right-hand side, z_0 .. z_{d-1}, s_0 .. s_{rows-1}], times the determinant
        self.tableau = [
            [1, *matrix[r], *(1 if k == r else 0 for k in range(rows))] for r in range(rows)
        ]
        self.basis = [dimension + r for r in range(rows)]
        self.determinant = 1
        self.mask = sum(1 << v for v in self.basis)
        self.bases = {self.mask}
        self.found: dict[int, tuple[tuple[int, ...], int]] = {}
        self.frames: list[tuple[int, int, int]] = []
        self.next_variable = 0
        self.pivots = 0
        self.finished = False
        limit = 1 << LARGEST_MINOR_BITS
        self.overflowed = any(not -limit < v < limit for row in matrix for v in row)
        self._record_vertex()

    def _record_vertex(self) -> None:
        full = (1 << self.variables) - 1
        tight = ~self.mask & full
        point = [0] * self.dimension
        for r, v in enumerate(self.basis):
            rhs = self.tableau[r][0]
            if rhs == 0:
                tight |= 1 << v
            elif v < self.dimension:
                point[v] = rhs
        d = self.dimension
        labels = tight if self.own_first else tight >> d | (tight & ((1 << d) - 1)) << self.rows
        self.found.setdefault(labels, (tuple(point), self.determinant))

    def _leaving_row(self, entering: int) -> int:
        slack_columns = range(1 + self.dimension, 1 + self.variables)
        best, q = -1, 0
        for r, row in enumerate(self.tableau):
            p = row[1 + entering]
            if p <= 0:
                continue
            if best < 0:
                best, q = r, p
                continue
            other = self.tableau[best]
            a, b = row[0] * q, other[0] * p
            if a == b:
                for column in slack_columns:
                    a, b = row[column] * q, other[column] * p
                    if a != b:
                        break
            if a < b:
                best, q = r, p
        return best

    def _pivot(self, row: int, entering: int) -> None:
        pivot_row = self.tableau[row]
        p, d, old = pivot_row[1 + entering], self.determinant, self.basis[row]
        limit = 1 << LARGEST_MINOR_BITS
        columns = [0] + [
            1 + v for v in range(self.variables) if not self.mask >> v & 1 and v != entering
        ]
        for i, target in enumerate(self.tableau):
            if i == row:
                continue
            f = target[1 + entering]
            for j in columns:
                target[j] = (target[j] * p - f * pivot_row[j]) // d
                if not -limit < target[j] < limit:
                    self.overflowed = True
            target[1 + old] = -f
            target[1 + entering] = 0
            target[1 + self.basis[i]] = p
        self.determinant = p
        self.basis[row] = entering
        self.mask ^= 1 << old | 1 << entering
        self.pivots += 1

    def advance(self, max_pivots: int) -> bool:
        """Go on with the search for up to ``max_pivots`` pivots; True once it is over (every
        vertex found, or ``overflowed`` set)."""
        stop = self.pivots + max_pivots
        while not self.finished and not self.overflowed and self.pivots < stop:
            moved = False
            while self.next_variable < self.variables:
                entering = self.next_variable
                self.next_variable += 1
                if self.mask >> entering & 1:
                    continue
                row = self._leaving_row(entering)
                if row < 0:
                    continue
                old = self.basis[row]
                child = self.mask ^ 1 << old ^ 1 << entering
                if child in self.bases:
                    continue
                self.bases.add(child)
                self.frames.append((self.next_variable, row, old))
                self._pivot(row, entering)
                if self.overflowed:
                    break
                self._record_vertex()
                self.next_variable = 0
                moved = True
                break
            if moved:
                continue
            if self.overflowed:
                break
            if not self.frames:
                self.finished = True
                break
            self.next_variable, row, old = self.frames.pop()
            self._pivot(row, old)
        return self.finished or self.overflowed

    def vertices(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(labels, numerators, denominators)`` of the vertices found, as int64 arrays.

        Its entries stay below ``2**62`` (the search stops, ``overflowed``, before they pass
        it).
        """
        labels = np.array(list(self.found), dtype=np.int64)
        points = np.array([p for p, _ in self.found.values()], dtype=np.int64)
        denominators = np.array([d for _, d in self.found.values()], dtype=np.int64)
        return labels, points.reshape(len(labels), self.dimension), denominators
