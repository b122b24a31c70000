"""Backing values up a tree exactly: one loop for MAX, MIN and chance nodes.

Shared by minimax (for values numpy cannot hold: fractions, big integers) and
expectiminimax. The loop spends on the computation's deadline in proportion to the
work done (children read, digits handled), and a chance node whose exact expected
value grows past ``Limits.max_exact_digits`` stops it with a pointer to that node.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import cast

from analysis.trees.horizon import Horizon, start_values
from games.limits import Deadline, check_exact_size, current_deadline
from games.numbers import Exact
from games.trees.exact_sums import sum_of_ratios
from games.trees.model import CHANCE, MAX, Tree


def weighted_sum(
    weights: list[Exact],
    scores: list[Exact],
    *,
    deadline: Deadline | None = None,
    refuse: Callable[[Exact], None] | None = None,
) -> Exact:
    """Exact ``sum(w * s)``, added in integers over a common denominator.

    The common denominator grows one term at a time (one gcd where it changes, none
    while the terms share it, which is the usual case), so a sum whose exact form
    grows too large is stopped as soon as it does, not after one huge ``lcm``; the
    sum itself is checked once at the end. ``refuse`` is called with a number that is
    too large and raises :class:`ExactSizeError` naming the field responsible (it is
    called only then, so the pointer costs nothing otherwise).

    :raises ExactSizeError: the running denominator passes twice
        ``Limits.max_exact_digits`` or the sum passes it.
    :raises TimeLimitError: the deadline passes.
    """
    return sum_of_ratios(
        (
            (weight.numerator * score.numerator, weight.denominator * score.denominator)
            for weight, score in zip(weights, scores, strict=True)
        ),
        deadline=deadline,
        refuse=refuse if refuse is not None else _refuse,
    )


def _refuse(value: Exact) -> None:
    check_exact_size(value, "", "weighted sum")


def back_up(
    tree: Tree, seen: Horizon, deadline: Deadline | None
) -> tuple[list[Exact | None], list[int]]:
    """Exact value and leftmost best child of every node the search reaches.

    Children are numbered after their parent, so walking the indices downwards
    values every child before it: MAX and MIN take the extreme child value, a
    chance node the probability-weighted sum of its outcomes (and its most likely
    outcome as "best" child, which a principal variation follows).

    :raises ExactSizeError: a chance node's exact value needs more digits than
        ``Limits.max_exact_digits``; the pointer names that node.
    :raises TimeLimitError: the deadline passes.
    """
    clock = deadline if deadline is not None else current_deadline()
    spend = clock.spend
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
            values[index] = weighted_sum(
                weights,
                cast(list[Exact], scores),
                deadline=clock,
                refuse=_refuser(tree, index),
            )
            best_child[index] = kids[weights.index(max(weights))]
            spend(len(kids))
        else:
            best = max(scores) if kind == MAX else min(scores)  # type: ignore[type-var]
            values[index] = best
            best_child[index] = kids[scores.index(best)]
            # comparing exact numbers costs in proportion to their size
            spend(len(kids) * comparison_cost(best))
    return values, best_child


def _refuser(tree: Tree, node: int) -> Callable[[Exact], None]:
    """Refuse the exact value of chance node ``node``, pointing at it."""

    def refuse(value: Exact) -> None:
        check_exact_size(value, tree.pointer(node), f"value of chance node {tree.ids[node]!r}")

    return refuse


def comparison_cost(value: Exact | None) -> int:
    """Units a comparison with exact ``value`` costs: one, and one more per 256 binary
    digits (comparing exact numbers costs in proportion to their size)."""
    if type(value) is int:
        return 1 + value.bit_length() // 256
    assert isinstance(value, Fraction)
    return 1 + (value.numerator.bit_length() + value.denominator.bit_length()) // 256
