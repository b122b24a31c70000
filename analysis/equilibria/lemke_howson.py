"""One Nash equilibrium of a bimatrix game by the Lemke-Howson algorithm, in floats.

Two tableaux hold ``B^T x + t = 1`` (variables ``x_i`` carry label ``i``, slacks
``t_j`` label ``m + j``) and ``s + A y = 1`` (slacks ``s_i`` label ``i``, ``y_j``
label ``m + j``), payoffs shifted to be positive. Starting from the artificial
equilibrium ``(0, 0)``, the variable carrying the dropped label enters; whatever
leaves one tableau enters the other (complementary pivoting) until the dropped
label leaves a basis. Different starting labels may end at different equilibria.
In a degenerate game the ratio test can tie; ties go to the lowest row, and the
walk is stopped after a bounded number of pivots.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.errors import DomainError, InvalidInputError
from games.limits import Deadline, current_deadline
from games.matrices.model import FloatArray, NormalFormGame


@dataclass(frozen=True, slots=True)
class LemkeHowsonResult:
    """An equilibrium found by Lemke-Howson, its payoffs and its largest deviation gain."""

    label: int
    row: tuple[float, ...]
    col: tuple[float, ...]
    payoffs: tuple[float, float]
    pivots: int
    max_deviation_gain: float


def lemke_howson(
    game: NormalFormGame, label: int = 0, deadline: Deadline | None = None
) -> LemkeHowsonResult:
    """Follow the Lemke-Howson path that drops ``label`` (0 .. m+n-1).

    Raises
    ------
    InvalidInputError
        If ``label`` is not a label of the game.
    DomainError
        If the game has not two players or the path does not end (degenerate game).
    TimeLimitError
        When ``deadline`` (the request's by default) passes; every pivot is charged to it.
    """
    if not game.is_bimatrix:
        raise DomainError("Lemke-Howson needs a two-player game", "")
    rows, cols = game.shape
    if not 0 <= label < rows + cols:
        raise InvalidInputError(
            f"label must be between 0 and {rows + cols - 1} (rows, then columns), got {label}",
            parameter="label",
        )
    first = game.float_payoffs(0)
    second = game.float_payoffs(1)
    x, y, pivots = _walk(_positive(first), _positive(second), label, deadline or current_deadline())
    row = x / x.sum()
    col = y / y.sum()
    row_payoff = float(row @ first @ col)
    col_payoff = float(row @ second @ col)
    gain = max(float((first @ col).max()) - row_payoff, float((row @ second).max()) - col_payoff)
    return LemkeHowsonResult(
        label,
        tuple(row.tolist()),
        tuple(col.tolist()),
        (row_payoff, col_payoff),
        pivots,
        max(gain, 0.0),
    )


def _positive(payoffs: FloatArray) -> FloatArray:
    """Payoffs mapped into [1, 2] by a positive affine map (the equilibria stay the same).

    Payoffs may be as large as 1e300; pivoting on them unscaled would overflow.
    """
    low = float(payoffs.min())
    span = float(payoffs.max()) - low  # at most 2e300: finite
    if span == 0.0:
        return np.ones_like(payoffs)
    shifted: FloatArray = (payoffs - low) / span + 1.0
    return shifted


def _walk(
    first: FloatArray, second: FloatArray, label: int, deadline: Deadline
) -> tuple[FloatArray, FloatArray, int]:
    rows, cols = first.shape
    row_tableau = np.hstack([second.T, np.eye(cols), np.ones((cols, 1))])
    col_tableau = np.hstack([np.eye(rows), first, np.ones((rows, 1))])
    row_basis = list(range(rows, rows + cols))
    col_basis = list(range(rows))
    entering = label
    in_row_tableau = label < rows
    limit = 50 * (rows + cols) ** 2 + 100
    # one pivot updates every entry of a tableau, about a nanosecond each
    row_cost = 1 + row_tableau.size // 1000
    col_cost = 1 + col_tableau.size // 1000
    pivots = 0
    while True:
        pivots += 1
        if pivots > limit:
            raise DomainError(
                "Lemke-Howson did not end (the game is probably degenerate); "
                "try another starting label",
                parameter="label",
            )
        deadline.spend(row_cost if in_row_tableau else col_cost)
        if in_row_tableau:
            leaving = _pivot(row_tableau, row_basis, entering)
        else:
            leaving = _pivot(col_tableau, col_basis, entering)
        if leaving == label:
            break
        entering = leaving
        in_row_tableau = not in_row_tableau
    x = np.zeros(rows)
    y = np.zeros(cols)
    for r, variable in enumerate(row_basis):
        if variable < rows:
            x[variable] = row_tableau[r, -1]
    for r, variable in enumerate(col_basis):
        if variable >= rows:
            y[variable - rows] = col_tableau[r, -1]
    return x, y, pivots


def _pivot(tableau: FloatArray, basis: list[int], entering: int) -> int:
    """Bring ``entering`` into the basis by the minimum-ratio rule; return who left."""
    column = tableau[:, entering]
    positive = column > 1e-12
    if not positive.any():
        raise DomainError("Lemke-Howson met an unbounded ray", "")
    ratios = np.full(len(column), np.inf)
    ratios[positive] = tableau[positive, -1] / column[positive]
    row = int(np.argmin(ratios))
    leaving = basis[row]
    tableau[row] /= tableau[row, entering]
    factors = tableau[:, entering].copy()
    factors[row] = 0.0
    tableau -= factors[:, None] * tableau[row][None, :]
    basis[row] = entering
    return leaving
