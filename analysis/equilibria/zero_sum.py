"""Value and optimal strategies of two-player zero-sum games; security levels.

The row player's maxmin strategy solves the linear program

    maximise v  subject to  x^T A >= v (every column),  sum(x) = 1,  x >= 0,

solved by a dense simplex (:mod:`analysis.equilibria.maxmin_simplex`, compiled where the
extension was built) up to :data:`~analysis.equilibria.maxmin_simplex.MAX_CELLS` cells, or
when its strategies fail their check, by HiGHS; the duals of the column constraints are the
column player's minmax strategy (von Neumann's minimax theorem makes both values equal). When
the optimal supports are small enough, the solution is recomputed exactly from
the tight constraints with rationals and *verified*: ``min_j (x^T A)_j == v ==
max_i (A y)_i`` exactly. A failed or skipped certification leaves the float
answer, flagged ``exact=False``; so does an exact answer whose numbers would pass the
exact-size limit. Everything is charged to the request's deadline; HiGHS is given the
time left.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

from analysis.equilibria.exact_linear_algebra import (
    common_denominator,
    scaled_integers,
    solve_integer,
)
from analysis.equilibria.maxmin_simplex import MAX_CELLS, simplex_maxmin
from analysis.equilibria.vertex_enumeration import MAX_STRATEGIES, extreme_equilibria
from games.errors import DomainError, ExactSizeError
from games.limits import Deadline, check_exact_size, current_deadline
from games.matrices.model import (
    FloatArray,
    NormalFormGame,
    ObjectArray,
    scaled_to_integers,
    zero_sum_game,
)
from games.numbers import Exact, normalize

MAX_EXACT_SUPPORT = 110
"""Largest optimal support recomputed with rationals in the automatic mode."""

MAX_FORCED_EXACT_SUPPORT = 150
"""Largest optimal support recomputed with rationals even when exact answers are asked for
(elimination with rationals grows as the cube of the support, and so do the numbers)."""

_TIGHT = 1e-9


@dataclass(frozen=True, slots=True)
class ZeroSumSolution:
    """Value of a zero-sum game for the row player and optimal mixed strategies.

    Attributes
    ----------
    value
        What the row player can guarantee and the column player can hold him to.
    row_strategy, col_strategy
        Optimal (maxmin and minmax) mixed strategies, in strategy order.
    exact
        True when the three are exact rationals verified exactly.
    """

    value: Exact | float
    row_strategy: tuple[Exact | float, ...]
    col_strategy: tuple[Exact | float, ...]
    exact: bool


@dataclass(frozen=True, slots=True)
class SecurityLevel:
    """What a player can guarantee whatever the others do.

    Attributes
    ----------
    player
        0 rows, 1 columns, ...
    pure
        Best guaranteed payoff with a pure strategy (max over own strategies of
        the min over the others' profiles).
    pure_strategies
        The pure strategies that guarantee ``pure``.
    mixed
        Maxmin value over mixed strategies (two-player games), else ``None``.
    mixed_strategy
        A maxmin mixed strategy, or ``None``.
    exact
        Whether ``mixed`` and ``mixed_strategy`` are exact.
    """

    player: int
    pure: Exact
    pure_strategies: tuple[int, ...]
    mixed: Exact | float | None
    mixed_strategy: tuple[Exact | float, ...] | None
    exact: bool


def zero_sum_solution(game: NormalFormGame, exact: bool | None = None) -> ZeroSumSolution:
    """Solve a two-player zero-sum game.

    Parameters
    ----------
    game
        A two-player game with ``A + B == 0``.
    exact
        True: rationals when the optimal supports have at most
        :data:`MAX_FORCED_EXACT_SUPPORT` strategies; False: floats only; None: rationals
        up to :data:`MAX_EXACT_SUPPORT`. A float answer says ``exact=False``.

    Raises
    ------
    DomainError
        If the game is not a two-player zero-sum game.
    """
    if not game.is_bimatrix or not game.is_zero_sum():
        raise DomainError("the value is defined for two-player zero-sum games only", "/zero_sum")
    return solve_matrix_game(game.row_payoffs, exact, game.float_payoffs(0))


def solve_matrix_game(
    matrix: ObjectArray, exact: bool | None = None, values: FloatArray | None = None
) -> ZeroSumSolution:
    """Value and optimal strategies of the zero-sum game where the row player gets ``matrix``.

    ``values`` is ``matrix`` in floats, when the caller has it already.
    """
    clock = current_deadline()
    if values is None:
        clock.spend(matrix.size)
        values = np.asarray(matrix.astype(np.float64), dtype=np.float64)
    found = simplex_maxmin(values, clock) if values.size <= MAX_CELLS else None
    if found is not None and exact is False:
        return ZeroSumSolution(*found, False)
    if found is not None:
        value, x, y = found[0], np.array(found[1]), np.array(found[2])
    else:
        value, x, y = maxmin_lp(values, clock)
    if exact is False:
        return ZeroSumSolution(value, tuple(x.tolist()), tuple(y.tolist()), False)
    support = max(int(np.count_nonzero(x > _TIGHT)), int(np.count_nonzero(y > _TIGHT)))
    if support > (MAX_EXACT_SUPPORT if exact is None else MAX_FORCED_EXACT_SUPPORT):
        return ZeroSumSolution(value, tuple(x.tolist()), tuple(y.tolist()), False)
    certified = _certify(matrix, values, value, x, y, clock)
    if certified is None and max(matrix.shape) <= MAX_STRATEGIES:
        certified = _by_enumeration(matrix, clock)
    if certified is None:
        return ZeroSumSolution(value + 0.0, tuple(x.tolist()), tuple(y.tolist()), False)
    return certified


def _by_enumeration(matrix: ObjectArray, clock: Deadline) -> ZeroSumSolution | None:
    """Exact optimal strategies from an extreme equilibrium of ``(A, -A)`` (small games).

    Used when the LP's tight constraints do not certify, e.g. when payoffs span many orders
    of magnitude and HiGHS's tolerances blur the small ones.
    """
    try:
        found = extreme_equilibria(zero_sum_game(matrix), deadline=clock)
    except ExactSizeError:
        return None
    first = found.equilibria[0]
    x = [Fraction(p) for p in first.row]
    y = [Fraction(q) for q in first.col]
    value = verified_value(matrix, x, y)
    if value is None or not _within_size([value]):
        return None
    return ZeroSumSolution(
        normalize(value), tuple(normalize(p) for p in x), tuple(normalize(q) for q in y), True
    )


def maxmin_lp(
    values: FloatArray, deadline: Deadline | None = None
) -> tuple[float, FloatArray, FloatArray]:
    """HiGHS solution of the maxmin LP: value, row strategy, column strategy (duals).

    HiGHS is given the time left of ``deadline`` (the request's by default).

    :raises TimeLimitError: the deadline passed.
    """
    clock = deadline or current_deadline()
    rows, cols = values.shape
    largest = float(np.abs(values).max())
    # HiGHS treats coefficients beyond 1e20 as infinite: solve a rescaled game instead.
    scale = largest if largest > 1e6 or 0.0 < largest < 1e-3 else 1.0
    if scale != 1.0:
        values = values / scale
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    upper = np.hstack([-values.T, np.ones((cols, 1))])
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    left = clock.remaining()
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(cols),
        A_eq=equality,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
        options={} if left is None else {"time_limit": max(left, 1e-3)},
    )
    clock.check()
    if result.status != 0:
        raise DomainError(f"the linear program failed: {result.message}", "")
    x = np.clip(result.x[:rows], 0.0, None)
    y = np.clip(-result.ineqlin.marginals, 0.0, None)
    return float(result.x[-1]) * scale, x / x.sum(), y / y.sum()


def _certify(
    matrix: ObjectArray,
    values: FloatArray,
    value: float,
    x: FloatArray,
    y: FloatArray,
    clock: Deadline,
) -> ZeroSumSolution | None:
    scale = max(1.0, float(np.abs(values).max()))
    integers, unit = scaled_to_integers(matrix, clock)
    x_exact = _optimal_side(integers, values, value, x, scale, clock)
    if x_exact is None or not _within_size(x_exact):
        return None
    y_exact = _optimal_side(-integers.T, -values.T, -value, y, scale, clock)
    if y_exact is None or not _within_size(y_exact):
        return None
    exact_value = _verified_integer_value(integers, unit, x_exact, y_exact, clock)
    if exact_value is None or not _within_size([exact_value]):
        return None
    return ZeroSumSolution(
        normalize(Fraction(exact_value)),
        tuple(normalize(p) for p in x_exact),
        tuple(normalize(q) for q in y_exact),
        True,
    )


def _within_size(values: list[Fraction]) -> bool:
    """Whether every value is within the exact-size limit (else the float answer stands)."""
    try:
        for value in values:
            check_exact_size(value, "", "optimal strategy")
    except ExactSizeError:
        return False
    return True


def _optimal_side(
    integers: ObjectArray,
    values: FloatArray,
    value: float,
    strategy: FloatArray,
    scale: float,
    clock: Deadline,
) -> list[Fraction] | None:
    """Exact maxmin strategy on the float one's support, from its tight columns.

    ``integers`` is the game's matrix times a positive integer ``u`` (``values`` the matrix
    in floats): the unknowns are x on the support and ``u v``, found by fraction-free
    elimination.
    """
    support = np.flatnonzero(strategy > _TIGHT)
    payoffs = strategy @ values
    tight = np.flatnonzero(np.abs(payoffs - value) <= 1e-7 * scale)
    # Equations: sum x = 1; (x^T A u)_j = u v for every tight column j.
    clock.spend(len(support) * (1 + len(tight)))
    equations: list[list[int]] = [[1] * len(support) + [0]]
    equations.extend(row + [-1] for row in integers[np.ix_(support, tight)].T.tolist())
    found = solve_integer(equations, [1] + [0] * len(tight), clock)
    if found is None:
        return None
    numerators, denominator = found
    full = [Fraction(0)] * values.shape[0]
    for position, row in enumerate(support.tolist()):
        full[row] = Fraction(numerators[position], denominator)
    return full


def verified_value(matrix: ObjectArray, x: list[Fraction], y: list[Fraction]) -> Fraction | None:
    """``v`` if ``x`` guarantees ``v`` to the row player and ``y`` holds him to ``v``, exactly."""
    clock = current_deadline()
    integers, unit = scaled_to_integers(matrix, clock)
    return _verified_integer_value(integers, unit, x, y, clock)


def _verified_integer_value(
    integers: ObjectArray, unit: int, x: list[Fraction], y: list[Fraction], clock: Deadline
) -> Fraction | None:
    """:func:`verified_value` for the matrix ``integers / unit``."""
    if any(p < 0 for p in x) or any(q < 0 for q in y) or sum(x) != 1 or sum(y) != 1:
        return None
    guaranteed = _extreme_payoff(integers, unit, x, against_rows=True, clock=clock)
    conceded = _extreme_payoff(integers, unit, y, against_rows=False, clock=clock)
    return guaranteed if guaranteed == conceded else None


def _extreme_payoff(
    integers: ObjectArray, unit: int, mix: list[Fraction], against_rows: bool, clock: Deadline
) -> Fraction:
    """``min_j (x^T A)_j`` (row mix) or ``max_i (A y)_i`` (column mix) for ``A = integers /
    unit``, exactly, in integers."""
    mix_scale = common_denominator(mix)
    weights = scaled_integers(mix, mix_scale)
    bits = mix_scale.bit_length() + max(abs(int(v)) for v in integers.flat).bit_length()
    clock.spend(integers.size * (1 + bits // 256))
    if against_rows:
        extreme = min(weights @ integers)
    else:
        extreme = max(integers @ weights)
    return Fraction(int(extreme)) / (mix_scale * unit)


def security_levels(game: NormalFormGame, exact: bool | None = None) -> list[SecurityLevel]:
    """Pure security level of every player; mixed (maxmin) levels in two-player games."""
    clock = current_deadline()
    levels = []
    for player in range(game.players):
        clock.spend(game.payoffs[player].size)
        own = np.moveaxis(game.payoffs[player], player, 0).reshape(game.shape[player], -1)
        worst = [min(row) for row in own]
        pure = max(worst)
        pure_strategies = tuple(index for index, w in enumerate(worst) if w == pure)
        mixed: Exact | float | None = None
        strategy: tuple[Exact | float, ...] | None = None
        certified = False
        if game.is_bimatrix:
            solution = solve_matrix_game(own, exact)
            mixed, strategy, certified = solution.value, solution.row_strategy, solution.exact
        levels.append(
            SecurityLevel(
                player, normalize(Fraction(pure)), pure_strategies, mixed, strategy, certified
            )
        )
    return levels
