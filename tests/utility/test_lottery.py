"""Lotteries: sums past the exact-size limit name the number responsible."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.errors import ExactSizeError
from games.limits import Limits, limited
from utility.lottery import expected_value, parse_lottery


def test_expected_value_past_the_limit_names_the_outcome() -> None:
    lottery = parse_lottery([["1/2", "1/3"], ["1/2", "1/7"]]).lottery
    pointers = ["/lottery/0/x", "/lottery/1/x"]
    assert expected_value(lottery, pointers) == Fraction(5, 21)
    with limited(Limits(max_exact_digits=1)), pytest.raises(ExactSizeError) as caught:
        expected_value(lottery, pointers)
    assert caught.value.errors[0].pointer == "/lottery/1/x"


def test_probability_sum_past_the_limit_names_the_probability() -> None:
    # denominators 3, 7, 11, 13: the running sum's denominator is 21 after two, then 231
    raw = [["1/3", 0], ["1/7", 1], ["1/11", 2], [Fraction(1) - Fraction(1, 3), 3]]
    with limited(Limits(max_exact_digits=2)), pytest.raises(ExactSizeError) as caught:
        parse_lottery([[str(p), x] for p, x in raw])
    assert caught.value.errors[0].pointer == "/lottery/2/0"
