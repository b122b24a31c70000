# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=True
"""The compiled depth-first search behind :mod:`analysis.equilibria.basis_search`.

It is :class:`analysis.equilibria.basis_search.PythonBasisSearch` pivot for pivot (the same
integer tableau, the same lexicographic ratio test, the same order of entering variables), in
C integers: entries are kept below ``2**62`` in 64 bits and every product in 128 bits; an
entry that would pass ``2**62`` stops the search with ``overflowed`` set (then the caller
uses qhull). :class:`CompiledFloatSearch` is
:class:`analysis.equilibria.basis_search.PythonFloatSearch`, the float search of small simple
polytopes, in C doubles (the same operations in the same order).
"""

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc

import numpy as np

cdef extern from *:
    ctypedef long long int128 "__int128"


cdef int64_t LARGEST = (<int64_t>1) << 62


cdef inline uint64_t slot_of(uint64_t key, int shift):
    return (key * <uint64_t>0x9E3779B97F4A7C15) >> shift


cdef struct KeySet:  # an open-addressing set of nonzero 64-bit keys (0 marks a free slot)
    uint64_t *slots
    int shift
    Py_ssize_t capacity, count


cdef int key_set_start(KeySet *keys, int bits) except -1:
    """An empty set of ``2 ** bits`` slots (it doubles when half full)."""
    keys.shift = 64 - bits
    keys.capacity = (<Py_ssize_t>1) << bits
    keys.count = 0
    keys.slots = <uint64_t*>calloc(keys.capacity, sizeof(uint64_t))
    if not keys.slots:
        raise MemoryError()
    return 0


cdef bint key_set_add(KeySet *keys, uint64_t key) except -1:
    """Add ``key`` (nonzero); False when it was there."""
    cdef Py_ssize_t at, old_capacity, i
    cdef uint64_t *old
    if 2 * (keys.count + 1) > keys.capacity:
        old, old_capacity = keys.slots, keys.capacity
        keys.slots = <uint64_t*>calloc(2 * old_capacity, sizeof(uint64_t))
        if not keys.slots:
            keys.slots = old
            raise MemoryError()
        keys.capacity = 2 * old_capacity
        keys.shift -= 1
        for i in range(old_capacity):
            if old[i]:
                at = slot_of(old[i], keys.shift)
                while keys.slots[at]:
                    at = (at + 1) & (keys.capacity - 1)
                keys.slots[at] = old[i]
        free(old)
    at = slot_of(key, keys.shift)
    while keys.slots[at]:
        if keys.slots[at] == key:
            return False
        at = (at + 1) & (keys.capacity - 1)
    keys.slots[at] = key
    keys.count += 1
    return True


cdef class CompiledBasisSearch:
    """Every vertex of ``{z >= 0 : M z <= 1}`` (``M`` positive integers) by pivoting."""

    cdef int rows, dimension, variables, width, frames, frame_capacity, next_variable
    cdef bint own_first, finished
    cdef int64_t *tableau
    cdef int *basis
    cdef int *columns
    cdef int *frame_next
    cdef int *frame_row
    cdef int *frame_old
    cdef int64_t determinant
    cdef uint64_t mask
    cdef KeySet bases  # the bases visited (bit masks)
    cdef KeySet label_sets  # the label sets of the vertices found
    cdef int64_t *found_labels
    cdef int64_t *found_points
    cdef int64_t *found_denominators
    cdef Py_ssize_t found, found_capacity
    cdef public long long pivots
    cdef public bint overflowed

    def __cinit__(self, const int64_t[:, ::1] matrix, bint own_first):
        cdef int r, i
        self.rows = matrix.shape[0]
        self.dimension = matrix.shape[1]
        if self.rows < 1 or self.dimension < 1 or self.rows + self.dimension > 62:
            raise ValueError(f"the search takes 1 to 62 variables, not {matrix.shape}")
        self.variables = self.rows + self.dimension
        self.width = 1 + self.variables
        self.own_first = own_first
        self.tableau = <int64_t*>malloc(self.rows * self.width * sizeof(int64_t))
        self.basis = <int*>malloc(self.rows * sizeof(int))
        self.columns = <int*>malloc(self.width * sizeof(int))
        self.frame_capacity = 1024
        self.frame_next = <int*>malloc(self.frame_capacity * sizeof(int))
        self.frame_row = <int*>malloc(self.frame_capacity * sizeof(int))
        self.frame_old = <int*>malloc(self.frame_capacity * sizeof(int))
        key_set_start(&self.bases, 12)
        key_set_start(&self.label_sets, 12)
        self.found_capacity = 1024
        self.found_labels = <int64_t*>malloc(self.found_capacity * sizeof(int64_t))
        self.found_points = <int64_t*>malloc(
            self.found_capacity * self.dimension * sizeof(int64_t)
        )
        self.found_denominators = <int64_t*>malloc(self.found_capacity * sizeof(int64_t))
        if (
            not self.tableau or not self.basis or not self.columns or not self.frame_next
            or not self.frame_row or not self.frame_old or not self.found_labels
            or not self.found_points
            or not self.found_denominators
        ):
            raise MemoryError()
        # the slack basis: row r is s_r + M_r z = 1
        for r in range(self.rows):
            self.tableau[r * self.width] = 1
            for i in range(self.dimension):
                self.tableau[r * self.width + 1 + i] = matrix[r, i]
            for i in range(self.rows):
                self.tableau[r * self.width + 1 + self.dimension + i] = 1 if i == r else 0
            self.basis[r] = self.dimension + r
        self.determinant = 1
        self.mask = 0
        for r in range(self.rows):
            self.mask |= (<uint64_t>1) << self.basis[r]
        self.frames = 0
        self.next_variable = 0
        self.found = 0
        self.pivots = 0
        self.finished = False
        self.overflowed = False
        for r in range(self.rows):
            for i in range(self.dimension):
                if not -LARGEST < matrix[r, i] < LARGEST:
                    self.overflowed = True
        key_set_add(&self.bases, self.mask)
        self.record_vertex()

    def __dealloc__(self):
        free(self.tableau)
        free(self.basis)
        free(self.columns)
        free(self.frame_next)
        free(self.frame_row)
        free(self.frame_old)
        free(self.bases.slots)
        free(self.label_sets.slots)
        free(self.found_labels)
        free(self.found_points)
        free(self.found_denominators)

    cdef int record_vertex(self) except -1:
        """Store the current basis's vertex when its label set is new."""
        cdef int r, v, d = self.dimension
        cdef uint64_t full = ((<uint64_t>1) << self.variables) - 1
        cdef uint64_t tight = ~self.mask & full, labels
        cdef Py_ssize_t k
        for r in range(self.rows):
            if self.tableau[r * self.width] == 0:
                tight |= (<uint64_t>1) << self.basis[r]
        if self.own_first:
            labels = tight
        else:
            labels = (tight >> d) | ((tight & (((<uint64_t>1) << d) - 1)) << self.rows)
        if not key_set_add(&self.label_sets, labels):
            return 0
        if self.found == self.found_capacity:
            self.found_capacity *= 2
            self.found_labels = <int64_t*>grow(self.found_labels, self.found_capacity)
            self.found_points = <int64_t*>grow(self.found_points, self.found_capacity * d)
            self.found_denominators = <int64_t*>grow(
                self.found_denominators, self.found_capacity
            )
        k = self.found
        self.found_labels[k] = <int64_t>labels
        for v in range(d):
            self.found_points[k * d + v] = 0
        for r in range(self.rows):
            v = self.basis[r]
            if v < d:
                self.found_points[k * d + v] = self.tableau[r * self.width]
        self.found_denominators[k] = self.determinant
        self.found += 1
        return 0

    cdef int leaving_row(self, int entering):
        """The row leaving when ``entering`` enters: the lexicographic ratio test on the
        right-hand side then the slack columns (the basis inverse), -1 when unbounded."""
        cdef int r, best = -1, k, column
        cdef int w = self.width, first_slack = 1 + self.dimension
        cdef int64_t p, q = 0
        cdef int128 a, b
        for r in range(self.rows):
            p = self.tableau[r * w + 1 + entering]
            if p <= 0:
                continue
            if best < 0:
                best, q = r, p
                continue
            a = <int128>self.tableau[r * w] * q
            b = <int128>self.tableau[best * w] * p
            if a == b:
                for k in range(self.rows):
                    column = first_slack + k
                    a = <int128>self.tableau[r * w + column] * q
                    b = <int128>self.tableau[best * w + column] * p
                    if a != b:
                        break
            if a < b:
                best, q = r, p
        return best

    cdef void pivot(self, int row, int entering) noexcept:
        """Exchange ``entering`` into the basis at ``row`` (fraction-free: every division
        by the previous determinant is exact)."""
        cdef int w = self.width, n = 1, v, i, k, j, old = self.basis[row]
        cdef int64_t p = self.tableau[row * w + 1 + entering], f, d = self.determinant
        cdef int64_t *pivot_row = self.tableau + row * w
        cdef int64_t *target
        cdef int128 wide
        cdef int64_t narrow
        self.columns[0] = 0
        for v in range(self.variables):
            if not (self.mask >> v) & 1 and v != entering:
                self.columns[n] = 1 + v
                n += 1
        for i in range(self.rows):
            if i == row:
                continue
            target = self.tableau + i * w
            f = target[1 + entering]
            for k in range(n):
                j = self.columns[k]
                wide = <int128>target[j] * p - <int128>f * pivot_row[j]
                narrow = <int64_t>wide
                # a 64-bit division where the numerator fits (most entries): several times
                # faster than the 128-bit one
                if narrow == wide:
                    narrow = narrow / d
                else:
                    wide = wide / d
                    narrow = <int64_t>wide if -LARGEST < wide < LARGEST else LARGEST
                if not -LARGEST < narrow < LARGEST:
                    self.overflowed = True
                target[j] = narrow
            target[1 + old] = -f
            target[1 + entering] = 0
            target[1 + self.basis[i]] = p
        self.determinant = p
        self.basis[row] = entering
        self.mask ^= ((<uint64_t>1) << old) | ((<uint64_t>1) << entering)
        self.pivots += 1

    def advance(self, long long max_pivots):
        """Go on with the search for up to ``max_pivots`` pivots; True once it is over (every
        vertex found, or ``overflowed`` set)."""
        cdef long long stop = self.pivots + max_pivots
        cdef int entering, row, old
        cdef uint64_t child
        cdef bint moved
        while not self.finished and not self.overflowed and self.pivots < stop:
            moved = False
            while self.next_variable < self.variables:
                entering = self.next_variable
                self.next_variable += 1
                if (self.mask >> entering) & 1:
                    continue
                row = self.leaving_row(entering)
                if row < 0:
                    continue
                old = self.basis[row]
                child = self.mask ^ ((<uint64_t>1) << old) ^ ((<uint64_t>1) << entering)
                if not key_set_add(&self.bases, child):
                    continue
                if self.frames == self.frame_capacity:
                    self.frame_capacity *= 2
                    self.frame_next = <int*>grow_int(self.frame_next, self.frame_capacity)
                    self.frame_row = <int*>grow_int(self.frame_row, self.frame_capacity)
                    self.frame_old = <int*>grow_int(self.frame_old, self.frame_capacity)
                self.frame_next[self.frames] = self.next_variable
                self.frame_row[self.frames] = row
                self.frame_old[self.frames] = old
                self.frames += 1
                self.pivot(row, entering)
                if self.overflowed:
                    break
                self.record_vertex()
                self.next_variable = 0
                moved = True
                break
            if moved:
                continue
            if self.overflowed:
                break
            if self.frames == 0:
                self.finished = True
                break
            self.frames -= 1
            self.next_variable = self.frame_next[self.frames]
            self.pivot(self.frame_row[self.frames], self.frame_old[self.frames])
        return self.finished or self.overflowed

    def vertices(self):
        """``(labels, numerators, denominators)`` of the vertices found, as int64 arrays."""
        cdef Py_ssize_t k, n = self.found, d = self.dimension
        labels = np.empty(n, dtype=np.int64)
        points = np.empty((n, d), dtype=np.int64)
        denominators = np.empty(n, dtype=np.int64)
        cdef int64_t[::1] label_view = labels
        cdef int64_t[:, ::1] point_view = points
        cdef int64_t[::1] denominator_view = denominators
        for k in range(n):
            label_view[k] = self.found_labels[k]
            denominator_view[k] = self.found_denominators[k]
            for v in range(d):
                point_view[k, v] = self.found_points[k * d + v]
        return labels, points, denominators


cdef void* grow(int64_t *block, Py_ssize_t count) except NULL:
    cdef void *bigger = realloc(block, count * sizeof(int64_t))
    if not bigger:
        raise MemoryError()
    return bigger


cdef void* grow_int(int *block, Py_ssize_t count) except NULL:
    cdef void *bigger = realloc(block, count * sizeof(int))
    if not bigger:
        raise MemoryError()
    return bigger


cdef extern from "math.h":
    double fabs(double x) nogil


cdef class CompiledFloatSearch:
    """Every vertex of ``{z >= 0 : M z <= 1}`` (``M`` floats) while the polytope is simple.

    Each basis's tableau is computed afresh from ``M`` (Gaussian elimination with partial
    pivoting), so no rounding error builds up along the search. The search stops, with
    ``degenerate`` set, at the first sign that the polytope is not simple, or not well
    enough conditioned to say: a basic variable within ``tolerance`` of 0, two ratios
    within ``tolerance`` of a tie, a pivot below ``tolerance``.
    """

    cdef int rows, dimension, variables
    cdef bint own_first, finished
    cdef public bint degenerate
    cdef double tolerance
    cdef double *payoff
    cdef double *work
    cdef double *solution
    cdef int *basic
    cdef int *nonbasic
    cdef uint64_t *stack
    cdef Py_ssize_t stack_count, stack_capacity
    cdef KeySet bases  # the bases visited (bit masks)
    cdef int64_t *found_labels
    cdef double *found_points
    cdef Py_ssize_t found, found_capacity
    cdef public long long nodes

    def __cinit__(self, const double[:, ::1] payoff, bint own_first, double tolerance):
        cdef int r, i
        self.rows = payoff.shape[0]
        self.dimension = payoff.shape[1]
        if self.rows < 1 or self.dimension < 1 or self.rows + self.dimension > 62:
            raise ValueError(f"the search takes 1 to 62 variables, not {payoff.shape}")
        self.variables = self.rows + self.dimension
        self.own_first = own_first
        self.tolerance = tolerance
        self.payoff = <double*>malloc(self.rows * self.dimension * sizeof(double))
        # the system [B | 1 | nonbasic columns], rows x (rows + 1 + dimension)
        self.work = <double*>malloc(self.rows * (self.variables + 1) * sizeof(double))
        self.solution = <double*>malloc(self.rows * (self.dimension + 1) * sizeof(double))
        self.basic = <int*>malloc(self.rows * sizeof(int))
        self.nonbasic = <int*>malloc(self.dimension * sizeof(int))
        self.stack_capacity = 1024
        self.stack = <uint64_t*>malloc(self.stack_capacity * sizeof(uint64_t))
        key_set_start(&self.bases, 10)
        self.found_capacity = 256
        self.found_labels = <int64_t*>malloc(self.found_capacity * sizeof(int64_t))
        self.found_points = <double*>malloc(self.found_capacity * self.dimension * sizeof(double))
        if (
            not self.payoff or not self.work or not self.solution or not self.basic
            or not self.nonbasic or not self.stack or not self.found_labels
            or not self.found_points
        ):
            raise MemoryError()
        for r in range(self.rows):
            for i in range(self.dimension):
                self.payoff[r * self.dimension + i] = payoff[r, i]
        self.found = 0
        self.nodes = 0
        self.finished = False
        self.degenerate = False
        # the slack basis (z = 0)
        self.stack[0] = (((<uint64_t>1) << self.variables) - 1) ^ (
            ((<uint64_t>1) << self.dimension) - 1
        )
        self.stack_count = 1
        key_set_add(&self.bases, self.stack[0])

    def __dealloc__(self):
        free(self.payoff)
        free(self.work)
        free(self.solution)
        free(self.basic)
        free(self.nonbasic)
        free(self.stack)
        free(self.bases.slots)
        free(self.found_labels)
        free(self.found_points)

    cdef double entry(self, int variable, int row) noexcept:
        """Row ``row`` of variable ``variable``'s column of ``[M | I]``."""
        if variable < self.dimension:
            return self.payoff[row * self.dimension + variable]
        return 1.0 if variable - self.dimension == row else 0.0

    cdef bint solve(self, uint64_t mask) noexcept:
        """The tableau of basis ``mask`` into ``solution`` (row r: basic variable r's value,
        then its coefficients in the nonbasic columns); False when the basis is singular."""
        cdef int c = self.rows, d = self.dimension, w = self.variables + 1
        cdef int r, k, i, j, v, nb = 0, nn = 0, best
        cdef double *a = self.work
        cdef double f, s, largest
        for v in range(self.variables):
            if (mask >> v) & 1:
                self.basic[nb] = v
                nb += 1
            else:
                self.nonbasic[nn] = v
                nn += 1
        for r in range(c):
            for k in range(c):
                a[r * w + k] = self.entry(self.basic[k], r)
            a[r * w + c] = 1.0
            for k in range(d):
                a[r * w + c + 1 + k] = self.entry(self.nonbasic[k], r)
        for k in range(c):
            best = k
            largest = fabs(a[k * w + k])
            for i in range(k + 1, c):
                if fabs(a[i * w + k]) > largest:
                    best, largest = i, fabs(a[i * w + k])
            if not largest > self.tolerance:
                return False
            if best != k:
                for j in range(k, w):
                    f = a[k * w + j]
                    a[k * w + j] = a[best * w + j]
                    a[best * w + j] = f
            for i in range(k + 1, c):
                f = a[i * w + k] / a[k * w + k]
                if f != 0.0:
                    for j in range(k + 1, w):
                        a[i * w + j] = a[i * w + j] - f * a[k * w + j]
        for j in range(d + 1):
            for i in range(c - 1, -1, -1):
                s = a[i * w + c + j]
                for k in range(i + 1, c):
                    s = s - a[i * w + k] * self.solution[k * (d + 1) + j]
                self.solution[i * (d + 1) + j] = s / a[i * w + i]
        return True

    cdef int visit(self, uint64_t mask) except -1:
        """Record the vertex of basis ``mask`` and push its unvisited neighbours."""
        cdef int c = self.rows, d = self.dimension, r, k, best
        cdef double t, best_ratio, second, p
        cdef uint64_t labels = 0, child
        cdef Py_ssize_t at
        if not self.solve(mask):
            self.degenerate = True
            return 0
        for r in range(c):
            if not self.solution[r * (d + 1)] > self.tolerance:
                self.degenerate = True
                return 0
        for k in range(d):
            labels |= (<uint64_t>1) << self.nonbasic[k]
        if not self.own_first:
            labels = (labels >> d) | ((labels & (((<uint64_t>1) << d) - 1)) << c)
        if self.found == self.found_capacity:
            self.found_capacity *= 2
            self.found_labels = <int64_t*>grow(self.found_labels, self.found_capacity)
            self.found_points = <double*>grow_double(
                self.found_points, self.found_capacity * d
            )
        at = self.found
        self.found_labels[at] = <int64_t>labels
        for k in range(d):
            self.found_points[at * d + k] = 0.0
        for r in range(c):
            if self.basic[r] < d:
                self.found_points[at * d + self.basic[r]] = self.solution[r * (d + 1)]
        self.found += 1
        for k in range(d):
            best = -1
            best_ratio = 0.0
            second = -1.0
            for r in range(c):
                p = self.solution[r * (d + 1) + 1 + k]
                if p <= 0.0:
                    continue
                t = self.solution[r * (d + 1)] / p
                if best < 0 or t < best_ratio:
                    if best >= 0:
                        second = best_ratio
                    best, best_ratio = r, t
                elif second < 0.0 or t < second:
                    second = t
            if best < 0 or not self.solution[best * (d + 1) + 1 + k] > self.tolerance:
                self.degenerate = True
                return 0
            if second >= 0.0 and not second - best_ratio > self.tolerance * (1.0 + best_ratio):
                self.degenerate = True
                return 0
            child = mask ^ ((<uint64_t>1) << self.basic[best]) ^ (
                (<uint64_t>1) << self.nonbasic[k]
            )
            if key_set_add(&self.bases, child):
                if self.stack_count == self.stack_capacity:
                    self.stack_capacity *= 2
                    self.stack = <uint64_t*>grow(<int64_t*>self.stack, self.stack_capacity)
                self.stack[self.stack_count] = child
                self.stack_count += 1
        return 0

    def advance(self, long long max_nodes):
        """Go on with the search for up to ``max_nodes`` bases; True once it is over (all
        vertices found, or ``degenerate`` set)."""
        cdef long long stop = self.nodes + max_nodes
        while not self.finished and self.nodes < stop:
            if self.stack_count == 0 or self.degenerate:
                self.finished = True
                break
            self.stack_count -= 1
            self.nodes += 1
            self.visit(self.stack[self.stack_count])
        if self.degenerate:
            self.finished = True
        return self.finished

    def vertices(self):
        """``(labels, points)`` of the vertices found (int64 and float64 arrays)."""
        cdef Py_ssize_t k, v, n = self.found, d = self.dimension
        labels = np.empty(n, dtype=np.int64)
        points = np.empty((n, d), dtype=np.float64)
        cdef int64_t[::1] label_view = labels
        cdef double[:, ::1] point_view = points
        for k in range(n):
            label_view[k] = self.found_labels[k]
            for v in range(d):
                point_view[k, v] = self.found_points[k * d + v]
        return labels, points


cdef void* grow_double(double *block, Py_ssize_t count) except NULL:
    cdef void *bigger = realloc(block, count * sizeof(double))
    if not bigger:
        raise MemoryError()
    return bigger
