"""Named utility families: their formulas, and the risk aversion each is named for.

Exponential ``1 - exp(-x/R)``: ``U' = exp(-x/R)/R``, ``U'' = -exp(-x/R)/R^2``, so
``-U''/U' = 1/R`` whatever ``x`` (constant absolute risk aversion, Pratt 1964). Power
``(x^(1-g) - 1)/(1 - g)``: ``U' = x^-g``, ``U'' = -g x^(-g-1)``, so ``-x U''/U' = g``
(constant relative risk aversion, Arrow 1965), with ``log x`` as the limit at ``g = 1``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp

from games.errors import InvalidInputError
from utility.evaluate import evaluate_lottery
from utility.families import ALIASES, FAMILIES, family_utility
from utility.formula import X
from utility.function import read_utility
from utility.lottery import from_pairs


@pytest.mark.parametrize(
    ("name", "parameters", "formula"),
    [
        ("linear", {}, X),
        ("exponential", {"R": 500}, 1 - sp.exp(-X / 500)),
        ("cara", {"R": Fraction(1, 2)}, 1 - sp.exp(-2 * X)),
        ("power", {"gamma": 1}, sp.log(X)),
        ("crra", {"gamma": 2}, 1 - 1 / X),
        ("power", {"gamma": Fraction(1, 2)}, 2 * sp.sqrt(X) - 2),
        ("quadratic", {"b": Fraction(1, 200)}, X - X**2 / 200),
    ],
)
def test_formulas(name: str, parameters: dict[str, int | Fraction], formula: sp.Expr) -> None:
    assert sp.simplify(family_utility(name, parameters, "/utility/family") - formula) == 0


@pytest.mark.parametrize("tolerance", [1, 250, Fraction(1, 3)])
def test_exponential_has_constant_absolute_risk_aversion_one_over_r(
    tolerance: int | Fraction,
) -> None:
    u = family_utility("exponential", {"R": tolerance}, "/u")
    absolute = sp.simplify(-sp.diff(u, X, 2) / sp.diff(u, X))
    assert absolute == sp.Rational(1, 1) / sp.Rational(str(tolerance))


@pytest.mark.parametrize("gamma", [Fraction(1, 2), 1, 2, 3])
def test_power_has_constant_relative_risk_aversion_gamma(gamma: int | Fraction) -> None:
    u = family_utility("power", {"gamma": gamma}, "/u")
    relative = sp.simplify(-X * sp.diff(u, X, 2) / sp.diff(u, X))
    assert relative == sp.Rational(str(gamma))


def test_quadratic_stops_increasing_at_one_over_2b() -> None:
    u = family_utility("quadratic", {"b": Fraction(1, 200)}, "/u")
    assert sp.solve(sp.diff(u, X), X) == [100]


def test_aliases_and_parameters_are_declared() -> None:
    assert ALIASES == {"cara": "exponential", "crra": "power"}
    assert {name: f.parameters for name, f in FAMILIES.items()} == {
        "linear": (),
        "exponential": ("R",),
        "power": ("gamma",),
        "quadratic": ("b",),
    }


@pytest.mark.parametrize(
    ("name", "parameters", "pointer"),
    [
        ("logistic", {}, "/utility/family"),
        ("exponential", {}, "/parameters/R"),
        ("exponential", {"R": 0}, "/parameters/R"),
        ("cara", {"R": -1}, "/parameters/R"),
        ("power", {"gamma": 101}, "/parameters/gamma"),
        ("quadratic", {"b": 0}, "/parameters/b"),
        ("quadratic", {}, "/parameters/b"),
    ],
)
def test_bad_families_and_parameters_point_at_the_field(
    name: str, parameters: dict[str, int], pointer: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        family_utility(name, parameters, "/utility/family")
    assert caught.value.errors[0].pointer == pointer


def test_unknown_family_lists_the_known_ones() -> None:
    with pytest.raises(
        InvalidInputError, match="known: cara, crra, exponential, linear, power, quadratic"
    ):
        family_utility("logistic", {}, "/utility/family")


def cara_ce(a: float, x1: int, x2: int) -> float:
    """-(1/a) ln((exp(-a x1) + exp(-a x2))/2), from E[1 - exp(-a x)] = 1 - exp(-a CE)."""
    return -math.log((math.exp(-a * x1) + math.exp(-a * x2)) / 2) / a


@pytest.mark.parametrize(("a", "x1", "x2"), [(2, 1, 3), (Fraction(1, 100), 0, 1000), (1, -2, 5)])
def test_cara_certainty_equivalent_of_a_50_50_lottery(a: int | Fraction, x1: int, x2: int) -> None:
    utility = read_utility({"family": "cara"}, {"R": 1 / Fraction(a)})
    lottery = from_pairs({x1: Fraction(1, 2), x2: Fraction(1, 2)})
    expected = cara_ce(float(a), x1, x2)
    assert evaluate_lottery(lottery, utility).certainty_equivalent == pytest.approx(
        expected, rel=1e-12
    )
    # constant absolute risk aversion: the CE does not depend on wealth
    shifted = evaluate_lottery(lottery, utility, wealth=5)
    assert shifted.certainty_equivalent == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("wealth", [0, 10, 20, 1000])
def test_cara_certainty_equivalent_does_not_depend_on_large_wealth(wealth: int) -> None:
    # at wealth 20, 1 - exp(-2(w + x)) is the double 1.0 at both outcomes; at 10 it keeps
    # only 7 digits of the difference: the CE comes from the exact EU, judged in high precision
    utility = read_utility({"family": "cara"}, {"R": Fraction(1, 2)})
    lottery = from_pairs({1: Fraction(1, 2), 3: Fraction(1, 2)})
    result = evaluate_lottery(lottery, utility, wealth=wealth)
    # -(1/2) ln((e^-2 + e^-6)/2) = 1 + ln 2/2 - ln(1 + e^-4)/2, by hand
    expected = 1 + math.log(2) / 2 - math.log1p(math.exp(-4)) / 2
    assert expected == pytest.approx(1.33749862632, abs=1e-11)
    assert result.certainty_equivalent == pytest.approx(expected, rel=1e-9)
    assert result.method == "closed_form"
    assert result.tolerance is None
    assert result.risk_premium == pytest.approx(2 - expected, rel=1e-9)
    assert result.attitude == "risk_averse"
