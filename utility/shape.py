"""Shape of a utility function on a domain: monotonicity, curvature, Arrow-Pratt risk aversion.

Derivatives are exact (SymPy); their signs are then checked on the stated domain
numerically, at ``GRID`` evenly spaced points plus the ends, with sign changes of
``U''`` located by Brent's method. A grid check cannot see a wiggle narrower than
the grid step: the answer says "on the domain, sampled", and the formulas are
returned so a reader can confirm them. Arrow-Pratt absolute risk aversion is
``A(x) = -U''(x)/U'(x)``, relative is ``x*A(x)``; both are unchanged by
``a*U + b`` with ``a > 0`` (the factor ``a`` cancels), which is checked symbolically.

SymPy's rewritings are only tried on small expressions (:data:`MAX_REWRITE_OPS`, and
``cancel`` only on small rational functions): on larger ones a single call can run for
minutes and cannot be interrupted.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import sympy as sp
from scipy.optimize import brentq

from games.errors import DomainError, FieldError, InvalidInputError
from games.limits import current_deadline
from games.numbers import Exact, exact_text, to_float
from utility.evaluate import MAX_UTILITY, evaluate_lottery
from utility.formula import X, rational
from utility.function import UtilityFunction, compile_numeric, exact_at, make_utility
from utility.kinks import one_sided_forms, sign_of
from utility.lottery import Lottery

Curvature = Literal["concave", "convex", "linear", "mixed"]
Attitude = Literal["risk_averse", "risk_neutral", "risk_seeking", "mixed"]
GRID = 2001
"""Points at which derivative signs are sampled on the domain."""
FLAT = 1e-10
"""|U''| below this fraction of max |U''|, or of |U'|/span, counts as zero."""
MAX_REWRITE_OPS = 120
"""Largest expression (SymPy operations) that ``powsimp`` and ``together`` rewrite."""
MAX_CANCEL_OPS = 60
"""Largest rational function (SymPy operations) that ``cancel`` rewrites ..."""
MAX_CANCEL_DEGREE = 12
"""... and highest degree it may have (``cancel`` takes seconds on degree 20)."""


@dataclass(frozen=True, slots=True)
class PointValues:
    """``U`` and its risk measures at one point; ``*_exact`` strings where exact."""

    x: Exact
    utility: float
    utility_exact: str | None
    marginal: float
    absolute: float
    absolute_exact: str | None
    relative: float
    relative_exact: str | None


@dataclass(frozen=True, slots=True)
class AffineCheck:
    """``a*U + b`` against ``U``: same Arrow-Pratt formulas, CEs and ranking."""

    a: Exact
    b: Exact
    arrow_pratt_unchanged: bool
    certainty_equivalents: tuple[tuple[str, float, float], ...]
    ranking_unchanged: bool


@dataclass(frozen=True, slots=True)
class UtilityAnalysis:
    """What :func:`analyze` finds about ``U`` on ``[low, high]``."""

    formula: str
    derivative: str
    second_derivative: str
    low: Exact
    high: Exact
    increasing: bool
    decreasing_at: float | None
    curvature: Curvature
    attitude: Attitude
    changes_at: tuple[float, ...]
    arrow_pratt_absolute: str
    arrow_pratt_relative: str
    at_points: tuple[PointValues, ...]
    affine: AffineCheck


def _simplest(expr: sp.Expr) -> sp.Expr:
    """The shortest of a few cheap rewritings (no general ``simplify``: its time is unbounded).

    Rewritings are tried only on small expressions, where each call is quick; the
    deadline is checked between them.
    """
    clock = current_deadline()
    size = sp.count_ops(expr)
    if size > MAX_REWRITE_OPS:
        return expr
    rewrites = [sp.powsimp, sp.together]
    if size <= MAX_CANCEL_OPS and _small_rational_function(expr):
        rewrites.insert(0, sp.cancel)
    candidates = [expr]
    for rewrite in rewrites:
        clock.check()
        try:
            candidates.append(rewrite(expr))
        except (sp.PolynomialError, TypeError, ValueError):
            continue
    clock.check()
    return min(candidates, key=lambda e: (sp.count_ops(e), len(str(e))))


def _small_rational_function(expr: sp.Expr) -> bool:
    """Whether ``expr`` is a ratio of polynomials in x of degree at most
    :data:`MAX_CANCEL_DEGREE`, judged from its structure (nothing is expanded)."""
    degree: dict[sp.Basic, int] = {}
    for node in sp.postorder_traversal(expr):
        if node in degree:
            continue
        if node == X:
            degree[node] = 1
        elif not node.has(X):
            degree[node] = 0
        elif isinstance(node, sp.Add):
            degree[node] = max(degree[a] for a in node.args)
        elif isinstance(node, sp.Mul):
            degree[node] = sum(degree[a] for a in node.args)
        elif isinstance(node, sp.Pow) and node.exp.is_Integer:
            degree[node] = abs(int(node.exp)) * degree[node.base]
        else:
            return False  # a root, exp, log, abs: not a rational function
        if degree[node] > MAX_CANCEL_DEGREE:
            return False
    return True


def arrow_pratt(utility: UtilityFunction) -> tuple[sp.Expr, sp.Expr]:
    """Absolute ``-U''/U'`` and relative ``-x U''/U'`` risk aversion as formulas."""
    absolute = _simplest(-utility.derivative(2) / utility.derivative(1))
    return absolute, _simplest(X * absolute)


def analyze(
    utility: UtilityFunction,
    low: Exact,
    high: Exact,
    points: Sequence[Exact] = (),
    lotteries: Mapping[str, Lottery] | None = None,
    a: Exact = 2,
    b: Exact = 1,
) -> UtilityAnalysis:
    """Analyse ``U`` on ``[low, high]``.

    Raises
    ------
    InvalidInputError
        If ``low >= high``, a point lies outside the domain, or ``a <= 0``.
    DomainError
        If ``U`` or ``U'`` is undefined somewhere on the domain, or ``U`` is beyond
        :data:`utility.evaluate.MAX_UTILITY` in magnitude at a point.
    LimitExceededError
        If ``U'`` is too large an expression (see :meth:`UtilityFunction.derivative`).
    ExactSizeError
        If an exact value at a point would pass the exact-size limit.
    TimeLimitError
        When the request's deadline passes.
    """
    clock = current_deadline()
    if not low < high:
        raise InvalidInputError("the domain needs low < high", parameter="domain")
    if a <= 0:
        raise InvalidInputError("a positive affine transformation needs a > 0", parameter="affine")
    for index, point in enumerate(points):
        if not low <= point <= high:
            raise InvalidInputError(
                f"point {_text(point)} is outside the domain [{_text(low)}, {_text(high)}]",
                f"/points/{index}",
            )
    first, second = utility.derivative(1), utility.derivative(2)
    clock.check()
    grid = np.linspace(to_float(low), to_float(high), GRID)
    with np.errstate(all="ignore"):
        values = utility.numeric(grid)
        slopes = compile_numeric(first)(grid)
        bends = compile_numeric(second)(grid)
    # U must be finite on the whole domain; U' may be infinite at an end (sqrt at 0)
    for name, sample, offset in (("U", values, 0), ("U'", slopes[1:-1], 1)):
        bad = np.flatnonzero(~np.isfinite(sample)) + offset
        if bad.size:
            raise DomainError(
                f"{name} is undefined at x = {grid[int(bad[0])]:.10g}, inside the "
                f"domain [{_text(low)}, {_text(high)}]; narrow the domain",
                "/domain",
            )
    slope_scale = float(np.max(np.abs(slopes[1:-1]))) or 1.0
    falling = np.flatnonzero(slopes < -FLAT * slope_scale)
    # SymPy differentiates a piecewise or abs piece by piece: U'' = 0 misses the kinks
    smooth = not utility.expr.has(sp.Piecewise, sp.Abs)
    clock.check()
    curvature, changes = _curvature(
        second, grid, bends, slopes, slope_scale / (grid[-1] - grid[0]), smooth
    )
    clock.check()
    absolute, relative = arrow_pratt(utility)
    attitude: Attitude = {
        "concave": "risk_averse",
        "convex": "risk_seeking",
        "linear": "risk_neutral",
        "mixed": "mixed",
    }[curvature]  # type: ignore[assignment]
    return UtilityAnalysis(
        formula=utility.formula,
        derivative=str(first),
        second_derivative=str(second),
        low=low,
        high=high,
        increasing=not falling.size,
        decreasing_at=float(grid[int(falling[0])]) if falling.size else None,
        curvature=curvature,
        attitude=attitude,
        changes_at=changes,
        arrow_pratt_absolute=str(absolute),
        arrow_pratt_relative=str(relative),
        at_points=tuple(
            _at(utility, first, absolute, relative, (low, high), p, f"/points/{index}")
            for index, p in enumerate(points)
        ),
        affine=_affine(utility, absolute, lotteries or {}, a, b),
    )


def _text(value: Exact) -> str:
    """An amount for a message: exact when short, else its nearest double."""
    return exact_text(value) or f"{to_float(value):.10g}"


def _curvature(
    second: sp.Expr,
    grid: np.ndarray,
    bends: np.ndarray,
    slopes: np.ndarray,
    scale: float,
    smooth: bool,
) -> tuple[Curvature, tuple[float, ...]]:
    """Signs of U'' on the grid, plus kinks where U' jumps while U'' is 0 (abs, piecewise)."""
    if smooth and second == 0:
        return "linear", ()
    finite = np.isfinite(bends)
    size = float(np.max(np.abs(bends[finite]))) if finite.any() else 0.0
    tolerance = FLAT * max(size, scale)
    signs = np.where(bends > tolerance, 1, np.where(bends < -tolerance, -1, 0))
    signs[~finite] = 0
    marks: list[tuple[float, int, bool]] = [
        (float(grid[i]), int(signs[i]), True) for i in np.flatnonzero(signs)
    ]
    steps = np.diff(slopes)
    jump = 1e-9 * (float(np.nanmax(np.abs(slopes))) if np.isfinite(slopes).any() else 1.0)
    for i in np.flatnonzero(np.isfinite(steps) & (np.abs(steps) > jump)):
        if signs[i] == 0 and signs[i + 1] == 0:
            marks.append((float(grid[i] + grid[i + 1]) / 2, 1 if steps[i] > 0 else -1, False))
    marks.sort()
    found = {sign for _, sign, _ in marks}
    if not found:
        return "linear", ()
    if found == {-1}:
        return "concave", ()
    if found == {1}:
        return "convex", ()
    bend = compile_numeric(second)

    def at(t: float) -> float:
        with np.errstate(all="ignore"):
            return float(bend(np.array([t]))[0])

    changes: list[float] = []
    for (x0, s0, smooth0), (x1, s1, smooth1) in zip(marks[:-1], marks[1:], strict=True):
        if s0 == s1:
            continue
        try:
            changes.append(
                float(brentq(at, x0, x1, xtol=1e-12))
                if smooth0 and smooth1
                else (x1 if not smooth1 else x0)
            )
        except ValueError:
            changes.append((x0 + x1) / 2)
    return "mixed", tuple(changes)


def _at(
    utility: UtilityFunction,
    first: sp.Expr,
    absolute: sp.Expr,
    relative: sp.Expr,
    domain: tuple[Exact, Exact],
    point: Exact,
    pointer: str,
) -> PointValues:
    current_deadline().check()
    low, high = domain
    here = rational(point)
    sides = one_sided_forms(utility.expr, here, pointer)
    if sides is not None:
        # at an end of the domain only the side within it counts
        sides = sides[point == low :] if point != high else sides[:1]
    if sides is None:
        values = [
            exact_at(e, X, here, utility.pointer, "value at a point")
            for e in (utility.expr, first, absolute, relative)
        ]
    else:
        values = _at_joint(utility.expr, sides, here, point, pointer)
    numbers = [_float(value, point, pointer) for value in values]
    if abs(numbers[0]) > MAX_UTILITY:
        message = f"U({_text(point)}) is beyond {MAX_UTILITY:g} in magnitude"
        raise DomainError(
            message, errors=[FieldError(utility.pointer, message), FieldError(pointer, message)]
        )
    exact = [_exact(values[k]) for k in (0, 2, 3)]
    return PointValues(
        point, numbers[0], exact[0], numbers[1], numbers[2], exact[1], numbers[3], exact[2]
    )


def _at_joint(
    expr: sp.Expr,
    sides: tuple[sp.Expr, ...],
    here: sp.Rational,
    point: Exact,
    pointer: str,
) -> list[sp.Expr]:
    """U, U', -U''/U' and -x U''/U' at a kink candidate (an ``abs`` argument vanishes or a
    piece ends there), from the one-sided derivatives of the ``sides`` within the domain
    (one at an end of the domain), which must agree.

    :raises DomainError: U or a derivative is undefined on a side, or U' or U'' differs
        between the two sides (U is not differentiable there, or the Arrow-Pratt measures
        are undefined).
    """
    where = _text(point)
    found = []
    for order in (0, 1, 2):
        values = [
            exact_at(sp.diff(side, X, order), X, here, pointer, "value at a point")
            for side in sides
        ]
        if any(sign_of(value) is None for value in values):
            raise DomainError(f"the utility or a derivative is undefined at x = {where}", pointer)
        if len(values) == 2 and sign_of(values[0] - values[1]) != 0:
            shown = f"{_shown(values[0])} from the left and {_shown(values[1])} from the right"
            if order == 0:
                message = f"U jumps at x = {where}: it tends to {shown}"
            elif order == 1:
                message = (
                    f"U'({where}) does not exist: U has a kink there (its slope is {shown}); "
                    "U' and the Arrow-Pratt measures are undefined at a kink"
                )
            else:
                message = (
                    f"U''({where}) does not exist (it is {shown}), so the Arrow-Pratt "
                    f"measures -U''/U' and -x U''/U' are undefined at x = {where}"
                )
            raise DomainError(message, pointer)
        found.append(values[-1])
    slope, bend = found[1], found[2]
    absolute = -bend / slope
    return [exact_at(expr, X, here, pointer, "value at a point"), slope, absolute, here * absolute]


def _shown(value: sp.Expr) -> str:
    """A number for a message: exact when short, else to 10 digits."""
    text = str(value)
    return text if len(text) <= 40 else str(sp.N(value, 10))


def _exact(value: sp.Expr) -> str | None:
    if not value.is_number or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I):
        return None
    try:
        return str(_simplest(value))
    except ValueError:  # an integer past Python's digit limit for str()
        return None


def _float(value: sp.Expr, point: Exact, pointer: str) -> float:
    try:
        number = complex(sp.N(value, 17))
    except TypeError:  # no number: an unevaluated function, such as DiracDelta(0)
        number = complex(math.nan)
    if number.imag or not math.isfinite(number.real):
        raise DomainError(
            f"the utility or a derivative is undefined at x = {_text(point)}", pointer
        )
    return number.real


def _affine(
    utility: UtilityFunction,
    absolute: sp.Expr,
    lotteries: Mapping[str, Lottery],
    a: Exact,
    b: Exact,
) -> AffineCheck:
    transformed = make_utility(rational(a) * utility.expr + rational(b), pointer=utility.pointer)
    absolute_t, _ = arrow_pratt(transformed)
    difference = absolute_t - absolute
    # SymPy cancels the factor a as it builds -a U''/(a U'): the difference is 0 as built
    unchanged = difference == 0 or _simplest(difference) == 0
    rows: list[tuple[str, float, float]] = []
    for name, lottery in lotteries.items():
        plain = evaluate_lottery(lottery, utility).certainty_equivalent
        moved = evaluate_lottery(lottery, transformed).certainty_equivalent
        rows.append((name, plain, moved))
    order_plain = sorted(rows, key=lambda r: -round(r[1], 9))
    order_moved = sorted(rows, key=lambda r: -round(r[2], 9))
    same = [r[0] for r in order_plain] == [r[0] for r in order_moved]
    return AffineCheck(a, b, bool(unchanged), tuple(rows), same)
