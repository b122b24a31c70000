"""Shared hypothesis strategies (as Axelrod's tests/property.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


def shorthand_trees(
    max_depth: int = 4, max_branching: int = 4, values: st.SearchStrategy[int] | None = None
) -> st.SearchStrategy[Any]:
    """Nested-array trees with at least one child per internal node, uneven depths allowed.

    Small value ranges make ties (and so the pruning conventions) matter.
    """
    leaf = values if values is not None else st.integers(-5, 5)
    return st.recursive(
        leaf,
        lambda inner: st.lists(inner, min_size=1, max_size=max_branching),
        max_leaves=max_branching**max_depth,
    ).filter(lambda tree: isinstance(tree, list))


def uniform_trees(
    branching: int, depth: int, values: st.SearchStrategy[int]
) -> st.SearchStrategy[Any]:
    """Complete trees of the given branching and depth."""
    strategy: st.SearchStrategy[Any] = values
    for _ in range(depth):
        strategy = st.lists(strategy, min_size=branching, max_size=branching)
    return strategy
