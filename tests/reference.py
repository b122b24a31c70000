"""Independent textbook implementations used as oracles in tests.

Written the way AIMA and the CS188 notes state them (recursive, on nested
lists), with nothing shared with the package under test.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any


def minimax_value(tree: Any, maximizing: bool = True) -> Any:
    if not isinstance(tree, list):
        return tree
    scores = [minimax_value(child, not maximizing) for child in tree]
    return max(scores) if maximizing else min(scores)


def alpha_beta_leaves(
    tree: Any, prune_on_equality: bool, maximizing: bool = True
) -> tuple[Any, list[str]]:
    """Root value and the path ids ("root.0.1") of the leaves evaluated, in order."""
    seen: list[str] = []

    def cut(v: Any, bound: Any, is_max: bool) -> bool:
        if is_max:
            return v >= bound if prune_on_equality else v > bound
        return v <= bound if prune_on_equality else v < bound

    def value(node: Any, name: str, alpha: Any, beta: Any, is_max: bool) -> Any:
        if not isinstance(node, list):
            seen.append(name)
            return node
        v = -math.inf if is_max else math.inf
        for position, child in enumerate(node):
            score = value(child, f"{name}.{position}", alpha, beta, not is_max)
            if is_max:
                v = max(v, score)
                if cut(v, beta, True):
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, score)
                if cut(v, alpha, False):
                    return v
                beta = min(beta, v)
        return v

    root = value(tree, "root", -math.inf, math.inf, maximizing)
    return root, seen


def leaf_names(tree: Any) -> list[str]:
    names: list[str] = []
    stack: list[tuple[Any, str]] = [(tree, "root")]
    while stack:
        node, name = stack.pop()
        if isinstance(node, list):
            for position in range(len(node) - 1, -1, -1):
                stack.append((node[position], f"{name}.{position}"))
        else:
            names.append(name)
    return names


def assert_bounds_hold(values: list[Any], bounds: list[Any], truth: list[Any]) -> None:
    """Each value a pruning search reports is exact, or a true lower or upper bound on the
    node's value as the full search (``truth``) gives it."""
    for index, value in enumerate(values):
        if value is None:
            continue
        true_value = truth[index]
        assert true_value is not None
        bound = bounds[index]
        if bound == "exact":
            assert value == true_value
        elif bound == "lower":
            assert true_value >= value
        else:
            assert bound == "upper" and true_value <= value


def _solve_exact(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gauss-Jordan elimination in fractions; ``None`` when the system is singular."""
    size = len(rows)
    work = [row[:] + [b] for row, b in zip(rows, rhs, strict=True)]
    for col in range(size):
        pivot = next((r for r in range(col, size) if work[r][col] != 0), None)
        if pivot is None:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        lead = work[col][col]
        work[col] = [v / lead for v in work[col]]
        for r in range(size):
            if r != col and work[r][col] != 0:
                factor = work[r][col]
                work[r] = [a - factor * b for a, b in zip(work[r], work[col], strict=True)]
    return [work[r][size] for r in range(size)]


def indifferent_mix(
    payoff: list[list[Fraction]], own: tuple[int, ...], other: tuple[int, ...]
) -> list[Fraction] | None:
    """The mix over ``other`` (strictly positive, summing to 1) that makes every row of
    ``own`` earn the same under ``payoff`` (rows = own strategies), or ``None``."""
    k = len(other)
    rows = [[payoff[i][j] for j in other] + [Fraction(-1)] for i in own]
    rows.append([Fraction(1)] * k + [Fraction(0)])
    solution = _solve_exact(rows, [Fraction(0)] * len(own) + [Fraction(1)])
    if solution is None or any(p <= 0 for p in solution[:k]):
        return None
    return solution[:k]


def exact_support_enumeration(
    first: list[list[Fraction]], second: list[list[Fraction]]
) -> list[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]]:
    """Every Nash equilibrium of a nondegenerate bimatrix game, in exact arithmetic.

    Support enumeration as Nisan et al. (Algorithmic Game Theory, section 3.3) state it:
    for each pair of supports of equal size, make each player indifferent over their own
    support with the other's mix, and keep the pair when no strategy outside a support
    pays more. Nondegenerate games have only equal-size supports.
    """
    m, n = len(first), len(first[0])
    transposed = [[second[i][j] for i in range(m)] for j in range(n)]
    found = []
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                y_part = indifferent_mix(first, rows, cols)
                x_part = indifferent_mix(transposed, cols, rows)
                if y_part is None or x_part is None:
                    continue
                x = [Fraction(0)] * m
                y = [Fraction(0)] * n
                for i, p in zip(rows, x_part, strict=True):
                    x[i] = p
                for j, q in zip(cols, y_part, strict=True):
                    y[j] = q
                if is_exact_equilibrium(first, second, x, y):
                    found.append((tuple(x), tuple(y)))
    return found


def is_exact_equilibrium(
    first: list[list[Fraction]],
    second: list[list[Fraction]],
    x: list[Fraction],
    y: list[Fraction],
) -> bool:
    """No pure deviation gains either player anything, in exact arithmetic."""
    m, n = len(first), len(first[0])
    row_pay = [sum((first[i][j] * y[j] for j in range(n)), Fraction(0)) for i in range(m)]
    col_pay = [sum((x[i] * second[i][j] for i in range(m)), Fraction(0)) for j in range(n)]
    row_value = sum((x[i] * row_pay[i] for i in range(m)), Fraction(0))
    col_value = sum((y[j] * col_pay[j] for j in range(n)), Fraction(0))
    return max(row_pay) <= row_value and max(col_pay) <= col_value
