"""Expectiminimax: MAX, MIN and chance nodes in any order, valued exactly.

The search is AIMA's EXPECTIMINIMAX (section 5.5): ``max_value`` and ``min_value`` take the
best child for the side to move, ``chance_value`` the probability-weighted sum of its
outcomes, computed with exact rationals (a JSON 0.1 is one tenth), so values such as 23/3
come out exact. A node at a terminal test (a leaf, or a node at the depth cutoff, valued by
its ``eval``) returns its utility. With bounds on the leaf values, the search can prune
chance nodes too (Ballard's Star1, in ``analysis.trees.star1``), always reaching the same
value.

On request the search is also told as a student writes it down: a depth-first walk, left to
right, that enters each node, reads each leaf and folds each child's value into its parent
(the best so far at MAX and MIN, the running sum of ``p * v`` at chance).

The functions are generators run by :func:`analysis.trees.recursion.run`, so a tree may be
deeper than Python's stack. Where the set-up compiled it and the tree's numbers fit 64-bit
integers on one common scale (:class:`CommonScale`),
:func:`analysis.trees._star1.scaled_back_up` gives the same values and children faster
(:mod:`games.compiled` says which runs); the tests hold it to this search.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, cast

from analysis.trees.horizon import Horizon, horizon, numeric
from analysis.trees.minimax import (
    MinimaxSearch,
    TraceEvent,
    listed,
    principal_variation,
    refuse_large_trace,
)
from analysis.trees.recursion import Call, run
from analysis.trees.search_stats import SearchStats
from games.compiled import kernel
from games.limits import Deadline, active_limits, check_exact_size, current_deadline
from games.numbers import Exact, normalize
from games.trees.exact_sums import bounded_lcm, sum_of_ratios
from games.trees.model import CHANCE, MAX, MIN, Tree

CHANCE_KERNELS: Final = kernel("analysis.trees._star1")
"""The compiled chance searches (:mod:`analysis.trees._star1`), or None."""

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


def expectimax(
    tree: Tree,
    *,
    depth: int | None = None,
    deadline: Deadline | None = None,
    trace: bool = False,
    max_trace_nodes: int | None = None,
    compiled: bool = True,
) -> ExpectimaxResult:
    """Value every node of a tree with MAX, MIN and chance nodes, exactly.

    ``compiled=False`` runs the textbook search even where the kernel is built (the tests
    compare the two); a trace is always the textbook search's. The search spends on
    ``deadline`` (by default the one of the computation in progress).

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
    values: list[Exact | None] = [None] * len(tree)
    best_child = [-1] * len(tree)
    events: list[TraceEvent] | None = None
    if not (compiled and not trace and _compiled(tree, seen, values, best_child, clock)):
        search = _Expectimax(tree, seen, values, best_child, clock, trace)
        run(search.value(0), clock.spend)
        events = search.trace
    root_value = values[0]
    assert root_value is not None
    best_moves = (
        [kid for kid in seen.children[0] if values[kid] == root_value]
        if tree.kinds[0] in (MAX, MIN)
        else []
    )
    stats = SearchStats(
        nodes=len(tree),
        leaves=seen.static_count,
        visited=seen.covered,
        evaluated=seen.static_count,
        cutoffs=0,
    )
    line = principal_variation(best_child)
    return ExpectimaxResult(
        tree, root_value, values, best_child, best_moves, line, depth, stats, events
    )


class _Expectimax(MinimaxSearch):
    """One expectiminimax search: minimax's, with a chance node valued by the expectation of
    its outcomes."""

    def __init__(
        self,
        tree: Tree,
        seen: Horizon,
        values: list[Exact | None],
        best_child: list[int],
        clock: Deadline,
        tracing: bool,
    ) -> None:
        super().__init__(tree, seen, values, best_child, tracing)
        self.tree = tree
        self.probabilities = tree.probabilities
        self.clock = clock

    def value(self, node: int) -> Call:
        """``node``'s value: the best child's for the side to move, or the expectation."""
        if self.kinds[node] == CHANCE:
            return self.chance_value(node)
        return super().value(node)

    def chance_value(self, node: int) -> Call:
        if not self.children[node]:
            return self.utility(node)
        self.log("enter", node, None)
        kids = self.children[node]
        weights = cast(list[Exact], [self.probabilities[kid] for kid in kids])
        scores: list[Exact] = []
        running: Exact = 0
        for weight, child in zip(weights, kids, strict=True):
            value = yield self.value(child)
            scores.append(value)
            if self.trace is not None:
                running = normalize(Fraction(running) + weight * value)
                self.log("update", node, running, child)
        v = weighted_sum(weights, scores, deadline=self.clock, refuse=_refuser(self.tree, node))
        return self.returned(node, v, kids[weights.index(max(weights))])


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


def _refuser(tree: Tree, node: int) -> Callable[[Exact], None]:
    """Refuse the exact value of chance node ``node``, pointing at it."""

    def refuse(value: Exact) -> None:
        check_exact_size(value, tree.pointer(node), f"value of chance node {tree.ids[node]!r}")

    return refuse


WORD_BITS: Final = 62
"""Largest magnitude (in bits) of a scaled value times ``Q`` the compiled searches take."""


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


def common_scale(tree: Tree, seen: Horizon) -> CommonScale | None:
    """The integer scale of :class:`CommonScale` on which the compiled chance searches
    work, or None when there is no searched chance node, a static value is not an
    integer, or a scaled number times ``Q`` could pass :data:`WORD_BITS` (the Python
    searches then answer in fractions).

    Whole-list operations, each spent on the deadline of the computation.
    """
    spend = current_deadline().spend
    covered = seen.covered
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
    probabilities = tree.probabilities
    # the stated probabilities are few distinct objects (the parser reads each string once)
    distinct = dict(zip(map(id, probabilities), probabilities, strict=True))
    distinct.pop(id(None), None)
    spend(len(probabilities))
    numbers = cast(list[Exact], list(distinct.values()))
    if not set(map(type, numbers)) <= {int, Fraction}:
        return None
    # (within the digit limit too, so that no number the Python search refuses is kept)
    bits = min(active_limits().max_exact_bits, WORD_BITS)
    common = bounded_lcm((number.denominator for number in numbers), bits)
    if common is None:
        return None
    scale = common**levels
    present = cast(list[int], list(filter(None, static)))
    largest = max(max(present, default=0), -min(present, default=0))
    spend(len(present))
    if (largest * scale * common).bit_length() > bits:
        return None
    shares = {
        key: number.numerator * (common // number.denominator)
        for key, number in zip(distinct, numbers, strict=True)
    }
    return CommonScale(common, scale, shares, largest)


def _compiled(
    tree: Tree,
    seen: Horizon,
    values: list[Exact | None],
    best_child: list[int],
    clock: Deadline,
) -> bool:
    """Fill ``values`` and ``best_child`` by the compiled back-up on the tree's common
    scale, where it is built and applies (else False, and they are left as they were)."""
    if CHANCE_KERNELS is None:
        return False
    scale = common_scale(tree, seen)
    if scale is None:
        return False
    values[: seen.covered] = numeric(seen.static)[: seen.covered]
    keys = CHANCE_KERNELS.scaled_back_up(
        listed(seen.children),
        listed(tree.kinds),
        listed(tree.probabilities),
        scale.shares,
        listed(seen.static),
        values,
        best_child,
        seen.covered,
        scale.common,
        scale.scale,
        clock.spend,
        CHANCE,
        MAX,
    )
    if keys is None:
        values[:] = [None] * len(values)
        return False
    return True
