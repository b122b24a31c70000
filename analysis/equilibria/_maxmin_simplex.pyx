# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=True
"""The compiled dense simplex behind :mod:`analysis.equilibria.maxmin_simplex`.

It is :func:`analysis.equilibria.maxmin_simplex.python_simplex` pivot for pivot (the same
tableau, the same entering and leaving rules, the same tolerances), in C loops instead of
numpy calls: a small game is solved in microseconds, where calling an LP solver costs a
millisecond of set-up. :mod:`analysis.equilibria.maxmin_simplex` decides when it runs.
"""

from libc.math cimport fabs
from libc.stdlib cimport free, malloc

import numpy as np

cdef extern from *:
    """
    /* row -= factor * pivot, element by element (no fused multiply-add, so every entry is
       rounded as numpy rounds it); cloned for AVX2 where the processor has it */
    #if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
    __attribute__((target_clones("avx2", "default")))
    #endif
    static void subtract_multiple(double *restrict row, const double *restrict pivot,
                                  double factor, Py_ssize_t width) {
        for (Py_ssize_t c = 0; c < width; c++) row[c] -= factor * pivot[c];
    }
    """
    void subtract_multiple(double* row, const double* pivot, double factor, Py_ssize_t width) nogil

cdef double ENTER_TOL = 1e-11
cdef double PIVOT_TOL = 1e-9


def compiled_maxmin(const double[:, ::1] values, long max_pivots):
    """Solve the zero-sum game ``values`` (rows maximise) by the dense simplex.

    Returns ``(status, value, x, y, pivots, gap)``: status 0 optimal, 1 out of pivots, 2
    numerical trouble; ``x``, ``y`` the maxmin and minmax strategies as tuples of floats;
    ``gap`` is ``max_i (M y)_i - min_j (x M)_j`` for the payoffs ``M`` mapped onto [1, 2]
    (0 at an exact optimum).
    """
    cdef Py_ssize_t m = values.shape[0], n = values.shape[1], r, c
    cdef double lowest = values[0, 0], highest = values[0, 0], span, total, gap, mass
    for r in range(m):
        for c in range(n):
            if values[r, c] < lowest:
                lowest = values[r, c]
            if values[r, c] > highest:
                highest = values[r, c]
    span = highest - lowest
    if not (span == span and span - span == 0.0):  # nan or infinite
        return 2, 0.0, (), (), 0, 0.0
    if span == 0.0:
        span = 1.0
    scaled = np.empty((m, n))
    cdef double[:, ::1] scaled_view = scaled
    for r in range(m):
        for c in range(n):
            scaled_view[r, c] = (values[r, c] - lowest) / span + 1.0
    status, total, w, u, pivots, gap = _simplex(scaled_view, max_pivots)
    if status != 0:
        return status, 0.0, (), (), pivots, gap
    cdef double[::1] w_view = w
    cdef double[::1] u_view = u
    mass = 0.0
    for r in range(m):
        if u_view[r] < 0.0:
            u_view[r] = 0.0
        mass += u_view[r]
    x = tuple([u_view[r] / mass for r in range(m)])
    mass = 0.0
    for c in range(n):
        if w_view[c] < 0.0:
            w_view[c] = 0.0
        mass += w_view[c]
    y = tuple([w_view[c] / mass for c in range(n)])
    return status, (1.0 / total - 1.0) * span + lowest, x, y, pivots, gap


cdef tuple _simplex(double[:, ::1] scaled, long max_pivots):
    """Solve ``max sum(w) s.t. scaled @ w <= 1, w >= 0`` (every entry of ``scaled`` >= 1).

    Returns ``(status, total, w, u, pivots, gap)``: status 0 optimal, 1 out of pivots, 2
    numerical trouble; ``w`` the primal solution, ``u`` the duals of the rows (both sum to
    ``total``); ``gap`` is ``max_i (scaled @ y)_i - min_j (x @ scaled)_j`` for the strategies
    ``y = w / total`` and ``x = u / total`` (0 for an exact optimum).
    """
    cdef Py_ssize_t m = scaled.shape[0], n = scaled.shape[1]
    cdef Py_ssize_t width = n + m + 1
    cdef Py_ssize_t r, c, k, enter, leave, stalls = 0
    cdef long pivots = 0
    cdef bint bland = False
    cdef double best, ratio, best_ratio, factor, inverse, total = 0.0, gap = 0.0
    cdef double* tableau = <double*>malloc((m + 1) * width * sizeof(double))
    cdef Py_ssize_t* basis = <Py_ssize_t*>malloc(m * sizeof(Py_ssize_t))
    cdef double* row
    cdef double* pivot_row
    if tableau == NULL or basis == NULL:
        free(tableau)
        free(basis)
        raise MemoryError()
    w = np.zeros(n)
    u = np.zeros(m)
    cdef double[::1] w_view = w
    cdef double[::1] u_view = u
    cdef int status = 1
    try:
        for r in range(m):
            row = tableau + r * width
            for c in range(n):
                row[c] = scaled[r, c]
            for c in range(m):
                row[n + c] = 0.0
            row[n + r] = 1.0
            row[width - 1] = 1.0
            basis[r] = n + r
        row = tableau + m * width
        for c in range(n):
            row[c] = -1.0
        for c in range(n, width):
            row[c] = 0.0
        while pivots < max_pivots:
            # entering column: most negative reduced cost (Bland's lowest index after a stall)
            row = tableau + m * width
            enter = -1
            best = -ENTER_TOL
            for c in range(width - 1):
                if row[c] < best:
                    enter = c
                    if bland:
                        break
                    best = row[c]
            if enter < 0:
                status = 0
                break
            # leaving row: smallest ratio, ties to the lowest basic variable
            leave = -1
            best_ratio = 0.0
            for r in range(m):
                factor = tableau[r * width + enter]
                if factor > PIVOT_TOL:
                    ratio = tableau[r * width + width - 1] / factor
                    if (
                        leave < 0
                        or ratio < best_ratio
                        or (ratio == best_ratio and basis[r] < basis[leave])
                    ):
                        leave = r
                        best_ratio = ratio
            if leave < 0:  # unbounded: impossible with positive entries, so numerical trouble
                status = 2
                break
            if best_ratio == 0.0:
                stalls += 1
                if stalls > m + n:
                    bland = True
            else:
                stalls = 0
            pivot_row = tableau + leave * width
            inverse = 1.0 / pivot_row[enter]
            for c in range(width):
                pivot_row[c] *= inverse
            for r in range(m + 1):
                if r == leave:
                    continue
                row = tableau + r * width
                factor = row[enter]
                if factor != 0.0:
                    subtract_multiple(row, pivot_row, factor, width)
            basis[leave] = enter
            pivots += 1
        if status == 0:
            for r in range(m):
                if basis[r] < n:
                    w_view[basis[r]] = tableau[r * width + width - 1]
            for c in range(m):
                u_view[c] = tableau[m * width + n + c]
            total = tableau[m * width + width - 1]
            gap = _gap(scaled, w_view, u_view, total)
    finally:
        free(tableau)
        free(basis)
    return status, total, w, u, pivots, gap


cdef double _gap(double[:, ::1] scaled, double[::1] w, double[::1] u, double total):
    """``max_i (scaled @ w)_i - min_j (u @ scaled)_j``, both divided by ``total``."""
    cdef Py_ssize_t m = scaled.shape[0], n = scaled.shape[1], r, c
    cdef double most = -1e300, least = 1e300, payoff
    for r in range(m):
        payoff = 0.0
        for c in range(n):
            payoff += scaled[r, c] * w[c]
        if payoff > most:
            most = payoff
    for c in range(n):
        payoff = 0.0
        for r in range(m):
            payoff += u[r] * scaled[r, c]
        if payoff < least:
            least = payoff
    return (most - least) / total
