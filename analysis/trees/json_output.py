"""Turn tree-search results into JSON-ready dicts (used by the API and the CLI).

Results of a million-node tree have a million node entries, so this is done
by hand rather than by a marshmallow dump (which costs microseconds per field);
``api.schemas.trees`` documents the same shapes and the contract tests check
real responses against it. Node entries are shared between nodes with the
same value and bound, which keeps building the ``nodes`` map cheap.

Every number is written by :mod:`games.numbers` (the one writer of numbers, under the
rule of ``docs/numbers.md``), and
building an answer spends on the deadline of the computation in progress: a
million distinct fractions take seconds to hash and write out.
"""

from __future__ import annotations

from typing import Any, Final

from analysis.trees.alpha_beta import EXACT, AlphaBetaResult, Cutoff, TraceEvent
from analysis.trees.cs188_agents import GraphSearchResult
from analysis.trees.expectimax import ExpectimaxResult
from analysis.trees.max_n import MaxnResult
from analysis.trees.minimax import MinimaxResult
from analysis.trees.move_ordering import MoveOrderingReport
from analysis.trees.search_stats import SearchStats
from analysis.trees.solve import TreeSolution
from games.formats.cs188 import GraphGame
from games.limits import current_deadline
from games.numbers import Exact, exact_text, put_numbers
from games.numbers import put_number as write_number
from games.trees.model import CHANCE, Tree

CHUNK: Final = 16_384
"""Nodes handled by one whole-list pass (in C) between two readings of the clock."""


def put_number(target: dict[str, Any], name: str, value: Exact | float | None) -> None:
    """Set ``target[name]`` to a JSON number, adding ``name_exact`` where it is not exact.

    Numbers are written by :func:`games.numbers.put_number`; ``None`` stays ``null`` and
    infinite alpha/beta windows are written as the strings ``"-inf"``/``"inf"``.
    """
    if value is None:
        target[name] = None
    elif isinstance(value, float):
        target[name] = "inf" if value > 0 else "-inf"
    else:
        write_number(target, name, value)


def node_map(
    tree: Tree, values: list[Exact | None], bounds: list[str | None] | None
) -> dict[str, Any]:
    """``{id: {"value", "value_exact"?, "bound"}}`` for every node with a value.

    One entry object is built per distinct (value, bound) pair and shared, so the
    per-node work is a dictionary lookup done in C by ``map``.
    """
    keys: list[Any] = values if bounds is None else list(zip(values, bounds, strict=True))
    spend = current_deadline().spend
    # hashing a Fraction costs about a microsecond, so the keys are taken a chunk at a time
    distinct: set[Any] = set()
    for start in range(0, len(keys), CHUNK):
        distinct.update(keys[start : start + CHUNK])
        spend(CHUNK)
    entries: dict[Any, dict[str, Any] | None] = {}
    gaps = False
    for key in distinct:
        value, bound = (key, EXACT) if bounds is None else key
        spend(1 + _size(value) // 64)
        if value is None:
            entries[key] = None
            gaps = True
            continue
        entry: dict[str, Any] = {}
        put_number(entry, "value", value)
        entry["bound"] = bound
        entries[key] = entry
    shared: list[dict[str, Any] | None] = []
    for start in range(0, len(keys), CHUNK):
        shared.extend(map(entries.__getitem__, keys[start : start + CHUNK]))
        spend(CHUNK)
    if not gaps:
        return dict(zip(tree.ids, shared, strict=True))
    return {name: entry for name, entry in zip(tree.ids, shared, strict=True) if entry is not None}


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
    tree: Tree, value: Exact, best_move: int, line: list[int], depth: int | None
) -> dict[str, Any]:
    ids = tree.ids
    out: dict[str, Any] = {}
    put_number(out, "value", value)
    out["root_kind"] = tree.root_kind
    out["best_move"] = ids[best_move] if best_move >= 0 else None
    out["best_move_label"] = tree.moves[best_move] if best_move >= 0 else None
    out["principal_variation"] = [ids[i] for i in line]
    out["depth"] = depth
    return out


def minimax_json(result: MinimaxResult) -> dict[str, Any]:
    tree = result.tree
    best = result.best_child[0]
    out = _common(tree, result.value, best, result.principal_variation, result.depth)
    out["best_moves"] = [tree.ids[i] for i in result.best_moves]
    out["nodes"] = node_map(tree, result.values, None)
    out["stats"] = stats_json(result.stats)
    return out


def _cutoff_json(ids: list[str], cutoff: Cutoff) -> dict[str, Any]:
    entry: dict[str, Any] = {"node": ids[cutoff.node]}
    put_number(entry, "alpha", cutoff.alpha)
    put_number(entry, "beta", cutoff.beta)
    put_number(entry, "value", cutoff.value)
    entry["after"] = ids[cutoff.after]
    entry["cut"] = [ids[i] for i in cutoff.cut]
    return entry


def _shown(value: Exact | float | None) -> str:
    """A number as a sentence shows it: exact, with the infinite windows as -inf/inf."""
    if value is None:
        return "none"
    if isinstance(value, float):
        return "inf" if value > 0 else "-inf"
    return exact_text(value) or f"{float(value):.6g}"


def explain(tree: Tree, event: TraceEvent, prune_on_equality: bool) -> str:
    """One sentence saying what a step of alpha-beta does and why (the workbench shows it)."""
    ids = tree.ids
    node = ids[event.node]
    kind = tree.kinds[event.node].upper()
    alpha, beta, value = _shown(event.alpha), _shown(event.beta), _shown(event.value)
    if event.event == "enter":
        return f"{kind} at {node} is entered with alpha = {alpha} and beta = {beta}."
    if event.event == "evaluate":
        return f"{node} is evaluated: {value}."
    if event.event == "update":
        child = ids[event.child]
        return (
            f"{kind} at {node} takes {child} into account: v = {value} "
            f"(alpha = {alpha}, beta = {beta})."
        )
    if event.event == "cutoff":
        cut = ", ".join(ids[i] for i in event.cut)
        if kind == "MAX":
            test = f"v = {value} {'>=' if prune_on_equality else '>'} beta = {beta}"
        else:
            test = f"v = {value} {'<=' if prune_on_equality else '<'} alpha = {alpha}"
        return f"{kind} at {node}: {test}, so {node}'s remaining children are pruned ({cut})."
    meaning = {
        "lower": f" (a lower bound: {node} is worth at least {value})",
        "upper": f" (an upper bound: {node} is worth at most {value})",
    }.get(event.bound, "")
    return f"{node} returns {value} to its parent{meaning}."


def _event_json(tree: Tree, event: TraceEvent, prune_on_equality: bool) -> dict[str, Any]:
    ids = tree.ids
    entry: dict[str, Any] = {"event": event.event, "node": ids[event.node]}
    put_number(entry, "alpha", event.alpha)
    put_number(entry, "beta", event.beta)
    put_number(entry, "value", event.value)
    if event.child >= 0:
        entry["child"] = ids[event.child]
    if event.event == "return":
        entry["bound"] = event.bound
    if event.cut:
        entry["cut"] = [ids[i] for i in event.cut]
    entry["explanation"] = explain(tree, event, prune_on_equality)
    return entry


def alpha_beta_json(result: AlphaBetaResult, ordering: MoveOrderingReport | None) -> dict[str, Any]:
    tree = result.tree
    ids = tree.ids
    out = _common(tree, result.value, result.best_move, result.principal_variation, result.depth)
    out["prune_on_equality"] = result.prune_on_equality
    out["nodes"] = node_map(tree, result.values, result.bounds)
    out["pruned"] = [ids[i] for i in result.pruned]
    out["pruned_leaves"] = [ids[i] for i in result.pruned_leaves]
    out["evaluated_leaves"] = [ids[i] for i in result.evaluated_leaves]
    spend = current_deadline().spend
    cutoffs = []
    for cutoff in result.cutoffs:
        spend(4 + len(cutoff.cut) // 16)
        cutoffs.append(_cutoff_json(ids, cutoff))
    out["cutoffs"] = cutoffs
    out["stats"] = stats_json(result.stats)
    if result.trace is not None:
        trace = []
        for event in result.trace:
            spend(4 + len(event.cut) // 16)
            trace.append(_event_json(tree, event, result.prune_on_equality))
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


def _decisions(tree: Tree, best_child: list[int], values: list[Any]) -> dict[str, str]:
    """The move chosen at every decision (MAX, MIN or player) node that was searched."""
    ids, kinds = tree.ids, tree.kinds
    return {
        ids[node]: ids[child]
        for node, child in enumerate(best_child)
        if child >= 0 and kinds[node] != CHANCE and values[node] is not None
    }


def _outcomes(
    tree: Tree, line: list[int], values: list[Any], bounds: list[str | None] | None
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
    return out


def star1_json(result: AlphaBetaResult, bounds: tuple[Exact, Exact]) -> dict[str, Any]:
    tree = result.tree
    out = alpha_beta_json(result, None)
    out["decisions"] = _decisions(tree, result.best_child, result.values)
    out["principal_variation_outcomes"] = _outcomes(
        tree, result.principal_variation, result.values, result.bounds
    )
    put_numbers(out, "bounds", bounds)
    return out


def solution_json(solution: TreeSolution) -> dict[str, Any]:
    """The documented answer for a solved tree, whichever search ran."""
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
        return alpha_beta_json(search, solution.move_ordering)
    if isinstance(search, ExpectimaxResult):
        return expectimax_json(search)
    return minimax_json(search)


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
