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

Each standard gamble also gets the CARA coefficient that explains it alone. An answer
is flagged when no single coefficient can explain it together with the others: its
implied coefficient has the opposite sign (averse vs seeking) to the majority, or it
breaks monotonicity (a larger prize with a smaller p).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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


def _cara(worst: float, best: float) -> Model:
    span = best - worst

    def model(x: np.ndarray, a: float) -> np.ndarray:
        if abs(a * span) < 1e-9:
            return (x - worst) / span
        return np.asarray(np.expm1(-a * (x - worst)) / np.expm1(-a * span))

    return model


def _crra(worst: float, best: float, wealth: float) -> Model:
    def model(x: np.ndarray, g: float) -> np.ndarray:
        low, high, at = wealth + worst, wealth + best, wealth + x
        if abs(g - 1) < 1e-9:
            return np.asarray(np.log(at / low) / math.log(high / low))  # low > 0 here
        k = 1 - g
        return np.asarray((at**k - low**k) / (high**k - low**k))

    return model


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
    low, high = to_float(worst), to_float(best)
    points = [(worst, 0.0), *[(g.prize, to_float(g.p)) for g in gambles], (best, 1.0)]
    for s in stated:
        if set(s.lottery.outcomes) <= {worst, best}:
            share = dict(zip(s.lottery.outcomes, s.lottery.probabilities, strict=True))
            points.append((s.ce, to_float(share.get(best, 0))))
    residual = _residuals(gambles, stated)
    cara = _fit("cara", _cara(low, high), residual, (-SPAN / (high - low), SPAN / (high - low)))
    crra: Fit | None = None
    note: str | None = None
    base = to_float(wealth) + low
    if base > 0:
        crra = _fit("crra", _crra(low, high, to_float(wealth)), residual, (-SPAN / 5, SPAN / 5))
    elif base == 0:
        # x^(1-g) at 0 is finite only for g < 1
        crra = _fit("crra", _crra(low, high, to_float(wealth)), residual, (-SPAN / 5, 1 - 1e-9))
        note = "wealth + worst = 0, so gamma was searched below 1 only"
    else:
        note = "CRRA needs wealth + worst >= 0; set wealth"
    implied = tuple(
        _implied(_cara(low, high), to_float(g.prize), to_float(g.p), SPAN / (high - low))
        for g in gambles
    )
    flagged, reasons = _flags(gambles, implied)
    return Elicitation(tuple(sorted(set(points))), cara, crra, note, implied, flagged, reasons)


def _residuals(
    gambles: Sequence[StandardGamble], stated: Sequence[StatedCertaintyEquivalent]
) -> Callable[[Model, float], np.ndarray]:
    clock = current_deadline()
    prizes = np.array([to_float(g.prize) for g in gambles], dtype=float)
    answers = np.array([to_float(g.p) for g in gambles], dtype=float)
    # every stated lottery's outcomes in one array, so each evaluation is vectorised
    sizes = [len(s.lottery) for s in stated]
    clock.spend(sum(sizes) * 2)
    outcomes = np.array([to_float(o) for s in stated for o in s.lottery.outcomes], dtype=float)
    weights = np.array([to_float(p) for s in stated for p in s.lottery.probabilities], dtype=float)
    starts = np.cumsum([0, *sizes[:-1]], dtype=np.int64)
    equivalents = np.array([to_float(s.ce) for s in stated], dtype=float)
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
