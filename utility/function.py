"""A utility function: its SymPy formula, a fast numeric form and, where it exists, its inverse.

The request states a utility as a formula string, a named family
(``{"family": "exponential"}``) or a piecewise list
(``{"piecewise": [{"from": 0, "to": 100, "formula": "x"}, ...]}``). The numeric
form is compiled by walking the SymPy tree into numpy closures (no ``lambdify``,
no generated code). The inverse is found structurally, by peeling the one
branch that contains ``x`` off ``+ * ^ exp log``; a formula where ``x`` occurs
twice (``x + sqrt(x)``) has no structural inverse and its CE is found by root-finding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from games.errors import InvalidInputError, join_pointer
from games.numbers import Exact, parse_exact
from utility.families import family_utility
from utility.formula import X, parse_formula, rational

Numeric = Callable[[np.ndarray], np.ndarray]
Y = sp.Symbol("y", real=True)
MAX_PIECES = 20
"""Most pieces of a piecewise utility."""


@dataclass(frozen=True)
class UtilityFunction:
    """A utility of money ``U(x)``.

    Attributes
    ----------
    expr
        The formula in :data:`utility.formula.X` with parameters substituted.
    numeric
        ``U`` on float arrays (NaN or inf where it is undefined).
    inverse
        ``U^-1`` as a formula in :data:`Y`, or ``None`` when there is no structural inverse.
    family
        The family name when one was named, else ``None``.
    """

    expr: sp.Expr
    numeric: Numeric = field(repr=False, compare=False)
    inverse: sp.Expr | None
    family: str | None = None

    @property
    def formula(self) -> str:
        return str(self.expr)

    def derivative(self, order: int = 1) -> sp.Expr:
        """The ``order``-th derivative of ``U``."""
        return sp.diff(self.expr, X, order)


def make_utility(expr: sp.Expr, family: str | None = None) -> UtilityFunction:
    """Wrap a formula in ``x`` as a :class:`UtilityFunction`."""
    return UtilityFunction(expr, compile_numeric(expr), structural_inverse(expr), family)


def linear_utility() -> UtilityFunction:
    """``U(x) = x``."""
    return make_utility(X, "linear")


def read_utility(
    raw: object, parameters: Mapping[str, Exact], pointer: str = "/utility"
) -> UtilityFunction:
    """Build the utility a request states; ``None`` means linear (risk neutral)."""
    if raw is None:
        return linear_utility()
    if isinstance(raw, str):
        return make_utility(parse_formula(raw, parameters, pointer))
    if isinstance(raw, dict) and set(raw) == {"family"} and isinstance(raw["family"], str):
        name = raw["family"]
        return make_utility(family_utility(name, parameters, join_pointer(pointer, "family")), name)
    if isinstance(raw, dict) and set(raw) == {"piecewise"}:
        return make_utility(
            _piecewise(raw["piecewise"], parameters, join_pointer(pointer, "piecewise"))
        )
    raise InvalidInputError(
        'utility must be a formula string such as "sqrt(x)", {"family": name} or '
        '{"piecewise": [{"from": a, "to": b, "formula": ...}]}',
        pointer,
    )


def _piecewise(raw: object, parameters: Mapping[str, Exact], pointer: str) -> sp.Expr:
    if not isinstance(raw, list) or not raw:
        raise InvalidInputError("piecewise is a non-empty array of pieces", pointer)
    if len(raw) > MAX_PIECES:
        raise InvalidInputError(f"a piecewise utility has at most {MAX_PIECES} pieces", pointer)
    pieces: list[tuple[sp.Expr, Any]] = []
    previous_end: Exact | None = None
    previous_formula: sp.Expr | None = None
    for index, piece in enumerate(raw):
        here = join_pointer(pointer, index)
        allowed = {"from", "to", "formula"}
        if not isinstance(piece, dict) or "formula" not in piece or set(piece) - allowed:
            raise InvalidInputError(
                'a piece is {"from": a, "to": b, "formula": "..."} '
                "(from/to null or absent for an open end)",
                here,
            )
        start = _bound(piece.get("from"), join_pointer(here, "from"))
        end = _bound(piece.get("to"), join_pointer(here, "to"))
        if index > 0 and start != previous_end:
            raise InvalidInputError(
                f"piece starts at {start}, but the previous one ends at "
                f"{previous_end}; pieces must be contiguous",
                join_pointer(here, "from"),
            )
        if index < len(raw) - 1 and end is None:
            raise InvalidInputError(
                "only the last piece may be open above", join_pointer(here, "to")
            )
        if start is not None and end is not None and end <= start:
            raise InvalidInputError("a piece needs from < to", join_pointer(here, "to"))
        formula = parse_formula(piece["formula"], parameters, join_pointer(here, "formula"))
        if previous_formula is not None and previous_end is not None:
            joint = rational(previous_end)
            left = complex(sp.N(previous_formula.subs(X, joint)))
            right = complex(sp.N(formula.subs(X, joint)))
            if abs(left - right) > 1e-9 * max(1.0, abs(left)):
                raise InvalidInputError(
                    f"the utility jumps at x = {previous_end} ({left.real:.6g} "
                    f"to {right.real:.6g}); pieces must join continuously",
                    join_pointer(here, "formula"),
                )
        condition: Any = True
        if start is not None:
            condition = sp.And(condition, X >= rational(start))
        if end is not None:
            last = index == len(raw) - 1  # the last interval is closed on the right
            condition = sp.And(condition, X <= rational(end) if last else X < rational(end))
        pieces.append((formula, condition))
        previous_end, previous_formula = end, formula
    pieces.append((sp.nan, True))
    return sp.Piecewise(*pieces)


def _bound(raw: object, pointer: str) -> Exact | None:
    return None if raw is None else parse_exact(raw, pointer)


# -- numeric form ------------------------------------------------------------------


def compile_numeric(expr: sp.Expr) -> Numeric:
    """``expr`` as a numpy function of ``x``, built node by node from the SymPy tree."""
    return _compile(expr)


def _compile(node: Any) -> Numeric:  # noqa: C901 - one case per node type
    if node == X:
        return lambda x: x
    if node.is_number and not node.has(sp.nan):
        try:
            value = float(node)
        except TypeError:
            value = float("nan")
        return lambda x: np.full_like(x, value, dtype=float)
    if node is sp.nan:
        return lambda x: np.full_like(x, np.nan, dtype=float)
    args = [_compile(a) for a in node.args] if not isinstance(node, sp.Piecewise) else []
    if isinstance(node, sp.Add):
        return lambda x: _fold(np.add, args, x)
    if isinstance(node, sp.Mul):
        return lambda x: _fold(np.multiply, args, x)
    if isinstance(node, sp.Pow):
        base, power = args
        return lambda x: np.power(base(x), power(x))
    if isinstance(node, sp.exp):
        (inner,) = args
        return lambda x: np.exp(inner(x))
    if isinstance(node, sp.log):
        (inner,) = args
        return lambda x: np.log(inner(x))
    if isinstance(node, sp.Abs):
        (inner,) = args
        return lambda x: np.abs(inner(x))
    if isinstance(node, sp.sign):  # the derivative of abs
        (inner,) = args
        return lambda x: np.sign(inner(x))
    if isinstance(node, sp.Heaviside):
        inner = args[0]
        return lambda x: np.heaviside(inner(x), 0.5)
    if isinstance(node, sp.DiracDelta):  # from differentiating abs twice: 0 away from the kink
        inner = args[0]
        return lambda x: np.where(inner(x) == 0, np.nan, 0.0)
    if isinstance(node, sp.Piecewise):
        branches = [(_compile(e), _condition(c)) for e, c in node.args]

        def piecewise(x: np.ndarray) -> np.ndarray:
            out = np.full_like(x, np.nan, dtype=float)
            done = np.zeros(x.shape, dtype=bool)
            for value, test in branches:
                take = test(x) & ~done
                if take.any():
                    out[take] = value(x[take])
                done |= take
            return out

        return piecewise
    raise InvalidInputError(f"cannot evaluate {type(node).__name__} numerically", "/utility")


def _fold(op: Any, args: list[Numeric], x: np.ndarray) -> np.ndarray:
    result = args[0](x)
    for arg in args[1:]:
        result = op(result, arg(x))
    return np.asarray(result, dtype=float)


def _condition(node: Any) -> Callable[[np.ndarray], np.ndarray]:
    if node is sp.true or node is True:
        return lambda x: np.ones(x.shape, dtype=bool)
    if isinstance(node, sp.And):
        parts = [_condition(a) for a in node.args]
        return lambda x: np.logical_and.reduce([p(x) for p in parts])
    if isinstance(node, sp.Or):
        parts = [_condition(a) for a in node.args]
        return lambda x: np.logical_or.reduce([p(x) for p in parts])
    if isinstance(node, sp.core.relational.Relational):
        left, right = _compile(node.lhs), _compile(node.rhs)
        compare = {">=": np.greater_equal, ">": np.greater, "<=": np.less_equal, "<": np.less}[
            node.rel_op
        ]
        return lambda x: compare(left(x), right(x))
    raise InvalidInputError(f"cannot evaluate the condition {node}", "/utility")


# -- inverse -----------------------------------------------------------------------


def structural_inverse(expr: sp.Expr) -> sp.Expr | None:
    """``U^-1(y)`` found by peeling operations off the single branch holding ``x``.

    Returns ``None`` when ``x`` occurs in more than one term or under ``abs`` or a
    piecewise. The caller checks the inverse numerically on the support (a power
    such as ``x^2`` inverts to ``sqrt(y)`` only for ``x >= 0``).
    """
    target: sp.Expr = Y
    node = expr
    for _ in range(200):
        if node == X:
            return target
        if isinstance(node, (sp.Add, sp.Mul)):
            holding = [a for a in node.args if a.has(X)]
            if len(holding) != 1:
                return None
            rest = node.func(*[a for a in node.args if not a.has(X)])
            if isinstance(node, sp.Add):
                target = target - rest
            else:
                if rest.is_zero:
                    return None
                target = target / rest
            node = holding[0]
        elif isinstance(node, sp.Pow):
            base, power = node.args
            if base.has(X) and not power.has(X):
                target = target ** (1 / power)
                node = base
            elif power.has(X) and not base.has(X):
                target = sp.log(target) / sp.log(base)
                node = power
            else:
                return None
        elif isinstance(node, sp.exp):
            target = sp.log(target)
            node = node.args[0]
        elif isinstance(node, sp.log):
            target = sp.exp(target)
            node = node.args[0]
        else:
            return None
    return None
