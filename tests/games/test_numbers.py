"""The one writer of numbers (games.numbers): every value gets a JSON number orjson can
write, plus an exact string where that number is not the value itself."""

from __future__ import annotations

import sys
from fractions import Fraction

import orjson
import pytest

from games.errors import ExactSizeError
from games.numbers import (
    Irrational,
    Number,
    Numbers,
    exact_text,
    is_json_exact,
    put_number,
    put_numbers,
    read_exact_form,
    to_float,
)


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


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (3, {"x": 3}),
        (Fraction(7, 2), {"x": 3.5, "x_exact": "7/2"}),
        (2**70, {"x": 1.1805916207174113e21, "x_exact": "1180591620717411303424"}),
        (Fraction(-1, 3), {"x": -0.3333333333333333, "x_exact": "-1/3"}),
        (10**300, {"x": 1e300, "x_exact": "1" + "0" * 300}),
        # the nearest double, not 1e300 / 3 (= 3.333333333333333e299, which is further off)
        (Fraction(10**300, 3), {"x": 3.3333333333333335e299, "x_exact": "1" + "0" * 300 + "/3"}),
        (0.1, {"x": 0.1}),  # computed in floating point: the double is the value
        (
            Irrational(15.811388300841896, "5*sqrt(10)"),
            {"x": 15.811388300841896, "x_exact": "5*sqrt(10)"},
        ),
        (None, {"x": None}),
    ],
)
def test_hand_checked_scalars(value: Number | None, written: dict[str, object]) -> None:
    target: dict[str, object] = {}
    put_number(target, "x", value)
    assert target == written
    assert [type(v) for v in target.values()] == [type(v) for v in written.values()]


@pytest.mark.parametrize(
    ("values", "written"),
    [
        ((1, 2, 3), {"v": [1, 2, 3]}),  # a utility tuple of integers needs no companion
        (
            (Fraction(3, 2), 2),  # one inexact entry: the whole tuple, every entry a string
            {"v": [1.5, 2], "v_exact": ["3/2", "2"]},
        ),
        (
            [2**64, -1],
            {"v": [1.8446744073709552e19, -1], "v_exact": ["18446744073709551616", "-1"]},
        ),
        ({"A": 1, "B": 0}, {"v": {"A": 1, "B": 0}}),
        (
            {"A": 1, "B": Fraction(1, 4), "C": 0},
            {"v": {"A": 1, "B": 0.25, "C": 0}, "v_exact": {"A": "1", "B": "1/4", "C": "0"}},
        ),
        (
            [[0, 1], [Fraction(2, 3), Fraction(1, 3)]],  # nested lists are one container
            {
                "v": [[0, 1], [2 / 3, 1 / 3]],
                "v_exact": [["0", "1"], ["2/3", "1/3"]],
            },
        ),
        ([0.25, 0.75], {"v": [0.25, 0.75]}),
        ([], {"v": []}),
        ([2**63 - 1, -(2**63)], {"v": [2**63 - 1, -(2**63)]}),  # the ends of 64 bits
        (
            [1, 2**63],  # one past them: the nearest double, and every entry's exact text
            {"v": [1, 9223372036854775808.0], "v_exact": ["1", "9223372036854775808"]},
        ),
    ],
)
def test_hand_checked_containers(values: Numbers, written: dict[str, object]) -> None:
    target: dict[str, object] = {}
    put_numbers(target, "v", values)
    assert target == written
    orjson.dumps(target)


def test_deep_nesting_needs_no_recursion() -> None:
    deep: list[object] = [Fraction(1, 2)]
    for _ in range(5000):
        deep = [deep]
    target: dict[str, object] = {}
    put_numbers(target, "v", deep)  # type: ignore[arg-type]
    inner = target["v_exact"]
    for _ in range(5000):
        inner = inner[0]  # type: ignore[index]
    assert inner == ["1/2"]


@pytest.mark.parametrize(
    ("approx", "text", "number"),
    [
        (250.0, "250", 250),
        (-3.5, "-7/2", Fraction(-7, 2)),
        (15.811388300841896, "5*sqrt(10)", Irrational(15.811388300841896, "5*sqrt(10)")),
        (5.298317366548036, "log(200)", Irrational(5.298317366548036, "log(200)")),
        (0.5, None, 0.5),
    ],
)
def test_exact_forms_of_symbolic_results(approx: float, text: str | None, number: Number) -> None:
    assert read_exact_form(approx, text) == number


def test_a_number_too_long_to_write_in_a_container_is_refused() -> None:
    with pytest.raises(ExactSizeError):
        put_numbers({}, "v", [1, Fraction(1, 10**5000)])


@pytest.mark.parametrize("value", [10**400, -(10**400), Fraction(10**400, 3)])
def test_values_beyond_the_double_range_are_written_as_the_largest_double(
    value: int | Fraction,
) -> None:
    assert to_float(value) == (sys.float_info.max if value > 0 else -sys.float_info.max)


def test_exact_text_gives_up_rather_than_fail_on_huge_numbers() -> None:
    assert exact_text(10**5000) is None
    assert exact_text(Fraction(1, 10**5000)) is None
    assert exact_text(10**3000) == "1" + "0" * 3000
