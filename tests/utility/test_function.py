"""Utility functions: exact values within the exact-size limit (refused past it, before they
are built), derivatives bounded and computed once.
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
import sympy as sp

from games.errors import ExactSizeError, LimitExceededError
from utility.formula import X, parse_formula
from utility.function import exact_at, make_utility, read_utility


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


def test_derivative_of_a_long_product_is_refused() -> None:
    utility = read_utility("*".join(f"(x+{k})" for k in range(1, 25)), {}, "/problem/utility")
    with pytest.raises(LimitExceededError) as caught:
        utility.derivative(2)
    assert caught.value.errors[0].pointer == "/problem/utility"


def test_derivatives_are_computed_once() -> None:
    utility = make_utility(parse_formula("x^3 - 3*x"))
    assert utility.derivative(2) is utility.derivative(2)
    assert utility.derivative(2) == 6 * X
