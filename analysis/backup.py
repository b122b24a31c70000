"""Backing values up a tree exactly: one loop for MAX, MIN and chance nodes.

Shared by minimax (for values numpy cannot hold: fractions, big integers) and
expectiminimax.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import cast

from analysis.horizon import Horizon, start_values
from games.limits import Deadline
from games.numbers import Exact, normalize
from games.tree import CHANCE, MAX, Tree


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


def back_up(
    tree: Tree, seen: Horizon, deadline: Deadline | None
) -> tuple[list[Exact | None], list[int]]:
    """Exact value and leftmost best child of every node the search reaches.

    Children are numbered after their parent, so walking the indices downwards
    values every child before it: MAX and MIN take the extreme child value, a
    chance node the probability-weighted sum of its outcomes (and its most likely
    outcome as "best" child, which a principal variation follows).
    """
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
