"""One-sided forms of a utility at a kink (utility/kinks.py), derived by hand: |g| is g where
g > 0 and -g where g < 0, so each side's formula is smooth and its derivatives are the exact
one-sided derivatives."""

from __future__ import annotations

import sympy as sp

from utility.formula import X
from utility.kinks import one_sided_forms, sign_of

TWO = sp.Integer(2)


def _forms(expr: sp.Expr, point: sp.Rational) -> tuple[sp.Expr, sp.Expr]:
    forms = one_sided_forms(expr, point, "/utility")
    assert forms is not None
    return forms


def test_abs_is_its_argument_with_the_sign_of_each_side() -> None:
    left, right = _forms(sp.Abs(X - 2), TWO)
    assert sp.simplify(left - (2 - X)) == 0
    assert sp.simplify(right - (X - 2)) == 0


def test_a_sum_of_kinks_has_the_slopes_of_its_sides() -> None:
    # |x - 1| + |x - 2| at 2: left (x - 1) + (2 - x) = 1, right (x - 1) + (x - 2) = 2x - 3
    left, right = _forms(sp.Abs(X - 1) + sp.Abs(X - 2), TWO)
    assert sp.simplify(left - 1) == 0
    assert sp.simplify(right - (2 * X - 3)) == 0
    assert (sp.diff(left, X).subs(X, 2), sp.diff(right, X).subs(X, 2)) == (0, 2)


def test_an_argument_that_vanishes_to_third_order_takes_the_sign_of_its_cube() -> None:
    # (x - 2)^3 is negative left of 2 and positive right of it, though its first two
    # derivatives vanish there
    left, right = _forms(sp.Abs((X - 2) ** 3), TWO)
    assert sp.simplify(left + (X - 2) ** 3) == 0
    assert sp.simplify(right - (X - 2) ** 3) == 0


def test_no_kink_at_the_point_leaves_the_derivatives_to_sympy() -> None:
    assert one_sided_forms(sp.sqrt(X), sp.Integer(4), "/utility") is None
    assert one_sided_forms(sp.Abs(X - 2), sp.Integer(3), "/utility") is None


def test_signs_of_exact_numbers() -> None:
    assert sign_of(sp.sqrt(2) - 1) == 1
    assert sign_of(1 - sp.sqrt(2)) == -1
    assert sign_of(sp.Integer(0)) == 0
    assert sign_of(sp.zoo) is None
