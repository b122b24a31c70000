"""Minimax: the exact value of every node of a two-player zero-sum tree."""

from __future__ import annotations

from dataclasses import dataclass

from analysis.horizon import horizon
from analysis.stats import SearchStats
from games.limits import Deadline
from games.numbers import Exact
from games.tree import MAX, Tree


@dataclass(frozen=True, slots=True)
class MinimaxResult:
    """Minimax values of a tree.

    Attributes
    ----------
    value
        Value of the root.
    values
        Value per node index; ``None`` for nodes beyond the depth cutoff.
    best_child
        Per node, the leftmost optimal child, ``-1`` where the search stops.
    best_moves
        Every optimal child of the root, left to right (ties included).
    principal_variation
        Node indices from the root's best child down to where the search stops.
    """

    tree: Tree
    value: Exact
    values: list[Exact | None]
    best_child: list[int]
    best_moves: list[int]
    principal_variation: list[int]
    depth: int | None
    stats: SearchStats


def minimax(tree: Tree, *, depth: int | None = None, deadline: Deadline | None = None) -> MinimaxResult:
    """Back up leaf values (or evals at the depth cutoff) through MAX and MIN nodes.

    Nodes are visited in reverse preorder, so every child is valued before its
    parent: one loop, no recursion, linear time.
    """
    seen = horizon(tree, depth)
    children = seen.children
    kinds = tree.kinds
    depths = tree.depths
    count = len(tree)
    values: list[Exact | None] = list(seen.static)
    best_child = [-1] * count
    visited = 0
    evaluated = 0
    for index in range(count - 1, -1, -1):
        if seen.depth is not None and depths[index] > seen.depth:
            values[index] = None
            continue
        visited += 1
        kids = children[index]
        if not kids:
            evaluated += 1
            continue
        scores = list(map(values.__getitem__, kids))
        best = max(scores) if kinds[index] == MAX else min(scores)  # type: ignore[type-var]
        values[index] = best
        best_child[index] = kids[scores.index(best)]
        if deadline is not None and not index & 0xFFFF:
            deadline.check()
    root_value = values[0]
    assert root_value is not None
    best_moves = [kid for kid in children[0] if values[kid] == root_value]
    line: list[int] = []
    step = best_child[0]
    while step != -1:
        line.append(step)
        step = best_child[step]
    stats = SearchStats(
        nodes=count,
        leaves=evaluated,
        visited=visited,
        evaluated=evaluated,
        cutoffs=0,
    )
    return MinimaxResult(tree, root_value, values, best_child, best_moves, line, depth, stats)
