"""The one writer of numbers (games.numbers): every value gets a JSON number orjson can
write, plus an exact string where that number is not the value itself."""

from __future__ import annotations

import sys
from fractions import Fraction

import orjson
import pytest

from games.numbers import exact_text, is_json_exact, put_number, to_float


@pytest.mark.parametrize(
    ("value", "number", "exact"),
    [
        (0, 0, None),
        (-7, -7, None),
        (2**63 - 1, 2**63 - 1, None),
        (-(2**63), -(2**63), None),
        (2**63, 9.223372036854776e18, "9223372036854775808"),
        (-(2**63) - 1, -9.223372036854776e18, "-9223372036854775809"),
        (10**20, 1e20, "100000000000000000000"),
        (Fraction(-7, 2), -3.5, "-7/2"),
        (Fraction(1, 3), 1 / 3, "1/3"),
    ],
)
def test_one_rule_for_every_number(value: int | Fraction, number: float, exact: str | None) -> None:
    target: dict[str, object] = {}
    put_number(target, "value", value)
    assert target["value"] == number and type(target["value"]) is type(number)
    assert target.get("value_exact") == exact
    assert is_json_exact(value) == (exact is None)
    orjson.dumps(target)  # never refused: no integer past 64 bits is left raw


def test_always_exact_writes_integers_too() -> None:
    target: dict[str, object] = {}
    put_number(target, "x", 12, always_exact=True)
    assert target == {"x": 12, "x_exact": "12"}


@pytest.mark.parametrize("value", [10**400, -(10**400), Fraction(10**400, 3)])
def test_values_beyond_the_double_range_are_written_as_the_largest_double(
    value: int | Fraction,
) -> None:
    assert to_float(value) == (sys.float_info.max if value > 0 else -sys.float_info.max)


def test_exact_text_gives_up_rather_than_fail_on_huge_numbers() -> None:
    assert exact_text(10**5000) is None
    assert exact_text(Fraction(1, 10**5000)) is None
    assert exact_text(10**3000) == "1" + "0" * 3000
