"""Arrow-Pratt measures and curvature, derived by hand.

Exponential U = 1 - exp(-x/R): U' = exp(-x/R)/R, U'' = -exp(-x/R)/R^2, so A(x) = 1/R (constant
absolute risk aversion) and R(x) = x/R. Log: A = 1/x, relative 1. CRRA gamma = 2 (U = 1 - 1/x):
A = 2/x, relative 2 (Pratt 1964; Arrow 1965). U = x^3 - 3x^2 + 4x: U' = 3(x-1)^2 + 1 > 0,
U'' = 6(x - 1): risk seeking above 1, averse below. U = x - x^2/200: U' = 1 - x/100 < 0 beyond 100.
"""

from __future__ import annotations

import time

import pytest
import sympy as sp

from utility.formula import X, parse_formula
from utility.function import make_utility, read_utility
from utility.lottery import parse_lottery
from utility.shape import _simplest, analyze


@pytest.mark.parametrize(
    ("formula", "absolute", "relative"),
    [
        ("1 - exp(-x/1000)", sp.Rational(1, 1000), X / 1000),
        ("log(x)", 1 / X, sp.Integer(1)),
        ("1 - 1/x", 2 / X, sp.Integer(2)),
        ("sqrt(x)", 1 / (2 * X), sp.Rational(1, 2)),
    ],
)
def test_arrow_pratt_formulas(formula: str, absolute: sp.Expr, relative: sp.Expr) -> None:
    result = analyze(make_utility(parse_formula(formula)), 1, 100, points=[10])
    assert sp.simplify(parse_formula(result.arrow_pratt_absolute) - absolute) == 0
    assert sp.simplify(parse_formula(result.arrow_pratt_relative) - relative) == 0
    assert result.curvature == "concave" and result.attitude == "risk_averse"
    assert result.increasing
    assert result.at_points[0].absolute == pytest.approx(float(absolute.subs(X, 10)))


def test_mixed_curvature_changes_at_one() -> None:
    lotteries = {
        "A": parse_lottery([[0.5, 0], [0.5, 3]]).lottery,
        "B": parse_lottery([[1, "1.4"]]).lottery,
    }
    result = analyze(
        make_utility(parse_formula("x^3 - 3*x^2 + 4*x")), 0, 3, lotteries=lotteries, a=5, b=-7
    )
    assert result.curvature == "mixed" and result.attitude == "mixed"
    assert result.changes_at == pytest.approx((1.0,))
    assert result.affine.arrow_pratt_unchanged and result.affine.ranking_unchanged
    for _, plain, moved in result.affine.certainty_equivalents:
        assert plain == pytest.approx(moved)


def test_quadratic_stops_increasing_at_its_peak() -> None:
    result = analyze(make_utility(parse_formula("x - x^2/200")), 0, 200)
    assert not result.increasing
    assert result.decreasing_at == pytest.approx(100, abs=0.2)


def test_linear_is_risk_neutral() -> None:
    result = analyze(make_utility(parse_formula("3*x + 2")), -10, 10)
    assert result.curvature == "linear" and result.attitude == "risk_neutral"
    assert result.arrow_pratt_absolute == "0"


def test_kinks_count_for_curvature() -> None:
    # 2x + |x| has slope 1 then 3: convex at the kink, though U'' = 0 away from it.
    # AIMA's CE-400 piecewise utility (slope 1, then 2/3 from 400) is concave.
    assert analyze(make_utility(parse_formula("2*x + abs(x)")), -1, 1).curvature == "convex"
    pieces = {
        "piecewise": [
            {"from": 0, "to": 400, "formula": "x"},
            {"from": 400, "to": 1000, "formula": "400 + 2*(x - 400)/3"},
        ]
    }
    assert analyze(read_utility(pieces, {}), 0, 1000).curvature == "concave"


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
