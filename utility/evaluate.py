"""EMV, expected utility, certainty equivalent, risk premium and risk attitude of a lottery.

The certainty equivalent ``CE`` solves ``U(w + CE) = EU``. When the utility has a
structural inverse (:func:`utility.function.structural_inverse`) CE is that
inverse at EU ("closed_form"); otherwise it is found by Brent's bracketing method
between the smallest and largest outcome, where a root exists because ``U`` is
continuous and increasing there ("root_finding", to an absolute tolerance of
``ROOT_TOLERANCE`` times the outcome span, reported with the result).

Exact strings are produced for lotteries of at most ``EXACT_OUTCOMES`` outcomes
(the expected utility as a SymPy sum, the CE as the inverse of that sum); a
closed-form value is kept only if it lies between the outcomes and reproduces EU, both
judged in high precision. Exact values are computed within the exact-size limit (past it
the request is refused, pointing at the utility), and utilities beyond :data:`MAX_UTILITY`
in magnitude are refused, so every answer has a finite float.

Floats lose the CE at large wealth (``1 - exp(-2(w + x))`` is 1.0 at every outcome once
``w = 20``; ``w + 1`` and ``w + 3`` are one double at ``w = 10^20``). When rounding could
move the CE past the tolerance (:func:`_float_resolves`), the root is found on
:class:`_PreciseGap`, differences of ``U`` evaluated by SymPy's ``evalf`` with as many
digits as the cancellation needs, or the request is refused when even those cannot
tell the outcomes apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
import sympy as sp
from scipy.optimize import brentq
from sympy.core.evalf import PrecisionExhausted

from games.errors import DomainError, FieldError
from games.limits import current_deadline
from games.numbers import Exact, exact_text, to_float
from utility.formula import X, rational
from utility.function import UtilityFunction, Y, compile_numeric, exact_at, exact_sum
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
MAX_UTILITY = 1e300
"""Largest utility magnitude accepted (the cap on every number in a request)."""
MAX_TIDY_OPS = 200
"""Largest exact form (in SymPy operations) whose logarithms are combined."""
EPSILON = float(np.finfo(float).eps)
FLOAT_RESOLUTION = 1e-12
"""Largest estimated float rounding of the CE, relative to ``max(1, span)``, that is trusted."""
PRECISE_DIGITS = 30
"""Significant digits of each high-precision utility difference."""
MAX_WORKING_DIGITS = 1_000
"""Most digits ``evalf`` may work with to see past cancellation in ``U(w + x) - U(w + y)``."""


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
        Pointing at the outcome where ``U`` is undefined, infinite or beyond
        :data:`MAX_UTILITY` in magnitude (then at the utility too), or stating where
        ``U`` decreases.
    """
    current_deadline().spend(len(lottery) * 4)
    points = np.array([to_float(o + wealth) for o in lottery.outcomes], dtype=float)
    with np.errstate(all="ignore"):
        values = utility.numeric(points)
    bad = np.flatnonzero(~(np.abs(values) <= MAX_UTILITY))
    if bad.size:
        index = int(bad[0])
        where = pointers[index] if pointers else "/lottery"
        at = f"wealth + outcome = {_text(lottery.outcomes[index] + wealth)}"
        if np.isnan(values[index]):
            raise DomainError(f"U(x) = {utility.formula} is undefined at {at}", where)
        message = (
            f"U(x) = {utility.formula} is infinite or beyond {MAX_UTILITY:g} in magnitude at {at}"
        )
        # a pole (log at 0) is the outcome's doing; a finite value past the cap, the utility's
        fields = [where, utility.pointer]
        if np.isfinite(values[index]):
            fields.reverse()
        raise DomainError(message, errors=[FieldError(f, message) for f in fields])
    _check_increasing(utility, points, values)
    return values


def _text(value: Exact) -> str:
    """An amount for a message: exact when short, else its nearest double."""
    return exact_text(value) or f"{to_float(value):.10g}"


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
            utility.pointer,
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
            utility.pointer,
        )


def evaluate_lottery(
    lottery: Lottery,
    utility: UtilityFunction,
    wealth: Exact = 0,
    pointers: Sequence[str] | None = None,
) -> Evaluation:
    """Evaluate ``lottery`` for an agent with utility ``U(wealth + x)``.

    Raises
    ------
    DomainError
        If ``U`` is undefined at some ``wealth + x``, beyond :data:`MAX_UTILITY` in magnitude
        or not increasing between the outcomes.
    ExactSizeError
        If the EMV (pointing at an outcome) or an exact utility value (pointing at the
        utility) would pass the exact-size limit.
    TimeLimitError
        When the request's deadline passes.
    """
    clock = current_deadline()
    emv = expected_value(lottery, pointers)
    values = utility_values(lottery, utility, wealth, pointers)
    probabilities = [float(p) for p in lottery.probabilities]
    eu = math.fsum(p * v for p, v in zip(probabilities, values, strict=True))
    eu_exact = _exact_expected_utility(lottery, utility, wealth)
    clock.check()
    low, high = to_float(lottery.outcomes[0] + wealth), to_float(lottery.outcomes[-1] + wealth)
    method: Literal["closed_form", "root_finding", "degenerate"]
    tolerance: float | None = None
    ce_exact: sp.Expr | None = None
    if lottery.degenerate:
        ce, method = to_float(lottery.outcomes[0]), "degenerate"
        ce_exact = rational(lottery.outcomes[0])
    else:
        ce_exact = _exact_certainty_equivalent(lottery, utility, wealth, eu_exact)
        resolves = _float_resolves(lottery, wealth, values)
        closed = _closed_form(utility, eu, low, high) if ce_exact is None and resolves else None
        if ce_exact is not None:
            ce, method = float(sp.N(ce_exact, 17, maxn=MAX_WORKING_DIGITS)), "closed_form"
        elif closed is not None:
            ce, method = closed - to_float(wealth), "closed_form"
        else:
            method = "root_finding"
            span = to_float(lottery.outcomes[-1] - lottery.outcomes[0])
            tolerance = ROOT_TOLERANCE * max(1.0, span)
            if resolves:
                ce = _root(utility, eu, low, high, tolerance) - to_float(wealth)
            else:
                ce = _PreciseGap(lottery, utility, wealth, eu_exact).root(tolerance)
    clock.check()
    premium = to_float(emv) - ce
    premium_exact: sp.Expr | None = None
    if ce_exact is not None:
        premium_exact = rational(emv) - ce_exact
        premium = float(sp.N(premium_exact, 20, maxn=MAX_WORKING_DIGITS))
    attitude = _attitude(premium, premium_exact, to_float(emv), lottery, wealth)
    clock.check()
    return Evaluation(
        emv=emv,
        expected_utility=float(sp.N(eu_exact, 17)) if eu_exact is not None else eu,
        expected_utility_exact=_form(eu_exact),
        certainty_equivalent=ce,
        certainty_equivalent_exact=_form(ce_exact),
        risk_premium=premium,
        risk_premium_exact=_form(premium_exact),
        attitude=attitude,
        method=method,
        tolerance=tolerance,
    )


def _form(expr: sp.Expr | None) -> str | None:
    """The exact form as text, or ``None`` when there is none or it is too long."""
    if expr is None:
        return None
    try:
        text = str(expr)
    except ValueError:  # an integer past Python's digit limit for str()
        return None
    return text if len(text) <= MAX_EXACT_TEXT else None


def _exact_expected_utility(
    lottery: Lottery, utility: UtilityFunction, wealth: Exact
) -> sp.Expr | None:
    if len(lottery) > EXACT_OUTCOMES:
        return None
    terms = [
        exact_at(rational(p) * utility.expr, X, rational(o + wealth), utility.pointer)
        for p, o in lottery
    ]
    total = exact_sum(terms, utility.pointer, "expected utility")
    clock = current_deadline()
    clock.check()
    if total.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.Piecewise) or not total.is_number:
        return None
    if _form(total) is None:
        return None
    clock.check()
    total = _tidy(total)
    clock.check()
    return total if _form(total) is not None else None


def _tidy(expr: sp.Expr) -> sp.Expr:
    """The shorter of ``expr`` and its combined logs, e.g. ``log(200)``."""
    if not expr.has(sp.log) or sp.count_ops(expr) > MAX_TIDY_OPS:
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
) -> sp.Expr | None:
    """The inverse of ``U`` at the exact EU, less wealth, if it is the CE.

    The candidate is kept only if it is real, lies between the outcomes and ``U`` at it
    reproduces EU to 1e-9 of the utility spread, all judged in high precision (a float
    check would reject the right answer where the floats have lost it).
    """
    if eu_exact is None or utility.inverse is None:
        return None
    clock = current_deadline()
    inverse = utility.inverse - rational(wealth)
    candidate = exact_at(inverse, Y, eu_exact, utility.pointer, "certainty equivalent")
    clock.check()
    if _form(candidate) is None:
        return None
    clock.check()
    candidate = _tidy(candidate)
    clock.check()
    if _form(candidate) is None:
        return None
    if not candidate.is_number or candidate.has(sp.I, sp.nan, sp.zoo):
        return None
    clock.check()
    value = complex(sp.N(candidate, PRECISE_DIGITS, maxn=MAX_WORKING_DIGITS))
    lowest, highest = to_float(lottery.outcomes[0]), to_float(lottery.outcomes[-1])
    slack = 1e-9 * max(1.0, highest - lowest)
    if abs(value.imag) > 1e-12 or not lowest - slack <= value.real <= highest + slack:
        return None
    point = min(max(value.real, lowest), highest)
    try:
        gap = _PreciseGap(lottery, utility, wealth, eu_exact)
    except DomainError:  # U flat over the outcomes: the inverse picks no CE
        return None
    return candidate if abs(gap(point)) <= 1e-9 else None


def _float_resolves(lottery: Lottery, wealth: Exact, values: np.ndarray) -> bool:
    """Whether float rounding leaves the CE good to ``ROOT_TOLERANCE`` (with a margin).

    Rounding ``w + x`` moves a CE by about ``eps |w + x|``; rounding ``U`` moves EU by
    about ``eps max |U|``, which moves the CE by that fraction of the utility spread times
    the outcome span. Both are compared with the scale of the tolerance, ``max(1, span)``.
    """
    span = to_float(lottery.outcomes[-1] - lottery.outcomes[0])
    spread = float(values[-1] - values[0])
    if spread <= 0 or span <= 0:
        return False
    reach = max(
        abs(to_float(lottery.outcomes[0] + wealth)), abs(to_float(lottery.outcomes[-1] + wealth))
    )
    magnitude = float(np.max(np.abs(values)))
    rounding = EPSILON * (magnitude / spread * span + reach) / max(1.0, span)
    return rounding <= FLOAT_RESOLUTION


class _PreciseGap:
    """``(U(w + t) - EU) / (U(w + highest) - U(w + lowest))`` evaluated past float cancellation.

    At large wealth ``U(w + x)`` can round to the same double at every outcome (``1 - exp(-2x)``
    at ``w = 20``), or the rounding of ``w + x`` swamps the outcomes (``sqrt(x)`` at
    ``w = 10^20``). Here differences of ``U`` are one SymPy expression ``U(x) - U(y)``, whose
    constants cancel symbolically, evaluated by SymPy's ``evalf`` at exact arguments
    ``w + t``; ``evalf`` raises its working precision (up to :data:`MAX_WORKING_DIGITS`
    digits) until :data:`PRECISE_DIGITS` digits survive the cancellation. Differences are
    taken from ``U(w + lowest)`` and ``t`` is the outcome (wealth excluded), so neither
    ``U`` nor ``w + t`` is ever rounded whole.
    """

    def __init__(
        self, lottery: Lottery, utility: UtilityFunction, wealth: Exact, eu_exact: sp.Expr | None
    ) -> None:
        self._utility = utility
        self._rise = utility.expr - utility.expr.subs(X, Y)
        self._wealth = rational(wealth)
        self._base = self._wealth + rational(lottery.outcomes[0])
        self.lowest = to_float(lottery.outcomes[0])
        self.highest = to_float(lottery.outcomes[-1])
        self._spread = self._difference(self._rise, self._wealth + rational(lottery.outcomes[-1]))
        if self._spread < 0:
            raise DomainError(
                f"U(x) = {utility.formula} is not increasing on the support: it is lower at "
                "wealth + the highest outcome than at wealth + the lowest",
                utility.pointer,
            )
        if not self._spread > 0:
            raise DomainError(
                f"U(x) = {utility.formula} has the same value at wealth + the lowest and "
                f"wealth + the highest outcome to {MAX_WORKING_DIGITS} digits, so the "
                "certainty equivalent cannot be told apart from any outcome",
                utility.pointer,
            )
        if eu_exact is not None:
            # EU - U(w + lowest) = sum p (U(w + x) - U(w + lowest)): one cancelling difference
            self._excess = self._difference(eu_exact - utility.expr.subs(X, Y), self._base)
        else:
            clock = current_deadline()
            self._excess = sp.Float(0, PRECISE_DIGITS)
            for p, o in lottery:
                clock.spend(64)
                rise = self._difference(self._rise, self._wealth + rational(o))
                self._excess += rational(p) * rise

    def _difference(self, expr: sp.Expr, at: sp.Expr) -> sp.Float:
        """``expr`` at ``x = at``, ``y = w + lowest`` to :data:`PRECISE_DIGITS` digits (0 when
        :data:`MAX_WORKING_DIGITS` digits cannot tell it from 0)."""
        current_deadline().check()
        zero = sp.Float(0, PRECISE_DIGITS)
        try:
            value = expr.evalf(
                PRECISE_DIGITS, subs={X: at, Y: self._base}, maxn=MAX_WORKING_DIGITS, strict=True
            )
        except PrecisionExhausted:
            return zero
        if isinstance(value, sp.Float):
            return value
        if value == 0:
            return zero
        offset = at - self._wealth
        raise DomainError(
            f"U(x) = {self._utility.formula} is not real at wealth + "
            f"{_text(Fraction(int(offset.p), int(offset.q)))}",
            self._utility.pointer,
        )

    def __call__(self, outcome: float) -> float:
        """The gap at ``w + outcome``, as a fraction of the utility spread."""
        rise = self._difference(self._rise, self._wealth + sp.Rational(outcome))
        return float((rise - self._excess) / self._spread)

    def root(self, tolerance: float) -> float:
        """The CE (wealth excluded) to within ``tolerance``, by Brent's method on the gap."""
        if self(self.lowest) >= 0:
            return self.lowest
        if self(self.highest) <= 0:
            return self.highest
        root: float = brentq(
            self, self.lowest, self.highest, xtol=tolerance, rtol=4 * np.finfo(float).eps
        )
        return root


def _attitude(
    premium: float, premium_exact: sp.Expr | None, emv: float, lottery: Lottery, wealth: Exact
) -> Attitude:
    if lottery.degenerate:
        return "risk_neutral"
    if premium_exact is not None:
        current_deadline().check()
        if premium_exact.is_zero:
            return "risk_neutral"
        current_deadline().check()
        try:  # the premium's sign, however small it is (1/(4(w + 2)) for sqrt at large w)
            sign = premium_exact.evalf(15, maxn=MAX_WORKING_DIGITS, strict=True)
        except PrecisionExhausted:  # zero to MAX_WORKING_DIGITS digits: a zero SymPy missed
            return "risk_neutral"
        return "risk_averse" if sign > 0 else "risk_seeking"
    scale = max(1.0, abs(float(lottery.outcomes[-1] - lottery.outcomes[0])), abs(emv))
    if abs(premium) <= NEUTRAL_TOLERANCE * scale:
        return "risk_neutral"
    return "risk_averse" if premium > 0 else "risk_seeking"
