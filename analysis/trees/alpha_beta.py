"""Alpha-beta pruning over an explicit tree, with everything a student writes down.

The search is AIMA's ALPHA-BETA-SEARCH (Figure 5.7): ``max_value`` and ``min_value`` call
each other down the tree with the window ``(alpha, beta)``, children left to right, and a
node stops as soon as its value ``v`` makes the rest of its children irrelevant.
``prune_on_equality=True`` cuts when ``v >= beta`` at MAX and ``v <= alpha`` at MIN (AIMA,
most lecture slides); ``False`` cuts only on strict inequality (the Berkeley CS188
autograder).

The search is fail-soft: a node that stops early returns the value it had, which is a
bound on its true value. Each node's result carries whether it is exact, a lower bound
(MAX stopped at ``v >= beta``) or an upper bound (MIN stopped at ``v <= alpha``, or every
child it saw was itself an upper bound). A node's best child is the leftmost whose *exact*
value achieves its value, so a later child returning a bound equal to it never replaces
it. On request the search records each step (:class:`TraceEvent`) as it goes.

The functions are generators run by :func:`analysis.trees.recursion.run`, so a tree may be
deeper than Python's stack. Where the set-up compiled it,
:func:`analysis.trees._kernels.alpha_beta` makes the same search, step for step, without
the trace (:mod:`games.compiled` says which runs); the tests hold it to this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import NamedTuple

from analysis.trees.horizon import Horizon, horizon
from analysis.trees.minimax import (
    EXACT,
    KERNELS,
    LOWER,
    NEG_INF,
    POS_INF,
    UPPER,
    Bound,
    TraceEvent,
    listed,
    principal_variation,
    refuse_large_trace,
)
from analysis.trees.recursion import Call, run
from analysis.trees.search_stats import SearchStats
from games.limits import Deadline, current_deadline
from games.numbers import Exact
from games.trees.model import (
    CHANCE,
    DECISION_KINDS,
    MAX,
    TWO_PLAYER_HINT,
    Tree,
    leaves_below_all,
)


class Cutoff(NamedTuple):
    """A node that stopped early.

    Attributes
    ----------
    node
        Index of the node that stopped.
    alpha, beta
        The window at the moment of the cut.
    value
        The node's ``v`` at the cut.
    after
        Index of the child whose value caused the cut; the node itself when its window
        alone proved it (Star1: a chance node that cannot leave the window whatever
        its outcomes are worth).
    cut
        Indices of the children never searched, left to right.
    """

    node: int
    alpha: Bound
    beta: Bound
    value: Exact
    after: int
    cut: tuple[int, ...]


@dataclass(frozen=True)
class AlphaBetaResult:
    """What an alpha-beta search found and touched.

    Attributes
    ----------
    values, bounds
        Per node index: the value the node returned and whether it is
        ``exact``, a ``lower`` or an ``upper`` bound; ``None`` if never visited.
    best_child
        Per node, the child that set its value (the leftmost exact one where
        possible), ``-1`` where the search stopped.
    pruned
        Roots of the subtrees never searched, left to right.
    pruned_leaves
        (computed when first read) Static nodes (leaves, or frontier nodes
        under a depth cutoff) never evaluated, left to right.
    evaluated_leaves
        Static nodes in the order they were evaluated.
    """

    tree: Tree
    value: Exact
    best_move: int
    principal_variation: list[int]
    values: Sequence[Exact | None]
    bounds: Sequence[str | None]
    best_child: Sequence[int]
    pruned: Sequence[int]
    evaluated_leaves: Sequence[int]
    cutoffs: Sequence[Cutoff]
    trace: list[TraceEvent] | None
    prune_on_equality: bool
    depth: int | None
    stats: SearchStats
    search_children: Sequence[Sequence[int]] = field(repr=False, default=())
    compiled: bool = field(repr=False, default=False)
    """Whether the kernel searched (and so lists the pruned leaves too)."""

    @cached_property
    def pruned_leaves(self) -> list[int]:
        # Listing them touches every pruned leaf (often most of the tree), so it is done on
        # demand rather than as part of the search (an answer asks; a count of evaluations
        # does not).
        if self.compiled and KERNELS is not None:
            found: list[int] = []
            walked = KERNELS.static_below(self.search_children, self.pruned, found)
            current_deadline().spend(walked)
            return found
        return leaves_below_all(self.tree, self.pruned, self.search_children)


def alpha_beta(
    tree: Tree,
    *,
    depth: int | None = None,
    prune_on_equality: bool = True,
    trace: bool = False,
    deadline: Deadline | None = None,
    max_trace_nodes: int | None = None,
    compiled: bool = True,
) -> AlphaBetaResult:
    """Search ``tree`` with alpha-beta pruning; see the module docstring.

    ``compiled=False`` runs the textbook search even where the kernel is built (the tests
    compare the two); a trace is always the textbook search's.

    Raises
    ------
    InvalidInputError
        If a node at the depth cutoff has no eval.
    LimitExceededError
        If ``trace`` is asked for a tree larger than ``max_trace_nodes``.
    TimeLimitError
        If ``deadline`` (by default the one of the computation in progress) passes.
    """
    refuse_large_trace(tree, trace, max_trace_nodes)
    tree.require(kinds=DECISION_KINDS, tuples=False, endpoint=TWO_PLAYER_HINT)
    seen = horizon(tree, depth)
    clock = deadline if deadline is not None else current_deadline()
    clock.check()
    return _search(tree, seen, seen.children, prune_on_equality, trace, clock, compiled)


def count_evaluations(
    tree: Tree, seen: Horizon, children: Sequence[Sequence[int]], prune_on_equality: bool
) -> int:
    """Static evaluations alpha-beta makes when children are taken in the order given."""
    search = _search(tree, seen, children, prune_on_equality, False, current_deadline(), True)
    return len(search.evaluated_leaves)


def _search(
    tree: Tree,
    seen: Horizon,
    children: Sequence[Sequence[int]],
    prune_on_equality: bool,
    tracing: bool,
    clock: Deadline,
    compiled: bool,
) -> AlphaBetaResult:
    if compiled and KERNELS is not None and not tracing:
        count = len(tree)
        values: list[Exact | None] = [None] * count
        bounds: list[str | None] = [None] * count
        best_child = [-1] * count
        evaluated: list[int] = []
        rows: list[tuple[int, Bound, Bound, Exact, int, tuple[int, ...]]] = []
        entered = KERNELS.alpha_beta(
            children,
            listed(seen.static),
            listed(tree.kinds),
            MAX,
            not prune_on_equality,
            (EXACT, LOWER, UPPER),
            values,
            bounds,
            best_child,
            evaluated,
            rows,
            clock.spend,
        )
        # (tuple.__new__ makes each record in C; Cutoff._make is Python code, a third of the
        # search's time on a tree of a thousand cuts)
        cutoffs = list(map(partial(tuple.__new__, Cutoff), rows))
        return search_result(
            tree,
            seen,
            values,
            bounds,
            best_child,
            evaluated,
            cutoffs,
            None,
            prune_on_equality,
            entered + len(evaluated),
            compiled=True,
        )
    search = AlphaBetaSearch(tree, seen, children, prune_on_equality, tracing)
    run(search.value(0, NEG_INF, POS_INF), clock.spend)
    return search.result()


class AlphaBetaSearch:
    """One alpha-beta search (AIMA Figure 5.7), recording what it finds as it returns.

    Star1 (:mod:`analysis.trees.star1`) extends it with chance nodes.
    """

    def __init__(
        self,
        tree: Tree,
        seen: Horizon,
        children: Sequence[Sequence[int]],
        prune_on_equality: bool,
        tracing: bool,
    ) -> None:
        self.tree = tree
        self.seen = seen
        self.kinds = tree.kinds
        self.children = children
        self.static = seen.static
        self.prune_on_equality = prune_on_equality
        count = len(tree)
        self.values: list[Exact | None] = [None] * count
        self.bounds: list[str | None] = [None] * count
        self.best_child = [-1] * count
        self.evaluated: list[int] = []
        self.cutoffs: list[Cutoff] = []
        self.pruned: list[int] | None = None
        """Roots of the subtrees never searched, for a search that lists them as it goes
        (Star1 also skips outcomes of probability 0); None: the cuts' children."""
        self.trace: list[TraceEvent] | None = [] if tracing else None
        self.entered = 0

    def value(self, node: int, alpha: Bound, beta: Bound) -> Call:
        """``node``'s value within the window, for the player who moves there."""
        if self.kinds[node] == MAX:
            return self.max_value(node, alpha, beta)
        return self.min_value(node, alpha, beta)

    def max_value(self, node: int, alpha: Bound, beta: Bound) -> Call:
        kids = self.children[node]
        if not kids:  # the terminal test
            return self.utility(node, alpha, beta)
        self.enter(node, alpha, beta)
        v: Bound = NEG_INF
        best, best_bound = -1, EXACT
        for slot, child in enumerate(kids, 1):
            value, bound = yield self.value(child, alpha, beta)
            if value > v or (value == v and bound is EXACT and best_bound is not EXACT):
                v, best, best_bound = value, child, bound
            if v > beta or (v == beta and self.prune_on_equality):
                if slot < len(kids):
                    self.log("update", node, alpha, beta, v, child=child)
                    return self.cut(node, alpha, beta, v, child, kids[slot:], LOWER, best)
            elif v > alpha:
                alpha = v
            self.log("update", node, alpha, beta, v, child=child)
        return self.returned(node, alpha, beta, v, best, best_bound)

    def min_value(self, node: int, alpha: Bound, beta: Bound) -> Call:
        kids = self.children[node]
        if not kids:
            return self.utility(node, alpha, beta)
        self.enter(node, alpha, beta)
        v: Bound = POS_INF
        best, best_bound = -1, EXACT
        for slot, child in enumerate(kids, 1):
            value, bound = yield self.value(child, alpha, beta)
            if value < v or (value == v and bound is EXACT and best_bound is not EXACT):
                v, best, best_bound = value, child, bound
            if v < alpha or (v == alpha and self.prune_on_equality):
                if slot < len(kids):
                    self.log("update", node, alpha, beta, v, child=child)
                    return self.cut(node, alpha, beta, v, child, kids[slot:], UPPER, best)
            elif v < beta:
                beta = v
            self.log("update", node, alpha, beta, v, child=child)
        return self.returned(node, alpha, beta, v, best, best_bound)

    def utility(self, node: int, alpha: Bound, beta: Bound) -> tuple[Exact, str]:
        """A static node's value: a leaf's utility or, at the depth cutoff, its eval."""
        score = self.static[node]
        assert score is not None and not isinstance(score, tuple)
        self.values[node] = score
        self.bounds[node] = EXACT
        self.evaluated.append(node)
        self.log("evaluate", node, alpha, beta, score)
        return score, EXACT

    def enter(self, node: int, alpha: Bound, beta: Bound) -> None:
        self.entered += 1
        self.log("enter", node, alpha, beta, None)

    def cut(
        self,
        node: int,
        alpha: Bound,
        beta: Bound,
        v: Bound,
        after: int,
        rest: Sequence[int],
        bound: str,
        best: int,
    ) -> tuple[Bound, str]:
        """``node`` stops after child ``after``: the children ``rest`` are pruned."""
        skipped = tuple(rest)
        self.cutoffs.append(Cutoff(node, alpha, beta, v, after, skipped))  # type: ignore[arg-type]
        self.log("cutoff", node, alpha, beta, v, child=after, cut=skipped)
        return self.returned(node, alpha, beta, v, best, bound)

    def returned(
        self, node: int, alpha: Bound, beta: Bound, v: Bound, best: int, bound: str
    ) -> tuple[Bound, str]:
        self.values[node] = v  # type: ignore[assignment]
        self.bounds[node] = bound
        self.best_child[node] = best
        self.log("return", node, alpha, beta, v, bound=bound)
        return v, bound

    def log(
        self,
        event: str,
        node: int,
        alpha: Bound,
        beta: Bound,
        value: Bound | None,
        *,
        child: int = -1,
        bound: str = EXACT,
        cut: tuple[int, ...] = (),
    ) -> None:
        if self.trace is not None:
            self.trace.append(TraceEvent(event, node, alpha, beta, value, child, bound, cut))  # type: ignore[arg-type]

    def result(self) -> AlphaBetaResult:
        return search_result(
            self.tree,
            self.seen,
            self.values,
            self.bounds,
            self.best_child,
            self.evaluated,
            self.cutoffs,
            self.trace,
            self.prune_on_equality,
            self.entered + len(self.evaluated),
            self.pruned,
        )


def search_result(
    tree: Tree,
    seen: Horizon,
    values: Sequence[Exact | None],
    bounds: Sequence[str | None],
    best_child: Sequence[int],
    evaluated: Sequence[int],
    cutoffs: Sequence[Cutoff],
    events: list[TraceEvent] | None,
    prune_on_equality: bool,
    visited: int,
    pruned: Sequence[int] | None = None,
    *,
    compiled: bool = False,
) -> AlphaBetaResult:
    """The result of an alpha-beta or Star1 search from what it found: its principal
    variation and counts are worked out here, and ``pruned``, when not given, from the
    cutoffs."""
    # The search runs left to right and each cut skips the rest of one node's
    # children, so cutoffs come in left-to-right order, and so do their subtrees.
    if pruned is None:
        pruned = [index for cutoff in cutoffs for index in cutoff.cut]
    root_value = values[0]
    assert root_value is not None
    stats = SearchStats(
        nodes=len(tree),
        leaves=seen.static_count,
        visited=visited,
        evaluated=len(evaluated),
        cutoffs=len(cutoffs),
    )
    return AlphaBetaResult(
        tree=tree,
        value=root_value,
        best_move=best_child[0] if tree.kinds[0] != CHANCE else -1,
        principal_variation=principal_variation(best_child),
        values=values,
        bounds=bounds,
        best_child=best_child,
        pruned=pruned,
        evaluated_leaves=evaluated,
        cutoffs=cutoffs,
        trace=events,
        prune_on_equality=prune_on_equality,
        depth=seen.depth,
        stats=stats,
        search_children=seen.children,
        compiled=compiled,
    )
