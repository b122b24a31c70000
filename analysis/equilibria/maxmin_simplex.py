"""A dense simplex for the value of a zero-sum matrix game, in floats.

With the payoffs mapped affinely onto ``[1, 2]`` (``M = (A - min A) / span + 1``; optimal
strategies are unchanged), the column player's side is the linear program

    maximise sum(w)  subject to  M w <= 1,  w >= 0,

whose slack basis is feasible, so the simplex needs no first phase: at the optimum
``y = w / sum(w)`` is a minmax strategy, the duals of the rows ``u`` give the maxmin strategy
``x = u / sum(u)``, and the value of ``M`` is ``1 / sum(w)`` (Dantzig 1951's reduction of a
matrix game to a linear program). Pivots follow Dantzig's rule (the most negative reduced
cost), with Bland's lowest-index rule after ``rows + columns`` degenerate pivots in a row,
which cannot cycle.

:mod:`analysis.equilibria._maxmin_simplex` (Cython, built by the set-up) runs the same pivots
in C; :func:`python_simplex` here is its mirror in numpy, used where the extension was not
built or ``ARBITER_PURE_PYTHON=1``. Either answer is checked: the two strategies' guarantees
must meet within :data:`GAP_TOLERANCE`, else the caller falls back to HiGHS.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from games.compiled import kernel
from games.limits import Deadline
from games.matrices.model import FloatArray

KERNEL: Final = kernel("analysis.equilibria._maxmin_simplex")
"""The compiled simplex, where the set-up built it (:mod:`games.compiled`); else the numpy
mirror answers alone."""

COMPILED: Final = KERNEL is not None
"""Whether the compiled simplex is there to use."""

MAX_CELLS: Final = 300 * 300
"""Largest game (rows times columns) solved by this simplex; HiGHS solves larger ones."""

GAP_TOLERANCE: Final = 1e-9
"""Largest accepted gap between the two strategies' guarantees, as a fraction of the payoff
span."""

ENTER_TOL: Final = 1e-11
PIVOT_TOL: Final = 1e-9

Strategy = tuple[float, ...]
MaxminAnswer = tuple[int, float, Strategy, Strategy, int, float]


def max_pivots(rows: int, cols: int) -> int:
    """Pivots allowed before giving up (about ``rows + cols`` are typical)."""
    return 10 * (rows + cols) + 50


def simplex_maxmin(
    values: FloatArray, clock: Deadline, compiled: bool | None = None
) -> tuple[float, Strategy, Strategy] | None:
    """Value, maxmin and minmax strategies of the game ``values``, or ``None`` when the
    simplex does not end with strategies that check (the caller then asks HiGHS).

    ``compiled`` chooses the implementation (default: :data:`COMPILED`).
    """
    rows, cols = values.shape
    use_compiled = COMPILED if compiled is None else compiled
    if use_compiled and KERNEL is not None:
        answer = KERNEL.compiled_maxmin(np.ascontiguousarray(values), max_pivots(rows, cols))
    else:
        answer = python_maxmin(values, max_pivots(rows, cols))
    status, value, x, y, pivots, gap = answer
    # a pivot updates (rows + 1) x (rows + cols + 1) numbers: about 1e-3 microseconds each
    clock.spend(1 + pivots * (rows + 1) * (rows + cols + 1) // 1000)
    if status != 0 or not gap <= GAP_TOLERANCE:
        return None
    return value, x, y


def python_maxmin(values: FloatArray, most_pivots: int) -> MaxminAnswer:
    """:func:`analysis.equilibria._maxmin_simplex.compiled_maxmin` in numpy, pivot for pivot."""
    lowest = float(values.min())
    span = float(values.max()) - lowest
    if not np.isfinite(span):
        return 2, 0.0, (), (), 0, 0.0
    if span == 0.0:
        span = 1.0
    scaled = (values - lowest) / span + 1.0
    status, total, w, u, pivots, gap = python_simplex(scaled, most_pivots)
    if status != 0:
        return status, 0.0, (), (), pivots, gap
    x = np.clip(u, 0.0, None)
    y = np.clip(w, 0.0, None)
    value = (1.0 / total - 1.0) * span + lowest
    return status, value, tuple((x / x.sum()).tolist()), tuple((y / y.sum()).tolist()), pivots, gap


def python_simplex(
    scaled: FloatArray, most_pivots: int
) -> tuple[int, float, FloatArray, FloatArray, int, float]:
    """Solve ``max sum(w) s.t. scaled @ w <= 1, w >= 0`` (every entry of ``scaled`` >= 1).

    Returns ``(status, total, w, u, pivots, gap)``: ``w`` the primal solution, ``u`` the duals
    of the rows (both sum to ``total``), ``gap`` as in :func:`python_maxmin`.
    """
    rows, cols = scaled.shape
    width = cols + rows + 1
    tableau = np.zeros((rows + 1, width))
    tableau[:rows, :cols] = scaled
    tableau[:rows, cols : cols + rows] = np.eye(rows)
    tableau[:rows, -1] = 1.0
    tableau[rows, :cols] = -1.0
    basis = np.arange(cols, cols + rows)
    pivots = stalls = 0
    bland = False
    status = 1
    while pivots < most_pivots:
        costs = tableau[rows, :-1]
        if bland:
            negative = np.flatnonzero(costs < -ENTER_TOL)
            enter = int(negative[0]) if len(negative) else -1
        else:
            enter = int(np.argmin(costs))
            if not costs[enter] < -ENTER_TOL:
                enter = -1
        if enter < 0:
            status = 0
            break
        column = tableau[:rows, enter]
        candidates = np.flatnonzero(column > PIVOT_TOL)
        if len(candidates) == 0:
            status = 2
            break
        ratios = tableau[candidates, -1] / column[candidates]
        best_ratio = ratios.min()
        tied = candidates[ratios == best_ratio]
        leave = int(tied[np.argmin(basis[tied])])
        if best_ratio == 0.0:
            stalls += 1
            bland = bland or stalls > rows + cols
        else:
            stalls = 0
        tableau[leave] *= 1.0 / tableau[leave, enter]
        factors = tableau[:, enter].copy()
        factors[leave] = 0.0
        tableau -= np.outer(factors, tableau[leave])
        basis[leave] = enter
        pivots += 1
    w = np.zeros(cols)
    u = np.zeros(rows)
    total = gap = 0.0
    if status == 0:
        primal = basis < cols
        w[basis[primal]] = tableau[:rows, -1][primal]
        u[:] = tableau[rows, cols : cols + rows]
        total = float(tableau[rows, -1])
        gap = float(((scaled @ w).max() - (u @ scaled).min()) / total)
    return status, total, w, u, pivots, gap
