"""Independent textbook implementations used as oracles in tests.

Written the way AIMA and the CS188 notes state them (recursive, on nested
lists), with nothing shared with the package under test.
"""

from __future__ import annotations

import math
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
