"""Expectiminimax: MAX, MIN and chance nodes in any order, valued exactly.

A chance node is worth the probability-weighted sum of its outcomes, computed
with exact rationals (a JSON 0.1 is one tenth), so values such as 23/3 come
out exact. With bounds on the leaf values, the search can prune chance nodes
too (Ballard's Star1, in ``analysis.star1``), always reaching the same value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Final, cast

from analysis.horizon import Horizon, horizon, start_values
from analysis.stats import SearchStats
from games.limits import Deadline
from games.numbers import Exact, normalize
from games.tree import CHANCE, MAX, MIN, Tree

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
    """Value every node of a tree with MAX, MIN and chance nodes, exactly."""
    tree.require(kinds=EXPECTIMAX_KINDS, tuples=False, endpoint=EXPECTIMAX_HINT)
    seen = horizon(tree, depth)
    values, best_child = _back_up(tree, seen, deadline)
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


def weighted_sum(weights: list[Exact], scores: list[Exact]) -> Exact:
    """Exact ``sum(w * s)``, added in integers over a common denominator.

    One gcd at the end instead of one per step makes it several times faster than
    summing Fractions, which matters for trees with hundreds of thousands of outcomes.
    """
    denominators = [w.denominator * s.denominator for w, s in zip(weights, scores, strict=True)]
    common = lcm(*denominators)
    numerator = sum(
        w.numerator * s.numerator * (common // d)
        for w, s, d in zip(weights, scores, denominators, strict=True)
    )
    return normalize(Fraction(numerator, common))


def _back_up(
    tree: Tree, seen: Horizon, deadline: Deadline | None
) -> tuple[list[Exact | None], list[int]]:
    children = seen.children
    kinds = tree.kinds
    probabilities = tree.probabilities
    covered = seen.covered
    values = start_values(seen, len(tree))
    best_child = [-1] * len(tree)
    for index in range(covered - 1, -1, -1):
        kids = children[index]
        if not kids:
            continue
        scores = list(map(values.__getitem__, kids))
        kind = kinds[index]
        if kind == CHANCE:
            weights = cast(list[Exact], list(map(probabilities.__getitem__, kids)))
            values[index] = weighted_sum(weights, cast(list[Exact], scores))
            best_child[index] = kids[weights.index(max(weights))]
        else:
            best = max(scores) if kind == MAX else min(scores)  # type: ignore[type-var]
            values[index] = best
            best_child[index] = kids[scores.index(best)]
        if deadline is not None and not index & 0xFFFF:
            deadline.check()
    return values, best_child
