"""EMV, expected utility, certainty equivalent, risk premium and risk attitude of a lottery.

The certainty equivalent ``CE`` solves ``U(w + CE) = EU``. When the utility has a
structural inverse (:func:`utility.function.structural_inverse`) CE is that
inverse at EU ("closed_form"); otherwise it is found by Brent's bracketing method
between the smallest and largest outcome, where a root exists because ``U`` is
continuous and increasing there ("root_finding", to an absolute tolerance of
``ROOT_TOLERANCE`` times the outcome span, reported with the result).

Exact strings are produced for lotteries of at most ``EXACT_OUTCOMES`` outcomes
(the expected utility as a SymPy sum, the CE as the inverse of that sum); a
closed-form value is kept only if it agrees numerically with the float answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import sympy as sp
from scipy.optimize import brentq

from games.errors import DomainError
from games.numbers import Exact
from utility.formula import X, rational
from utility.function import UtilityFunction, Y, compile_numeric
from utility.lottery import Lottery, expected_value

Attitude = Literal["risk_averse", "risk_neutral", "risk_seeking"]

EXACT_OUTCOMES = 32
"""Largest lottery for which exact expected utility and CE strings are built."""
MAX_EXACT_TEXT = 2_000
"""Longer exact forms are dropped (the float is still given)."""
ROOT_TOLERANCE = 1e-10
"""Root-finding tolerance on CE, relative to the span of the outcomes (or 1)."""
NEUTRAL_TOLERANCE = 1e-9
"""A float risk premium within this fraction of the outcome scale counts as zero."""
GRID = 257
"""Points at which U' is sampled between the smallest and largest outcome."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Everything :func:`evaluate` finds about one lottery under one utility.

    ``*_exact`` fields are exact strings or ``None`` when no exact form was built;
    ``certainty_equivalent`` and ``risk_premium`` are amounts of money (wealth excluded).
    """

    emv: Exact
    expected_utility: float
    expected_utility_exact: str | None
    certainty_equivalent: float
    certainty_equivalent_exact: str | None
    risk_premium: float
    risk_premium_exact: str | None
    attitude: Attitude
    method: Literal["closed_form", "root_finding", "degenerate"]
    tolerance: float | None


def utility_values(
    lottery: Lottery,
    utility: UtilityFunction,
    wealth: Exact = 0,
    pointers: Sequence[str] | None = None,
) -> np.ndarray:
    """``U(w + x)`` at every outcome, after checking ``U`` is defined and increasing there.

    Raises
    ------
    DomainError
        Pointing at the outcome where ``U`` is undefined, or stating where ``U`` decreases.
    """
    points = np.array([float(o + wealth) for o in lottery.outcomes], dtype=float)
    with np.errstate(all="ignore"):
        values = utility.numeric(points)
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        index = int(bad[0])
        where = pointers[index] if pointers else "/lottery"
        raise DomainError(
            f"U(x) = {utility.formula} is undefined (or infinite) at wealth + outcome = "
            f"{lottery.outcomes[index] + wealth}",
            where,
        )
    _check_increasing(utility, points, values)
    return values


def _check_increasing(utility: UtilityFunction, points: np.ndarray, values: np.ndarray) -> None:
    if len(points) < 2:
        return
    # equal neighbours are allowed: a saturating U (1 - exp(-x/R), x >> R) is flat in floats
    steps = np.diff(values)
    if (steps < 0).any():
        index = int(np.flatnonzero(steps < 0)[0])
        raise DomainError(
            f"U(x) = {utility.formula} is not increasing on the support: U({points[index]:.10g}) "
            f"= {values[index]:.10g} > U({points[index + 1]:.10g}) = {values[index + 1]:.10g}",
            "/utility",
        )
    slope = compile_numeric(utility.derivative())
    grid = np.linspace(points[0], points[-1], GRID)
    with np.errstate(all="ignore"):
        slopes = slope(grid)
    scale = float(np.nanmax(np.abs(slopes))) if np.isfinite(slopes).any() else 1.0
    falling = np.flatnonzero(slopes < -1e-12 * max(scale, 1e-300))
    if falling.size:
        at = grid[int(falling[0])]
        raise DomainError(
            f"U(x) = {utility.formula} is not increasing on the support: U'({at:.10g}) = "
            f"{slopes[int(falling[0])]:.6g} < 0",
            "/utility",
        )


def evaluate(
    lottery: Lottery,
    utility: UtilityFunction,
    wealth: Exact = 0,
    pointers: Sequence[str] | None = None,
) -> Evaluation:
    """Evaluate ``lottery`` for an agent with utility ``U(wealth + x)``.

    Raises
    ------
    DomainError
        If ``U`` is undefined at some ``wealth + x`` or not increasing between the outcomes.
    """
    emv = expected_value(lottery)
    values = utility_values(lottery, utility, wealth, pointers)
    probabilities = [float(p) for p in lottery.probabilities]
    eu = math.fsum(p * v for p, v in zip(probabilities, values, strict=True))
    eu_exact = _exact_expected_utility(lottery, utility, wealth)
    low, high = float(lottery.outcomes[0] + wealth), float(lottery.outcomes[-1] + wealth)
    method: Literal["closed_form", "root_finding", "degenerate"]
    tolerance: float | None = None
    if lottery.degenerate:
        point, method = low, "degenerate"
    else:
        closed = _closed_form(utility, eu, low, high)
        if closed is not None:
            point, method = closed, "closed_form"
        else:
            tolerance = ROOT_TOLERANCE * max(1.0, high - low)
            point = _root(utility, eu, low, high, tolerance)
            method = "root_finding"
    ce = point - float(wealth)
    ce_exact = _exact_certainty_equivalent(lottery, utility, wealth, eu_exact, point)
    premium = float(emv) - ce
    premium_exact: sp.Expr | None = None
    if ce_exact is not None:
        premium_exact = rational(emv) - ce_exact
        premium = float(sp.N(premium_exact, 20))
    return Evaluation(
        emv=emv,
        expected_utility=float(sp.N(eu_exact, 17)) if eu_exact is not None else eu,
        expected_utility_exact=None if eu_exact is None else str(eu_exact),
        certainty_equivalent=float(sp.N(ce_exact, 17)) if ce_exact is not None else ce,
        certainty_equivalent_exact=None if ce_exact is None else str(ce_exact),
        risk_premium=premium,
        risk_premium_exact=None if premium_exact is None else str(premium_exact),
        attitude=_attitude(premium, premium_exact, float(emv), lottery, wealth),
        method=method,
        tolerance=tolerance,
    )


def _exact_expected_utility(
    lottery: Lottery, utility: UtilityFunction, wealth: Exact
) -> sp.Expr | None:
    if len(lottery) > EXACT_OUTCOMES:
        return None
    terms = [rational(p) * utility.expr.subs(X, rational(o + wealth)) for p, o in lottery]
    total = sp.Add(*terms)
    if total.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.Piecewise) or not total.is_number:
        return None
    total = _tidy(total)
    return total if len(str(total)) <= MAX_EXACT_TEXT else None


def _tidy(expr: sp.Expr) -> sp.Expr:
    """The shorter of ``expr`` and its combined logs, e.g. ``log(200)``."""
    if not expr.has(sp.log):
        return expr
    combined = sp.logcombine(expr, force=True)
    return min((expr, combined), key=lambda e: (sp.count_ops(e), len(str(e))))


def _closed_form(utility: UtilityFunction, eu: float, low: float, high: float) -> float | None:
    if utility.inverse is None:
        return None
    inverse = compile_numeric(utility.inverse.subs(Y, X))
    with np.errstate(all="ignore"):
        point = float(inverse(np.array([eu]))[0])
    span = max(1.0, abs(low), abs(high))
    if not math.isfinite(point) or point < low - 1e-9 * span or point > high + 1e-9 * span:
        return None
    with np.errstate(all="ignore"):
        check = float(utility.numeric(np.array([point]))[0])
    if not math.isfinite(check) or abs(check - eu) > 1e-9 * max(1.0, abs(eu)):
        return None
    return min(max(point, low), high)


def _root(utility: UtilityFunction, eu: float, low: float, high: float, tolerance: float) -> float:
    def gap(c: float) -> float:
        with np.errstate(all="ignore"):
            return float(utility.numeric(np.array([c]))[0]) - eu

    low_gap, high_gap = gap(low), gap(high)
    if low_gap >= 0:
        return low
    if high_gap <= 0:
        return high
    root: float = brentq(gap, low, high, xtol=tolerance, rtol=4 * np.finfo(float).eps)
    return root


def _exact_certainty_equivalent(
    lottery: Lottery,
    utility: UtilityFunction,
    wealth: Exact,
    eu_exact: sp.Expr | None,
    point: float,
) -> sp.Expr | None:
    if lottery.degenerate:
        return rational(lottery.outcomes[0])
    if eu_exact is None or utility.inverse is None:
        return None
    candidate = utility.inverse.subs(Y, eu_exact) - rational(wealth)
    candidate = _tidy(candidate)
    if len(str(candidate)) > MAX_EXACT_TEXT:
        return None
    if not candidate.is_number or candidate.has(sp.I, sp.nan, sp.zoo):
        return None
    value = complex(sp.N(candidate, 20))
    target = point - float(wealth)
    if abs(value.imag) > 1e-12 or abs(value.real - target) > 1e-8 * max(1.0, abs(target)):
        return None
    return candidate


def _attitude(
    premium: float, premium_exact: sp.Expr | None, emv: float, lottery: Lottery, wealth: Exact
) -> Attitude:
    if lottery.degenerate:
        return "risk_neutral"
    if premium_exact is not None:
        if premium_exact.is_zero:
            return "risk_neutral"
        sign = sp.N(premium_exact, 50)
        if abs(sign) > sp.Float("1e-40"):
            return "risk_averse" if sign > 0 else "risk_seeking"
        return "risk_neutral"
    scale = max(1.0, abs(float(lottery.outcomes[-1] - lottery.outcomes[0])), abs(emv))
    if abs(premium) <= NEUTRAL_TOLERANCE * scale:
        return "risk_neutral"
    return "risk_averse" if premium > 0 else "risk_seeking"
