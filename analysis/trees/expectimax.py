"""Expectiminimax: MAX, MIN and chance nodes in any order, valued exactly.

A chance node is worth the probability-weighted sum of its outcomes, computed
with exact rationals (a JSON 0.1 is one tenth), so values such as 23/3 come
out exact. With bounds on the leaf values, the search can prune chance nodes
too (Ballard's Star1, in ``analysis.trees.star1``), always reaching the same value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from analysis.trees.backup import back_up
from analysis.trees.horizon import horizon
from analysis.trees.search_stats import SearchStats
from games.limits import Deadline
from games.numbers import Exact
from games.trees.model import CHANCE, MAX, MIN, Tree

EXPECTIMAX_KINDS: Final = frozenset({MAX, MIN, CHANCE})
EXPECTIMAX_HINT: Final = (
    "expectimax takes MAX, MIN and chance nodes with numeric utilities; solve utility lists "
    "with /v1/trees/maxn"
)


@dataclass(frozen=True, slots=True)
class ExpectimaxResult:
    """Exact expectiminimax values.

    Attributes
    ----------
    values
        Value per node index (``None`` beyond the depth cutoff).
    best_child
        Per MAX/MIN node, its leftmost optimal child; at a chance node, its most
        likely outcome (leftmost among ties), which the principal variation
        follows; ``-1`` where the search stops.
    best_moves
        Every optimal child of the root, when the root is MAX or MIN.
    principal_variation
        Node indices from the root's best child down, through the most likely
        outcome of each chance node on the way.
    """

    tree: Tree
    value: Exact
    values: list[Exact | None]
    best_child: list[int]
    best_moves: list[int]
    principal_variation: list[int]
    depth: int | None
    stats: SearchStats


def expectimax(
    tree: Tree, *, depth: int | None = None, deadline: Deadline | None = None
) -> ExpectimaxResult:
    """Value every node of a tree with MAX, MIN and chance nodes, exactly.

    The back-up spends on ``deadline`` (by default the one of the computation in
    progress).

    :raises ExactSizeError: a chance node's exact value needs more digits than
        ``Limits.max_exact_digits``; the pointer names that node.
    :raises TimeLimitError: the deadline passes.
    """
    tree.require(kinds=EXPECTIMAX_KINDS, tuples=False, endpoint=EXPECTIMAX_HINT)
    seen = horizon(tree, depth)
    values, best_child = back_up(tree, seen, deadline)
    root_value = values[0]
    assert root_value is not None
    kinds = tree.kinds
    best_moves = (
        [kid for kid in seen.children[0] if values[kid] == root_value]
        if kinds[0] in (MAX, MIN)
        else []
    )
    line: list[int] = []
    step = best_child[0]
    while step != -1:
        line.append(step)
        step = best_child[step]
    stats = SearchStats(
        nodes=len(tree),
        leaves=seen.static_count,
        visited=seen.covered,
        evaluated=seen.static_count,
        cutoffs=0,
    )
    return ExpectimaxResult(tree, root_value, values, best_child, best_moves, line, depth, stats)
