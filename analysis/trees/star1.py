"""Star1: alpha-beta pruning extended to chance nodes (Ballard 1983).

When every leaf value is known to lie in ``[lo, hi]``, a chance node can stop
early: after its first outcomes, its value is at most ``sum(p v) + hi * rest``
and at least ``sum(p v) + lo * rest``, where ``rest`` is the probability mass
still unseen. Each outcome is searched with the window that would make the
chance node fail low or high,

    A_i = (alpha - sum_{j<i} p_j v_j - hi * rest_i) / p_i
    B_i = (beta  - sum_{j<i} p_j v_j - lo * rest_i) / p_i

(clipped to ``[lo, hi]``), and the node stops as soon as an outcome returns at
most ``A_i`` (its value is then an upper bound) or at least ``B_i`` (a lower
bound). MAX and MIN nodes prune as in alpha-beta (AIMA Figure 5.7). The search is
fail-soft, and the root value always equals full expectiminimax. Outcomes of
probability 0 never affect the value and are never searched.

The running sums and the windows are exact and grow with every division by a
probability on the way down; past ``Limits.max_exact_digits`` the search stops with
a pointer to the chance node (its sum) or the outcome's ``p`` (its window).

On request the search records alpha-beta's trace events: ``enter`` carries the window an
outcome is searched with (``A_i`` and ``B_i`` clipped to ``[lo, hi]``), ``update`` at a
chance node the running ``sum(p v)``, and a chance node's ``cutoff`` its bound
(``upper``: the unseen outcomes cannot lift it above alpha; ``lower``: nor lower it
below beta).

``max_value``, ``min_value`` and ``chance_value`` are generators run by
:func:`analysis.trees.recursion.run`, so a tree may be deeper than Python's stack. Where
the set-up compiled it and the tree's numbers fit 64-bit integers on one common scale,
:func:`analysis.trees._star1.scaled_star1` makes the same search in integers (same values,
bounds, cutoffs and pruned nodes; :mod:`games.compiled` says which runs); the tests hold it
to this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from operator import is_not
from typing import Any, Final, cast

from analysis.trees.alpha_beta import AlphaBetaResult, AlphaBetaSearch, Cutoff, search_result
from analysis.trees.expectimax import (
    CHANCE_KERNELS,
    EXPECTIMAX_HINT,
    EXPECTIMAX_KINDS,
    WORD_BITS,
    common_scale,
)
from analysis.trees.horizon import Horizon, horizon, numeric, static_nodes, static_pointer
from analysis.trees.minimax import (
    EXACT,
    LOWER,
    NEG_INF,
    POS_INF,
    UPPER,
    Bound,
    listed,
    refuse_large_trace,
)
from analysis.trees.recursion import Call, run
from games.errors import InvalidInputError
from games.limits import Deadline, active_limits, check_exact_size, current_deadline
from games.numbers import Exact, normalize
from games.trees.model import CHANCE, MAX, Tree

BOUND_NAMES: Final = (EXACT, LOWER, UPPER)
"""The bounds in the order of the compiled search's codes (a node's code is 1 + its index,
0 where the search gave it no value, plus :data:`STATIC_VALUE`)."""
STATIC_VALUE: Final = 4
"""The bit of a compiled code set where the node's value is its static value."""


def star1(
    tree: Tree,
    bounds: tuple[Exact, Exact],
    *,
    depth: int | None = None,
    prune_on_equality: bool = True,
    deadline: Deadline | None = None,
    trace: bool = False,
    max_trace_nodes: int | None = None,
    compiled: bool = True,
) -> AlphaBetaResult:
    """Expectiminimax with pruning at MAX, MIN and chance nodes.

    ``compiled=False`` runs the textbook search even where the kernel is built (the tests
    compare the two); a trace is always the textbook search's.

    Raises
    ------
    InvalidInputError
        If ``lo > hi``, or a leaf (or frontier eval) lies outside the bounds.
    LimitExceededError
        If ``trace`` is asked for a tree larger than ``max_trace_nodes``.
    """
    refuse_large_trace(tree, trace, max_trace_nodes)
    tree.require(kinds=EXPECTIMAX_KINDS, tuples=False, endpoint=EXPECTIMAX_HINT)
    low, high = bounds
    if low > high:
        raise InvalidInputError(
            f"bounds must be [lo, hi] with lo <= hi, got [{low}, {high}]", parameter="bounds"
        )
    seen = horizon(tree, depth)
    clock = deadline if deadline is not None else current_deadline()
    _check_bounds(tree, seen, low, high, clock)
    clock.check()
    if compiled and not trace:
        found = _compiled(tree, seen, low, high, prune_on_equality, clock)
        if found is not None:
            return found
    search = _Star1(tree, seen, low, high, prune_on_equality, clock, trace)
    run(search.value(0, NEG_INF, POS_INF), clock.spend)
    return search.result()


def _check_bounds(tree: Tree, seen: Horizon, low: Exact, high: Exact, clock: Deadline) -> None:
    static = numeric(seen.static)
    # every static value within the bounds: the smallest and the largest are (whole-list
    # operations; internal nodes hold None); else find the first outside, node by node
    present = cast(list[Exact], list(filter(partial(is_not, None), static[: seen.covered])))
    clock.spend(len(present) // 8 + 1)
    if not present or (low <= min(present) and max(present) <= high):
        return
    spend = clock.spend
    for index in static_nodes(seen):
        spend(1)
        value = static[index]
        assert value is not None
        if value < low or value > high:
            raise InvalidInputError(
                f"node {tree.ids[index]!r} has value {value}, outside the stated bounds "
                f"[{low}, {high}]",
                static_pointer(tree, index),
            )


class _Star1(AlphaBetaSearch):
    """One Star1 search: alpha-beta's MAX and MIN nodes, and chance nodes that stop as soon
    as their window proves their value irrelevant."""

    def __init__(
        self,
        tree: Tree,
        seen: Horizon,
        low: Exact,
        high: Exact,
        prune_on_equality: bool,
        deadline: Deadline,
        tracing: bool,
    ) -> None:
        super().__init__(tree, seen, seen.children, prune_on_equality, tracing)
        self.probabilities = tree.probabilities
        self.low = low
        self.high = high
        self.spend = deadline.spend
        self.bits = active_limits().max_exact_bits
        self.pruned: list[int] = []

    def value(self, node: int, alpha: Any, beta: Any) -> Call:
        """``node``'s value within the window: the side to move's, or the expectation."""
        kind = self.kinds[node]
        if kind == CHANCE:
            return self.chance_value(node, alpha, beta)
        if kind == MAX:
            return self.max_value(node, alpha, beta)
        return self.min_value(node, alpha, beta)

    def chance_value(self, node: int, alpha: Any, beta: Any) -> Call:
        kids = self.children[node]
        if not kids:
            return self.utility(node, alpha, beta)
        self.enter(node, alpha, beta)
        low, high, strict = self.low, self.high, not self.prune_on_equality
        v: Any = 0  # the sum of p * v over the outcomes searched
        rest: Any = 1  # the probability not yet searched
        for slot, child in enumerate(kids):
            chance = self.probabilities[child]
            assert chance is not None
            if chance == 0:
                self.pruned.append(child)  # cannot change the expectation
                continue
            rest = rest - chance
            fail_low = _divide(alpha - v - high * rest, chance)  # A_i
            fail_high = _divide(beta - v - low * rest, chance)  # B_i
            size = max(_bits(fail_low), _bits(fail_high))
            if size > self.bits:
                self.refuse_window(fail_low, fail_high, child)
            self.spend(1 + size // 128)
            # Outcomes all lie in [lo, hi]: when even hi (lo) cannot lift the sum above alpha
            # (below beta), the node is cut before this outcome. Searched in the empty window
            # instead, a bound of the outcome could pass for the opposite bound of its parent.
            if fail_low > high or (fail_low == high and not strict):
                rest = rest + chance
                after = kids[slot - 1] if slot else node
                return self.cut(node, alpha, beta, v + high * rest, after, kids[slot:], UPPER)
            if fail_high < low or (fail_high == low and not strict):
                rest = rest + chance
                after = kids[slot - 1] if slot else node
                return self.cut(node, alpha, beta, v + low * rest, after, kids[slot:], LOWER)
            value, bound = yield self.value(child, max(fail_low, low), min(fail_high, high))
            # a bound at the edge of [lo, hi] is the value itself
            if (bound == LOWER and value >= high) or (bound == UPPER and value <= low):
                bound = EXACT
            v = v + chance * value
            size = _bits(v)
            if size > self.bits:
                self.refuse(v, node)
            self.spend(1 + size // 256)
            self.log("update", node, alpha, beta, _exact(v), child=child)
            if rest == 0 and bound == EXACT:
                continue  # the last outcome, exact: the expectation is the value
            if bound == UPPER or value < fail_low or (value == fail_low and not strict):
                return self.cut(node, alpha, beta, v + high * rest, child, kids[slot + 1 :], UPPER)
            if bound == LOWER or value > fail_high or (value == fail_high and not strict):
                return self.cut(node, alpha, beta, v + low * rest, child, kids[slot + 1 :], LOWER)
        weights = [self.probabilities[kid] for kid in kids]
        likeliest = kids[weights.index(max(weights))]  # type: ignore[type-var]
        return self.returned(node, alpha, beta, _exact(v), likeliest, EXACT)

    def utility(self, node: int, alpha: Any, beta: Any) -> tuple[Exact, str]:
        """A static node's value: a leaf's utility or, at the depth cutoff, its eval."""
        score = self.static[node]
        assert score is not None and not isinstance(score, tuple)
        self.values[node], self.bounds[node] = score, EXACT
        self.evaluated.append(node)
        self.log("evaluate", node, _bound(alpha), _bound(beta), score)
        return score, EXACT

    def enter(self, node: int, alpha: Any, beta: Any) -> None:
        self.entered += 1
        self.log("enter", node, _bound(alpha), _bound(beta), None)

    def cut(
        self,
        node: int,
        alpha: Any,
        beta: Any,
        v: Any,
        after: int,
        rest: Sequence[int],
        bound: str,
        best: int = -1,
    ) -> tuple[Bound, str]:
        """``node`` stops with the bound ``v``: the children ``rest`` are pruned (none, when
        it stopped at its last child)."""
        value = _exact(v)
        if rest:
            cut = tuple(rest)
            # (window ends exact and integral as int, as the integer search gives them)
            self.cutoffs.append(Cutoff(node, _bound(alpha), _bound(beta), value, after, cut))
            self.pruned.extend(cut)
            self.log("cutoff", node, alpha, beta, value, child=after, bound=bound, cut=cut)
        return self.returned(node, alpha, beta, value, best, bound)

    def refuse(self, value: Exact, node: int) -> None:
        """The running sum of chance node ``node`` is too large: stop, pointing at it."""
        check_exact_size(
            value,
            self.tree.pointer(node),
            f"partial expected value of chance node {self.tree.ids[node]!r}",
        )

    def refuse_window(self, fail_low: Any, fail_high: Any, child: int) -> None:
        """The window of outcome ``child`` is too large: stop, pointing at its ``p``."""
        for value in (fail_low, fail_high):
            check_exact_size(
                value,
                self.tree.field_pointer(child, "p"),
                f"Star1 window of outcome {self.tree.ids[child]!r}",
            )


def _compiled(
    tree: Tree,
    seen: Horizon,
    low: Exact,
    high: Exact,
    prune_on_equality: bool,
    clock: Deadline,
) -> AlphaBetaResult | None:
    """Star1 by the compiled search on the tree's common scale (the same result as the
    search in fractions), or None where it is not built or does not apply: no chance node,
    a fractional leaf or a bound off the scale, numbers past 64 bits, or a digit limit so
    low that the fraction search could refuse a number the integer search would keep."""
    children = seen.children
    if CHANCE_KERNELS is None or not children[0]:
        return None
    if active_limits().max_exact_bits < 2 * 64 + 2:
        return None
    scale = common_scale(tree, seen)
    if scale is None:
        return None
    common, factor = scale.common, scale.scale
    scaled_low, scaled_high = Fraction(low * factor), Fraction(high * factor)
    if scaled_low.denominator != 1 or scaled_high.denominator != 1:
        return None
    lowest, highest = scaled_low.numerator, scaled_high.numerator
    # (bounds on the scale of Q: then a chance node's bound, sum(w v) + hi * rest, is a
    # whole multiple of Q, as its value is)
    if lowest % common or highest % common:
        return None
    largest = max(abs(lowest), abs(highest), scale.largest * factor)
    if (largest * common).bit_length() > WORD_BITS:
        return None
    static = listed(seen.static)
    found = CHANCE_KERNELS.scaled_star1(
        listed(children),
        listed(tree.kinds),
        listed(tree.probabilities),
        scale.shares,
        static,
        lowest,
        highest,
        common,
        factor,
        not prune_on_equality,
        tree.max_depth(),
        clock.spend,
        CHANCE,
        MAX,
    )
    if found is None:
        return None
    numbers, codes, best_child, evaluated, rows, pruned, visited = found
    clock.spend(len(codes) // 16)
    made: dict[Any, Exact | float] = {}

    def number(key: Any) -> Any:
        """The number a key on the scale stands for (made once per distinct key): ``key /
        factor`` for an int, ``num / (den * factor)`` for a pair, an infinity as itself."""
        found = made.get(key)
        if found is None:
            if type(key) is float:
                found = key
            elif type(key) is tuple:
                found = normalize(Fraction(key[0], key[1] * factor))
            else:
                found = normalize(Fraction(key, factor))
            made[key] = found
        return found

    values: list[Exact | None] = [
        None if not code else cast(Exact, static[i]) if code & STATIC_VALUE else number(numbers[i])
        for i, code in enumerate(codes)
    ]
    bounds: list[str | None] = [BOUND_NAMES[(code & 3) - 1] if code else None for code in codes]
    cutoffs = [
        Cutoff(node, number(alpha), number(beta), number(value), after, tuple(cut))
        for node, alpha, beta, value, after, cut in rows
    ]
    return search_result(
        tree,
        seen,
        values,
        bounds,
        best_child.tolist(),
        evaluated,
        cutoffs,
        None,
        prune_on_equality,
        visited,
        pruned,
    )


def _bits(value: Any) -> int:
    """Binary digits of the larger of numerator and denominator; 0 for +/- infinity."""
    if type(value) is int:
        return value.bit_length()
    if type(value) is float:
        return 0
    fraction = cast(Fraction, value)
    return max(fraction.numerator.bit_length(), fraction.denominator.bit_length())


def _divide(numerator: Any, chance: Exact) -> Any:
    """``numerator / chance`` exactly, +/- infinity staying infinite: with a probability of
    1 (an int) Python's ``/`` of two ints would give a float, and the window would round."""
    if type(numerator) is float:
        return numerator / chance
    return Fraction(numerator) / chance


def _bound(value: Any) -> Any:
    """A window's end as the trace shows it: +/- infinity, or exact (integral as int)."""
    return value if isinstance(value, float) else _exact(value)


def _exact(value: Any) -> Exact:
    """Sums of p * v are Fractions; integral ones become ints."""
    return value if isinstance(value, int) else normalize(value)
