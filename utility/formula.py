"""Utility formulas in ``x`` read WITHOUT eval: Python's ``ast`` parses, an allow-list builds SymPy.

``ast.parse`` only parses; nothing in the text is ever run. The tree is then
walked and only these nodes become SymPy objects: numbers, the variable ``x``,
declared parameters, ``+ - * / **`` (``^`` is rewritten to ``**`` first), unary
minus, calls of ``sqrt log ln exp abs`` with one argument, and the constants
``e`` and ``pi``. Anything else (attribute access, subscripts, other names,
keywords, strings, lambdas, comprehensions...) is refused with an
:class:`~games.errors.InvalidInputError` pointing at the formula.

Symbolic work is bounded by construction: the caps below bound the text length,
the number of AST nodes, the nesting depth, every exponent and the size of every
number in the built formula (SymPy combines ``(x^100)^100`` into ``x^10000`` and
multiplies constants out, so the built expression is checked again as a whole).
Exact values at given points are computed within the exact-size limit by
:func:`utility.function.exact_at`.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from fractions import Fraction

import sympy as sp

from games.errors import InvalidInputError, join_pointer
from games.limits import current_deadline
from games.numbers import Exact, parse_exact

X = sp.Symbol("x", real=True)
"""The variable of every utility formula (money, or wealth + money)."""

MAX_LENGTH = 500
"""Longest formula text accepted."""
MAX_NODES = 200
"""Most AST nodes in one formula."""
MAX_DEPTH = 30
"""Deepest AST nesting in one formula."""
MAX_EXPONENT = 100
"""Largest absolute value of a constant exponent."""
MAX_DIGITS = 300
"""Largest number of decimal digits a constant power may produce."""

FUNCTIONS: dict[str, sp.Function | type] = {
    "sqrt": sp.sqrt,
    "log": sp.log,
    "ln": sp.log,
    "exp": sp.exp,
    "abs": sp.Abs,
}
CONSTANTS: dict[str, sp.Expr] = {"e": sp.E, "pi": sp.pi}
RESERVED = frozenset(FUNCTIONS) | frozenset(CONSTANTS) | {"x"}

_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


def rational(value: Exact) -> sp.Rational:
    """An exact number as a SymPy rational."""
    fraction = Fraction(value)
    return sp.Rational(fraction.numerator, fraction.denominator)


def parse_parameters(raw: Mapping[str, object], pointer: str) -> dict[str, Exact]:
    """Check declared parameter names and read their values exactly."""
    values: dict[str, Exact] = {}
    for name, value in raw.items():
        where = join_pointer(pointer, name)
        if not name.isidentifier() or name.startswith("_") or not name.isascii():
            raise InvalidInputError(
                f"parameter name {name!r} must be a plain identifier such as R or gamma", where
            )
        if name in RESERVED:
            raise InvalidInputError(f"{name!r} is reserved and cannot be a parameter", where)
        values[name] = parse_exact(value, where)
    return values


def parse_formula(
    text: object, parameters: Mapping[str, Exact] | None = None, pointer: str = "/utility"
) -> sp.Expr:
    """Build the SymPy expression of a utility formula in ``x``.

    Parameters
    ----------
    text
        The formula, e.g. ``"1 - exp(-x/R)"``, ``"x^0.5"``.
    parameters
        Declared parameter values, substituted exactly.
    pointer
        JSON pointer of the formula, used in errors.

    Raises
    ------
    InvalidInputError
        For anything outside the allow-list or beyond a cap; nothing is evaluated.
    """
    if not isinstance(text, str):
        raise InvalidInputError("a formula must be a string", pointer)
    if len(text) > MAX_LENGTH:
        raise InvalidInputError(f"formula is longer than {MAX_LENGTH} characters", pointer)
    if not text.strip():
        raise InvalidInputError("formula is empty", pointer)
    if not text.isascii() or any(c in text for c in "\n\r\\;"):
        raise InvalidInputError(
            "formula may contain only ASCII letters, digits, spaces and + - * / ^ ( ) . ,", pointer
        )
    try:
        tree = ast.parse(text.replace("^", "**").strip(), mode="eval")
    except (SyntaxError, ValueError) as error:
        reason = error.msg if isinstance(error, SyntaxError) else str(error)
        raise InvalidInputError(f"formula is not a valid expression: {reason}", pointer) from None
    count = sum(1 for _ in ast.walk(tree))
    if count > MAX_NODES:
        raise InvalidInputError(f"formula has {count} nodes, more than {MAX_NODES}", pointer)
    builder = _Builder(dict(parameters or {}), pointer)
    expr = builder.build(tree.body, 1)
    _check_built(expr, pointer)
    return expr


def _check_built(expr: sp.Expr, pointer: str) -> None:
    """Refuse a built formula whose combined exponents or constants passed the caps."""
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Rational):
            if max(node.p.bit_length(), node.q.bit_length()) > MAX_DIGITS * 3322 // 1000 + 1:
                raise InvalidInputError(
                    f"a number in the formula has more than {MAX_DIGITS} digits", pointer
                )
        elif isinstance(node, sp.Pow) and node.exp.is_number:
            if node.exp.is_comparable and abs(float(node.exp)) > MAX_EXPONENT:
                raise InvalidInputError(
                    f"exponents must be real numbers within +/-{MAX_EXPONENT} "
                    f"(the formula combines to a power of {_power_text(node.exp)})",
                    pointer,
                )


def _power_text(exponent: sp.Expr) -> str:
    return str(exponent) if len(str(exponent)) <= 40 else f"{float(exponent):.6g}"


class _Builder:
    """Walks an AST, accepting only allow-listed nodes."""

    def __init__(self, parameters: dict[str, Exact], pointer: str):
        self.parameters = parameters
        self.pointer = pointer

    def fail(self, message: str) -> InvalidInputError:
        return InvalidInputError(message, self.pointer)

    def build(self, node: ast.expr, depth: int) -> sp.Expr:
        if depth > MAX_DEPTH:
            raise self.fail(f"formula nests deeper than {MAX_DEPTH} levels")
        current_deadline().check()  # SymPy may evaluate constants as it builds them
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.build(node.operand, depth + 1)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp) and isinstance(node.op, _BINARY):
            left = self.build(node.left, depth + 1)
            right = self.build(node.right, depth + 1)
            return self.binary(node.op, left, right)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        raise self.fail(
            f"{_describe(node)} is not allowed in a formula; use numbers, x, "
            "declared parameters, + - * / ^, sqrt log ln exp abs, e and pi"
        )

    def constant(self, value: object) -> sp.Expr:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(f"constant {value!r} is not allowed in a formula; only numbers are")
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self.fail("numbers in a formula must be finite")
            fraction = Fraction(repr(value))
            return sp.Rational(fraction.numerator, fraction.denominator)
        if len(str(value)) > MAX_DIGITS:
            raise self.fail(f"a number in the formula has more than {MAX_DIGITS} digits")
        return sp.Integer(value)

    def name(self, name: str) -> sp.Expr:
        if name == "x":
            return X
        if name in CONSTANTS:
            return CONSTANTS[name]
        if name in self.parameters:
            return rational(self.parameters[name])
        if name in FUNCTIONS:
            raise self.fail(f"{name} is a function; call it as {name}(...)")
        raise self.fail(
            f"unknown name {name!r}: the variable is x; declare other names in parameters"
        )

    def binary(self, op: ast.operator, left: sp.Expr, right: sp.Expr) -> sp.Expr:
        if isinstance(op, ast.Add):
            return left + right
        if isinstance(op, ast.Sub):
            return left - right
        if isinstance(op, ast.Mult):
            return left * right
        if isinstance(op, ast.Div):
            if right.is_zero:
                raise self.fail("division by zero in the formula")
            return left / right
        return self.power(left, right)

    def power(self, base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
        if exponent.is_number:
            if not exponent.is_real or abs(float(exponent)) > MAX_EXPONENT:
                raise self.fail(f"exponents must be real numbers within +/-{MAX_EXPONENT}")
            if base.is_number:
                value = complex(sp.N(base, 15))
                if value.imag or (value.real < 0 and not exponent.is_integer):
                    raise self.fail(
                        "a negative or complex number raised to a fractional power is not real"
                    )
                magnitude = abs(value.real)
                digits = abs(float(exponent)) * abs(math.log10(magnitude)) if magnitude else 0.0
                if digits > MAX_DIGITS:
                    raise self.fail(f"a constant power has more than {MAX_DIGITS} digits")
                if base.is_zero and exponent.is_negative:
                    raise self.fail("zero to a negative power in the formula")
        elif base.is_number:
            # a power such as 2^x: its size is bounded by the caps on x's exponent terms
            if base.is_real and base.is_negative:
                raise self.fail("a negative number raised to a power of x is not real")
        else:
            raise self.fail("a power of x to a power involving x (x^x) is not supported")
        return sp.Pow(base, exponent)

    def call(self, node: ast.Call, depth: int) -> sp.Expr:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise self.fail(
                f"only sqrt, log, ln, exp and abs may be called, not {_describe(node.func)}"
            )
        name = node.func.id
        if node.keywords or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
            raise self.fail(f"{name} takes exactly one argument")
        argument = self.build(node.args[0], depth + 1)
        if argument.is_number:
            value = complex(sp.N(argument, 30))
            if name in ("sqrt",) and value.real < 0:
                raise self.fail(f"sqrt of the negative number {argument} in the formula")
            if name in ("log", "ln") and value.real <= 0:
                raise self.fail(f"log of the non-positive number {argument} in the formula")
            if name == "exp" and value.real > 690:
                raise self.fail("exp of a constant beyond 690 overflows")
        result: sp.Expr = FUNCTIONS[name](argument)
        return result


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return "attribute access (.name)"
    if isinstance(node, ast.Name):
        return f"calling {node.id!r}"
    kind = type(node).__name__
    return {
        "Subscript": "indexing ([...])",
        "Lambda": "lambda",
        "BinOp": "this operator",
        "Compare": "a comparison",
        "BoolOp": "and/or",
        "IfExp": "if/else",
        "Call": "this call",
    }.get(kind, f"a {kind} node")
