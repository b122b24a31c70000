"""Exact linear algebra over the rationals, for certifying floating-point answers.

Floating-point search (HiGHS, qhull) finds *which* constraints are tight; the
point itself is then recomputed here from those constraints with
:class:`fractions.Fraction`, so every probability and payoff we publish is
exact and every claim about it is checked exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm

import numpy as np
import numpy.typing as npt

from games.limits import Deadline, current_deadline
from games.numbers import Exact


def solve_exact(
    rows: Sequence[Sequence[Exact]], rhs: Sequence[Exact], deadline: Deadline | None = None
) -> list[Fraction] | None:
    """The unique solution of ``rows @ x == rhs``, or ``None``.

    ``rows`` may have more equations than unknowns; the answer is ``None`` when
    the system is inconsistent or does not determine ``x`` uniquely. Elimination is
    charged to ``deadline`` (the current one by default) by the size of the numbers.

    :raises TimeLimitError: the deadline passed.
    """
    if not rows:
        return None
    clock = deadline or current_deadline()
    unknowns = len(rows[0])
    matrix = [
        [Fraction(value) for value in row] + [Fraction(b)] for row, b in zip(rows, rhs, strict=True)
    ]
    pivot_row = 0
    for column in range(unknowns):
        chosen = next((r for r in range(pivot_row, len(matrix)) if matrix[r][column] != 0), None)
        if chosen is None:
            return None
        matrix[pivot_row], matrix[chosen] = matrix[chosen], matrix[pivot_row]
        pivot = matrix[pivot_row]
        inverse = 1 / pivot[column]
        for k in range(column, unknowns + 1):
            pivot[k] *= inverse
        # one row update costs (unknowns - column) Fraction operations on numbers of the
        # pivot row's size; charge every update before it is done
        size = max(
            (v.numerator.bit_length() + v.denominator.bit_length() for v in pivot[column:]),
            default=0,
        )
        row_cost = (unknowns + 1 - column) * (2 + size // 128)
        for r in range(len(matrix)):
            clock.spend(row_cost)
            if r == pivot_row:
                continue
            factor = matrix[r][column]
            if factor:
                target = matrix[r]
                for k in range(column, unknowns + 1):
                    target[k] -= factor * pivot[k]
        pivot_row += 1
    if any(matrix[r][unknowns] != 0 for r in range(pivot_row, len(matrix))):
        return None
    return [matrix[r][unknowns] for r in range(unknowns)]


def solve_integer(
    rows: Sequence[Sequence[int]], rhs: Sequence[int], deadline: Deadline | None = None
) -> tuple[list[int], int] | None:
    """The unique solution of ``rows @ x == rhs`` over the integers' fractions, as
    ``(numerators, denominator)`` with ``denominator > 0``, or ``None``.

    :func:`solve_exact` for integer systems, by fraction-free (Bareiss) elimination: every
    intermediate number is a minor of the system, so nothing grows past the determinant and
    no gcd is ever taken; each elimination step is one numpy operation on Python ints.
    ``rows`` may have more equations than unknowns; ``None`` when the system is
    inconsistent or does not determine ``x`` uniquely.

    :raises TimeLimitError: the deadline passed.
    """
    if not rows:
        return None
    clock = deadline or current_deadline()
    equations, unknowns = len(rows), len(rows[0])
    if equations < unknowns:
        return None
    matrix = np.empty((equations, unknowns + 1), dtype=object)
    for r, (row, b) in enumerate(zip(rows, rhs, strict=True)):
        matrix[r, :unknowns] = [int(v) for v in row]
        matrix[r, unknowns] = int(b)
    previous = 1
    for column in range(unknowns):
        nonzero = np.flatnonzero(matrix[column:, column] != 0)
        if len(nonzero) == 0:
            return None
        chosen = column + int(nonzero[0])
        if chosen != column:
            matrix[[column, chosen]] = matrix[[chosen, column]]
        pivot = matrix[column, column]
        below = matrix[column + 1 :, column + 1 :]
        bits = max(int(abs(pivot)).bit_length(), int(abs(previous)).bit_length())
        clock.spend(below.size * (2 + bits // 64))
        if below.size:
            below[...] = (
                below * pivot
                - np.multiply.outer(matrix[column + 1 :, column], matrix[column, column + 1 :])
            ) // previous
        matrix[column + 1 :, column] = 0
        previous = pivot
    if any(matrix[r, unknowns] != 0 for r in range(unknowns, equations)):
        return None
    determinant = int(matrix[unknowns - 1, unknowns - 1])
    numerators = [0] * unknowns
    for r in range(unknowns - 1, -1, -1):
        clock.spend(unknowns - r)
        total = determinant * int(matrix[r, unknowns])
        for c in range(r + 1, unknowns):
            total -= int(matrix[r, c]) * numerators[c]
        numerators[r] = total // int(matrix[r, r])
    if determinant < 0:
        return [-n for n in numerators], -determinant
    return numerators, determinant


def common_denominator(values: Sequence[Exact]) -> int:
    """Least common multiple of the denominators of ``values``."""
    clock = current_deadline()
    clock.spend(len(values))
    return lcm(*(Fraction(value).denominator for value in values)) if values else 1


def scaled_integers(values: Sequence[Exact], scale: int) -> npt.NDArray[np.object_]:
    """``values * scale`` as an object array of Python ints (``scale`` clears denominators)."""
    array = np.empty(len(values), dtype=object)
    array[:] = [int(Fraction(value) * scale) for value in values]
    return array
