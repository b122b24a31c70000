"""A utility function: its SymPy formula, a fast numeric form and, where it exists, its inverse.

The request states a utility as a formula string, a named family
(``{"family": "exponential"}``) or a piecewise list
(``{"piecewise": [{"from": 0, "to": 100, "formula": "x"}, ...]}``). The numeric
form is compiled by walking the SymPy tree into numpy closures (no ``lambdify``,
no generated code). The inverse is found structurally, by peeling the one
branch that contains ``x`` off ``+ * ^ exp log``; a formula where ``x`` occurs
twice (``x + sqrt(x)``) has no structural inverse and its CE is found by root-finding.

Symbolic work is bounded: derivatives larger than :data:`MAX_DERIVATIVE_OPS` operations
are refused, and :func:`exact_at` computes exact values node by node, refusing any
step whose numbers could pass the exact-size limit before SymPy computes them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from games.errors import ExactSizeError, InvalidInputError, LimitExceededError, join_pointer
from games.limits import active_limits, current_deadline
from games.numbers import Exact, parse_exact
from utility.families import family_utility
from utility.formula import X, parse_formula, rational

Numeric = Callable[[np.ndarray], np.ndarray]
Y = sp.Symbol("y", real=True)
MAX_PIECES = 20
"""Most pieces of a piecewise utility."""
MAX_DERIVATIVE_OPS = 400
"""Most operations (SymPy's ``count_ops``) in ``U'``; the second derivative of a larger one
can take seconds to build (the product rule squares the size of a long product)."""


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
    pointer
        JSON pointer of the utility in the request, for errors found while using it.
    """

    expr: sp.Expr
    numeric: Numeric = field(repr=False, compare=False)
    inverse: sp.Expr | None
    family: str | None = None
    pointer: str = field(default="/utility", compare=False)
    _derivatives: dict[int, sp.Expr] = field(default_factory=dict, repr=False, compare=False)

    @property
    def formula(self) -> str:
        return str(self.expr)

    def derivative(self, order: int = 1) -> sp.Expr:
        """The ``order``-th derivative of ``U`` (1 or 2), computed once.

        :raises LimitExceededError: ``U'`` has more than :data:`MAX_DERIVATIVE_OPS` operations.
        """
        if order not in self._derivatives:
            below = self.expr if order == 1 else self.derivative(order - 1)
            current_deadline().check()
            found: sp.Expr = sp.diff(below, X)
            if order == 1:
                size = sp.count_ops(found)
                if size > MAX_DERIVATIVE_OPS:
                    raise LimitExceededError(
                        f"the derivative of U(x) has {size} operations, more than "
                        f"{MAX_DERIVATIVE_OPS}; write a shorter formula",
                        self.pointer,
                    )
            self._derivatives[order] = found
        return self._derivatives[order]


def make_utility(
    expr: sp.Expr, family: str | None = None, pointer: str = "/utility"
) -> UtilityFunction:
    """Wrap a formula in ``x`` as a :class:`UtilityFunction`."""
    return UtilityFunction(expr, compile_numeric(expr), structural_inverse(expr), family, pointer)


def linear_utility() -> UtilityFunction:
    """``U(x) = x``."""
    return make_utility(X, "linear")


def read_utility(
    raw: object, parameters: Mapping[str, Exact], pointer: str = "/utility"
) -> UtilityFunction:
    """Build the utility a request states; ``None`` means linear (risk neutral)."""
    if raw is None:
        return make_utility(X, "linear", pointer)
    if isinstance(raw, str):
        return make_utility(parse_formula(raw, parameters, pointer), pointer=pointer)
    if isinstance(raw, dict) and set(raw) == {"family"} and isinstance(raw["family"], str):
        name = raw["family"]
        expr = family_utility(name, parameters, join_pointer(pointer, "family"))
        return make_utility(expr, name, pointer)
    if isinstance(raw, dict) and set(raw) == {"piecewise"}:
        return make_utility(
            _piecewise(raw["piecewise"], parameters, join_pointer(pointer, "piecewise")),
            pointer=pointer,
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
        formula_pointer = join_pointer(here, "formula")
        formula = parse_formula(piece["formula"], parameters, formula_pointer)
        if previous_formula is not None and previous_end is not None:
            joint = rational(previous_end)
            left = complex(sp.N(exact_at(previous_formula, X, joint, formula_pointer)))
            right = complex(sp.N(exact_at(formula, X, joint, formula_pointer)))
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


# -- exact values ------------------------------------------------------------------


def exact_at(
    expr: sp.Expr, symbol: sp.Symbol, value: sp.Expr, pointer: str, what: str = "utility"
) -> sp.Expr:
    """``expr`` with ``symbol`` replaced by ``value``, evaluated exactly, within the limits.

    SymPy evaluates numbers as it builds them: ``(123/10)**100`` becomes a 100-digit
    rational, ``exp(x*log(2))`` at ``x = 10**6`` becomes ``2**1000000``. The expression is
    rebuilt from its leaves. Before a power is built, a bound on the size of the numbers
    it can produce (from its arguments' actual numbers) is checked against
    ``Limits.max_exact_digits``; sums and products (whose size is at most the sum of
    their arguments', a few times the limit) are built and then checked. The work is
    checked against the deadline at every node.

    :raises ExactSizeError: a step could produce a number past the limit (at ``pointer``).
    :raises TimeLimitError: the deadline passed.
    """
    limit = active_limits()
    clock = current_deadline()
    built: dict[sp.Basic, tuple[sp.Basic, int]] = {}
    stack: list[tuple[sp.Basic, bool]] = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if node in built:
            continue
        if node == symbol:
            built[node] = (value, _height(value))
            continue
        if not node.args:
            built[node] = (node, _height(node))
            continue
        if not ready:
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args if arg not in built)
            continue
        args = [built[arg] for arg in node.args]
        # SymPy's assumptions may evaluate a constant numerically as a node is built (a few
        # milliseconds each): the clock is read at every node, not by units of work
        clock.check()
        if all(new is old for (new, _), old in zip(args, node.args, strict=True)):
            built[node] = (node, sum(h for _, h in args))  # nothing to evaluate
            continue
        bound = _size_bound(node, args)
        evaluates_powers = isinstance(node, (sp.Pow, sp.exp))
        if bound > (1 if evaluates_powers else len(args) + 1) * limit.max_exact_bits:
            raise _too_large(what, pointer)
        clock.spend(bound // 64)
        result = node.func(*(arg for arg, _ in args))
        _check_numbers(result, what, pointer)
        built[node] = (result, _height(result))
    answer: sp.Expr = built[expr][0]
    return answer


def exact_sum(terms: list[sp.Expr], pointer: str, what: str = "utility") -> sp.Expr:
    """``sum(terms)`` evaluated exactly, term by term, within the exact-size limit.

    :raises ExactSizeError: a partial sum passes the limit (at ``pointer``).
    :raises TimeLimitError: the deadline passed.
    """
    clock = current_deadline()
    total: sp.Expr = sp.Integer(0)
    for term in terms:
        clock.check()
        total = total + term
        _check_numbers(total, what, pointer)
    return total


def _too_large(what: str, pointer: str) -> ExactSizeError:
    limit = active_limits()
    return ExactSizeError(
        f"the exact {what} would need more than {limit.max_exact_digits} digits "
        "in its numerator or denominator",
        pointer,
    )


def _check_numbers(expr: sp.Basic, what: str, pointer: str) -> None:
    """Refuse ``expr`` if one of its rationals passed the exact-size limit."""
    bits = active_limits().max_exact_bits
    for r in expr.atoms(sp.Rational):
        if r.p.bit_length() > bits or r.q.bit_length() > bits:
            raise _too_large(what, pointer)


def _height(expr: sp.Basic) -> int:
    """Bits of the larger of numerator and denominator of each rational in ``expr``, summed."""
    return sum(max(r.p.bit_length(), r.q.bit_length()) for r in expr.atoms(sp.Rational))


def _size_bound(node: sp.Basic, args: list[tuple[sp.Basic, int]]) -> int:
    """Bits the rationals of ``node.func(*args)`` can reach, SymPy's evaluation included."""
    heights = [h for _, h in args]
    if isinstance(node, sp.Pow):
        (base, base_height), (power, power_height) = args
        if isinstance(base, sp.Add):
            return base_height + power_height  # (a + b)**n is left as it is
        if isinstance(power, sp.Rational):
            # a number to a rational power is multiplied out: b**(p/q) has the
            # integer part b**(p // q) and a root of b
            whole: int = abs(power.p) // power.q
        elif power.is_number and power.is_comparable:
            # an irrational power stays symbolic as built, but rewriting it (powsimp)
            # multiplies out its integer part: bound it by the power's size too
            magnitude = abs(float(power))
            whole = int(magnitude) if math.isfinite(magnitude) else 1 << 64
        else:
            return base_height + power_height
        return max(1, whole + 1) * base_height + power_height
    if isinstance(node, sp.exp):
        return _exp_bound(args[0][0]) + heights[0]
    # sums and products of rationals; other functions keep their argument's numbers
    return sum(heights) + len(heights)


def _exp_bound(argument: sp.Basic) -> int:
    """Bits of ``exp(argument)`` once SymPy turns ``exp(c*log(b))`` into ``b**c``."""
    total = 0
    for term in sp.Add.make_args(argument):
        logs = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log)]
        if len(logs) != 1:
            continue
        base = logs[0].args[0]
        coefficient = term / logs[0]
        if isinstance(coefficient, sp.Rational):
            power = abs(coefficient.p) // coefficient.q + 1
        elif coefficient.is_comparable:
            magnitude = abs(float(coefficient))
            power = int(magnitude) + 1 if math.isfinite(magnitude) else 1 << 64
        else:
            continue
        total += power * _height(base)
    return total


# -- inverse -----------------------------------------------------------------------


def structural_inverse(expr: sp.Expr) -> sp.Expr | None:
    """``U^-1(y)`` found by peeling operations off the single branch holding ``x``.

    Returns ``None`` when ``x`` occurs in more than one term or under ``abs`` or a
    piecewise. The caller checks the inverse numerically on the support (a power
    such as ``x^2`` inverts to ``sqrt(y)`` only for ``x >= 0``).
    """
    target: sp.Expr = Y
    node = expr
    clock = current_deadline()
    for _ in range(200):
        clock.check()  # SymPy may evaluate constants numerically to decide signs
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
