"""Reading nashpy's float profiles exactly, for the cross-checks against nashpy.

nashpy works in floats and can miss an equilibrium or report a near one, so its
profiles are compared only once verified exactly: snapped to the exact mix on their
supports (``tests/reference.py``) and checked to be an equilibrium in fractions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from tests.reference import indifferent_mix, is_exact_equilibrium

Profile = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]


def exact_matrix(matrix: np.ndarray) -> list[list[Fraction]]:
    """The float payoffs as the decimals they print as, exactly."""
    return [[Fraction(repr(v)) for v in row] for row in matrix.tolist()]


def verified_profile(
    x: np.ndarray, y: np.ndarray, first: list[list[Fraction]], second: list[list[Fraction]]
) -> Profile | None:
    """nashpy's profile snapped to the exact mix on its supports, if that is an equilibrium
    close to what nashpy reported; ``None`` for a profile that cannot be verified."""
    rows = tuple(int(i) for i in np.flatnonzero(x > 1e-12))
    cols = tuple(int(j) for j in np.flatnonzero(y > 1e-12))
    transposed = [list(column) for column in zip(*second, strict=True)]
    y_part = indifferent_mix(first, rows, cols)
    x_part = indifferent_mix(transposed, cols, rows)
    if x_part is None or y_part is None:
        return None
    row = [Fraction(0)] * len(x)
    col = [Fraction(0)] * len(y)
    for i, p in zip(rows, x_part, strict=True):
        row[i] = p
    for j, q in zip(cols, y_part, strict=True):
        col[j] = q
    close = np.allclose(x, [float(p) for p in row], atol=1e-9) and np.allclose(
        y, [float(q) for q in col], atol=1e-9
    )
    if not close or not is_exact_equilibrium(first, second, row, col):
        return None
    return tuple(row), tuple(col)
