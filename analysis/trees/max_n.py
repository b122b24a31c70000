"""max^n for trees of three or more players (Luckhardt and Irani 1986).

Leaves carry one utility per player; at a node of player ``i`` the player picks
the child whose utility tuple is best in component ``i``; a chance node is
worth the expected tuple. Values depend on how ties are broken, so the result
lists every node where a tie between different tuples decided the outcome.

Shallow pruning (Korf 1991) applies when utilities are non-negative and sum to
at most ``max_sum``: once a child of player ``j`` is assured ``v_j``, its parent
(player ``i``) can get at most ``max_sum - v_j`` from it, and if that cannot beat
what the parent already has, the child's remaining moves are skipped.

On request the search records its steps (:class:`MaxnTraceEvent`): each node entered,
each leaf read, each child's tuple folded into its parent, each shallow cut with the
numbers that justify it, and each node's tuple returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Final, cast

from analysis.trees.horizon import Horizon, horizon, static_nodes, static_pointer
from analysis.trees.minimax import refuse_large_trace
from analysis.trees.search_stats import SearchStats
from games.errors import InvalidInputError
from games.limits import Deadline, active_limits, check_exact_size, current_deadline
from games.numbers import Exact, normalize
from games.trees.model import CHANCE, PLAYER, Tree, leaves_below_all

MAXN_KINDS: Final = frozenset({PLAYER, CHANCE})
MAXN_HINT: Final = (
    "max^n takes player nodes (or chance nodes) over utility lists; solve MAX/MIN trees with "
    "/v1/trees/minimax or /v1/trees/expectimax"
)
TIE_BREAKS: Final = ("leftmost", "rightmost")

Payoffs = tuple[Exact, ...]


@dataclass(frozen=True, slots=True)
class MaxnTraceEvent:
    """One step of a max^n search.

    ``event`` is ``enter``, ``evaluate`` (a leaf's tuple is read), ``update`` (a child's
    tuple is folded in: ``value`` is the node's best tuple so far, or the expected tuple
    so far at a chance node), ``cutoff`` (shallow pruning skips the node's remaining
    children ``cut``; ``held`` is the tuple its parent already holds) or ``return``.
    ``player`` is the mover at the node (``None`` at chance nodes and leaves).
    """

    event: str
    node: int
    value: Payoffs | None
    child: int = -1
    player: int | None = None
    held: Payoffs | None = None
    cut: tuple[int, ...] = ()


@dataclass(frozen=True)
class MaxnResult:
    """What a max^n search found.

    Attributes
    ----------
    values
        Utility tuple per node (``None`` where not searched). Under shallow
        pruning, a node whose remaining moves were skipped holds the best tuple
        it had found, which its parent provably does not prefer.
    movers
        The player to move at each decision node (given, or the default: the
        root is player 0 and each level passes the turn to the next player).
    ties
        Nodes where two or more children with *different* tuples were best for
        the mover, so the tie-break rule decided the value.
    pruned
        Roots of the subtrees skipped by shallow pruning, left to right.
    """

    tree: Tree
    value: Payoffs
    values: list[Payoffs | None]
    best_child: list[int]
    movers: list[int | None]
    principal_variation: list[int]
    ties: list[int]
    pruned: list[int]
    cut_nodes: list[int]
    tie_break: str
    max_sum: Exact | None
    depth: int | None
    stats: SearchStats
    search_children: Any = field(repr=False, default=())
    trace: list[MaxnTraceEvent] | None = None

    @cached_property
    def pruned_leaves(self) -> list[int]:
        return leaves_below_all(self.tree, self.pruned, self.search_children)


def movers(tree: Tree) -> list[int | None]:
    """The player to move at every node (``None`` at leaves), defaults filled in.

    Raises
    ------
    InvalidInputError
        If a stated player is not below the number of players.
    """
    count = tree.utility_size
    kinds, players, parents = tree.kinds, tree.players, tree.parents
    spend = current_deadline().spend
    turn: list[int | None] = [None] * len(tree)
    for index in range(len(tree)):
        spend(1)
        if not tree.children[index]:
            continue
        given = players[index]
        if given is not None:
            if given >= count:
                raise InvalidInputError(
                    f"player {given} does not exist: utilities list {count} players (0 to "
                    f"{count - 1})",
                    tree.field_pointer(index, "player"),
                )
            turn[index] = given
            continue
        parent = parents[index]
        if parent < 0:
            turn[index] = 0
        elif kinds[parent] == CHANCE:
            turn[index] = turn[parent]  # chance passes the turn on
        else:
            above = turn[parent]
            assert above is not None
            turn[index] = (above + 1) % count
    return turn


def maxn(
    tree: Tree,
    *,
    depth: int | None = None,
    tie_break: str = "leftmost",
    max_sum: Exact | None = None,
    deadline: Deadline | None = None,
    trace: bool = False,
    max_trace_nodes: int | None = None,
) -> MaxnResult:
    """Solve a multiplayer tree by max^n, with shallow pruning when ``max_sum`` is given.

    The search spends on ``deadline`` (by default the one of the computation in
    progress) in proportion to the utilities it handles.

    :raises ExactSizeError: a chance node's exact expected utilities need more digits
        than ``Limits.max_exact_digits``; the pointer names that node.
    :raises LimitExceededError: ``trace`` is asked for a tree larger than
        ``max_trace_nodes``.
    :raises TimeLimitError: the deadline passes.
    """
    refuse_large_trace(tree, trace, max_trace_nodes)
    tree.require(kinds=MAXN_KINDS, tuples=True, endpoint=MAXN_HINT)
    if tie_break not in TIE_BREAKS:
        raise InvalidInputError(
            f"tie_break must be one of {', '.join(TIE_BREAKS)}, got {tie_break!r}",
            parameter="tie_break",
        )
    clock = deadline if deadline is not None else current_deadline()
    seen = horizon(tree, depth)
    turn = movers(tree)
    if max_sum is not None:
        _check_sums(tree, seen, max_sum, clock)
    clock.check()
    return _Search(tree, seen, turn, tie_break, max_sum, clock, trace).run()


def _check_sums(tree: Tree, seen: Horizon, max_sum: Exact, clock: Deadline) -> None:
    for index in static_nodes(seen):
        payoffs = cast(Payoffs, seen.static[index])
        clock.spend(len(payoffs))
        if min(payoffs) < 0 or sum(payoffs) > max_sum:
            where = static_pointer(tree, index)
            shown = ", ".join(map(str, payoffs[:6])) + (", ..." if len(payoffs) > 6 else "")
            raise InvalidInputError(
                f"shallow pruning needs non-negative utilities summing to at most {max_sum}; "
                f"node {tree.ids[index]!r} has ({shown})",
                where,
            )


class _Search:
    """Iterative depth-first max^n; frames are lists."""

    def __init__(
        self,
        tree: Tree,
        seen: Horizon,
        turn: list[int | None],
        tie_break: str,
        max_sum: Exact | None,
        deadline: Deadline,
        tracing: bool = False,
    ):
        self.tree, self.seen, self.turn = tree, seen, turn
        self.rightmost = tie_break == "rightmost"
        self.tie_break = tie_break
        self.max_sum = max_sum
        self.deadline = deadline
        count = len(tree)
        self.values: list[Payoffs | None] = [None] * count
        self.best_child = [-1] * count
        self.ties: list[int] = []
        self.pruned: list[int] = []
        self.cut_nodes: list[int] = []
        self.evaluated = 0
        self.events: list[MaxnTraceEvent] | None = [] if tracing else None

    def run(self) -> MaxnResult:
        tree, seen, turn = self.tree, self.seen, self.turn
        children, kinds, probabilities = seen.children, tree.kinds, tree.probabilities
        static = cast(list[Payoffs | None], seen.static)
        values, best_child = self.values, self.best_child
        max_sum, rightmost = self.max_sum, self.rightmost
        spend = self.deadline.spend
        bits = active_limits().max_exact_bits
        width = tree.utility_size
        visited = 1
        log = self.events.append if self.events is not None else None
        # the mover the trace names at each node: nobody moves at a chance node
        named = (
            [None if k == CHANCE else m for k, m in zip(kinds, turn, strict=True)] if log else []
        )
        if not children[0]:
            values[0] = static[0]
            self.evaluated = 1
            if log:
                log(MaxnTraceEvent("evaluate", 0, static[0]))
            return self.result(visited)
        if log:
            log(MaxnTraceEvent("enter", 0, None, player=named[0]))
        # frame: [node, next slot, best tuple (or running expectation), best child, tied]
        stack: list[list[Any]] = [[0, 0, None, -1, False]]
        returned: Payoffs | None = None
        child = -1
        held: Payoffs | None = None
        while stack:
            frame = stack[-1]
            node, slot, best, chosen, tied = frame
            kids = children[node]
            stop = False
            if returned is not None:
                if kinds[node] == CHANCE:
                    chance = probabilities[child]
                    weighted = tuple(chance * u for u in returned)  # type: ignore[operator]
                    best = weighted if best is None else tuple(map(_add, best, weighted))
                    size = max(map(_bits, best))
                    if size > bits:
                        self.refuse(best, node)
                    spend(width * (1 + size // 256))
                else:
                    spend(width)
                    mover = turn[node]
                    assert mover is not None
                    if best is None:
                        best, chosen, tied = returned, child, False
                    elif returned[mover] > best[mover] or (
                        rightmost and returned[mover] == best[mover]
                    ):
                        tied = tied or (returned[mover] == best[mover] and returned != best)
                        if returned[mover] > best[mover]:
                            tied = False
                        best, chosen = returned, child
                    elif returned[mover] == best[mover] and returned != best:
                        tied = True
                    # Korf's shallow pruning against the parent's assured value
                    parent = tree.parents[node]
                    if max_sum is not None and parent >= 0 and slot < len(kids):
                        above = stack[-2] if len(stack) > 1 else None
                        if above is not None and kinds[parent] != CHANCE and above[2] is not None:
                            parent_mover = turn[parent]
                            assert parent_mover is not None
                            ceiling = max_sum - best[mover]
                            held = above[2]
                            assert held is not None
                            ceiling_held = held[parent_mover]
                            if ceiling < ceiling_held or (
                                not rightmost and ceiling == ceiling_held
                            ):
                                stop = True
                if log:
                    shown = best if kinds[node] != CHANCE else _normalized(best)
                    log(MaxnTraceEvent("update", node, shown, child=child, player=named[node]))
                returned = None
            descend = -1
            while not stop and slot < len(kids):
                child = kids[slot]
                slot += 1
                if children[child]:
                    descend = child
                    break
                returned = static[child]
                values[child] = returned
                self.evaluated += 1
                visited += 1
                if log:
                    log(MaxnTraceEvent("evaluate", child, returned))
                break
            frame[1:5] = [slot, best, chosen, tied]
            spend(1)
            if descend != -1:
                visited += 1
                stack.append([descend, 0, None, -1, False])
                if log:
                    log(MaxnTraceEvent("enter", descend, None, player=named[descend]))
                continue
            if returned is not None:
                continue
            if stop:
                self.pruned.extend(kids[slot:])
                self.cut_nodes.append(node)
                if log:
                    cut = tuple(kids[slot:])
                    log(MaxnTraceEvent("cutoff", node, best, child, named[node], held, cut))
            if kinds[node] == CHANCE:
                value = _normalized(best)
                weights = [probabilities[kid] for kid in kids]
                chosen = kids[weights.index(max(weights))]  # type: ignore[type-var]
            else:
                value = best
                if tied and not stop:
                    self.ties.append(node)
            values[node] = value
            best_child[node] = chosen
            if log:
                log(MaxnTraceEvent("return", node, value, player=named[node]))
            stack.pop()
            returned, child = value, node
        return self.result(visited)

    def refuse(self, payoffs: tuple[Exact, ...], node: int) -> None:
        """The expected utilities of chance node ``node`` are too large: stop, pointing at it."""
        for value in payoffs:
            check_exact_size(
                value,
                self.tree.pointer(node),
                f"expected utility of chance node {self.tree.ids[node]!r}",
            )

    def result(self, visited: int) -> MaxnResult:
        line: list[int] = []
        step = self.best_child[0]
        while step != -1:
            line.append(step)
            step = self.best_child[step]
        root = self.values[0]
        assert root is not None
        stats = SearchStats(
            nodes=len(self.tree),
            leaves=self.seen.static_count,
            visited=visited,
            evaluated=self.evaluated,
            cutoffs=len(self.cut_nodes),
        )
        return MaxnResult(
            tree=self.tree,
            value=root,
            values=self.values,
            best_child=self.best_child,
            movers=self.turn,
            principal_variation=line,
            ties=sorted(self.ties),
            pruned=self.pruned,
            cut_nodes=self.cut_nodes,
            tie_break=self.tie_break,
            max_sum=self.max_sum,
            depth=self.seen.depth,
            stats=stats,
            search_children=self.seen.children,
            trace=self.events,
        )


def _normalized(payoffs: tuple[Any, ...]) -> Payoffs:
    """An expected tuple with its integral fractions written as ints."""
    return tuple(normalize(u) if isinstance(u, Fraction) else u for u in payoffs)


def _add(left: Exact, right: Exact) -> Exact:
    return left + right


def _bits(value: Exact) -> int:
    """Binary digits of the larger of numerator and denominator."""
    return max(value.numerator.bit_length(), value.denominator.bit_length())
