"""Exact sums of probabilities and how long exact numbers are shown in messages."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.errors import ExactSizeError
from games.limits import Limits, limited
from games.trees.exact_sums import bounded_lcm, exact_sum, short_text, sum_of_ratios, sum_text


def test_exact_sum_adds_fractions_exactly() -> None:
    assert exact_sum([Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)]) == 1
    assert exact_sum([Fraction(1, 10), Fraction(2, 10), Fraction(7, 10)]) == 1
    assert exact_sum([]) == 0
    # 1/2 + 1/3 + 1/7 = (21 + 14 + 6) / 42
    assert exact_sum([Fraction(1, 2), Fraction(1, 3), Fraction(1, 7)]) == Fraction(41, 42)


def test_sum_of_ratios_takes_unreduced_terms() -> None:
    assert sum_of_ratios([(2, 4), (3, 9), (-5, 6)]) == 0
    assert sum_of_ratios([(1, 2), (1, 2), (1, 2)]) == Fraction(3, 2)


def test_a_sum_past_the_digit_limit_is_refused_as_it_grows() -> None:
    # 1/p for the first primes: the common denominator is their product
    primes = [p for p in range(2, 400) if all(p % q for q in range(2, p))]
    small = Limits(max_exact_digits=20)
    refused: list[Fraction | int] = []

    def refuse(total: Fraction | int) -> None:
        refused.append(total)
        raise ExactSizeError("too long", "/here")

    with limited(small), pytest.raises(ExactSizeError):
        sum_of_ratios([(1, p) for p in primes], refuse=refuse)
    # refused while adding (a running denominator of more than 2 x 20 digits' bits),
    # long before all 78 primes were multiplied in
    assert len(refused) == 1
    assert 2 ** (2 * small.max_exact_bits) < refused[0] < 2 ** (3 * small.max_exact_bits)


def test_bounded_lcm_stops_once_past_its_bits() -> None:
    # lcm(4, 6, 10) = 60 (6 bits); lcm with 7 = 420 (9 bits)
    assert bounded_lcm([4, 6, 10], 6) == 60
    assert bounded_lcm([4, 6, 10, 7], 8) is None
    assert bounded_lcm([], 1) == 1
    # the first 200 primes' product has over 1,000 bits; it stops at 64
    primes = [n for n in range(2, 1224) if all(n % d for d in range(2, int(n**0.5) + 1))]
    assert len(primes) == 200
    assert bounded_lcm(primes, 64) is None


def test_short_text_is_exact_when_short() -> None:
    assert short_text(Fraction(1, 3)) == "1/3"
    assert short_text(Fraction(-7, 2)) == "-7/2"
    assert short_text(Fraction(1, 10**100)) == "1e-100 (exact form too long to show)"
    assert short_text(Fraction(-123456789, 10**90)) == (
        "-1.23457e-82 (exact form too long to show)"
    )


def test_sum_text_shows_how_far_a_sum_misses_its_target() -> None:
    assert sum_text(Fraction(11, 10)) == "11/10"
    # rounds to 1, so the difference is what the reader needs
    assert sum_text(1 + Fraction(1, 10**400)) == "1 + 1e-400 (exact form too long to show)"
    assert sum_text(1 - Fraction(1, 10**400)) == "1 - 1e-400 (exact form too long to show)"
