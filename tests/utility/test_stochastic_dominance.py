"""First- and second-order stochastic dominance, worked by hand.

Definitions as in Hadar and Russell (1969) and Rothschild and Stiglitz (1970): ``A``
dominates ``B`` to first order when ``F_A <= F_B`` everywhere (strictly somewhere), to
second order when ``int F_A <= int F_B`` everywhere (strictly somewhere).

- ``{0: 1/2, 10: 1/2}`` over ``{0: 1/2, 5: 1/2}``: on [5, 10) ``F_A = 1/2 < 1 = F_B``,
  equal elsewhere: first order.
- A sure 5 against ``{0: 1/2, 10: 1/2}`` (a mean-preserving spread of it): ``F_S(0) = 0 <
  1/2`` but ``F_S(5) = 1 > 1/2``, so not first order; the integrals are 0 and 0 at 0,
  0 and 5/2 at 5, 5 and 5 at 10: second order.
- ``{1: 1/2, 3: 1/2}`` against the spread ``{0: 1/4, 2: 1/2, 4: 1/4}`` (both mean 2):
  integrals at 0..4 are 0, 0, 1/2, 1, 2 and 0, 1/4, 1/2, 5/4, 2: second order only.
- A sure 4 against ``{0: 1/2, 10: 1/2}``: safer but a lower mean. The integrals at 0, 4
  and 10 are 0, 0, 6 and 0, 2, 5: each lies above the other somewhere, neither dominates.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from utility.lottery import Lottery, from_pairs
from utility.stochastic_dominance import Dominance, dominance_pairs, dominates

HALF = Fraction(1, 2)
QUARTER = Fraction(1, 4)
WIDE = from_pairs({0: HALF, 10: HALF})
NARROW = from_pairs({0: HALF, 5: HALF})
SURE_5 = from_pairs({5: 1})
SURE_4 = from_pairs({4: 1})
INNER = from_pairs({1: HALF, 3: HALF})
SPREAD = from_pairs({0: QUARTER, 2: HALF, 4: QUARTER})


@pytest.mark.parametrize(
    ("a", "b", "order"),
    [
        (WIDE, NARROW, "first"),
        (NARROW, WIDE, None),
        (SURE_5, WIDE, "second"),
        (WIDE, SURE_5, None),
        (INNER, SPREAD, "second"),
        (SPREAD, INNER, None),
        (SURE_4, WIDE, None),
        (WIDE, SURE_4, None),
        (SURE_5, NARROW, "first"),
        (SURE_5, SURE_4, "first"),
    ],
)
def test_dominance_by_hand(a: Lottery, b: Lottery, order: str | None) -> None:
    assert dominates(a, b) == order


def test_a_lottery_does_not_dominate_itself() -> None:
    # dominance needs a strict inequality somewhere
    assert dominates(WIDE, WIDE) is None
    assert dominates(WIDE, from_pairs({10: HALF, 0: HALF})) is None


def test_decimal_probabilities_and_outcomes_are_exact() -> None:
    # {0.1: 0.3, 0.2: 0.7} over {0.1: 0.4, 0.2: 0.6}: F is 0.3 < 0.4 at 0.1, 1 = 1 at 0.2
    a = from_pairs({Fraction(1, 10): Fraction(3, 10), Fraction(2, 10): Fraction(7, 10)})
    b = from_pairs({Fraction(1, 10): Fraction(4, 10), Fraction(2, 10): Fraction(6, 10)})
    assert dominates(a, b) == "first"
    assert dominates(b, a) is None


def test_pairs_are_listed_once_at_the_lowest_order() -> None:
    pairs = dominance_pairs({"wide": WIDE, "narrow": NARROW, "sure 5": SURE_5})
    assert pairs == [
        Dominance("wide", "narrow", "first"),
        Dominance("sure 5", "wide", "second"),
        Dominance("sure 5", "narrow", "first"),
    ]


def test_no_pairs_among_incomparable_lotteries() -> None:
    assert dominance_pairs({"sure 4": SURE_4, "wide": WIDE}) == []
