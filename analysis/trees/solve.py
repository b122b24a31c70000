"""Solve a game tree: the one place where a tree search is chosen and run.

Every surface (the REST API, the CLI, the grader, the diagnosis of mistakes, the
problem generator, the drawings) calls :func:`solve_tree`, so "auto" means the
same thing everywhere and every option reaches the search it belongs to.

>>> from games import parse_tree
>>> solution = solve_tree(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), "alphabeta")
>>> solution.value, solution.best_move, solution.pruned_leaves
(3, 'root.0', ('root.1.1', 'root.1.2'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Final, TypeAlias

from analysis.trees.alpha_beta import AlphaBetaResult, alpha_beta
from analysis.trees.expectimax import ExpectimaxResult, expectimax
from analysis.trees.max_n import MaxnResult, maxn
from analysis.trees.minimax import MinimaxResult, minimax
from analysis.trees.move_ordering import MoveOrderingReport
from analysis.trees.move_ordering import move_ordering as order_report
from analysis.trees.paranoid import paranoid_tree
from analysis.trees.search_stats import SearchStats
from analysis.trees.star1 import star1
from games.errors import InvalidInputError
from games.limits import Deadline
from games.numbers import Exact
from games.trees.model import CHANCE, Tree, Utility

ALGORITHMS: Final = ("auto", "minimax", "alphabeta", "expectimax", "star1", "maxn")
"""Names accepted by :func:`solve_tree`; ``auto`` picks from the tree (see there)."""

TreeSearch: TypeAlias = MinimaxResult | AlphaBetaResult | ExpectimaxResult | MaxnResult
"""What one search returns, indexed by node number (the form the JSON writers read)."""


@dataclass(frozen=True)
class TreeSolution:
    """A solved tree, naming nodes by their ids.

    Attributes
    ----------
    algorithm
        The search that ran: ``minimax``, ``alphabeta``, ``expectimax``, ``star1`` or
        ``maxn`` (never ``auto``).
    parameters
        The options that search used, defaults filled in.
    search
        The search's own result, indexed by node number, for writers and drawings.

    Every other attribute reads ``search`` and speaks in node ids. All answers are
    exact: values are ``int`` or ``Fraction`` (tuples of them under max^n).
    """

    algorithm: str
    parameters: Mapping[str, object]
    search: TreeSearch
    paranoid: TreeSolution | None = None
    """Under max^n with ``paranoid=player``: the paranoid reduction for that player, solved."""
    move_ordering: MoveOrderingReport | None = None
    """Under alpha-beta with ``move_ordering=True``: leaves evaluated in the posted,
    best-first and worst-first child orders."""

    @property
    def tree(self) -> Tree:
        return self.search.tree

    @property
    def value(self) -> Utility:
        """The root's value (a utility tuple under max^n)."""
        return self.search.value

    @property
    def stats(self) -> SearchStats:
        return self.search.stats

    @cached_property
    def values(self) -> dict[str, Utility]:
        """Value of every node the search valued (a bound where ``bounds`` says so)."""
        ids = self.tree.ids
        found: Sequence[Utility | None] = self.search.values
        return {ids[i]: v for i, v in enumerate(found) if v is not None}

    @cached_property
    def bounds(self) -> dict[str, str]:
        """``exact``, ``lower`` or ``upper`` per visited node (pruning searches only)."""
        if not isinstance(self.search, AlphaBetaResult):
            return {}
        ids = self.tree.ids
        return {ids[i]: b for i, b in enumerate(self.search.bounds) if b is not None}

    @property
    def best_move(self) -> str | None:
        """The root's chosen child (leftmost among equals); None when the root is a leaf or
        a chance node (nobody moves there)."""
        if self.tree.kinds[0] == CHANCE or not self.search.best_child:
            return None
        child = self.search.best_child[0]
        return self.tree.ids[child] if child >= 0 else None

    @cached_property
    def best_moves(self) -> tuple[str, ...]:
        """Every optimal child of the root, where the search proves them all (else the best one)."""
        search = self.search
        if isinstance(search, MinimaxResult | ExpectimaxResult) and search.best_moves:
            return self._named(search.best_moves)
        return () if self.best_move is None else (self.best_move,)

    @cached_property
    def principal_variation(self) -> tuple[str, ...]:
        """Node ids from the root's best child down to where the search stops."""
        return self._named(self.search.principal_variation)

    @cached_property
    def pruned(self) -> tuple[str, ...]:
        """Roots of the subtrees never searched, left to right."""
        if isinstance(self.search, AlphaBetaResult | MaxnResult):
            return self._named(self.search.pruned)
        return ()

    @cached_property
    def pruned_leaves(self) -> tuple[str, ...]:
        """Leaves (or frontier nodes under a depth cutoff) never evaluated, left to right."""
        if isinstance(self.search, AlphaBetaResult | MaxnResult):
            return self._named(self.search.pruned_leaves)
        return ()

    def _named(self, indices: Sequence[int]) -> tuple[str, ...]:
        ids = self.tree.ids
        return tuple(ids[i] for i in indices)


def auto_algorithm(tree: Tree) -> str:
    """What ``algorithm="auto"`` runs: max^n on utility tuples, expectimax with chance nodes,
    else minimax."""
    if tree.utility_size:
        return "maxn"
    return "expectimax" if CHANCE in tree.kinds else "minimax"


def solve_tree(
    tree: Tree,
    algorithm: str = "auto",
    *,
    depth: int | None = None,
    prune_on_equality: bool = True,
    bounds: tuple[Exact, Exact] | None = None,
    tie_break: str = "leftmost",
    max_sum: Exact | None = None,
    trace: bool = False,
    max_trace_nodes: int | None = None,
    move_ordering: bool = False,
    paranoid: int | None = None,
    deadline: Deadline | None = None,
) -> TreeSolution:
    """Solve ``tree`` with ``algorithm`` and return a :class:`TreeSolution`.

    Parameters
    ----------
    algorithm
        One of :data:`ALGORITHMS`. ``auto`` runs max^n when leaves hold utility tuples,
        expectimax when the tree has chance nodes, minimax otherwise. ``expectimax``
        with ``bounds`` runs Star1 (it prunes, the value is the same).
    depth
        Search cutoff in plies; nodes at the cutoff are valued by their ``eval``.
    prune_on_equality
        Alpha-beta and Star1: prune when ``alpha >= beta`` (True, AIMA) or only when
        ``alpha > beta`` (False, CS188).
    bounds
        Star1: the lowest and highest leaf value, ``(lo, hi)``.
    tie_break, max_sum
        max^n: ``leftmost`` or ``rightmost`` among equally good moves; the largest sum
        of a utility tuple, which turns on shallow pruning.
    trace, max_trace_nodes
        Alpha-beta, expectimax, Star1 and max^n: record each step, for trees of up to
        ``max_trace_nodes`` nodes.
    deadline
        The computation's deadline (by default the one in progress).

    Raises
    ------
    InvalidInputError
        If ``algorithm`` is unknown or an option belongs to another search (naming the
        parameter), or the tree does not suit the search (pointing into the tree).
    LimitExceededError, TimeLimitError, ExactSizeError
        When a limit of the computation in progress is reached.
    """
    if algorithm not in ALGORITHMS:
        raise InvalidInputError(
            f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}",
            parameter="algorithm",
        )
    chosen = auto_algorithm(tree) if algorithm == "auto" else algorithm
    if chosen == "expectimax" and bounds is not None:
        chosen = "star1"
    _refuse_foreign_options(
        chosen,
        bounds=bounds,
        max_sum=max_sum,
        tie_break=tie_break != "leftmost",
        trace=trace,
        move_ordering=move_ordering,
        paranoid=paranoid,
    )
    search: TreeSearch
    if chosen == "minimax":
        search = minimax(
            tree, depth=depth, deadline=deadline, trace=trace, max_trace_nodes=max_trace_nodes
        )
        used: dict[str, object] = {"depth": depth, "trace": trace}
    elif chosen == "alphabeta":
        search = alpha_beta(
            tree,
            depth=depth,
            prune_on_equality=prune_on_equality,
            trace=trace,
            deadline=deadline,
            max_trace_nodes=max_trace_nodes,
        )
        used = {"depth": depth, "prune_on_equality": prune_on_equality, "trace": trace}
        if move_ordering:
            report = order_report(tree, depth=depth, prune_on_equality=prune_on_equality)
            return TreeSolution(chosen, used, search, move_ordering=report)
    elif chosen == "expectimax":
        search = expectimax(
            tree, depth=depth, deadline=deadline, trace=trace, max_trace_nodes=max_trace_nodes
        )
        used = {"depth": depth, "trace": trace}
    elif chosen == "star1":
        if bounds is None:
            raise InvalidInputError(
                "star1 needs bounds (lo, hi) on leaf values", "", parameter="bounds"
            )
        search = star1(
            tree,
            bounds,
            depth=depth,
            prune_on_equality=prune_on_equality,
            deadline=deadline,
            trace=trace,
            max_trace_nodes=max_trace_nodes,
        )
        used = {
            "depth": depth,
            "prune_on_equality": prune_on_equality,
            "bounds": bounds,
            "trace": trace,
        }
    else:
        search = maxn(
            tree,
            depth=depth,
            tie_break=tie_break,
            max_sum=max_sum,
            deadline=deadline,
            trace=trace,
            max_trace_nodes=max_trace_nodes,
        )
        used = {
            "depth": depth,
            "tie_break": tie_break,
            "max_sum": max_sum,
            "paranoid": paranoid,
            "trace": trace,
        }
        if paranoid is not None:
            if not 0 <= paranoid < tree.utility_size:
                raise InvalidInputError(
                    f"paranoid player must be between 0 and {tree.utility_size - 1}, "
                    f"got {paranoid}",
                    parameter="paranoid",
                )
            reduced = paranoid_tree(tree, paranoid)
            method = "expectimax" if CHANCE in reduced.kinds else "alphabeta"
            return TreeSolution(
                chosen, used, search, solve_tree(reduced, method, depth=depth, deadline=deadline)
            )
    return TreeSolution(chosen, used, search)


_OPTIONS_OF: Final = {
    "bounds": ("star1",),
    "max_sum": ("maxn",),
    "tie_break": ("maxn",),
    "trace": ("minimax", "alphabeta", "expectimax", "star1", "maxn"),
    "move_ordering": ("alphabeta",),
    "paranoid": ("maxn",),
}


def _refuse_foreign_options(algorithm: str, **given: object) -> None:
    """An option the chosen search would ignore is an error, not silently dropped."""
    for name, value in given.items():
        if value is not None and value is not False and algorithm not in _OPTIONS_OF[name]:
            *others, last = _OPTIONS_OF[name]
            owners = f"{', '.join(others)} and {last}" if others else last
            raise InvalidInputError(
                f"{name} applies to {owners} only, not to {algorithm}", parameter=name
            )
