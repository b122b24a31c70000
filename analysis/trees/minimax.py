"""Minimax: the exact value of every node of a two-player zero-sum tree.

The search is AIMA's MINIMAX-SEARCH (Figure 5.3): ``max_value`` and ``min_value`` call each
other down the tree, children left to right, and a node at a terminal test (a leaf, or a
node at the depth cutoff, valued by its ``eval``: H-minimax, AIMA 5.4) returns its
utility. Each node keeps its value and its leftmost optimal child, and on request the
search records each step (:class:`TraceEvent`, the step every search of this package
records). The functions are generators run by :func:`analysis.trees.recursion.run`, so a
tree may be deeper than Python's stack.

Where the set-up compiled it, :func:`analysis.trees._kernels.minimax` gives the same
values and children faster, without the trace (:mod:`games.compiled` says which runs); the
tests hold it to this search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar, cast

from analysis.trees.horizon import Horizon, horizon
from analysis.trees.recursion import Call, run
from analysis.trees.search_stats import SearchStats
from games.compiled import kernel
from games.errors import LimitExceededError
from games.limits import Deadline, current_deadline
from games.numbers import Exact
from games.trees.model import DECISION_KINDS, MAX, TWO_PLAYER_HINT, Tree

T = TypeVar("T")

KERNELS: Final = kernel("analysis.trees._kernels")
"""The compiled searches (:mod:`analysis.trees._kernels`), or None: the Python ones run."""

EXACT: Final = "exact"
LOWER: Final = "lower"
UPPER: Final = "upper"

NEG_INF: Final = float("-inf")
POS_INF: Final = float("inf")

Bound = Exact | float
"""An alpha or beta: an exact number or +/- infinity."""


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One step of a search, as a student writes it down (minimax, alpha-beta, expectimax).

    ``event`` is ``enter`` (a node is entered, with its window where the search keeps one),
    ``evaluate`` (a static value is read), ``update`` (a child's value is folded into ``v``
    and the window), ``cutoff`` (remaining children are skipped) or ``return`` (the node's
    value goes back to its parent). A search without a window records ``(-inf, +inf)``.
    """

    event: str
    node: int
    alpha: Bound
    beta: Bound
    value: Exact | None
    child: int = -1
    bound: str = EXACT
    cut: tuple[int, ...] = ()


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


@dataclass(frozen=True, slots=True)
class MinimaxResult:
    """Minimax values of a tree.

    Attributes
    ----------
    value
        Value of the root.
    values
        Value per node index; ``None`` for nodes beyond the depth cutoff.
    best_child
        Per node, the leftmost optimal child, ``-1`` where the search stops.
    best_moves
        Every optimal child of the root, left to right (ties included).
    principal_variation
        Node indices from the root's best child down to where the search stops.
    """

    tree: Tree
    value: Exact
    values: Sequence[Exact | None]
    best_child: Sequence[int]
    best_moves: list[int]
    principal_variation: list[int]
    depth: int | None
    stats: SearchStats
    trace: list[TraceEvent] | None = None


def minimax(
    tree: Tree,
    *,
    depth: int | None = None,
    deadline: Deadline | None = None,
    trace: bool = False,
    max_trace_nodes: int | None = None,
    compiled: bool = True,
) -> MinimaxResult:
    """Every node's minimax value (leaf values, or evals at the depth cutoff, backed up).

    ``compiled=False`` runs the textbook search even where the kernel is built (the tests
    compare the two); a trace is always the textbook search's. Spends on ``deadline``, by
    default the one of the computation in progress.

    :raises InvalidInputError: the tree has chance nodes or utility lists, or a node at
        the depth cutoff has no eval.
    :raises LimitExceededError: ``trace`` is asked for a tree larger than
        ``max_trace_nodes``.
    :raises TimeLimitError: the deadline passes.
    """
    refuse_large_trace(tree, trace, max_trace_nodes)
    tree.require(kinds=DECISION_KINDS, tuples=False, endpoint=TWO_PLAYER_HINT)
    clock = deadline if deadline is not None else current_deadline()
    seen = horizon(tree, depth)
    values: list[Exact | None] = [None] * len(tree)
    best_child = [-1] * len(tree)
    events: list[TraceEvent] | None = None
    if compiled and not trace and KERNELS is not None:
        KERNELS.minimax(
            listed(seen.children),
            listed(seen.static),
            listed(tree.kinds),
            MAX,
            seen.covered,
            values,
            best_child,
            clock.spend,
        )
    else:
        search = MinimaxSearch(tree, seen, values, best_child, trace)
        run(search.value(0), clock.spend)
        events = search.trace
    root_value = values[0]
    assert root_value is not None
    best_moves = [kid for kid in seen.children[0] if values[kid] == root_value]
    evaluated = seen.static_count
    stats = SearchStats(
        nodes=len(tree), leaves=evaluated, visited=seen.covered, evaluated=evaluated, cutoffs=0
    )
    line = principal_variation(best_child)
    return MinimaxResult(
        tree, root_value, values, best_child, best_moves, line, depth, stats, events
    )


def listed(column: Sequence[T]) -> list[T]:
    """``column`` as a list, as the kernels take their columns (most are lists already)."""
    return column if type(column) is list else list(column)


def principal_variation(best_child: Sequence[int]) -> list[int]:
    """The nodes from the root's best child down, following each node's best child."""
    line: list[int] = []
    step = best_child[0]
    while step != -1:
        line.append(step)
        step = best_child[step]
    return line


class MinimaxSearch:
    """One minimax search (AIMA Figure 5.3), filling ``values`` and ``best_child`` as it
    returns and, when ``tracing``, recording each step. Expectimax extends it with chance
    nodes."""

    def __init__(
        self,
        tree: Tree,
        seen: Horizon,
        values: list[Exact | None],
        best_child: list[int],
        tracing: bool = False,
    ) -> None:
        self.kinds = tree.kinds
        self.children = seen.children
        self.static = seen.static
        self.values = values
        self.best_child = best_child
        self.trace: list[TraceEvent] | None = [] if tracing else None

    def value(self, node: int) -> Call:
        """The minimax value of ``node``, for the player who moves there."""
        return self.max_value(node) if self.kinds[node] == MAX else self.min_value(node)

    def max_value(self, node: int) -> Call:
        if not self.children[node]:  # the terminal test
            return self.utility(node)
        self.log("enter", node, None)
        v: Exact | None = None
        best = -1
        for child in self.children[node]:
            value = yield self.value(child)
            if v is None or value > v:
                v, best = value, child
            self.log("update", node, v, child)
        return self.returned(node, v, best)

    def min_value(self, node: int) -> Call:
        if not self.children[node]:
            return self.utility(node)
        self.log("enter", node, None)
        v: Exact | None = None
        best = -1
        for child in self.children[node]:
            value = yield self.value(child)
            if v is None or value < v:
                v, best = value, child
            self.log("update", node, v, child)
        return self.returned(node, v, best)

    def utility(self, node: int) -> Exact:
        """A static node's value: a leaf's utility or, at the depth cutoff, its eval."""
        value = cast(Exact, self.static[node])
        self.values[node] = value
        self.log("evaluate", node, value)
        return value

    def returned(self, node: int, value: Exact | None, best: int) -> Exact | None:
        self.values[node] = value
        self.best_child[node] = best
        self.log("return", node, value)
        return value

    def log(self, event: str, node: int, value: Exact | None, child: int = -1) -> None:
        if self.trace is not None:
            self.trace.append(TraceEvent(event, node, NEG_INF, POS_INF, value, child))
