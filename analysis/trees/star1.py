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
bound). MAX and MIN nodes prune as in alpha-beta. The search is fail-soft and
iterative, and the root value always equals full expectiminimax. Outcomes of
probability 0 never affect the value and are never searched.

The running sums and the windows are exact and grow with every division by a
probability on the way down; past ``Limits.max_exact_digits`` the search stops with
a pointer to the chance node (its sum) or the outcome's ``p`` (its window).

On request the search records alpha-beta's trace events: ``enter`` carries the window an
outcome is searched with (``A_i`` and ``B_i`` clipped to ``[lo, hi]``), ``update`` at a
chance node the running ``sum(p v)``, and a chance node's ``cutoff`` its bound
(``upper``: the unseen outcomes cannot lift it above alpha; ``lower``: nor lower it
below beta).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import partial
from operator import is_not
from typing import Any, Final, cast

from analysis.trees.alpha_beta import (
    EXACT,
    LOWER,
    NEG_INF,
    POS_INF,
    UPPER,
    AlphaBetaResult,
    BoundColumn,
    Cutoff,
    CutoffRows,
    ScaledValues,
    TraceEvent,
    search_result,
    value_of_key,
)
from analysis.trees.expectimax import (
    EXPECTIMAX_HINT,
    EXPECTIMAX_KINDS,
    common_scale,
    refuse_large_trace,
)
from analysis.trees.horizon import Horizon, horizon, numeric, static_nodes, static_pointer
from analysis.trees.star1_integers import integer_star1
from games.errors import InvalidInputError
from games.limits import Deadline, active_limits, check_exact_size, current_deadline
from games.numbers import Exact, normalize
from games.trees.model import CHANCE, MAX, MIN, Tree

try:
    from analysis.trees._star1 import scaled_star1
except ImportError:  # not compiled (no C compiler at install): the fraction search runs
    scaled_star1 = None  # type: ignore[assignment]

COMPILED: Final = scaled_star1 is not None and os.environ.get("ARBITER_PURE_PYTHON") != "1"
"""Whether :func:`star1` may run the compiled integer loop (``ARBITER_PURE_PYTHON=1``
keeps it to the fraction search, which the tests also run)."""

WORD_BITS: Final = 62
"""Largest magnitude (in bits) of a scaled bound times ``Q`` the compiled loop starts
with; it gives up (and the fraction search runs) if a number grows past 64 bits."""


def star1(
    tree: Tree,
    bounds: tuple[Exact, Exact],
    *,
    depth: int | None = None,
    prune_on_equality: bool = True,
    deadline: Deadline | None = None,
    trace: bool = False,
    max_trace_nodes: int | None = None,
) -> AlphaBetaResult:
    """Expectiminimax with pruning at MAX, MIN and chance nodes.

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
    if not trace:
        search = _on_common_scale(tree, seen, low, high, prune_on_equality, clock, COMPILED)
        if search is not None:
            return search
    return _Search(tree, seen, low, high, prune_on_equality, clock, trace).run()


def _on_common_scale(
    tree: Tree,
    seen: Horizon,
    low: Exact,
    high: Exact,
    prune_on_equality: bool,
    clock: Deadline,
    compiled: bool,
) -> AlphaBetaResult | None:
    """Star1 in integers over the tree's common scale (the same result as the fraction
    search), by the compiled loop or its Python twin
    (:mod:`analysis.trees.star1_integers`); None where it does not apply: no chance node,
    a fractional leaf or a bound off the scale, numbers past 64 bits (compiled) or
    ``Limits.max_exact_digits`` (Python), or, compiled, a digit limit so low that the
    fraction search could refuse a number the loop would keep."""
    children = seen.children
    bits = active_limits().max_exact_bits
    if not children[0] or (compiled and bits < 2 * 64 + 2):
        return None
    if not isinstance(children, list):
        return None
    if not compiled and set(map(type, children)) != {range}:
        return None  # (the compiled loop checks each node's as it enters it)
    scale = common_scale(tree, seen)
    if scale is None:
        return None
    common, factor = scale.common, scale.scale
    scaled_low, scaled_high = low * factor, high * factor
    if not (type(scaled_low) is int and type(scaled_high) is int):
        scaled_low, scaled_high = Fraction(scaled_low), Fraction(scaled_high)
        if scaled_low.denominator != 1 or scaled_high.denominator != 1:
            return None
        scaled_low, scaled_high = scaled_low.numerator, scaled_high.numerator
    # (bounds on the scale of Q: then a chance node's bound, sum(w v) + hi * rest, is a
    # whole multiple of Q, as its value is)
    if scaled_low % common or scaled_high % common:
        return None
    largest = max(abs(scaled_low), abs(scaled_high), scale.largest * factor)
    if not compiled:
        found = integer_star1(
            children,
            tree.kinds,
            tree.probabilities,
            scale.shares,
            list(seen.static),
            scaled_low,
            scaled_high,
            common,
            factor,
            not prune_on_equality,
            bits,
            clock.spend,
        )
    elif (largest * common).bit_length() > WORD_BITS:
        return None
    else:
        assert scaled_star1 is not None
        found = scaled_star1(
            children,
            tree.kinds,
            tree.probabilities,
            scale.shares,
            scale.nodes,
            seen.static if type(seen.static) is list else list(seen.static),
            scaled_low,
            scaled_high,
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
    if not compiled:
        values, bounds, best_child, evaluated, cutoffs, pruned, visited = found
        return search_result(
            tree, seen, values, bounds, best_child, evaluated, cutoffs, None,
            prune_on_equality, visited, pruned,
        )  # fmt: skip
    numbers, codes, best_child, evaluated, rows, pruned, visited = found
    result = search_result(
        tree,
        seen,
        ScaledValues(numbers, codes, seen.static, factor),
        BoundColumn(codes),
        best_child,
        evaluated,
        CutoffRows(rows, factor),  # (plain tuples, with their numbers as keys on the scale)
        None,
        prune_on_equality,
        visited,
        pruned,
    )
    return Star1Result(
        **{name.name: getattr(result, name.name) for name in fields(AlphaBetaResult)},
        scaled=ScaledKeys(numbers, codes, rows, factor),
    )


@dataclass(frozen=True, slots=True)
class ScaledKeys:
    """The numbers of a search on a common scale as keys that hash in C (a writer's cache
    of what it wrote for each number would otherwise hash fractions, in Python): a key is
    the number times ``factor``, an int, or ``(num, den)`` for ``num / den`` times it, or an
    infinity as itself (see :func:`value_of_key`)."""

    numbers: Sequence[int]
    """Per node: its value's key, an int (where its code says it has a value)."""
    codes: bytes
    """Per node: its code byte (see :data:`BOUND_BITS`)."""
    cutoffs: list[tuple[Any, ...]]
    """Per cutoff: its :class:`Cutoff`'s fields with the keys of its alpha, beta and value,
    and its ``cut`` as a ``range`` (:attr:`CutoffRows.keys`)."""
    factor: int

    def value_of(self, key: Any) -> Exact | float:
        """The number of ``key``, exact (integral as int) or an infinity."""
        return value_of_key(key, self.factor)


@dataclass(frozen=True)
class Star1Result(AlphaBetaResult):
    """A Star1 result; from the search on a common scale, with its numbers as keys."""

    scaled: ScaledKeys | None = None


def _check_bounds(tree: Tree, seen: Horizon, low: Exact, high: Exact, clock: Deadline) -> None:
    static = numeric(seen.static)
    extremes = tree.leaf_range if static is tree.values else None
    if extremes is not None and low <= extremes[0] and extremes[1] <= high:
        return  # (the leaves' extremes, as the reader recorded them)
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


class _Search:
    """One iterative Star1 search; frames are lists, see ``run``."""

    def __init__(
        self,
        tree: Tree,
        seen: Horizon,
        low: Exact,
        high: Exact,
        prune_on_equality: bool,
        deadline: Deadline,
        tracing: bool = False,
    ):
        self.tree = tree
        self.seen = seen
        self.low = low
        self.high = high
        self.strict = not prune_on_equality
        self.deadline = deadline
        count = len(tree)
        self.values: list[Exact | None] = [None] * count
        self.bounds: list[str | None] = [None] * count
        self.best_child = [-1] * count
        self.evaluated: list[int] = []
        self.cutoffs: list[Cutoff] = []
        self.pruned: list[int] = []
        self.events: list[TraceEvent] | None = [] if tracing else None

    def frame(self, node: int, alpha: Any, beta: Any) -> list[Any]:
        # [node, alpha, beta, v (or sum of p*v), next slot, best, bound of best,
        #  unseen probability mass, A and B of the outcome being searched]
        kind = self.tree.kinds[node]
        start = NEG_INF if kind == MAX else POS_INF if kind == MIN else 0
        return [node, alpha, beta, start, 0, -1, EXACT, 1, None, None]

    def run(self) -> AlphaBetaResult:
        tree, seen = self.tree, self.seen
        children, static, kinds = seen.children, numeric(seen.static), tree.kinds
        probabilities = tree.probabilities
        low, high, strict = self.low, self.high, self.strict
        values, bounds, best_child = self.values, self.bounds, self.best_child
        spend = self.deadline.spend
        bits = active_limits().max_exact_bits
        visited = 1
        log = self.events.append if self.events is not None else None
        if not children[0]:
            values[0], bounds[0] = static[0], EXACT
            self.evaluated.append(0)
            if log:
                log(TraceEvent("evaluate", 0, NEG_INF, POS_INF, static[0]))
            return self.result(visited)
        if log:
            log(TraceEvent("enter", 0, NEG_INF, POS_INF, None))
        stack = [self.frame(0, NEG_INF, POS_INF)]
        returned: Any = None
        returned_bound = EXACT
        child = -1
        while stack:
            frame = stack[-1]
            node, alpha, beta, v, slot, best, best_bound, rest, fail_low, fail_high = frame
            kind = kinds[node]
            kids = children[node]
            stop = False
            result_bound = EXACT
            if returned is not None:
                # fold the value of the child just searched
                if kind == CHANCE:
                    # a bound at the edge of [lo, hi] is the value itself
                    if returned_bound == LOWER and returned >= high:
                        returned_bound = EXACT
                    elif returned_bound == UPPER and returned <= low:
                        returned_bound = EXACT
                    v = v + probabilities[child] * returned
                    size = _bits(v)
                    if size > bits:
                        self.refuse(v, node)
                    spend(1 + size // 256)
                    if log:
                        log(TraceEvent("update", node, alpha, beta, _exact(v), child=child))
                    exact_end = rest == 0 and returned_bound == EXACT
                    if returned_bound == UPPER or (
                        returned < fail_low if strict else returned <= fail_low
                    ):
                        if not exact_end:
                            stop, v, result_bound = True, v + high * rest, UPPER
                    elif returned_bound == LOWER or (
                        returned > fail_high if strict else returned >= fail_high
                    ):
                        if not exact_end:
                            stop, v, result_bound = True, v + low * rest, LOWER
                else:
                    better = returned > v if kind == MAX else returned < v
                    if better or (
                        returned == v and returned_bound == EXACT and best_bound != EXACT
                    ):
                        v, best, best_bound = returned, child, returned_bound
                    if kind == MAX:
                        if (v > beta) if strict else (v >= beta):
                            stop, result_bound = True, LOWER
                        elif v > alpha:
                            alpha = v
                    else:
                        if (v < alpha) if strict else (v <= alpha):
                            stop, result_bound = True, UPPER
                        elif v < beta:
                            beta = v
                    if log:
                        log(TraceEvent("update", node, alpha, beta, v, child=child))
                    if stop and slot >= len(kids):
                        stop = False  # every child was searched: nothing is cut
                returned = None
            descend = -1
            while not stop and slot < len(kids):
                child = kids[slot]
                slot += 1
                if kind == CHANCE:
                    chance = probabilities[child]
                    assert chance is not None
                    if chance == 0:
                        self.pruned.append(child)  # cannot change the expectation
                        continue
                    rest = rest - chance
                    fail_low = _divide(alpha - v - high * rest, chance)
                    fail_high = _divide(beta - v - low * rest, chance)
                    size = max(_bits(fail_low), _bits(fail_high))
                    if size > bits:
                        self.refuse_window(fail_low, fail_high, child)
                    spend(1 + size // 128)
                    # Outcomes all lie in [lo, hi]: when even hi (lo) cannot lift the sum
                    # above alpha (below beta), the node is cut before this outcome. Searched
                    # in the empty window instead, a bound of the outcome could pass for
                    # the opposite bound of its parent.
                    if (fail_low > high) if strict else (fail_low >= high):
                        stop, result_bound = True, UPPER
                    elif (fail_high < low) if strict else (fail_high <= low):
                        stop, result_bound = True, LOWER
                    if stop:
                        slot, rest = slot - 1, rest + chance
                        v = v + (high if result_bound == UPPER else low) * rest
                        child = kids[slot - 1] if slot else node
                        break
                    window = (max(fail_low, low), min(fail_high, high))
                else:
                    window = (alpha, beta)
                if children[child]:
                    descend = child
                    break
                score = static[child]
                values[child], bounds[child] = score, EXACT
                self.evaluated.append(child)
                if log:
                    log(TraceEvent("evaluate", child, _bound(window[0]), _bound(window[1]), score))
                visited += 1
                returned, returned_bound = score, EXACT
                break
            frame[1:10] = [alpha, beta, v, slot, best, best_bound, rest, fail_low, fail_high]
            spend(1)
            if descend != -1:
                visited += 1
                stack.append(self.frame(descend, *window))
                if log:
                    log(TraceEvent("enter", descend, _bound(window[0]), _bound(window[1]), None))
                continue
            if returned is not None:
                continue  # fold the static child just read
            # the node is done
            if stop:
                if slot < len(kids):
                    cut = tuple(kids[slot:])
                    # (window ends exact and integral as int, as the integer searches give)
                    self.cutoffs.append(
                        Cutoff(node, _bound(alpha), _bound(beta), _exact(v), child, cut)
                    )
                    self.pruned.extend(cut)
                    if log:
                        log(
                            TraceEvent(
                                "cutoff",
                                node,
                                alpha,
                                beta,
                                _exact(v),
                                child=child,
                                bound=result_bound,
                                cut=cut,
                            )
                        )
                bound = result_bound
            elif kind == CHANCE:
                bound = EXACT
                weights = [probabilities[kid] for kid in kids]
                best = kids[weights.index(max(weights))]  # type: ignore[type-var]
            else:
                bound = best_bound
            value = _exact(v)
            values[node], bounds[node], best_child[node] = value, bound, best
            if log:
                log(TraceEvent("return", node, alpha, beta, value, bound=bound))
            stack.pop()
            returned, returned_bound, child = value, bound, node
        return self.result(visited)

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

    def result(self, visited: int) -> AlphaBetaResult:
        return search_result(
            self.tree,
            self.seen,
            self.values,
            self.bounds,
            self.best_child,
            self.evaluated,
            self.cutoffs,
            self.events,
            not self.strict,
            visited,
            self.pruned,
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
