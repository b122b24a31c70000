"""Preference problems: nested lotteries reduced without recursion, cycles refused."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from games.errors import InvalidInputError
from utility.preferences import parse_preferences


def test_lotteries_nested_past_the_recursion_limit_reduce_iteratively() -> None:
    # 1100 nested anonymous lotteries (a recursive reduction needs 1100 frames)
    depth = 1100
    lottery: Any = "A"
    for _ in range(depth):
        lottery = [{"p": "1/2", "x": lottery}, {"p": "1/2", "x": "B"}]
    problem = parse_preferences(["A", "B"], {"L": lottery}, [["A", ">", "B"]])
    assert problem.reduced["L"] == {"A": Fraction(1, 2**depth), "B": 1 - Fraction(1, 2**depth)}


def test_lottery_that_contains_itself_through_others_is_refused() -> None:
    lotteries = {
        "L": [{"p": "1/2", "x": "M"}, {"p": "1/2", "x": "A"}],
        "M": [{"p": "1/2", "x": [{"p": 1, "x": "L"}]}, {"p": "1/2", "x": "A"}],
    }
    with pytest.raises(InvalidInputError, match="contains itself"):
        parse_preferences(["A"], lotteries, [])
