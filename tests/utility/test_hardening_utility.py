"""Utility formulas, lotteries and preferences under hostile sizes: exact values within
the exact-size limit, exponents combined by SymPy still capped, derivatives bounded,
nesting reduced without recursion."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest
import sympy as sp

from games.errors import ExactSizeError, InvalidInputError, LimitExceededError
from games.limits import Limits, limited
from utility.formula import X, parse_formula
from utility.function import exact_at, make_utility, read_utility
from utility.lottery import expected_value, parse_lottery
from utility.preferences import parse_problem
from utility.shape import _simplest


@pytest.mark.parametrize(
    ("formula", "at", "value"),
    [
        ("exp(x*log(2))", 10, sp.Integer(1024)),
        ("x^100", Fraction(3, 2), sp.Rational(3, 2) ** 100),
        ("sqrt(x) + 1", 49, sp.Integer(8)),
        ("log(x)", 1, sp.Integer(0)),
        ("2^x", Fraction(1, 2), sp.sqrt(2)),
    ],
)
def test_exact_values_within_the_limit(formula: str, at: Fraction | int, value: sp.Expr) -> None:
    fraction = Fraction(at)
    point = sp.Rational(fraction.numerator, fraction.denominator)
    assert exact_at(parse_formula(formula), X, point, "/utility") == value


@pytest.mark.parametrize(
    ("formula", "at"),
    [
        ("exp(x*log(2))", 10**5),  # SymPy turns it into 2^100000
        ("2^x", 10**6),
        ("1.0000001^x", 10**6),  # a double near 1.105, 24 million bits exactly
        ("x^100", Fraction(10**47 + 1, 10**46)),  # 4700 digits
        # an irrational power 7.5^(35/3) = 1.6e10 of 9/10: powsimp multiplied it out
        ("sqrt((0.9^(x^12 * (x^(1/3))^-1))^(2/5))", Fraction(15, 2)),
    ],
)
def test_exact_values_past_the_limit_are_refused_before_they_are_built(
    formula: str, at: Fraction | int
) -> None:
    fraction = Fraction(at)
    point = sp.Rational(fraction.numerator, fraction.denominator)
    start = time.perf_counter()
    with pytest.raises(ExactSizeError) as caught:
        exact_at(parse_formula(formula), X, point, "/utility")
    assert caught.value.errors[0].pointer == "/utility"
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize(
    "formula",
    ["(x^100)^100", "x^100*x^100", "((x^2)^60)", "exp(200*log(x))", "1e300*1e300"],
)
def test_formulas_whose_combined_powers_or_numbers_pass_the_caps_are_refused(
    formula: str,
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_formula(formula)
    assert caught.value.errors[0].pointer == "/utility"


def test_formulas_within_the_caps_still_parse() -> None:
    assert parse_formula("x^100") == X**100
    assert parse_formula("x^50*x^50") == X**100
    assert parse_formula("exp(3*log(x))") == X**3


def test_derivative_of_a_long_product_is_refused() -> None:
    utility = read_utility("*".join(f"(x+{k})" for k in range(1, 25)), {}, "/problem/utility")
    with pytest.raises(LimitExceededError) as caught:
        utility.derivative(2)
    assert caught.value.errors[0].pointer == "/problem/utility"


def test_derivatives_are_computed_once() -> None:
    utility = make_utility(parse_formula("x^3 - 3*x"))
    assert utility.derivative(2) is utility.derivative(2)
    assert utility.derivative(2) == 6 * X


def test_rewriting_is_skipped_on_large_expressions() -> None:
    # cancel() on this ran for more than ten minutes
    utility = make_utility(parse_formula("(x+sqrt(x)+x^(1/3)+x^(1/5)+x^(1/7))^4"))
    ratio = -utility.derivative(2) / utility.derivative(1)
    start = time.perf_counter()
    _simplest(ratio)
    assert time.perf_counter() - start < 1.0


def test_small_rational_functions_are_still_cancelled() -> None:
    # -U''/U' of x - x^2/200 is (1/100)/(1 - x/100) = 1/(100 - x)
    utility = make_utility(parse_formula("x - x^2/200"))
    absolute = _simplest(-utility.derivative(2) / utility.derivative(1))
    assert sp.simplify(absolute - 1 / (100 - X)) == 0
    assert sp.count_ops(absolute) <= 2


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


def test_lotteries_nested_past_the_recursion_limit_reduce_iteratively() -> None:
    # 1100 nested anonymous lotteries (a recursive reduction needs 1100 frames)
    depth = 1100
    lottery: Any = "A"
    for _ in range(depth):
        lottery = [{"p": "1/2", "x": lottery}, {"p": "1/2", "x": "B"}]
    problem = parse_problem(["A", "B"], {"L": lottery}, [["A", ">", "B"]])
    assert problem.reduced["L"] == {"A": Fraction(1, 2**depth), "B": 1 - Fraction(1, 2**depth)}


def test_lottery_that_contains_itself_through_others_is_refused() -> None:
    lotteries = {
        "L": [{"p": "1/2", "x": "M"}, {"p": "1/2", "x": "A"}],
        "M": [{"p": "1/2", "x": [{"p": 1, "x": "L"}]}, {"p": "1/2", "x": "A"}],
    }
    with pytest.raises(InvalidInputError, match="contains itself"):
        parse_problem(["A"], lotteries, [])


@pytest.mark.parametrize(
    "formula",
    [
        "x + ((1/3 - exp(2^(1/3)))^(1/7))^0.5",  # a complex constant: float() raised, a 500
        "x + (-8)^(1/3)",
    ],
)
def test_fractional_powers_of_negative_or_complex_constants_are_refused(formula: str) -> None:
    with pytest.raises(InvalidInputError, match="not real"):
        parse_formula(formula)


def test_integer_powers_of_negative_constants_still_parse() -> None:
    assert parse_formula("x + (-2)^3") == X - 8
