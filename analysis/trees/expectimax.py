"""Expectiminimax: MAX, MIN and chance nodes in any order, valued exactly.

A chance node is worth the probability-weighted sum of its outcomes, computed
with exact rationals (a JSON 0.1 is one tenth), so values such as 23/3 come
out exact. With bounds on the leaf values, the search can prune chance nodes
too (Ballard's Star1, in ``analysis.trees.star1``), always reaching the same value.

On request the search is also told as a student writes it down: a depth-first walk,
left to right, that enters each node, reads each leaf and folds each child's value into
its parent (the best so far at MAX and MIN, the running sum of ``p * v`` at chance).
"""

from __future__ import annotations

import os
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress, repeat
from operator import mul
from typing import Any, Final, cast

from analysis.trees.alpha_beta import NEG_INF, POS_INF, TraceEvent
from analysis.trees.backup import back_up
from analysis.trees.horizon import Horizon, horizon, start_values
from analysis.trees.search_stats import SearchStats
from games.errors import LimitExceededError
from games.limits import Deadline, active_limits, current_deadline
from games.numbers import Exact, normalize
from games.trees.exact_sums import bounded_lcm
from games.trees.model import CHANCE, MAX, MIN, Tree

try:
    from analysis.trees._star1 import scaled_back_up as compiled_back_up
except ImportError:  # not compiled (no C compiler at install): the Python loop runs
    compiled_back_up = None  # type: ignore[assignment]

COMPILED: Final = compiled_back_up is not None and os.environ.get("ARBITER_PURE_PYTHON") != "1"
"""Whether :func:`scaled_back_up` may run its compiled twin (``ARBITER_PURE_PYTHON=1``
keeps it to the Python loop, which the tests also run)."""

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
    trace
        On request, the search step by step: ``enter``, ``evaluate``, ``update`` (the
        value so far: the best child's at MAX and MIN, ``sum(p * v)`` at chance) and
        ``return`` events, with no window (alpha and beta stay infinite).
    """

    tree: Tree
    value: Exact
    values: list[Exact | None]
    best_child: list[int]
    best_moves: list[int]
    principal_variation: list[int]
    depth: int | None
    stats: SearchStats
    trace: list[TraceEvent] | None = None
    scaled: tuple[list[int | None], int] | None = None
    """When the back-up ran on a common scale: every node's value times the scale (None
    where ``values`` has None), and the scale; a writer's cheap keys for the values."""


def refuse_large_trace(tree: Tree, trace: bool, max_trace_nodes: int | None) -> None:
    """A step-by-step trace is offered for trees of up to ``max_trace_nodes`` nodes.

    :raises LimitExceededError: ``trace`` is asked for a larger tree (naming ``trace``).
    """
    if trace and max_trace_nodes is not None and len(tree) > max_trace_nodes:
        raise LimitExceededError(
            f"a step-by-step trace is offered for trees of up to {max_trace_nodes} nodes; "
            f"this one has {len(tree)}",
            parameter="trace",
        )


def expectimax(
    tree: Tree,
    *,
    depth: int | None = None,
    deadline: Deadline | None = None,
    trace: bool = False,
    max_trace_nodes: int | None = None,
) -> ExpectimaxResult:
    """Value every node of a tree with MAX, MIN and chance nodes, exactly.

    The back-up spends on ``deadline`` (by default the one of the computation in
    progress).

    :raises ExactSizeError: a chance node's exact value needs more digits than
        ``Limits.max_exact_digits``; the pointer names that node.
    :raises LimitExceededError: ``trace`` is asked for a tree larger than
        ``max_trace_nodes``.
    :raises TimeLimitError: the deadline passes.
    """
    refuse_large_trace(tree, trace, max_trace_nodes)
    tree.require(kinds=EXPECTIMAX_KINDS, tuples=False, endpoint=EXPECTIMAX_HINT)
    seen = horizon(tree, depth)
    clock = deadline if deadline is not None else current_deadline()
    scale = common_scale(tree, seen)
    scaled: tuple[list[int | None], int] | None = None
    if scale is not None:
        values, best_child, keys = scaled_back_up(tree, seen, scale, clock)
        scaled = keys, scale.scale
    else:
        values, best_child = back_up(tree, seen, clock)
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
    events = _trace(tree, seen, values, deadline) if trace else None
    return ExpectimaxResult(
        tree, root_value, values, best_child, best_moves, line, depth, stats, events, scaled
    )


WORD_BITS: Final = 62
"""Largest magnitude (in bits) of a scaled value times ``Q`` the compiled back-up takes."""

SCALE_BITS: Final = 1024
"""Largest scaled value (in bits) the integer back-up takes on: its numbers then cost
little more than small ones, and its deadline spending per node stays true. Beyond it (a
long chain of chance nodes, long denominators) values are backed up as fractions, whose
work is spent by size."""


@dataclass(frozen=True, slots=True)
class CommonScale:
    """Integer weights that put every value of a tree on one integer scale.

    With ``Q`` the least common multiple of the probabilities' denominators, each
    outcome's probability is ``w / Q``. A node's value then has a denominator dividing
    ``Q ** k``, ``k`` the most chance nodes on a path down from it, so ``value * scale``
    is an integer for every node, with ``scale = Q ** K`` (``K`` counts the levels that
    hold a searched chance node, at least as many as any path meets). A chance node's
    scaled value is ``sum(w * scaled) // Q``, exactly.
    """

    common: int
    """``Q``."""
    scale: int
    """``Q ** K``."""
    shares: dict[int, int]
    """``w`` by the ``id`` of each distinct probability object of the tree."""
    largest: int
    """The largest magnitude of a static value the search reaches."""
    nodes: Sequence[int] | None = None
    """Per node, ``w`` (0 where it has no probability), when the reader recorded it."""

    def weights(self, tree: Tree) -> list[int | None]:
        """Per node: ``Q`` times its probability (``None`` where it has none)."""
        current_deadline().spend(len(tree))
        return list(map(self.shares.get, map(id, tree.probabilities)))

    def scaled(self, seen: Horizon) -> list[int | None]:
        """Per node the search reaches: its static value times ``scale`` (else None)."""
        current_deadline().spend(seen.covered)
        scale = self.scale
        # (common_scale found only ints and None among them)
        static = cast(list[int | None], seen.static[: seen.covered])
        return [None if value is None else value * scale for value in static]


def common_scale(tree: Tree, seen: Horizon) -> CommonScale | None:
    """The integer scale of :class:`CommonScale`, or None when there is no searched
    chance node, a static value is not an integer, or the scaled numbers could grow
    past ``SCALE_BITS`` or ``Limits.max_exact_digits`` (the exact back-up then runs in
    fractions and refuses any value that does).

    Whole-list operations, each spent on the deadline of the computation.
    """
    spend = current_deadline().spend
    covered = seen.covered
    # what the reader recorded (the leaves' extremes, the probabilities on one scale) is
    # used as is; anything else is worked out here
    leaf_range = tree.leaf_range if seen.static is tree.values else None
    static: Sequence[Any] = ()
    if leaf_range is None:
        static = seen.static[:covered]
        spend(covered)
        if not set(map(type, static)) <= {int, type(None)}:
            return None
    # levels holding a chance node with searched children (those at a depth cutoff have none)
    kinds, depths = tree.kinds, tree.depths
    levels = 0
    for level in range(depths[covered - 1] + 1):
        if seen.depth is not None and level >= seen.depth:
            break
        first, stop = bisect_left(depths, level), bisect_right(depths, level, hi=covered)
        spend(1 + (stop - first) // 16)
        levels += CHANCE in kinds[first:stop]
    if not levels:
        return None
    bits = min(active_limits().max_exact_bits, SCALE_BITS)
    weights = tree.chance_weights
    if weights is not None:
        numbers: list[Exact] = weights.numbers
        keys = list(map(id, numbers))
        common: int | None = weights.common
        if weights.common.bit_length() > bits // (levels + 1):
            return None
    else:
        probabilities = tree.probabilities
        # the stated probabilities are few distinct objects (the parser reads each string once)
        distinct = dict(zip(map(id, probabilities), probabilities, strict=True))
        distinct.pop(id(None), None)
        spend(len(probabilities))
        numbers = cast(list[Exact], list(distinct.values()))
        keys = list(distinct)
        if not set(map(type, numbers)) <= {int, Fraction}:
            return None
        denominators = (number.denominator for number in numbers)
        common = bounded_lcm(denominators, bits // (levels + 1))
    if common is None:
        return None
    scale = common**levels
    if leaf_range is not None:
        largest = max(leaf_range[1], -leaf_range[0], 0)
    else:
        present = cast(list[int], list(filter(None, static)))
        largest = max(max(present, default=0), -min(present, default=0))
        spend(len(present))
    if (largest * scale * common).bit_length() > bits:
        return None
    spend(len(numbers) + 1)
    shares = {
        key: number.numerator * (common // number.denominator)
        for key, number in zip(keys, numbers, strict=True)
    }
    return CommonScale(common, scale, shares, largest, None if weights is None else weights.nodes)


def scaled_back_up(
    tree: Tree, seen: Horizon, scale: CommonScale, deadline: Deadline, compiled: bool = COMPILED
) -> tuple[list[Exact | None], list[int], list[int | None]]:
    """:func:`analysis.trees.backup.back_up` in integers on ``scale``: the same values
    (exact, the same objects at MAX and MIN nodes) and the same best children, and every
    node's value times the scale (None where the search does not reach).

    With ``compiled`` (and the numbers within 62 bits) the compiled twin of the loop runs
    (:func:`analysis.trees._star1.scaled_back_up`), else the loop below. Every chance
    value fits the digit limit (:func:`common_scale` checked its size), so nothing is
    refused here.
    """
    spend = deadline.spend
    children = seen.children
    kinds = tree.kinds
    covered = seen.covered
    common, factor = scale.common, scale.scale
    count = len(tree)
    if (
        compiled
        and (scale.largest * factor * common).bit_length() <= WORD_BITS
        and type(children) is list
        and type(kinds) is list
        and type(tree.probabilities) is list
    ):
        assert compiled_back_up is not None
        values = start_values(seen, count)
        best_child = [-1] * count
        keys = compiled_back_up(
            children,
            kinds,
            tree.probabilities,
            scale.shares,
            scale.nodes,
            seen.static,
            values,
            best_child,
            covered,
            common,
            factor,
            spend,
            CHANCE,
            MAX,
        )
        if keys is not None:
            return values, best_child, keys
    weights = scale.weights(tree)
    scaled = scale.scaled(seen)
    values = start_values(seen, count)
    best_child = [-1] * count
    known: dict[int, Exact] = {}
    internal = list(compress(range(covered), children[:covered]))
    spend(covered)
    for index in reversed(internal):
        kids = children[index]
        # children are ranges (stepping down in a tree whose children are reversed)
        where = slice(kids.start, kids.stop, kids.step) if type(kids) is range else None
        below = scaled[where] if where else list(map(scaled.__getitem__, kids))
        if kinds[index] == CHANCE:
            shares = weights[where] if where else list(map(weights.__getitem__, kids))
            total = sum(map(mul, shares, below)) // common
            scaled[index] = total
            # chance values repeat (few numerators over one scale): each fraction made once
            value = known.get(total)
            if value is None:
                value = known[total] = normalize(Fraction(total, factor))
            values[index] = value
            best_child[index] = kids[shares.index(max(shares))]  # type: ignore[type-var]
            spend(2 * len(below))
        else:
            best = max(below) if kinds[index] == MAX else min(below)  # type: ignore[type-var]
            child = kids[below.index(best)]
            scaled[index] = best
            values[index] = values[child]
            best_child[index] = child
            spend(len(below))
    scaled.extend(repeat(None, count - covered))
    return values, best_child, scaled


def _trace(
    tree: Tree, seen: Horizon, values: list[Exact | None], deadline: Deadline | None
) -> list[TraceEvent]:
    """The search as a depth-first walk, left to right (an explicit stack, any depth)."""
    children, kinds, probabilities = seen.children, tree.kinds, tree.probabilities
    spend = (deadline if deadline is not None else current_deadline()).spend
    if not children[0]:
        return [TraceEvent("evaluate", 0, NEG_INF, POS_INF, values[0])]
    events = [TraceEvent("enter", 0, NEG_INF, POS_INF, None)]
    # a frame: [node, next slot, value so far (None before the first child)]
    stack: list[list[Any]] = [[0, 0, None]]
    while stack:
        spend(2)
        frame = stack[-1]
        node, slot, running = frame
        kids = children[node]
        if slot < len(kids):
            child = kids[slot]
            frame[1] = slot + 1
            if children[child]:
                events.append(TraceEvent("enter", child, NEG_INF, POS_INF, None))
                stack.append([child, 0, None])
                continue
            events.append(TraceEvent("evaluate", child, NEG_INF, POS_INF, values[child]))
        else:
            stack.pop()
            events.append(TraceEvent("return", node, NEG_INF, POS_INF, values[node]))
            if not stack:
                break
            child, frame = node, stack[-1]
            node, running = frame[0], frame[2]
        value = values[child]
        assert value is not None
        if kinds[node] == CHANCE:
            weight = probabilities[child]
            assert weight is not None
            running = normalize(Fraction(running or 0) + weight * value)
        elif running is None or (value > running if kinds[node] == MAX else value < running):
            running = value
        frame[2] = running
        events.append(TraceEvent("update", node, NEG_INF, POS_INF, running, child=child))
    return events
