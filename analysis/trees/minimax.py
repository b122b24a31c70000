"""Minimax: the exact value of every node of a two-player zero-sum tree.

The search is AIMA's MINIMAX-SEARCH (Figure 5.3): ``max_value`` and ``min_value`` call each
other down the tree, children left to right, and a node at a terminal test (a leaf, or a
node at the depth cutoff, valued by its ``eval``: H-minimax, AIMA 5.4) returns its
utility. Each node keeps its value and its leftmost optimal child. The functions are
generators run by :func:`analysis.trees.recursion.run`, so a tree may be deeper than
Python's stack.

Where the set-up compiled it, :func:`analysis.trees._kernels.minimax` gives the same
values and children faster (:mod:`games.compiled` says which runs); the tests hold it to
this search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar, cast

from analysis.trees.horizon import Horizon, horizon
from analysis.trees.recursion import Call, run
from analysis.trees.search_stats import SearchStats
from games.compiled import kernel
from games.limits import Deadline, current_deadline
from games.numbers import Exact
from games.trees.model import DECISION_KINDS, MAX, TWO_PLAYER_HINT, Tree

T = TypeVar("T")

KERNELS: Final = kernel("analysis.trees._kernels")
"""The compiled searches (:mod:`analysis.trees._kernels`), or None: the Python ones run."""


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


def minimax(
    tree: Tree,
    *,
    depth: int | None = None,
    deadline: Deadline | None = None,
    compiled: bool = True,
) -> MinimaxResult:
    """Every node's minimax value (leaf values, or evals at the depth cutoff, backed up).

    ``compiled=False`` runs the textbook search even where the kernel is built (the tests
    compare the two). Spends on ``deadline``, by default the one of the computation in
    progress.

    :raises InvalidInputError: the tree has chance nodes or utility lists, or a node at
        the depth cutoff has no eval.
    :raises TimeLimitError: the deadline passes.
    """
    tree.require(kinds=DECISION_KINDS, tuples=False, endpoint=TWO_PLAYER_HINT)
    clock = deadline if deadline is not None else current_deadline()
    seen = horizon(tree, depth)
    values: list[Exact | None] = [None] * len(tree)
    best_child = [-1] * len(tree)
    if compiled and KERNELS is not None:
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
        search = _Minimax(tree, seen, values, best_child)
        run(search.value(0), clock.spend)
    root_value = values[0]
    assert root_value is not None
    best_moves = [kid for kid in seen.children[0] if values[kid] == root_value]
    evaluated = seen.static_count
    stats = SearchStats(
        nodes=len(tree), leaves=evaluated, visited=seen.covered, evaluated=evaluated, cutoffs=0
    )
    line = principal_variation(best_child)
    return MinimaxResult(tree, root_value, values, best_child, best_moves, line, depth, stats)


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


class _Minimax:
    """One minimax search, filling ``values`` and ``best_child`` as it returns."""

    def __init__(
        self,
        tree: Tree,
        seen: Horizon,
        values: list[Exact | None],
        best_child: list[int],
    ) -> None:
        self.kinds = tree.kinds
        self.children = seen.children
        self.static = seen.static
        self.values = values
        self.best_child = best_child

    def value(self, node: int) -> Call:
        """The minimax value of ``node``, for the player who moves there."""
        return self.max_value(node) if self.kinds[node] == MAX else self.min_value(node)

    def max_value(self, node: int) -> Call:
        if not self.children[node]:  # the terminal test
            return self.utility(node)
        v: Exact | None = None
        best = -1
        for child in self.children[node]:
            value = yield self.value(child)
            if v is None or value > v:
                v, best = value, child
        return self.backed_up(node, v, best)

    def min_value(self, node: int) -> Call:
        if not self.children[node]:
            return self.utility(node)
        v: Exact | None = None
        best = -1
        for child in self.children[node]:
            value = yield self.value(child)
            if v is None or value < v:
                v, best = value, child
        return self.backed_up(node, v, best)

    def utility(self, node: int) -> Exact:
        """A static node's value: a leaf's utility or, at the depth cutoff, its eval."""
        value = cast(Exact, self.static[node])
        self.values[node] = value
        return value

    def backed_up(self, node: int, value: Exact | None, best: int) -> Exact | None:
        self.values[node] = value
        self.best_child[node] = best
        return value
