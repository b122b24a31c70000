"""Utility elicitation from answers: standard gambles and stated certainty equivalents.

Utilities are normalised to ``U(worst) = 0`` and ``U(best) = 1`` (AIMA 16.3.1). A
standard-gamble answer "prize ~ [p, best; 1-p, worst]" gives the point ``U(prize) = p``.
A stated certainty equivalent ``c`` of a lottery ``L`` says ``U(c) = E_L[U]``.

Two one-parameter families are fitted by least squares on the residuals in
utility units (bounded scalar minimisation):

- CARA: ``U_a(x) = (1 - exp(-a (x - worst))) / (1 - exp(-a (best - worst)))``,
  ``a`` the absolute risk aversion (``a < 0`` risk seeking, ``a = 0`` linear);
- CRRA on wealth ``w + x``, with ``v(t) = t^(1-g)`` (``log t`` at ``g = 1``):
  ``(v(w+x) - v(w+worst)) / (v(w+best) - v(w+worst))``; needs ``w + worst >= 0``, and
  ``> 0`` for ``g >= 1``.

Amounts may be anywhere within +/-1e300 and as close together as 1e-300, so neither family
is computed on them in floating point (``1e40 ** 11`` overflows, ``1 + 1e-20`` is 1). Each is
computed on a coordinate found exactly and rounded once: CARA on ``z = (x - worst) /
(best - worst)`` in [0, 1], with ``b = a (best - worst)``, so ``U = expm1(-b z) / expm1(-b)``;
CRRA on ``u = log((w+x) / (w+best))`` <= 0, the ratio of powers written with ``expm1`` of
non-positive arguments only (CRRA does not change when wealth is rescaled).

Each standard gamble also gets the CARA coefficient that explains it alone. An answer
is flagged when no single coefficient can explain it together with the others: its
implied coefficient has the opposite sign (averse vs seeking) to the majority, or it
breaks monotonicity (a larger prize with a smaller p).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from games.errors import InvalidInputError
from games.limits import current_deadline
from games.numbers import Exact, to_float
from utility.lottery import Lottery

TOLERANCE = 0.01
"""Largest residual (in normalised utility) for a fit to count as explaining every answer."""
SPAN = 50.0
"""CARA a is searched in [-SPAN, SPAN] / (best - worst); CRRA gamma in [-SPAN/5, SPAN/5]."""
NARROWEST = Fraction(1, 10**300)
"""Least ``best - worst``: CARA's a, up to SPAN / (best - worst), must be a double."""


@dataclass(frozen=True, slots=True)
class StandardGamble:
    """``prize ~ [p, best; 1-p, worst]``."""

    prize: Exact
    p: Exact


@dataclass(frozen=True, slots=True)
class StatedCertaintyEquivalent:
    """``ce ~ lottery``."""

    lottery: Lottery
    ce: Exact


@dataclass(frozen=True, slots=True)
class Fit:
    """A fitted family: its coefficient, residual per answer and root-mean-square residual."""

    family: str
    coefficient: float
    residuals: tuple[float, ...]
    rmse: float
    explains_all: bool


@dataclass(frozen=True, slots=True)
class Elicitation:
    """Utility points, fits and flagged answers."""

    points: tuple[tuple[Exact, float], ...]
    cara: Fit
    crra: Fit | None
    crra_note: str | None
    implied_cara: tuple[float | None, ...]
    flagged: tuple[int, ...]
    reasons: tuple[str, ...]


Model = Callable[[np.ndarray, float], np.ndarray]
"""A family on its coordinates (an array) with its coefficient: normalised utilities."""
Coordinate = Callable[[Exact], float]


def _cara(z: np.ndarray, b: float) -> np.ndarray:
    """CARA on ``z = (x - worst) / (best - worst)``, with ``b = a (best - worst)``."""
    if abs(b) < 1e-9:
        return z
    return np.asarray(np.expm1(-b * z) / np.expm1(-b))


def _crra(low: float) -> Model:
    """CRRA on ``u = log((w+x) / (w+best))``, with ``low`` the coordinate of worst (-inf
    when ``w + worst = 0``). Every ``expm1`` takes a non-positive argument: nothing overflows."""

    def model(u: np.ndarray, g: float) -> np.ndarray:
        k = 1 - g
        if abs(k) < 1e-9 and math.isfinite(low):  # log utility
            return np.asarray(1 - u / low)
        if k > 0:  # (s^k - r^k) / (1 - r^k), s and r at most 1
            return np.asarray((np.expm1(k * u) - np.expm1(k * low)) / -np.expm1(k * low))
        # (1 - (s/r)^k) / (1 - r^-k): both powers at most 1 when k < 0
        return np.asarray(np.expm1(k * (u - low)) / np.expm1(-k * low))

    return model


def _log_ratio(value: Exact, top: Exact) -> float:
    """``log(value / top)`` for ``0 <= value <= top``, ``top > 0`` (-inf at 0), from the exact
    ratio ``q``: ``log1p(q - 1)`` near 1 (where ``q`` itself may round to 1), a double's
    logarithm further down, and a difference of integer logarithms below the doubles."""
    if value == 0:
        return -math.inf
    ratio = Fraction(value) / Fraction(top)
    if ratio > Fraction(1, 2):
        return math.log1p(float(ratio - 1))
    if ratio > NARROWEST:
        return math.log(float(ratio))
    return math.log(ratio.numerator) - math.log(ratio.denominator)


def elicit(
    worst: Exact,
    best: Exact,
    gambles: Sequence[StandardGamble],
    stated: Sequence[StatedCertaintyEquivalent],
    wealth: Exact = 0,
) -> Elicitation:
    """Utility points, CARA and CRRA fits with residuals, and flagged answers.

    Raises
    ------
    InvalidInputError
        If ``best <= worst``, a prize or outcome lies outside [worst, best], or p is not in [0, 1].
    TimeLimitError
        When the request's deadline passes (every evaluation of a fit is charged to it).
    """
    if not worst < best:
        raise InvalidInputError("best must exceed worst", parameter="best")
    span = best - worst
    if span < NARROWEST:
        raise InvalidInputError(
            "best must exceed worst by at least 1e-300 (so that the CARA coefficient, "
            "per unit of money, is a double)",
            parameter="best",
        )
    for i, g in enumerate(gambles):
        if not worst <= g.prize <= best:
            raise InvalidInputError(
                "a prize must lie between worst and best", f"/standard_gambles/{i}/prize"
            )
        if not 0 <= g.p <= 1:
            raise InvalidInputError("p must lie in [0, 1]", f"/standard_gambles/{i}/p")
    for i, s in enumerate(stated):
        if not (
            worst <= s.lottery.outcomes[0]
            and s.lottery.outcomes[-1] <= best
            and worst <= s.ce <= best
        ):
            raise InvalidInputError(
                "outcomes and CE must lie between worst and best", f"/certainty_equivalents/{i}"
            )
    if not gambles and not stated:
        raise InvalidInputError("give at least one standard gamble or certainty equivalent", "")
    points = [(worst, 0.0), *[(g.prize, to_float(g.p)) for g in gambles], (best, 1.0)]
    for s in stated:
        if set(s.lottery.outcomes) <= {worst, best}:
            share = dict(zip(s.lottery.outcomes, s.lottery.probabilities, strict=True))
            points.append((s.ce, to_float(share.get(best, 0))))

    def share_of_span(x: Exact) -> float:
        return to_float(Fraction(x - worst) / span)

    per_money = to_float(span)  # b = a (best - worst)
    cara_residual = _residuals(gambles, stated, share_of_span)
    found = _fit("cara", _cara, cara_residual, (-SPAN, SPAN))
    cara = replace(found, coefficient=found.coefficient / per_money)
    crra: Fit | None = None
    note: str | None = None
    base, top = wealth + worst, wealth + best
    if base >= 0:
        # x^(1-g) at 0 is finite only for g < 1
        bounds = (-SPAN / 5, SPAN / 5) if base > 0 else (-SPAN / 5, 1 - 1e-9)
        model = _crra(_log_ratio(base, top))
        crra_residual = _residuals(gambles, stated, lambda x: _log_ratio(wealth + x, top))
        crra = _fit("crra", model, crra_residual, bounds)
        if base == 0:
            note = "wealth + worst = 0, so gamma was searched below 1 only"
    else:
        note = "CRRA needs wealth + worst >= 0; set wealth"
    implied = tuple(
        None if b is None else b / per_money
        for b in (_implied(_cara, share_of_span(g.prize), to_float(g.p), SPAN) for g in gambles)
    )
    flagged, reasons = _flags(gambles, implied)
    return Elicitation(tuple(sorted(set(points))), cara, crra, note, implied, flagged, reasons)


def _residuals(
    gambles: Sequence[StandardGamble],
    stated: Sequence[StatedCertaintyEquivalent],
    coordinate: Coordinate,
) -> Callable[[Model, float], np.ndarray]:
    """The residuals of every answer under a family, each amount read as its ``coordinate``."""
    clock = current_deadline()
    prizes = np.array([coordinate(g.prize) for g in gambles], dtype=float)
    answers = np.array([to_float(g.p) for g in gambles], dtype=float)
    # every stated lottery's outcomes in one array, so each evaluation is vectorised
    sizes = [len(s.lottery) for s in stated]
    clock.spend(sum(sizes) * 2)
    outcomes = np.array([coordinate(o) for s in stated for o in s.lottery.outcomes], dtype=float)
    weights = np.array([to_float(p) for s in stated for p in s.lottery.probabilities], dtype=float)
    starts = np.cumsum([0, *sizes[:-1]], dtype=np.int64)
    equivalents = np.array([coordinate(s.ce) for s in stated], dtype=float)
    cost = 1 + (len(prizes) + len(outcomes) + len(equivalents)) // 32

    def residuals(model: Model, c: float) -> np.ndarray:
        clock.spend(cost)
        out = [model(prizes, c) - answers]
        if stated:
            expected = np.add.reduceat(weights * model(outcomes, c), starts)
            out.append(model(equivalents, c) - expected)
        return np.concatenate(out)

    return residuals


def _fit(
    family: str,
    model: Model,
    residual: Callable[[Model, float], np.ndarray],
    bounds: tuple[float, float],
) -> Fit:
    def loss(c: float) -> float:
        with np.errstate(all="ignore"):
            r = residual(model, c)
        value = float(np.sum(r * r))
        return value if math.isfinite(value) else 1e300

    found = minimize_scalar(
        loss, bounds=bounds, method="bounded", options={"xatol": (bounds[1] - bounds[0]) * 1e-11}
    )
    coefficient = float(found.x)
    with np.errstate(all="ignore"):
        r = residual(model, coefficient)
    rmse = float(np.sqrt(np.mean(r * r))) if r.size else 0.0
    return Fit(
        family, coefficient, tuple(float(v) for v in r), rmse, bool(np.all(np.abs(r) <= TOLERANCE))
    )


def _implied(model: Model, prize: float, p: float, bound: float) -> float | None:
    def gap(c: float) -> float:
        with np.errstate(all="ignore"):
            return float(model(np.array([prize]), c)[0]) - p

    try:
        low, high = gap(-bound), gap(bound)
        if not (math.isfinite(low) and math.isfinite(high)) or low * high > 0:
            return None
        return float(brentq(gap, -bound, bound, xtol=bound * 1e-12))
    except ValueError:
        return None


def _flags(
    gambles: Sequence[StandardGamble], implied: Sequence[float | None]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    flagged: dict[int, str] = {}
    signs = [0 if c is None or abs(c) < 1e-12 else (1 if c > 0 else -1) for c in implied]
    averse, seeking = signs.count(1), signs.count(-1)
    if averse and seeking:
        minority = -1 if averse >= seeking else 1
        word = "risk seeking" if minority == -1 else "risk averse"
        for i, sign in enumerate(signs):
            if sign == minority:
                flagged[i] = f"this answer is {word}, the majority the opposite"
    order = sorted(range(len(gambles)), key=lambda i: gambles[i].prize)
    for i, j in zip(order, order[1:], strict=False):
        if gambles[j].prize > gambles[i].prize and gambles[j].p < gambles[i].p:
            flagged.setdefault(
                j, f"a larger prize than answer {i} with a smaller p (utility would decrease)"
            )
    for i, c in enumerate(implied):
        if c is None and i not in flagged:
            flagged[i] = "no CARA coefficient in the searched range reproduces this answer"
    keys = tuple(sorted(flagged))
    return keys, tuple(flagged[k] for k in keys)
