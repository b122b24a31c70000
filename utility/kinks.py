"""A utility's one-sided forms at a point: the smooth formulas it equals just left and right.

SymPy differentiates ``abs`` and piecewise utilities piece by piece: the derivative of
``|x - 2|`` is ``sign(x - 2)``, which is 0 at x = 2 (the mean of the two sides, though no
derivative exists there), and the second derivative ``2*DiracDelta(x - 2)`` is no number
there; a piecewise derivative at a joint is one side's. At a point where an ``abs`` argument
vanishes or a piece ends, each side's formula is found instead: ``|g|`` becomes ``g`` or
``-g`` by the sign ``g`` takes on that side (from the first of its derivatives at the point
that is not 0), a piecewise formula the piece whose condition holds on that side. Each is
smooth on its side, so its derivatives at the point are exact one-sided derivatives, and U is
differentiable there only when the two sides' agree.
"""

from __future__ import annotations

from typing import Any, Final

import sympy as sp

from games.errors import DomainError
from utility.formula import X
from utility.function import exact_at

LEFT: Final = -1
RIGHT: Final = 1
HIGHEST_ORDER: Final = 4
"""Most derivatives of an ``abs`` argument that vanishes at a point read for its side signs."""
ZERO: Final = 1e-25
"""A number whose sign SymPy cannot decide counts as 0 below this (30 digits are computed)."""


def one_sided_forms(
    expr: sp.Expr, point: sp.Rational, pointer: str
) -> tuple[sp.Expr, sp.Expr] | None:
    """The formulas ``expr`` equals just left and just right of ``point``, or ``None`` when no
    ``abs`` argument vanishes and no piece ends there (SymPy's derivatives then hold).

    :raises DomainError: the sign an ``abs`` argument or a piece's condition takes beside the
        point cannot be told (its first :data:`HIGHEST_ORDER` derivatives are 0 or undefined).
    """
    if not _switches_at(expr, point, pointer):
        return None
    return _side_form(expr, point, LEFT, pointer, {}), _side_form(expr, point, RIGHT, pointer, {})


def sign_of(value: sp.Expr) -> int | None:
    """-1, 0 or 1 for an exact real number; ``None`` when it is no finite real number."""
    if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_extended_real is False:
        return None
    if value.is_zero:
        return 0
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    approx = sp.N(value, 30)
    if not approx.is_Number:
        return None
    return 0 if abs(approx) < ZERO else (1 if approx > 0 else -1)


def _switches_at(expr: sp.Expr, point: sp.Rational, pointer: str) -> bool:
    """Whether an ``abs`` argument or a piece's bound is met at ``point``."""
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Abs):
            arguments = [node.args[0]]
        elif isinstance(node, sp.core.relational.Relational):
            arguments = [node.lhs - node.rhs]
        else:
            continue
        for argument in arguments:
            if argument.has(X) and sign_of(_at(argument, point, pointer)) == 0:
                return True
    return False


def _side_form(
    node: Any, point: sp.Rational, side: int, pointer: str, done: dict[Any, sp.Expr]
) -> sp.Expr:
    """``node`` as the formula it equals on ``side`` of ``point`` (nesting is at most the
    formula parser's depth, so this recursion is shallow)."""
    if node in done:
        return done[node]
    if not node.args or not node.has(X):
        form = node
    elif isinstance(node, sp.Piecewise):
        form = next(
            _side_form(piece, point, side, pointer, done)
            for piece, condition in node.args
            if _holds(condition, point, side, pointer, done)
        )
    else:
        args = [_side_form(arg, point, side, pointer, done) for arg in node.args]
        if isinstance(node, sp.Abs):
            form = _side_sign(args[0], point, side, pointer) * args[0]
        else:
            form = node.func(*args)
    done[node] = form
    return form


def _holds(
    condition: Any, point: sp.Rational, side: int, pointer: str, done: dict[Any, sp.Expr]
) -> bool:
    """Whether a piece's condition holds just beside ``point`` on ``side``."""
    if condition in (sp.true, True):
        return True
    if condition in (sp.false, False):
        return False
    if isinstance(condition, sp.And):
        return all(_holds(c, point, side, pointer, done) for c in condition.args)
    if isinstance(condition, sp.Or):
        return any(_holds(c, point, side, pointer, done) for c in condition.args)
    difference = _side_form(condition.lhs - condition.rhs, point, side, pointer, done)
    sign = _side_sign(difference, point, side, pointer)
    return sign > 0 if condition.rel_op in (">", ">=") else sign < 0


def _side_sign(argument: sp.Expr, point: sp.Rational, side: int, pointer: str) -> int:
    """The sign ``argument`` (smooth on ``side``) takes just beside ``point`` on ``side``: its
    value's, or where that is 0, the first non-zero derivative's (times -1 for an odd order
    on the left)."""
    derivative = argument
    for order in range(HIGHEST_ORDER + 1):
        if order:
            derivative = sp.diff(derivative, X)
        sign = sign_of(_at(derivative, point, pointer))
        if sign is None:
            break
        if sign:
            return sign * side if order % 2 else sign
    raise DomainError(
        f"cannot tell the sign of {argument} beside x = {point}, so the utility's "
        "one-sided derivatives there are unknown; leave the point out",
        pointer,
    )


def _at(expr: sp.Expr, point: sp.Rational, pointer: str) -> sp.Expr:
    return exact_at(expr, X, point, pointer, "value at a point")
