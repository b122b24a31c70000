"""Turn tree-search results into JSON-ready dicts (used by the API and the CLI).

Results of a million-node tree have a million node entries, so this is done
by hand rather than by a marshmallow dump (which costs microseconds per field);
``api.schemas.trees`` documents the same shapes and the contract tests check
real responses against it. Node entries are shared between nodes with the
same value and bound, which keeps building the ``nodes`` map cheap.

Every number is written by :mod:`games.numbers` (the one writer of numbers, under the
rule of ``docs/numbers.md``), and building an answer spends on the deadline of the
computation in progress: a million distinct fractions take seconds to hash and write out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import compress, count, islice, repeat
from operator import eq, getitem, is_not, sub
from typing import Any, Final

from analysis.trees.alpha_beta import AlphaBetaResult, Cutoff
from analysis.trees.cs188_agents import GraphSearchResult
from analysis.trees.expectimax import ExpectimaxResult
from analysis.trees.max_n import MaxnResult
from analysis.trees.minimax import EXACT, LOWER, UPPER, MinimaxResult, TraceEvent
from analysis.trees.move_ordering import MoveOrderingReport
from analysis.trees.search_stats import SearchStats
from analysis.trees.solve import TreeSolution
from analysis.trees.trace_text import event_json, maxn_event_json
from games.formats.cs188 import GraphGame
from games.limits import current_deadline
from games.numbers import JSON_INT_LIMIT, Exact, put_bound, put_number, put_numbers
from games.trees.model import CHANCE, Tree

CHUNK: Final = 16_384
"""Nodes handled by one whole-list pass (in C) between two readings of the clock."""

MAP: Final = "map"
COLUMNS: Final = "columns"
LAYOUTS: Final = (MAP, COLUMNS)
"""How an answer lays out its per-node results (``docs/trees.md``, "Layouts"): ``map``
names nodes by id and gives ``nodes`` as ``{id: entry}``; ``columns`` names nodes by their
breadth-first index, gives ``columns`` (the nodes with a value as runs, and one list per
field with an entry per such node), and writes every list of nodes that can be as long as
the tree as runs (see :func:`runs`)."""


def node_names(tree: Tree, layout: str = MAP) -> Sequence[Any]:
    """How an answer names the nodes of ``tree``: their ids, or in the ``columns`` layout
    their breadth-first indices."""
    return range(len(tree)) if layout == COLUMNS else tree.ids


def node_map(
    tree: Tree, values: Sequence[Exact | None], bounds: Sequence[str | None] | None
) -> dict[str, Any]:
    """``{id: {"value", "value_exact"?, "bound"}}`` for every node with a value.

    One entry object is written per distinct value and bound and shared, so the per-node
    work is two lookups, and every pass over the nodes runs in C (``set``, ``map``,
    ``compress``, ``dict``).
    """
    spend = current_deadline().spend
    # hashing a Fraction costs about a microsecond, so the values are taken a chunk at a time
    distinct: set[Exact | None] = set()
    for start in range(0, len(values), CHUNK):
        distinct.update(values[start : start + CHUNK])
        spend(CHUNK)
    if bounds is None:
        entries: Iterable[Any] = map(_entries(distinct, EXACT).__getitem__, values)
    else:
        tables: dict[str | None, dict[Exact | None, Any]] = {
            EXACT: _entries(distinct, EXACT),
            None: {None: None},
        }
        for name in (LOWER, UPPER):  # (the values of the nodes so bounded: the few cut ones)
            spend(len(values) // 16)
            tables[name] = _entries(set(compress(values, map(eq, bounds, repeat(name)))), name)
        entries = map(_lookup, map(tables.__getitem__, bounds), values)
    spend(len(values) // 16)
    named = zip(tree.ids, entries, strict=True)
    if None not in distinct:
        return dict(named)
    return dict(compress(named, map(is_not, values, repeat(None))))


_lookup: Callable[[dict[Exact | None, Any], Exact | None], Any] = getitem
"""``table[value]`` (``operator.getitem``, typed for the node maps' tables)."""


def _entries(values: Iterable[Exact | None], bound: str) -> dict[Exact | None, Any]:
    """The entry of each of ``values`` with ``bound`` (None for None)."""
    spend = current_deadline().spend
    entries: dict[Exact | None, Any] = {}
    for value in values:
        if value is None:
            entries[None] = None
            continue
        spend(1 + _size(value) // 64)
        entry: dict[str, Any] = {}
        put_number(entry, "value", value)
        entry["bound"] = bound
        entries[value] = entry
    return entries


def runs(indices: Sequence[int]) -> list[list[int]]:
    """``indices`` as runs ``[start, stop]``: maximal stretches of consecutive increasing
    indices (``stop`` one past the last), in the order given. ``[5, 6, 7, 2]`` is
    ``[[5, 8], [2, 3]]``; ``[i for start, stop in runs for i in range(start, stop)]`` gives
    the indices back."""
    if not indices:
        return []
    # where a run ends: each index that is not one more than the one before it (in C)
    steps = map(sub, islice(indices, 1, None), indices)
    ends = [*compress(count(1), map((1).__ne__, steps)), len(indices)]
    starts = [0, *ends[:-1]]
    return [[indices[start], indices[end - 1] + 1] for start, end in zip(starts, ends, strict=True)]


def columns_json(
    values: Sequence[Exact | None], bounds: Sequence[str | None] | None
) -> dict[str, Any]:
    """The ``columns`` of the columns layout: ``node``, the runs of the nodes with a value;
    then one entry per such node in ``value`` (with its ``value_exact`` companion under the
    list rule of ``docs/numbers.md``) and, with ``bounds``, in ``bound``."""
    current_deadline().spend(len(values))
    out: dict[str, Any] = {}
    if None not in values:  # (every node has one: minimax to the leaves)
        out["node"] = [[0, len(values)]] if values else []
        put_numbers(out, "value", values)
        if bounds is not None:
            out["bound"] = list(bounds)
        return out
    flags = list(map(is_not, values, repeat(None)))
    out["node"] = runs(list(compress(count(), flags)))
    put_numbers(out, "value", list(compress(values, flags)))
    if bounds is not None:
        out["bound"] = list(compress(bounds, flags))
    return out


def node_list_json(tree: Tree, indices: Iterable[int], layout: str) -> list[Any]:
    """A list of nodes that can be as long as the tree: their ids, or in the columns layout
    their :func:`runs`."""
    listed = indices if isinstance(indices, list) else list(indices)
    current_deadline().spend(1 + len(listed) // 16)
    if layout == COLUMNS:
        return runs(listed)
    return list(map(tree.ids.__getitem__, listed))


def _size(value: Exact | None) -> int:
    """Binary digits of an exact value (writing it costs about their square)."""
    if value is None:
        return 0
    return value.numerator.bit_length() + value.denominator.bit_length()


def stats_json(stats: SearchStats) -> dict[str, int]:
    return {
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "visited": stats.visited,
        "evaluated": stats.evaluated,
        "cutoffs": stats.cutoffs,
    }


def _common(
    tree: Tree,
    value: Exact,
    best_move: int,
    line: list[int],
    depth: int | None,
    layout: str = MAP,
) -> dict[str, Any]:
    ids = node_names(tree, layout)
    out: dict[str, Any] = {}
    put_number(out, "value", value)
    out["root_kind"] = tree.root_kind
    out["best_move"] = ids[best_move] if best_move >= 0 else None
    out["best_move_label"] = tree.moves[best_move] if best_move >= 0 else None
    out["principal_variation"] = [ids[i] for i in line]
    out["depth"] = depth
    return out


def minimax_json(result: MinimaxResult, *, layout: str = MAP) -> dict[str, Any]:
    """The answer of ``/v1/trees/minimax`` in ``layout`` (see :data:`LAYOUTS`)."""
    tree = result.tree
    best = result.best_child[0]
    out = _common(tree, result.value, best, result.principal_variation, result.depth, layout)
    names = node_names(tree, layout)
    out["best_moves"] = [names[i] for i in result.best_moves]
    if layout == COLUMNS:
        out["columns"] = columns_json(result.values, None)
    else:
        out["nodes"] = node_map(tree, result.values, None)
    out["stats"] = stats_json(result.stats)
    if result.trace is not None:
        out["trace"] = _windowless_trace(tree, result.trace, layout)
    return out


def _cutoff_json(ids: Sequence[Any], cutoff: Cutoff) -> dict[str, Any]:
    node, alpha, beta, value, after, cut = cutoff
    entry: dict[str, Any] = {"node": ids[node]}
    if _plain(alpha) and _plain(beta) and _plain(value):  # (most cutoffs: written as they are)
        entry["alpha"], entry["beta"], entry["value"] = (
            _WINDOW_ENDS.get(alpha, alpha),
            _WINDOW_ENDS.get(beta, beta),
            value,
        )
    else:
        put_bound(entry, "alpha", alpha)
        put_bound(entry, "beta", beta)
        put_number(entry, "value", value)
    entry["after"] = ids[after]
    entry["cut"] = list(map(ids.__getitem__, cut))
    return entry


_WINDOW_ENDS: Final[dict[Any, str]] = {float("-inf"): "-inf", float("inf"): "inf"}
"""How an infinite end of a window is written (:func:`games.numbers.put_bound`)."""


def _plain(number: Any) -> bool:
    """Whether the number rule writes ``number`` as it is, with no exact companion (an int
    within 64 bits), or it is an infinite window end."""
    kind = type(number)
    if kind is int:
        return -JSON_INT_LIMIT <= number < JSON_INT_LIMIT  # type: ignore[no-any-return]
    return kind is float and number in _WINDOW_ENDS


def cutoffs_json(result: AlphaBetaResult, layout: str = MAP) -> list[dict[str, Any]]:
    """The cutoff records of an alpha-beta or Star1 search, nodes named as ``layout`` names
    them."""
    ids = node_names(result.tree, layout)
    spend = current_deadline().spend
    cutoffs = []
    for cutoff in result.cutoffs:
        spend(4 + len(cutoff.cut) // 16)
        cutoffs.append(_cutoff_json(ids, cutoff))
    return cutoffs


def alpha_beta_json(
    result: AlphaBetaResult,
    ordering: MoveOrderingReport | None,
    bounds: tuple[Exact, Exact] | None = None,
    *,
    layout: str = MAP,
) -> dict[str, Any]:
    """The answer of ``/v1/trees/alphabeta`` (Star1's with ``bounds``) in ``layout`` (see
    :data:`LAYOUTS`; the trace, which speaks of ids, is written in the map layout only)."""
    tree = result.tree
    out = _common(
        tree, result.value, result.best_move, result.principal_variation, result.depth, layout
    )
    out["prune_on_equality"] = result.prune_on_equality
    if layout == COLUMNS:
        out["columns"] = columns_json(result.values, result.bounds)
    else:
        out["nodes"] = node_map(tree, result.values, result.bounds)
    out["pruned"] = node_list_json(tree, result.pruned, layout)
    out["pruned_leaves"] = node_list_json(tree, result.pruned_leaves, layout)
    out["evaluated_leaves"] = node_list_json(tree, result.evaluated_leaves, layout)
    out["cutoffs"] = cutoffs_json(result, layout)
    out["stats"] = stats_json(result.stats)
    if result.trace is not None:
        if layout != MAP:
            raise ValueError("the trace is written in the map layout only")
        spend = current_deadline().spend
        trace = []
        for event in result.trace:
            spend(4 + len(event.cut) // 16)
            trace.append(event_json(tree, event, result.prune_on_equality, bounds))
        out["trace"] = trace
    if ordering is not None:
        out["move_ordering"] = {
            "given": ordering.given,
            "best_first": ordering.best_first,
            "worst_first": ordering.worst_first,
            "leaves": ordering.leaves,
            "uniform": ordering.uniform,
            "branching": ordering.branching,
            "depth": ordering.depth,
            "minimal_tree": ordering.minimal_tree,
        }
    return out


def _decisions(tree: Tree, best_child: Sequence[int], values: Sequence[Any]) -> dict[str, str]:
    """The move chosen at every decision (MAX, MIN or player) node that was searched."""
    ids, kinds = tree.ids, tree.kinds
    return {
        ids[node]: ids[child]
        for node, child in enumerate(best_child)
        if child >= 0 and kinds[node] != CHANCE and values[node] is not None
    }


def _outcomes(
    tree: Tree, line: list[int], values: Sequence[Any], bounds: Sequence[str | None] | None
) -> list[dict[str, Any]]:
    """For each chance node on the principal variation, all its outcomes."""
    ids = tree.ids
    spend = current_deadline().spend
    found = []
    for node in [0, *line]:
        if tree.kinds[node] != CHANCE or not tree.children[node]:
            continue
        outcomes = []
        for kid in tree.children[node]:
            spend(4)
            entry: dict[str, Any] = {"child": ids[kid]}
            put_number(entry, "p", tree.probabilities[kid])
            put_number(entry, "value", values[kid])
            if bounds is not None and values[kid] is not None:
                entry["bound"] = bounds[kid]
            outcomes.append(entry)
        found.append({"node": ids[node], "outcomes": outcomes})
    return found


def expectimax_json(result: ExpectimaxResult) -> dict[str, Any]:
    """The answer of ``/v1/trees/expectimax``."""
    tree = result.tree
    out = _common(
        tree,
        result.value,
        result.best_child[0] if tree.kinds[0] != CHANCE else -1,
        result.principal_variation,
        result.depth,
    )
    out["best_moves"] = [tree.ids[i] for i in result.best_moves]
    out["nodes"] = node_map(tree, result.values, None)
    out["decisions"] = _decisions(tree, result.best_child, result.values)
    out["principal_variation_outcomes"] = _outcomes(
        tree, result.principal_variation, result.values, None
    )
    out["stats"] = stats_json(result.stats)
    if result.trace is not None:
        out["trace"] = _windowless_trace(tree, result.trace, MAP)
    return out


def _windowless_trace(tree: Tree, events: list[TraceEvent], layout: str) -> list[dict[str, Any]]:
    """The trace of a search that keeps no window (minimax, expectimax without bounds)."""
    if layout != MAP:
        raise ValueError("the trace is written in the map layout only")
    spend = current_deadline().spend
    trace = []
    for event in events:
        spend(4)
        trace.append(event_json(tree, event, True, windowed=False))
    return trace


def star1_json(result: AlphaBetaResult, bounds: tuple[Exact, Exact]) -> dict[str, Any]:
    """The answer of ``/v1/trees/expectimax`` with ``bounds``: alpha-beta's, and the chance
    nodes' outcomes."""
    tree = result.tree
    out = alpha_beta_json(result, None, bounds)
    out["decisions"] = _decisions(tree, result.best_child, result.values)
    out["principal_variation_outcomes"] = _outcomes(
        tree, result.principal_variation, result.values, result.bounds
    )
    put_numbers(out, "bounds", bounds)
    return out


def solution_json(solution: TreeSolution, *, layout: str = MAP) -> dict[str, Any]:
    """The documented answer for a solved tree, whichever search ran.

    ``layout`` (see :data:`LAYOUTS`) is taken by minimax and alpha-beta; the other searches
    answer in the map layout.
    """
    search = solution.search
    if isinstance(search, MaxnResult):
        reduced = solution.paranoid
        player = solution.parameters.get("paranoid")
        assert player is None or isinstance(player, int)
        return maxn_json(search, None if reduced is None else reduced.search, player)
    if isinstance(search, AlphaBetaResult):
        bounds = solution.parameters.get("bounds")
        if solution.algorithm == "star1" and isinstance(bounds, tuple):
            return star1_json(search, bounds)
        return alpha_beta_json(search, solution.move_ordering, layout=layout)
    if isinstance(search, ExpectimaxResult):
        return expectimax_json(search)
    return minimax_json(search, layout=layout)


def _tuple_entry(payoffs: tuple[Exact, ...]) -> dict[str, Any]:
    """``{"value": [...], "value_exact"?: [...]}``: a utility tuple under the list rule."""
    current_deadline().spend(len(payoffs))
    entry: dict[str, Any] = {}
    put_numbers(entry, "value", payoffs)
    return entry


def maxn_json(
    result: MaxnResult, paranoid_result: Any = None, player: int | None = None
) -> dict[str, Any]:
    tree = result.tree
    ids = tree.ids
    out: dict[str, Any] = _tuple_entry(result.value)
    out["root_kind"] = tree.root_kind
    best = result.best_child[0] if tree.kinds[0] != CHANCE else -1
    out["best_move"] = ids[best] if best >= 0 else None
    out["best_move_label"] = tree.moves[best] if best >= 0 else None
    out["principal_variation"] = [ids[i] for i in result.principal_variation]
    shared: dict[tuple[Exact, ...], dict[str, Any]] = {}
    nodes: dict[str, Any] = {}
    spend = current_deadline().spend
    width = tree.utility_size
    for index, payoffs in enumerate(result.values):
        if payoffs is None:
            continue
        spend(width)
        entry = shared.get(payoffs)
        if entry is None:
            entry = shared[payoffs] = _tuple_entry(payoffs)
        nodes[ids[index]] = entry
    out["nodes"] = nodes
    out["players"] = {
        ids[i]: mover
        for i, mover in enumerate(result.movers)
        if mover is not None and tree.kinds[i] != CHANCE and result.values[i] is not None
    }
    spend(len(ids))
    out["decisions"] = _decisions(tree, result.best_child, result.values)
    out["ties"] = [ids[i] for i in result.ties]
    out["tie_break"] = result.tie_break
    put_number(out, "max_sum", result.max_sum)
    out["pruned"] = [ids[i] for i in result.pruned]
    out["pruned_leaves"] = [ids[i] for i in result.pruned_leaves]
    out["depth"] = result.depth
    out["stats"] = stats_json(result.stats)
    if result.trace is not None:
        trace = []
        for event in result.trace:
            spend(4 + width + len(event.cut) // 16)
            trace.append(maxn_event_json(result, event))
        out["trace"] = trace
    if paranoid_result is not None:
        reduced = (
            alpha_beta_json(paranoid_result, None)
            if isinstance(paranoid_result, AlphaBetaResult)
            else expectimax_json(paranoid_result)
        )
        reduced["player"] = player
        out["paranoid"] = reduced
    return out


def graph_test_json(result: GraphSearchResult, game: GraphGame) -> dict[str, Any]:
    """A CS188 graph test as the autograder's agent plays it (``/v1/trees/cs188``)."""
    out: dict[str, Any] = {"algorithm": result.algorithm, "action": result.action}
    put_number(out, "value", result.value)
    out["generated"] = list(result.generated)
    out["generated_text"] = " ".join(result.generated)
    out["generation_order"] = list(result.generation_order)
    out["evaluated"] = list(result.evaluated)
    action_values = []
    for action, value in result.action_values:
        entry: dict[str, Any] = {"action": action}
        put_number(entry, "value", value)
        action_values.append(entry)
    out["action_values"] = action_values
    out["start_state"] = game.start_state
    out["num_agents"] = game.num_agents
    out["depth"] = game.depth
    return out
