"""How much child order matters to alpha-beta on a given tree.

The same tree is searched three ways: children as posted, best-first (MAX
children by decreasing minimax value, MIN children by increasing value) and
worst-first (the reverse). For a uniform tree of branching ``b`` and depth
``d``, Knuth and Moore (1975) showed best-first ordering evaluates exactly
``b^ceil(d/2) + b^floor(d/2) - 1`` leaves when values are distinct.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analysis.trees.alpha_beta import count_evaluations
from analysis.trees.horizon import horizon
from analysis.trees.minimax import minimax
from games.limits import current_deadline
from games.numbers import Exact
from games.trees.model import MAX, Tree


@dataclass(frozen=True, slots=True)
class MoveOrderingReport:
    """Static evaluations alpha-beta makes under three child orders.

    ``minimal_tree`` is the Knuth-Moore bound, set only when the searched tree
    is uniform (every internal node has ``branching`` children and every
    static node lies at ``depth``).
    """

    given: int
    best_first: int
    worst_first: int
    leaves: int
    uniform: bool
    branching: int | None
    depth: int | None
    minimal_tree: int | None


def minimal_tree_size(branching: int, depth: int) -> int:
    """Knuth-Moore minimal tree: leaves alpha-beta must see with perfect ordering."""
    deep: int = branching ** ((depth + 1) // 2)
    shallow: int = branching ** (depth // 2)
    return deep + shallow - 1


def move_ordering(
    tree: Tree, *, depth: int | None = None, prune_on_equality: bool = True
) -> MoveOrderingReport:
    """Compare the posted child order with best-first and worst-first order.

    Every step spends on the deadline of the computation in progress.
    """
    seen = horizon(tree, depth)
    values = minimax(tree, depth=depth).values
    kinds = tree.kinds
    spend = current_deadline().spend
    best_order: list[Sequence[int]] = []
    worst_order: list[Sequence[int]] = []
    for index, kids in enumerate(seen.children):
        # two sorts, each comparing exact values about log2(len) times per child
        spend(1 + 2 * len(kids) * len(kids).bit_length())
        if len(kids) < 2:
            best_order.append(kids)
            worst_order.append(kids)
            continue
        ranked = sorted(kids, key=lambda kid: _value(values, kid), reverse=kinds[index] == MAX)
        best_order.append(ranked)
        # stable sort in the opposite sense, so ties keep their posted order
        worst_order.append(
            sorted(kids, key=lambda kid: _value(values, kid), reverse=kinds[index] != MAX)
        )
    given = count_evaluations(tree, seen, seen.children, prune_on_equality)
    best = count_evaluations(tree, seen, best_order, prune_on_equality)
    worst = count_evaluations(tree, seen, worst_order, prune_on_equality)
    uniform, branching, height, leaves = _shape(tree, seen.children, seen.depth)
    bound = minimal_tree_size(branching, height) if uniform and branching and height else None
    return MoveOrderingReport(
        given=given,
        best_first=best,
        worst_first=worst,
        leaves=leaves,
        uniform=uniform,
        branching=branching if uniform else None,
        depth=height if uniform else None,
        minimal_tree=bound,
    )


def _value(values: Sequence[Exact | None], index: int) -> Exact:
    value = values[index]
    assert value is not None
    return value


def _shape(
    tree: Tree, children: Sequence[Sequence[int]], cutoff: int | None
) -> tuple[bool, int, int, int]:
    """(uniform?, branching, depth of the static nodes, number of static nodes)."""
    branchings: set[int] = set()
    static_depths: set[int] = set()
    leaves = 0
    depths = tree.depths
    spend = current_deadline().spend
    for index, kids in enumerate(children):
        spend(1)
        if cutoff is not None and depths[index] > cutoff:
            continue
        if kids:
            branchings.add(len(kids))
        else:
            leaves += 1
            static_depths.add(depths[index])
    uniform = len(branchings) == 1 and len(static_depths) == 1
    branching = next(iter(branchings)) if uniform else 0
    height = next(iter(static_depths)) if uniform else 0
    return uniform, branching, height, leaves
