"""Alpha-beta pruning over an explicit tree, with everything a student writes down.

Children are searched left to right. ``prune_on_equality=True`` cuts when
``v >= beta`` at MAX and ``v <= alpha`` at MIN (AIMA, most lecture slides);
``False`` cuts only on strict inequality (the Berkeley CS188 autograder).

The search is fail-soft: a node that stops early returns the value it had,
which is a bound on its true value. Each node's result carries whether it is
exact, a lower bound (MAX stopped at ``v >= beta``) or an upper bound (MIN
stopped at ``v <= alpha``, or every child it saw was itself an upper bound).
The root's best move is the leftmost child whose *exact* value achieves the
root value, so a later child returning a bound equal to alpha never replaces it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Final, NamedTuple, cast, overload

from analysis.trees.horizon import Horizon, horizon, numeric
from analysis.trees.search_stats import SearchStats
from games.errors import LimitExceededError
from games.limits import Deadline, current_deadline
from games.numbers import Exact, normalize
from games.trees.compiled_reader import walkable
from games.trees.model import (
    CHANCE,
    DECISION_KINDS,
    LEAF,
    MAX,
    TWO_PLAYER_HINT,
    IntColumn,
    Tree,
    leaves_below_all,
)

try:
    from analysis.trees._kernels import alpha_beta_walk
except ImportError:  # not built (no C compiler): the Python loop below answers alone
    alpha_beta_walk = None  # type: ignore[assignment]

COMPILED: Final = alpha_beta_walk is not None and os.environ.get("ARBITER_PURE_PYTHON") != "1"
"""Whether the compiled loops of :mod:`analysis.trees._kernels` are there to use
(``ARBITER_PURE_PYTHON=1`` forces the Python loops, which give the same answers)."""

EXACT: Final = "exact"
LOWER: Final = "lower"
UPPER: Final = "upper"

NEG_INF: Final = float("-inf")
POS_INF: Final = float("inf")

Bound = Exact | float
"""An alpha or beta: an exact number or +/- infinity."""


class Cutoff(NamedTuple):
    """A node that stopped early (a named tuple: searches make thousands of them, and
    a frozen dataclass costs several times as much to build).

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


class CutoffRows(Sequence[Cutoff]):
    """Cutoff records kept as plain tuples, given out as :class:`Cutoff` records when read.

    The compiled walks make their records so: making and freeing a million-node search's
    named-tuple instances took a quarter of its time, and most answers only write the
    records out (from :attr:`rows`). Equal to the list of the same records.

    With ``factor`` (Star1 on a common scale) a row holds its alpha, beta and value as keys
    on that scale (see :func:`value_of_key`) and its ``cut`` as a ``range``: the numbers and
    the tuple are made only for the records read (:attr:`keys` gives the rows as they are).
    """

    __slots__ = ("_listed", "factor", "keys")

    def __init__(self, rows: list[tuple[Any, ...]], factor: int | None = None) -> None:
        self.keys = rows
        self.factor = factor
        self._listed: list[tuple[Any, ...]] | None = rows if factor is None else None

    @property
    def rows(self) -> list[tuple[Any, ...]]:
        """The records as plain tuples of :class:`Cutoff`'s fields."""
        if self._listed is None:
            self._listed = [self._row(row) for row in self.keys]
        return self._listed

    def _row(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        if self.factor is None:
            return row
        node, alpha, beta, value, after, cut = row
        factor = self.factor
        return (
            node,
            value_of_key(alpha, factor),
            value_of_key(beta, factor),
            value_of_key(value, factor),
            after,
            tuple(cut),
        )

    def __len__(self) -> int:
        return len(self.keys)

    @overload
    def __getitem__(self, index: int) -> Cutoff: ...
    @overload
    def __getitem__(self, index: slice) -> list[Cutoff]: ...
    def __getitem__(self, index: int | slice) -> Cutoff | list[Cutoff]:
        if isinstance(index, slice):
            return [Cutoff._make(self._row(row)) for row in self.keys[index]]
        return Cutoff._make(self._row(self.keys[index]))

    def __iter__(self) -> Any:
        return map(Cutoff._make, self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CutoffRows):
            return self.rows == other.rows
        if isinstance(other, list):
            return self.rows == other  # a named tuple equals the tuple of its fields
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CutoffRows({list(self)!r})"


def value_of_key(key: Any, factor: int) -> Exact | float:
    """The number a key on a common scale stands for: ``key / factor`` for an int key,
    ``num / (den * factor)`` for a key ``(num, den)``, an infinity as itself; exact, an int
    when integral (:class:`analysis.trees.star1.ScaledKeys`)."""
    if type(key) is float:
        return key
    if type(key) is tuple:
        return normalize(Fraction(key[0], key[1] * factor))
    return normalize(Fraction(key, factor))


BOUND_BITS: Final = 3
"""The low bits of a compiled search's code byte per node (alpha-beta's on machine integers,
:func:`analysis.trees._kernels.alpha_beta_walk`, and Star1's,
:func:`analysis.trees._star1.scaled_star1`): 0 where the node has no value, else its
bound's index in :data:`BOUND_NAMES`."""
STATIC_LEAF: Final = 4
"""The bit of that byte set where the value is the node's static value (the search also
marks a chance node's expectation, with 8, which the columns do not need)."""
BOUND_NAMES: Final = (None, EXACT, LOWER, UPPER)


class BoundColumn(Sequence[str | None]):
    """Per node, the bound of the value a compiled search gave it (None: no value), read
    from its code byte a node (see :data:`BOUND_BITS`). Equal to the list of the same names."""

    __slots__ = ("codes",)

    def __init__(self, codes: bytes) -> None:
        self.codes = codes

    def __len__(self) -> int:
        return len(self.codes)

    @overload
    def __getitem__(self, index: int) -> str | None: ...
    @overload
    def __getitem__(self, index: slice) -> list[str | None]: ...
    def __getitem__(self, index: int | slice) -> str | None | list[str | None]:
        if isinstance(index, slice):
            return [BOUND_NAMES[code & BOUND_BITS] for code in self.codes[index]]
        return BOUND_NAMES[self.codes[index] & BOUND_BITS]

    def __iter__(self) -> Iterator[str | None]:
        return (BOUND_NAMES[code & BOUND_BITS] for code in self.codes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, BoundColumn)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"BoundColumn({list(self)!r})"


class ScaledValues(Sequence[Exact | None]):
    """Per node, the value a compiled search gave it (None: no value), made when read from
    the search's numbers on a common scale (each value times ``factor``: Star1's, or 1 for
    alpha-beta on machine integers) and code bytes (see :data:`BOUND_BITS`): a static value
    is the tree's own, any other an exact number, made once per distinct number. Equal to
    the list of the same values."""

    __slots__ = ("_made", "codes", "factor", "numbers", "static")

    def __init__(
        self, numbers: Sequence[int], codes: bytes, static: Sequence[Any], factor: int
    ) -> None:
        self.numbers = numbers
        self.codes = codes
        self.static = static
        self.factor = factor
        self._made: dict[int, Exact] = {}

    def __len__(self) -> int:
        return len(self.codes)

    def _value(self, index: int) -> Exact | None:
        code = self.codes[index]
        if not code:
            return None
        if code & STATIC_LEAF:
            return cast(Exact, self.static[index])
        number = self.numbers[index]
        made = self._made.get(number)
        if made is None:
            made = self._made[number] = cast(Exact, value_of_key(number, self.factor))
        return made

    @overload
    def __getitem__(self, index: int) -> Exact | None: ...
    @overload
    def __getitem__(self, index: slice) -> list[Exact | None]: ...
    def __getitem__(self, index: int | slice) -> Exact | None | list[Exact | None]:
        if isinstance(index, slice):
            return [self._value(i) for i in range(*index.indices(len(self)))]
        return self._value(index)

    def __iter__(self) -> Iterator[Exact | None]:
        return map(self._value, range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, ScaledValues)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ScaledValues({list(self)!r})"


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One line of a hand-written alpha-beta trace.

    ``event`` is ``enter`` (a node is entered with its window), ``evaluate``
    (a static value is read), ``update`` (a child's value is folded into
    ``v``/alpha/beta), ``cutoff`` (remaining children are skipped) or
    ``return`` (the node's value goes back to its parent).
    """

    event: str
    node: int
    alpha: Bound
    beta: Bound
    value: Exact | None
    child: int = -1
    bound: str = EXACT
    cut: tuple[int, ...] = ()


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

    @cached_property
    def pruned_leaves(self) -> list[int]:
        # Listing them touches every pruned leaf (often most of the tree), so it
        # is done on demand rather than as part of the search.
        return leaves_below_all(self.tree, self.pruned, self.search_children)


def alpha_beta(
    tree: Tree,
    *,
    depth: int | None = None,
    prune_on_equality: bool = True,
    trace: bool = False,
    deadline: Deadline | None = None,
    max_trace_nodes: int | None = None,
) -> AlphaBetaResult:
    """Search ``tree`` with alpha-beta pruning; see the module docstring.

    Raises
    ------
    InvalidInputError
        If a node at the depth cutoff has no eval.
    LimitExceededError
        If ``trace`` is asked for a tree larger than ``max_trace_nodes``.
    TimeLimitError
        If ``deadline`` (by default the one of the computation in progress) passes.
    """
    if trace and max_trace_nodes is not None and len(tree) > max_trace_nodes:
        raise LimitExceededError(
            f"a step-by-step trace is offered for trees of up to {max_trace_nodes} nodes; "
            f"this one has {len(tree)}",
            parameter="trace",
        )
    tree.require(kinds=DECISION_KINDS, tuples=False, endpoint=TWO_PLAYER_HINT)
    seen = horizon(tree, depth)
    clock = deadline if deadline is not None else current_deadline()
    clock.check()
    return _search(tree, seen, seen.children, prune_on_equality, trace, clock)


def count_evaluations(
    tree: Tree, seen: Horizon, children: Sequence[Sequence[int]], prune_on_equality: bool
) -> int:
    """Static evaluations alpha-beta makes when children are taken in the order given."""
    search = _search(tree, seen, children, prune_on_equality, False, current_deadline())
    return len(search.evaluated_leaves)


def _search(
    tree: Tree,
    seen: Horizon,
    children: Sequence[Sequence[int]],
    prune_on_equality: bool,
    tracing: bool,
    deadline: Deadline,
) -> AlphaBetaResult:
    static = numeric(seen.static)
    spend = deadline.spend
    if COMPILED and not tracing and children[0]:
        return _walk(tree, seen, children, static, prune_on_equality, spend)
    # a traced step builds two events; every step costs more when values are fractions
    step_cost = 4 if tracing else 1
    kinds = tree.kinds
    count = len(tree)
    best_child = IntColumn.filled(-1, count)
    evaluated: list[int] = []
    cutoffs: list[Cutoff] = []
    events: list[TraceEvent] | None = [] if tracing else None
    log = events.append if events is not None else None
    record = evaluated.append
    strict = not prune_on_equality

    root_max = kinds[0] == MAX
    # A frame: [node, alpha, beta, v, next slot, best child, bound of best, is MAX]
    start = NEG_INF if root_max else POS_INF
    frame: list[Any] = [0, NEG_INF, POS_INF, start, 0, -1, EXACT, root_max]
    stack = [frame]
    values: list[Exact | None] = [None] * count
    bounds: list[str | None] = [None] * count
    if not children[0]:
        # a single static node: nothing to search
        values[0] = static[0]
        bounds[0] = EXACT
        record(0)
        if log:
            log(TraceEvent("evaluate", 0, NEG_INF, POS_INF, static[0]))
        return search_result(
            tree, seen, values, bounds, best_child, evaluated, cutoffs, events, prune_on_equality, 1
        )
    if log:
        log(TraceEvent("enter", 0, NEG_INF, POS_INF, None))
    returned: Exact | None = None  # value of the internal child just searched, to fold in
    child = -1
    child_bound = EXACT
    entered = 1
    while True:
        node, alpha, beta, v, slot, best, best_bound, is_max = frame
        kids = children[node]
        left = len(kids)
        first_slot = slot
        cut = False
        if returned is not None:
            # fold the internal child's value into v and the window
            if is_max:
                if returned > v or (
                    returned == v and child_bound is EXACT and best_bound is not EXACT
                ):
                    v, best, best_bound = returned, child, child_bound
                if (v > beta) if strict else (v >= beta):
                    cut = slot < left
                elif v > alpha:
                    alpha = v
            else:
                if returned < v or (
                    returned == v and child_bound is EXACT and best_bound is not EXACT
                ):
                    v, best, best_bound = returned, child, child_bound
                if (v < alpha) if strict else (v <= alpha):
                    cut = slot < left
                elif v < beta:
                    beta = v
            if log:
                log(TraceEvent("update", node, alpha, beta, v, child=child))
            returned = None
        descend = -1
        # Static children are read and folded in a tight loop (one per kind of node:
        # this is where most of the time goes) until an internal child turns up.
        if cut:
            pass
        elif is_max:
            while slot < left:
                child = kids[slot]
                slot += 1
                if children[child]:
                    descend = child
                    break
                score = static[child]
                values[child] = score
                bounds[child] = EXACT
                record(child)
                if log:
                    log(TraceEvent("evaluate", child, alpha, beta, score))
                if score > v or (score == v and best_bound is not EXACT):
                    v, best, best_bound = score, child, EXACT
                if (v > beta) if strict else (v >= beta):
                    cut = slot < left
                elif v > alpha:
                    alpha = v
                if log:
                    log(TraceEvent("update", node, alpha, beta, v, child=child))
                if cut:
                    break
        else:
            while slot < left:
                child = kids[slot]
                slot += 1
                if children[child]:
                    descend = child
                    break
                score = static[child]
                values[child] = score
                bounds[child] = EXACT
                record(child)
                if log:
                    log(TraceEvent("evaluate", child, alpha, beta, score))
                if score < v or (score == v and best_bound is not EXACT):
                    v, best, best_bound = score, child, EXACT
                if (v < alpha) if strict else (v <= alpha):
                    cut = slot < left
                elif v < beta:
                    beta = v
                if log:
                    log(TraceEvent("update", node, alpha, beta, v, child=child))
                if cut:
                    break
        spend((slot - first_slot + 1) * step_cost)
        if descend != -1:
            frame[1:7] = (alpha, beta, v, slot, best, best_bound)
            entered += 1
            child_max = kinds[descend] == MAX
            frame = [
                descend,
                alpha,
                beta,
                NEG_INF if child_max else POS_INF,
                0,
                -1,
                EXACT,
                child_max,
            ]
            stack.append(frame)
            if log:
                log(TraceEvent("enter", descend, alpha, beta, None))
            continue
        if cut:
            skipped = tuple(kids[slot:])
            cutoffs.append(Cutoff(node, alpha, beta, v, child, skipped))
            if log:
                log(TraceEvent("cutoff", node, alpha, beta, v, child=child, cut=skipped))
            bound = LOWER if is_max else UPPER
        else:
            bound = best_bound
        values[node] = v
        bounds[node] = bound
        best_child[node] = best
        if log:
            log(TraceEvent("return", node, alpha, beta, v, bound=bound))
        stack.pop()
        if not stack:
            break
        returned, child_bound, child = v, bound, node
        frame = stack[-1]
    visited = entered + len(evaluated)
    return search_result(
        tree,
        seen,
        values,
        bounds,
        best_child,
        evaluated,
        cutoffs,
        events,
        prune_on_equality,
        visited,
    )


def _walk(
    tree: Tree,
    seen: Horizon,
    children: Sequence[Sequence[int]],
    static: Sequence[Any],
    prune_on_equality: bool,
    spend: Any,
) -> AlphaBetaResult:
    """:func:`_search` without a trace, step for step, compiled (analysis/trees/_kernels.pyx):
    first with values compared as C integers, each visited node's value and bound kept in
    columns (nothing made or counted a node: :class:`ScaledValues` and :class:`BoundColumn`
    give them out when read); again with Python's comparisons and lists if a static value is
    not such an integer."""
    walk_children = walkable(children)
    walk_static = static if isinstance(static, list) else list(static)
    count = len(tree)
    best_child = IntColumn.filled(-1, count)
    pruned: list[int] = []
    rows: list[tuple[Any, ...]] = []
    for ints in (True, False):
        leaves = IntColumn()  # machine integers: no int object per leaf evaluated
        rows.clear()
        pruned.clear()
        values: list[Exact | None] | None = None if ints else [None] * count
        bounds: list[str | None] | None = None if ints else [None] * count
        numbers = IntColumn() if ints else None
        codes = bytearray(count) if ints else None
        entered = alpha_beta_walk(
            walk_children,
            walk_static,
            tree.kinds,
            MAX,
            not prune_on_equality,
            values,
            bounds,
            best_child,
            leaves,
            rows,
            pruned,
            (EXACT, LOWER, UPPER),
            spend,
            ints,
            LEAF,
            # (the static values are the leaves', which the reader may hold as integers)
            tree.leaf_words if static is tree.values else None,
            numbers,
            codes,
        )
        if entered >= 0:
            break
    if numbers is not None and codes is not None:
        kept = bytes(codes)
        found_values: Sequence[Exact | None] = ScaledValues(numbers, kept, walk_static, 1)
        found_bounds: Sequence[str | None] = BoundColumn(kept)
    else:
        assert values is not None and bounds is not None
        found_values, found_bounds = values, bounds
    return search_result(
        tree,
        seen,
        found_values,
        found_bounds,
        best_child,
        leaves,
        CutoffRows(rows),
        None,
        prune_on_equality,
        entered + len(leaves),
        pruned,
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
) -> AlphaBetaResult:
    """The result of an alpha-beta or Star1 search from what it found: its principal
    variation and counts are worked out here, and ``pruned``, when not given, from the
    cutoffs."""
    # The search runs left to right and each cut skips the rest of one node's
    # children, so cutoffs come in left-to-right order, and so do their subtrees
    # (which the compiled walk lists as it goes).
    if pruned is None:
        pruned = [index for cutoff in cutoffs for index in cutoff.cut]
    line: list[int] = []
    step = best_child[0]
    while step != -1:
        line.append(step)
        step = best_child[step]
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
        principal_variation=line,
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
    )
