"""First- and second-order stochastic dominance between simple lotteries, exactly.

``A`` dominates ``B`` to first order when ``F_A(t) <= F_B(t)`` for every ``t`` and
``<`` for some ``t`` (every increasing utility weakly prefers ``A``). ``A``
dominates ``B`` to second order when ``int_{-inf}^t F_A <= int_{-inf}^t F_B`` for
every ``t``, strictly somewhere (every increasing concave utility weakly prefers
``A``). Both CDFs are step functions, so the first test is exact at the union of
outcomes and the integrals are piecewise linear with kinks only there, so the
second is exact at those points too (beyond the largest outcome the integrals
differ by ``EMV_B - EMV_A``, a constant, which is covered by the last point).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from games.limits import current_deadline, spend_on_size
from utility.lottery import Lottery


@dataclass(frozen=True, slots=True)
class Dominance:
    """``dominant`` stochastically dominates ``dominated`` to ``order``."""

    dominant: str
    dominated: str
    order: Literal["first", "second"]


def _profiles(lottery: Lottery, points: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """CDF and integrated CDF of ``lottery`` at each of the sorted ``points``.

    :raises TimeLimitError: the request's deadline passed.
    """
    clock = current_deadline()
    mass = dict(zip(lottery.outcomes, lottery.probabilities, strict=True))
    cdf: list[Fraction] = []
    area: list[Fraction] = []
    running = Fraction(0)
    integral = Fraction(0)
    previous: Fraction | None = None
    for point in points:
        if previous is not None:
            integral += running * (point - previous)
            spend_on_size(clock, integral)
        running += Fraction(mass.get(point, 0))
        cdf.append(running)
        area.append(integral)
        previous = point
    return cdf, area


def dominates(a: Lottery, b: Lottery) -> Literal["first", "second"] | None:
    """The lowest order to which ``a`` dominates ``b``, or ``None``."""
    current_deadline().spend(4 * (len(a) + len(b)))
    points = sorted({Fraction(o) for o in (*a.outcomes, *b.outcomes)})
    cdf_a, area_a = _profiles(a, points)
    cdf_b, area_b = _profiles(b, points)
    if all(x <= y for x, y in zip(cdf_a, cdf_b, strict=True)) and cdf_a != cdf_b:
        return "first"
    if all(x <= y for x, y in zip(area_a, area_b, strict=True)) and area_a != area_b:
        return "second"
    return None


def dominance_pairs(lotteries: Mapping[str, Lottery]) -> list[Dominance]:
    """Every ordered pair where one lottery dominates another, at the lowest order that holds.

    A first-order pair is not listed again as second order (first implies second).
    """
    found: list[Dominance] = []
    for name_a, a in lotteries.items():
        for name_b, b in lotteries.items():
            if name_a == name_b:
                continue
            order = dominates(a, b)
            if order is not None:
                found.append(Dominance(name_a, name_b, order))
    return found
