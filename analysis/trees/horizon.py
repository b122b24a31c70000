"""The part of a tree a depth-limited search sees.

With ``depth=None`` the whole tree is searched and only leaves are scored.
With ``depth=d`` (plies), an internal node at depth ``d`` is a frontier node:
its children are not searched and its static evaluation ``eval`` stands in for
its value (H-minimax, AIMA section 5.4).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, repeat
from typing import cast

from games.errors import InvalidInputError
from games.limits import current_deadline
from games.numbers import Exact
from games.trees.model import Tree, Utility

_EMPTY = range(0)


@dataclass(frozen=True, slots=True)
class Horizon:
    """Children and static values as the search sees them.

    Attributes
    ----------
    children
        Per node, the children searched below it (empty at leaves and frontier nodes).
    static
        Per node, the value used when the search stops there (leaf value or eval).
    depth
        The cutoff in plies, or ``None`` for a full search.
    covered
        How many nodes the search can reach: those down to the cutoff, which
        are the first ``covered`` indices of the level order.
    static_count
        How many of those are scored statically (leaves and frontier nodes).
    """

    children: Sequence[Sequence[int]]
    static: Sequence[Utility | None]
    depth: int | None
    covered: int
    static_count: int


def horizon(tree: Tree, depth: int | None) -> Horizon:
    """Cut ``tree`` at ``depth`` plies.

    Raises
    ------
    InvalidInputError
        If ``depth`` is negative, or a frontier node has no ``eval``; the
        message names the node and the pointer is its ``eval`` field.
    """
    if depth is not None and depth < 0:
        raise InvalidInputError(f"depth must be >= 0, got {depth}", parameter="depth")
    if depth is None or depth >= tree.max_depth():
        return Horizon(tree.children, tree.values, depth, len(tree), tree.leaf_count)
    depths = tree.depths
    covered = bisect_right(depths, depth)
    first = bisect_left(depths, depth)
    children: list[Sequence[int]] = list(tree.children)
    static: list[Utility | None] = list(tree.values)
    evals = tree.evals
    spend = current_deadline().spend
    for index in range(first, covered):
        spend(1)
        if children[index]:
            score = evals[index]
            if score is None:
                raise InvalidInputError(
                    f"node {tree.ids[index]!r} is at the depth cutoff ({depth} plies) but has "
                    "no eval (static evaluation) to score it",
                    tree.field_pointer(index, "eval"),
                )
            children[index] = _EMPTY
            static[index] = score
    # an empty range equals every other empty range, so count() finds them in C
    return Horizon(children, static, depth, covered, children[:covered].count(_EMPTY))


def numeric(static: Sequence[Utility | None]) -> Sequence[Exact | None]:
    """The static values of a tree already checked to hold numbers (not utility lists)."""
    return cast(Sequence[Exact | None], static)


def start_values(seen: Horizon, count: int) -> list[Exact | None]:
    """Per node of a ``count``-node tree: its static value if the search can reach it
    (internal nodes get theirs overwritten as they are backed up), else ``None``."""
    values: list[Exact | None] = list(islice(numeric(seen.static), seen.covered))
    values.extend(repeat(None, count - seen.covered))
    return values


def static_nodes(seen: Horizon) -> Iterator[int]:
    """Indices of the nodes the search scores statically (leaves and frontier nodes)."""
    children = seen.children
    return (index for index in range(seen.covered) if not children[index])


def static_pointer(tree: Tree, index: int) -> str:
    """JSON pointer of what scores a static node: a leaf's value or a frontier node's eval."""
    if tree.children[index]:
        return tree.field_pointer(index, "eval")
    return tree.value_pointer(index)
