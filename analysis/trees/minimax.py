"""Minimax: the exact value of every node of a two-player zero-sum tree."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice, repeat
from typing import Final

import numpy as np

try:
    from analysis.trees._kernels import back_up_extremes, back_up_words
except ImportError:  # not built: numpy and the Python loop answer
    back_up_extremes = back_up_words = None  # type: ignore[assignment]

from analysis.trees.alpha_beta import COMPILED
from analysis.trees.backup import back_up, comparison_cost
from analysis.trees.horizon import Horizon, horizon, start_values
from analysis.trees.search_stats import SearchStats
from games.limits import Deadline, current_deadline
from games.numbers import Exact
from games.trees.compiled_reader import walkable
from games.trees.model import DECISION_KINDS, MAX, TWO_PLAYER_HINT, IntColumn, Tree


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
    values: Sequence[Exact | None]
    best_child: Sequence[int]
    best_moves: list[int]
    principal_variation: list[int]
    depth: int | None
    stats: SearchStats


def minimax(
    tree: Tree, *, depth: int | None = None, deadline: Deadline | None = None
) -> MinimaxResult:
    """Back up leaf values (or evals at the depth cutoff) through MAX and MIN nodes.

    Children are numbered after their parent, so walking the indices downwards
    values every child before it: no recursion, linear time. The loop is compiled
    (:mod:`analysis.trees._kernels`) where the set-up built it; otherwise, when every
    static value is a machine-size integer, each level is reduced at once with numpy
    (``maximum.reduceat`` over the next level, which holds the children in order),
    and one exact Python loop handles fractions and big integers.
    All spend on ``deadline``, by default the one of the computation in progress.

    :raises TimeLimitError: the deadline passes.
    """
    tree.require(kinds=DECISION_KINDS, tuples=False, endpoint=TWO_PLAYER_HINT)
    if deadline is None:
        deadline = current_deadline()
    seen = horizon(tree, depth)
    covered = seen.covered
    backed: Backed | None = None
    if COMPILED:
        backed = _compiled(tree, seen, deadline)
    elif _wide_levels(tree, covered):
        backed = _levels_numpy(tree, seen, covered, deadline=deadline)
    if backed is None:
        backed = back_up(tree, seen, deadline)
    values, best_child = backed
    evaluated = seen.static_count
    root_value = values[0]
    assert root_value is not None
    best_moves = [kid for kid in seen.children[0] if values[kid] == root_value]
    line: list[int] = []
    step = best_child[0]
    while step != -1:
        line.append(step)
        step = best_child[step]
    stats = SearchStats(
        nodes=len(tree),
        leaves=evaluated,
        visited=covered,
        evaluated=evaluated,
        cutoffs=0,
    )
    return MinimaxResult(tree, root_value, values, best_child, best_moves, line, depth, stats)


Backed = tuple[Sequence[Exact | None], Sequence[int]]


def _compiled(tree: Tree, seen: Horizon, deadline: Deadline) -> Backed:
    """:func:`analysis.trees.backup.back_up` for MAX and MIN nodes, compiled: on machine
    integers, into columns of them, when the search covers the whole tree and every static
    value is one (the values then cost neither objects nor references to make and free)."""
    children = walkable(seen.children)
    if seen.covered == len(tree) and type(seen.static) is list:
        kinds = tree.kinds
        words = back_up_words(
            children,
            seen.static,
            kinds if type(kinds) is list else list(kinds),
            MAX,
            deadline.spend,
            # (the static values are the leaves', which the reader may hold as integers)
            tree.leaf_words if seen.static is tree.values else None,
        )
        if words is not None:
            return words
    values = start_values(seen, len(tree))
    best_child = IntColumn.filled(-1, len(tree))
    back_up_extremes(
        children if type(children) is list else list(children),
        values,
        best_child,
        tree.kinds,
        MAX,
        seen.covered,
        deadline.spend,
        comparison_cost,
    )
    return values, best_child


NARROWEST: Final = 32
"""Fewest nodes per level, on average, for which numpy pays: each level costs a dozen
numpy calls, which a deep, narrow tree (a 100,000-ply chain) pays at every level."""


def _wide_levels(tree: Tree, covered: int) -> bool:
    """Whether the searched part of ``tree`` has NARROWEST nodes or more per level."""
    return (tree.depths[covered - 1] + 1) * NARROWEST <= covered


def _levels_numpy(
    tree: Tree,
    seen: Horizon,
    covered: int,
    smallest: int = 4096,
    deadline: Deadline | None = None,
) -> Backed | None:
    """The same values level by level with numpy, or None unless every static
    value of the search is an integer that fits in 64 bits (and the search
    covers at least ``smallest`` nodes, below which arrays do not pay off)."""
    if covered < smallest:
        return None
    children = seen.children
    static = seen.static
    if not set(map(type, islice(static, covered))) <= {int, type(None)}:
        return None
    try:
        values = np.array([0 if v is None else v for v in islice(static, covered)], dtype=np.int64)
    except OverflowError:
        return None
    if deadline is not None:
        deadline.check()
    depths = tree.depths
    bottom = depths[covered - 1]
    starts = [bisect_left(depths, level) for level in range(bottom + 2)]
    starts[-1] = covered
    best = np.full(covered, -1, dtype=np.int64)
    kinds = tree.kinds
    for level in range(bottom - 1, -1, -1):
        if deadline is not None:
            deadline.check()
        low, high = starts[level], starts[level + 1]
        counts = np.fromiter(
            map(len, islice(children, low, high)), dtype=np.int64, count=high - low
        )
        internal = np.flatnonzero(counts)
        if not len(internal):
            continue
        offsets = (np.cumsum(counts) - counts)[internal]
        below = values[high : starts[level + 2]]
        highest = np.maximum.reduceat(below, offsets)
        lowest = np.minimum.reduceat(below, offsets)
        is_max = np.fromiter(
            (kinds[low + i] == MAX for i in internal.tolist()), dtype=bool, count=len(internal)
        )
        backed = np.where(is_max, highest, lowest)
        values[low + internal] = backed
        # leftmost child achieving its parent's value
        matches = below == np.repeat(backed, counts[internal])
        positions = np.where(matches, np.arange(len(below)), len(below))
        best[low + internal] = high + np.minimum.reduceat(positions, offsets)
    listed: list[Exact | None] = values.tolist()
    listed.extend(repeat(None, len(tree) - covered))
    best_child: list[int] = best.tolist()
    best_child.extend(repeat(-1, len(tree) - covered))
    return listed, best_child
