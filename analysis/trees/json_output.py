"""Turn tree-search results into JSON-ready dicts (used by the API and the CLI).

Results of a million-node tree have a million node entries, so this is done
by hand rather than by a marshmallow dump (which costs microseconds per field);
``api.schemas.trees`` documents the same shapes and the contract tests check
real responses against it. Node entries are shared between nodes with the
same value and bound, which keeps building the ``nodes`` map cheap.

Every number is written by :mod:`games.numbers` (the one writer of numbers, under the
rule of ``docs/numbers.md``), and
building an answer spends on the deadline of the computation in progress: a
million distinct fractions take seconds to hash and write out. The members the compiled
writers write as JSON bytes can be set aside while an answer is made, for a server to send
as they are (:func:`written_apart`, :func:`answer_chunks`).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from math import gcd
from typing import Any, Final

import orjson

from analysis.trees.alpha_beta import (
    BOUND_NAMES,
    COMPILED,
    EXACT,
    UPPER,
    AlphaBetaResult,
    BoundColumn,
    Cutoff,
    CutoffRows,
    ScaledValues,
    TraceEvent,
)
from analysis.trees.cs188_agents import GraphSearchResult
from analysis.trees.expectimax import ExpectimaxResult
from analysis.trees.max_n import MaxnResult, MaxnTraceEvent
from analysis.trees.minimax import MinimaxResult
from analysis.trees.move_ordering import MoveOrderingReport
from analysis.trees.search_stats import SearchStats
from analysis.trees.solve import TreeSolution
from analysis.trees.star1 import ScaledKeys, Star1Result
from games.formats.cs188 import GraphGame
from games.limits import current_deadline
from games.numbers import (
    JSON_INT_LIMIT,
    Exact,
    exact_entry,
    exact_text,
    is_json_exact,
    normalize,
    put_numbers,
    to_float,
)
from games.numbers import put_number as write_number
from games.trees.compiled_reader import walkable
from games.trees.model import CHANCE, Tree

try:
    from analysis.trees._kernels import (
        column_bytes,
        cutoffs_bytes,
        id_array_bytes,
        leaf_runs_bytes,
        leaves_bytes,
        node_map_bytes,
        present_columns_bytes,
        runs_bytes,
        scaled_node_map_bytes,
        words_bytes,
    )
except ImportError:  # not built: the maps and lists are built as dicts and lists
    column_bytes = cutoffs_bytes = id_array_bytes = leaves_bytes = node_map_bytes = None  # type: ignore[assignment]
    leaf_runs_bytes = runs_bytes = scaled_node_map_bytes = words_bytes = None  # type: ignore[assignment]
    present_columns_bytes = None  # type: ignore[assignment]

try:
    from analysis.trees._kernels import decisions_bytes
except ImportError:  # not built: the decisions are a dict
    decisions_bytes = None  # type: ignore[assignment]

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


PART_FLOOR: Final = 1 << 16
"""Bytes from which a written member is set aside while :func:`written_apart` collects."""

_apart: ContextVar[list[bytes] | None] = ContextVar("written_apart", default=None)


def fragment(contents: bytes) -> orjson.Fragment:
    """A member of an answer already written as JSON, which ``orjson.dumps`` copies into the
    answer as it is (an ``orjson.Fragment``). While :func:`written_apart` collects, a large one
    is set aside instead, and a mark (``\\0`` index ``\\0``, bytes that JSON never holds raw)
    stands in its place: see :func:`answer_chunks`."""
    parts = _apart.get()
    if parts is None or len(contents) < PART_FLOOR:
        return orjson.Fragment(contents)
    parts.append(contents)
    return orjson.Fragment(b"\0%d\0" % (len(parts) - 1))


@contextmanager
def written_apart() -> Iterator[list[bytes]]:
    """Collect the large written members of the answers made in the block (see
    :func:`fragment`): the answer's own bytes then need not be copied once more into one
    buffer of its size (a node map can be most of a 50 MB answer), and a server sends the
    pieces as they are (:func:`answer_chunks`)."""
    parts: list[bytes] = []
    token = _apart.set(parts)
    try:
        yield parts
    finally:
        _apart.reset(token)


def answer_chunks(rest: bytes, parts: Sequence[bytes]) -> list[bytes]:
    """The bytes of an answer whose large members were set aside (``parts``, see
    :func:`written_apart`), in order, as chunks: ``rest`` (``orjson.dumps`` of the answer)
    with each mark replaced by its member. Every member's mark must be there, once."""
    pieces = rest.split(b"\0")
    if len(pieces) != 2 * len(parts) + 1:
        raise ValueError("the answer does not hold one mark a member set aside")
    chunks = [pieces[0]]
    found: set[int] = set()
    for k in range(len(parts)):
        index = int(pieces[2 * k + 1])
        if index in found or not 0 <= index < len(parts):
            raise ValueError("a mark is not that of a member set aside, once")
        found.add(index)
        chunks += (parts[index], pieces[2 * k + 2])
    return chunks


def node_names(tree: Tree, layout: str = MAP) -> Sequence[Any]:
    """How an answer names the nodes of ``tree``: their ids, or in the ``columns`` layout
    their breadth-first indices (``range(len(tree))``, which the compiled writers write as
    integers)."""
    return range(len(tree)) if layout == COLUMNS else tree.ids


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
    tree: Tree, values: Sequence[Exact | None], bounds: Sequence[str | None] | None
) -> dict[str, Any]:
    """``{id: {"value", "value_exact"?, "bound"}}`` for every node with a value.

    One entry object is built per distinct (value, bound) pair and shared, so the
    per-node work is a dictionary lookup done in C by ``map``.
    """
    keys: Sequence[Any] = values if bounds is None else list(zip(values, bounds, strict=True))
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


def nodes_json(
    tree: Tree,
    values: Sequence[Exact | None],
    bounds: Sequence[str | None] | None,
    fragments: bool,
) -> Any:
    """:func:`node_map`, or with ``fragments`` the same map already written as JSON bytes
    (an ``orjson.Fragment``, which ``orjson.dumps`` copies into the answer as is) by the
    compiled writer, several times faster than building the dict and dumping it."""
    if not (fragments and COMPILED):
        return node_map(tree, values, bounds)
    spend = current_deadline().spend
    coded = _value_columns(values, bounds)
    if coded is not None:
        numbers, codes = coded
        return fragment(
            node_map_bytes(
                tree.ids,
                numbers,
                None,
                EXACT,
                _entry_bytes,
                orjson.dumps,
                spend,
                codes=codes,
                bound_names=BOUND_NAMES,
            )
        )
    # (a column of machine integers, minimax's over them, is read as it is)
    values = values if isinstance(values, (list, array)) else list(values)
    if bounds is not None and not isinstance(bounds, list):
        bounds = list(bounds)
    return fragment(
        node_map_bytes(tree.ids, values, bounds, EXACT, _entry_bytes, orjson.dumps, spend)
    )


def _value_columns(
    values: Sequence[Exact | None], bounds: Sequence[str | None] | None
) -> tuple[Sequence[int], bytes] | None:
    """The columns a compiled search on machine integers keeps its values and bounds in
    (alpha-beta's, see :class:`analysis.trees.alpha_beta.ScaledValues`), for the compiled
    writers to read as they are; None for any other values."""
    if (
        isinstance(values, ScaledValues)
        and values.factor == 1
        and isinstance(bounds, BoundColumn)
        and bounds.codes is values.codes
    ):
        return values.numbers, values.codes
    return None


def runs(indices: Iterable[int]) -> list[list[int]]:
    """``indices`` as runs ``[start, stop]``: maximal stretches of consecutive increasing
    indices (``stop`` one past the last), in the order given. ``[5, 6, 7, 2]`` is
    ``[[5, 8], [2, 3]]``; ``[i for start, stop in runs for i in range(start, stop)]`` gives
    the indices back."""
    found: list[list[int]] = []
    for index in indices:
        if found and found[-1][1] == index:
            found[-1][1] = index + 1
        else:
            found.append([index, index + 1])
    return found


def columns_json(
    values: Sequence[Exact | None], bounds: Sequence[str | None] | None, fragments: bool
) -> dict[str, Any]:
    """The ``columns`` of the columns layout: ``node``, the runs of the nodes with a value;
    then one entry per such node in ``value`` (with its ``value_exact`` companion under the
    list rule of ``docs/numbers.md``) and, with ``bounds``, in ``bound``. With ``fragments``
    each list is JSON bytes written by the compiled writer (see :func:`nodes_json`), the
    same bytes as ``orjson.dumps`` of the lists."""
    spend = current_deadline().spend
    out: dict[str, Any] = {}
    if not (fragments and COMPILED):
        spend(len(values))
        present = [index for index, value in enumerate(values) if value is not None]
        out["node"] = runs(present)
        put_numbers(out, "value", [values[index] for index in present])
        if bounds is not None:
            out["bound"] = [bounds[index] for index in present]
        return out
    coded = _value_columns(values, bounds)
    if coded is not None:
        numbers, codes = coded
        node_runs, coded_values, _, coded_bounds = present_columns_bytes(
            numbers, BOUND_NAMES, _number_bytes, orjson.dumps, spend, codes=codes
        )
        assert coded_bounds is not None  # (the codes give every node with a value a bound)
        out["node"] = fragment(node_runs)
        out["value"] = fragment(coded_values)
        out["bound"] = fragment(coded_bounds)
        return out
    if isinstance(values, array) and bounds is None:
        # a column of machine integers (minimax over them): every node has a value
        written = words_bytes(values, spend)
        if written is not None:
            out["node"] = [[0, len(values)]] if len(values) else []
            out["value"] = fragment(written)
            return out
    values = values if isinstance(values, list) else list(values)
    if bounds is not None and not isinstance(bounds, list):
        bounds = list(bounds)
    node_runs, written, others, bound_column = present_columns_bytes(
        values, bounds, _number_bytes, orjson.dumps, spend
    )
    out["node"] = fragment(node_runs)
    out["value"] = fragment(written)
    if not all(map(is_json_exact, others)):
        companion = column_bytes(values, _text_bytes, False, values, spend)[0]
        out["value_exact"] = fragment(companion)
    if bound_column is not None:
        out["bound"] = fragment(bound_column)
    return out


def node_list_json(tree: Tree, indices: Iterable[int], fragments: bool, layout: str) -> Any:
    """A list of nodes that can be as long as the tree: their ids, or in the columns layout
    their :func:`runs` (with ``fragments`` as JSON bytes, see :func:`nodes_json`)."""
    if layout != COLUMNS:
        return ids_json(tree.ids, indices, fragments)
    spend = current_deadline().spend
    if fragments and COMPILED:
        return fragment(runs_bytes(indices, spend))
    listed = list(indices)
    spend(len(listed))
    return runs(listed)


def _number_bytes(value: Exact) -> bytes:
    """One number of a column as JSON (the rule's JSON number), charging the deadline."""
    current_deadline().spend(1 + _size(value) // 64)
    return orjson.dumps(to_float(value))


def _text_bytes(value: Exact) -> bytes:
    """One entry of a column's exact companion: the exact string, integers included."""
    current_deadline().spend(1 + _size(value) // 64)
    return orjson.dumps(exact_entry(value))


def ids_json(names: Sequence[Any], indices: Iterable[int], fragments: bool) -> Any:
    """The names (see :func:`node_names`) of ``indices`` as a list, or with ``fragments`` as
    JSON bytes (see :func:`nodes_json`)."""
    if not (fragments and COMPILED):
        return [names[i] for i in indices]
    return fragment(id_array_bytes(names, indices, orjson.dumps, current_deadline().spend))


def pruned_leaves_json(result: AlphaBetaResult, fragments: bool, layout: str = MAP) -> Any:
    """``result.pruned_leaves`` named as ``layout`` names nodes; with ``fragments`` written
    straight from the pruned subtrees (see :func:`nodes_json`), without listing them first."""
    tree = result.tree
    if not (fragments and COMPILED) or "pruned_leaves" in result.__dict__:
        return node_list_json(tree, result.pruned_leaves, fragments, layout)
    children = result.search_children
    # searched to the leaves of a tree whose leaves are all on its last level: the leaves
    # below a node are one block of that level, found in a few steps per level
    last_level = children is tree.children and tree.leaves_on_last_level()
    children = walkable(children)
    spend = current_deadline().spend
    if layout == COLUMNS:
        return fragment(leaf_runs_bytes(children, result.pruned, spend, last_level))
    written = leaves_bytes(tree.ids, children, result.pruned, orjson.dumps, spend, last_level)
    return fragment(written)


def cutoffs_json(result: AlphaBetaResult, fragments: bool, layout: str = MAP) -> Any:
    """The cutoff records of an alpha-beta or Star1 search, nodes named as ``layout`` names
    them; with ``fragments`` written as JSON bytes (see :func:`nodes_json`)."""
    ids = node_names(result.tree, layout)
    spend = current_deadline().spend
    if fragments and COMPILED:
        return fragment(
            cutoffs_bytes(ids, _rows(result.cutoffs), _member_bytes, orjson.dumps, spend)
        )
    cutoffs = []
    for cutoff in result.cutoffs:
        spend(4 + len(cutoff.cut) // 16)
        cutoffs.append(_cutoff_json(ids, cutoff))
    return cutoffs


def _rows(cutoffs: Sequence[Cutoff]) -> list[Any]:
    """The cutoff records as the writer reads them (by position): a list of them, or the
    plain tuples a :class:`CutoffRows` keeps."""
    if isinstance(cutoffs, CutoffRows):
        return cutoffs.rows
    return cutoffs if isinstance(cutoffs, list) else list(cutoffs)


def _member_bytes(name: str, value: Exact | float) -> bytes:
    """The members :func:`put_number` writes for one number, as JSON (``"alpha":3``)."""
    members: dict[str, Any] = {}
    put_number(members, name, value)
    return orjson.dumps(members)[1:-1]


def _entry_bytes(value: Exact, bound: str) -> bytes:
    """One ``nodes`` entry as JSON, as :func:`node_map` builds it."""
    current_deadline().spend(1 + _size(value) // 64)
    entry: dict[str, Any] = {}
    put_number(entry, "value", value)
    entry["bound"] = bound
    return orjson.dumps(entry)


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


def minimax_json(
    result: MinimaxResult, *, fragments: bool = False, layout: str = MAP
) -> dict[str, Any]:
    """The answer of ``/v1/trees/minimax`` in ``layout`` (see :data:`LAYOUTS`);
    ``fragments``: see :func:`nodes_json`."""
    tree = result.tree
    best = result.best_child[0]
    out = _common(tree, result.value, best, result.principal_variation, result.depth, layout)
    names = node_names(tree, layout)
    out["best_moves"] = [names[i] for i in result.best_moves]
    if layout == COLUMNS:
        out["columns"] = columns_json(result.values, None, fragments)
    else:
        out["nodes"] = nodes_json(tree, result.values, None, fragments)
    out["stats"] = stats_json(result.stats)
    return out


def _cutoff_json(ids: Sequence[str], cutoff: Cutoff) -> dict[str, Any]:
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


def _kind(tree: Tree, node: int) -> str:
    kind = tree.kinds[node]
    return "chance" if kind == CHANCE else kind.upper()


def _unseen(tree: Tree, node: int, child: int) -> Exact:
    """Probability of the outcomes of chance node ``node`` after ``child``."""
    kids = tree.children[node]
    seen = kids[: kids.index(child) + 1]
    return normalize(Fraction(1) - sum((tree.probabilities[kid] or 0 for kid in seen), Fraction()))


def explain(
    tree: Tree,
    event: TraceEvent,
    prune_on_equality: bool,
    bounds: tuple[Exact, Exact] | None = None,
    *,
    windowed: bool = True,
) -> str:
    """One sentence saying what a step of a search does and why (the workbench shows it).

    Alpha-beta and Star1 (``bounds`` given) speak of their window; plain expectimax
    (``windowed=False``) has none and speaks of the value so far.
    """
    ids = tree.ids
    node = ids[event.node]
    kind = _kind(tree, event.node)
    alpha, beta, value = _shown(event.alpha), _shown(event.beta), _shown(event.value)
    window = f"alpha = {alpha}, beta = {beta}"
    if event.event == "enter":
        if not windowed:
            return f"{kind} at {node} is entered."
        parent = tree.parents[event.node]
        if bounds is not None and parent >= 0 and tree.kinds[parent] == CHANCE:
            return (
                f"{kind} at {node} is entered with {window}, Star1's window for this outcome "
                f"of {ids[parent]} (A and B clipped to [{_shown(bounds[0])}, "
                f"{_shown(bounds[1])}])."
            )
        return f"{kind} at {node} is entered with alpha = {alpha} and beta = {beta}."
    if event.event == "evaluate":
        return f"{node} is evaluated: {value}."
    if event.event == "update":
        child = ids[event.child]
        if tree.kinds[event.node] == CHANCE:
            return _chance_update(tree, event, bounds, window if windowed else "")
        if not windowed:
            return f"{kind} at {node} takes {child} into account: the best so far is {value}."
        return f"{kind} at {node} takes {child} into account: v = {value} ({window})."
    if event.event == "cutoff":
        cut = ", ".join(ids[i] for i in event.cut)
        if kind == "chance" and bounds is not None:
            return _chance_cutoff(
                node, value, alpha, beta, cut, event.bound, bounds, prune_on_equality
            )
        if kind == "MAX":
            test = f"v = {value} {'>=' if prune_on_equality else '>'} beta = {beta}"
        else:
            test = f"v = {value} {'<=' if prune_on_equality else '<'} alpha = {alpha}"
        return f"{kind} at {node}: {test}, so {node}'s remaining children are pruned ({cut})."
    if event.node == 0:
        return f"{node} returns {value}: the value of the tree."
    meaning = {
        "lower": f" (a lower bound: {node} is worth at least {value})",
        "upper": f" (an upper bound: {node} is worth at most {value})",
    }.get(event.bound, "")
    return f"{node} returns {value} to its parent{meaning}."


def _chance_update(
    tree: Tree, event: TraceEvent, bounds: tuple[Exact, Exact] | None, window: str
) -> str:
    ids = tree.ids
    node, child = ids[event.node], ids[event.child]
    total = event.value
    assert total is not None
    rest = _unseen(tree, event.node, event.child)
    said = (
        f"chance at {node} takes {child} (p = {_shown(tree.probabilities[event.child])}) "
        f"into account: the sum of p * v is {_shown(total)}"
    )
    if rest == 0:
        return f"{said}, every outcome seen, so {node} is worth {_shown(total)}."
    if bounds is None:
        return f"{said} so far, with {_shown(rest)} of the probability still unseen."
    low, high = (normalize(Fraction(total + bound * rest)) for bound in bounds)
    return (
        f"{said} with {_shown(rest)} of the probability unseen, so {node} is worth between "
        f"{_shown(low)} and {_shown(high)} ({window})."
    )


def _chance_cutoff(
    node: str,
    value: str,
    alpha: str,
    beta: str,
    cut: str,
    bound: str,
    bounds: tuple[Exact, Exact],
    prune_on_equality: bool,
) -> str:
    """Star1's cut at a chance node: the unseen outcomes cannot move it past the window."""
    if bound == UPPER:
        test = f"{'<=' if prune_on_equality else '<'} alpha = {alpha}"
        return (
            f"chance at {node}: even if its remaining outcomes are all worth hi = "
            f"{_shown(bounds[1])}, it is worth at most {value} {test}, so they cannot lift it "
            f"past alpha and are pruned ({cut})."
        )
    test = f"{'>=' if prune_on_equality else '>'} beta = {beta}"
    return (
        f"chance at {node}: even if its remaining outcomes are all worth lo = "
        f"{_shown(bounds[0])}, it is worth at least {value} {test}, so they cannot lower it "
        f"past beta and are pruned ({cut})."
    )


def _event_json(
    tree: Tree,
    event: TraceEvent,
    prune_on_equality: bool,
    bounds: tuple[Exact, Exact] | None = None,
    *,
    windowed: bool = True,
) -> dict[str, Any]:
    ids = tree.ids
    entry: dict[str, Any] = {"event": event.event, "node": ids[event.node]}
    if windowed:
        put_number(entry, "alpha", event.alpha)
        put_number(entry, "beta", event.beta)
    put_number(entry, "value", event.value)
    if event.child >= 0:
        entry["child"] = ids[event.child]
        if event.event == "update" and tree.kinds[event.node] == CHANCE:
            put_number(entry, "rest", _unseen(tree, event.node, event.child))
    if event.event == "return" and windowed:
        entry["bound"] = event.bound
    if event.event == "cutoff" and event.bound != EXACT:
        entry["bound"] = event.bound
    if event.cut:
        entry["cut"] = [ids[i] for i in event.cut]
    entry["explanation"] = explain(tree, event, prune_on_equality, bounds, windowed=windowed)
    return entry


def alpha_beta_json(
    result: AlphaBetaResult,
    ordering: MoveOrderingReport | None,
    bounds: tuple[Exact, Exact] | None = None,
    *,
    fragments: bool = False,
    layout: str = MAP,
) -> dict[str, Any]:
    """The answer of ``/v1/trees/alphabeta`` (Star1's with ``bounds``) in ``layout`` (see
    :data:`LAYOUTS`; the trace, which speaks of ids, is written in the map layout only);
    ``fragments``: see :func:`nodes_json`."""
    tree = result.tree
    out = _common(
        tree, result.value, result.best_move, result.principal_variation, result.depth, layout
    )
    out["prune_on_equality"] = result.prune_on_equality
    if layout == COLUMNS:
        out["columns"] = columns_json(result.values, result.bounds, fragments)
    else:
        out["nodes"] = nodes_json(tree, result.values, result.bounds, fragments)
    out["pruned"] = node_list_json(tree, result.pruned, fragments, layout)
    out["pruned_leaves"] = pruned_leaves_json(result, fragments, layout)
    out["evaluated_leaves"] = node_list_json(tree, result.evaluated_leaves, fragments, layout)
    out["cutoffs"] = cutoffs_json(result, fragments, layout)
    out["stats"] = stats_json(result.stats)
    if result.trace is not None:
        if layout != MAP:
            raise ValueError("the trace is written in the map layout only")
        spend = current_deadline().spend
        trace = []
        for event in result.trace:
            spend(4 + len(event.cut) // 16)
            trace.append(_event_json(tree, event, result.prune_on_equality, bounds))
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


def decisions_json(
    tree: Tree, best_child: Sequence[int], values: Sequence[Any], fragments: bool
) -> Any:
    """:func:`_decisions`, or with ``fragments`` the same map written as JSON bytes by the
    compiled writer (see :func:`nodes_json`)."""
    if not (fragments and COMPILED) or decisions_bytes is None:
        return _decisions(tree, best_child, values)
    kinds = tree.kinds
    return fragment(
        decisions_bytes(
            tree.ids,
            best_child if isinstance(best_child, (list, array)) else list(best_child),
            kinds if isinstance(kinds, list) else list(kinds),
            values.codes
            if isinstance(values, ScaledValues)
            else values
            if isinstance(values, list)
            else list(values),
            CHANCE,
            orjson.dumps,
            current_deadline().spend,
        )
    )


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


SCALED_TEXT_BITS: Final = 1000
"""Longest numerator or denominator :func:`put_scaled_number` writes itself."""


def put_scaled_number(target: dict[str, Any], name: str, key: Any, factor: int) -> None:
    """:func:`put_number` of the number a key on a common scale stands for
    (:func:`analysis.trees.star1.value_of_key`: ``key / factor``, ``num / (den * factor)``
    for a pair, an infinity as itself), without making the fraction: an answer writes
    thousands of distinct ones."""
    if type(key) is float:
        put_number(target, name, key)
        return
    if type(key) is tuple:
        numerator, denominator = key[0], key[1] * factor
    else:
        numerator, denominator = key, factor
    if max(numerator.bit_length(), denominator.bit_length()) > SCALED_TEXT_BITS:
        current_deadline().spend(1 + _size(Fraction(numerator, denominator)) // 64)
        put_number(target, name, normalize(Fraction(numerator, denominator)))
        return
    shared = gcd(numerator, denominator)
    if shared != 1:
        numerator, denominator = numerator // shared, denominator // shared
    if denominator == 1:
        if -JSON_INT_LIMIT <= numerator < JSON_INT_LIMIT:
            target[name] = numerator
            return
        target[name] = numerator / 1
        target[f"{name}_exact"] = str(numerator)
        return
    # (int / int rounds once, to the nearest double, as float(Fraction) does)
    target[name] = numerator / denominator
    target[f"{name}_exact"] = f"{numerator}/{denominator}"


def _expectimax_nodes_json(result: ExpectimaxResult, fragments: bool) -> Any:
    """:func:`nodes_json` of an expectimax result; when the back-up ran on a common scale,
    the compiled writer looks entries up by the values on that scale (integers hash in C; a
    fraction's hash is Python code) and makes each distinct entry from its value."""
    scaled = result.scaled
    if not (fragments and COMPILED) or scaled is None:
        return nodes_json(result.tree, result.values, None, fragments)
    keys, factor = scaled

    def entry(key: int, bound: str) -> bytes:
        members: dict[str, Any] = {}
        put_scaled_number(members, "value", key, factor)
        members["bound"] = bound
        return orjson.dumps(members)

    return fragment(
        node_map_bytes(
            result.tree.ids,
            keys,
            None,
            EXACT,
            entry,
            orjson.dumps,
            current_deadline().spend,
            integers=False,  # keys on the scale, not values
        )
    )


def expectimax_json(result: ExpectimaxResult, *, fragments: bool = False) -> dict[str, Any]:
    """The answer of ``/v1/trees/expectimax``; ``fragments``: see :func:`nodes_json`."""
    tree = result.tree
    out = _common(
        tree,
        result.value,
        result.best_child[0] if tree.kinds[0] != CHANCE else -1,
        result.principal_variation,
        result.depth,
    )
    out["best_moves"] = [tree.ids[i] for i in result.best_moves]
    out["nodes"] = _expectimax_nodes_json(result, fragments)
    out["decisions"] = decisions_json(tree, result.best_child, result.values, fragments)
    out["principal_variation_outcomes"] = _outcomes(
        tree, result.principal_variation, result.values, None
    )
    out["stats"] = stats_json(result.stats)
    if result.trace is not None:
        spend = current_deadline().spend
        trace = []
        for event in result.trace:
            spend(4)
            trace.append(_event_json(tree, event, True, windowed=False))
        out["trace"] = trace
    return out


def _scaled_star1_json(result: Star1Result, scaled: ScaledKeys) -> dict[str, Any]:
    """:func:`alpha_beta_json` of a Star1 search run on a common scale (no trace, no move
    ordering), field for field, its ``nodes`` and ``cutoffs`` written by the compiled
    writers from the numbers' keys on that scale (integers and pairs hash in C, fractions in
    Python). The tests compare it with :func:`alpha_beta_json` byte for byte."""
    tree = result.tree
    ids = tree.ids
    spend = current_deadline().spend
    out = _common(tree, result.value, result.best_move, result.principal_variation, result.depth)
    out["prune_on_equality"] = result.prune_on_equality
    factor = scaled.factor

    def entry(key: Any, bound: str) -> bytes:
        members: dict[str, Any] = {}
        put_scaled_number(members, "value", key, factor)
        members["bound"] = bound
        return orjson.dumps(members)

    def member(name: str, key: Any) -> bytes:
        members: dict[str, Any] = {}
        put_scaled_number(members, name, key, factor)
        return orjson.dumps(members)[1:-1]

    out["nodes"] = fragment(
        scaled_node_map_bytes(
            ids, scaled.numbers, scaled.codes, BOUND_NAMES[1:], entry, orjson.dumps, spend
        )
    )
    out["pruned"] = ids_json(tree.ids, result.pruned, True)
    out["pruned_leaves"] = pruned_leaves_json(result, True)
    out["evaluated_leaves"] = ids_json(tree.ids, result.evaluated_leaves, True)
    out["cutoffs"] = fragment(
        cutoffs_bytes(ids, scaled.cutoffs, member, orjson.dumps, spend, integers=False)
    )
    out["stats"] = stats_json(result.stats)
    return out


def star1_json(
    result: AlphaBetaResult, bounds: tuple[Exact, Exact], *, fragments: bool = False
) -> dict[str, Any]:
    tree = result.tree
    if (
        fragments
        and COMPILED
        and isinstance(result, Star1Result)
        and result.scaled is not None
        and result.trace is None
    ):
        out = _scaled_star1_json(result, result.scaled)
    else:
        out = alpha_beta_json(result, None, bounds, fragments=fragments)
    out["decisions"] = decisions_json(tree, result.best_child, result.values, fragments)
    out["principal_variation_outcomes"] = _outcomes(
        tree, result.principal_variation, result.values, result.bounds
    )
    put_numbers(out, "bounds", bounds)
    return out


def solution_json(
    solution: TreeSolution, *, fragments: bool = False, layout: str = MAP
) -> dict[str, Any]:
    """The documented answer for a solved tree, whichever search ran.

    With ``fragments`` the per-node maps and lists are JSON bytes for ``orjson.dumps`` (see
    :func:`nodes_json`): what the API sends, byte for byte, only faster to write. ``layout``
    (see :data:`LAYOUTS`) is taken by minimax and alpha-beta; the other searches answer in
    the map layout.
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
            return star1_json(search, bounds, fragments=fragments)
        return alpha_beta_json(search, solution.move_ordering, fragments=fragments, layout=layout)
    if isinstance(search, ExpectimaxResult):
        return expectimax_json(search, fragments=fragments)
    return minimax_json(search, fragments=fragments, layout=layout)


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
            trace.append(_maxn_event_json(result, event))
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


def _tuple_shown(payoffs: tuple[Exact, ...] | None) -> str:
    return "none" if payoffs is None else f"({', '.join(map(_shown, payoffs))})"


def explain_maxn(result: MaxnResult, event: MaxnTraceEvent) -> str:
    """One sentence saying what a step of max^n does and why (the workbench shows it)."""
    tree = result.tree
    ids = tree.ids
    node = ids[event.node]
    value = _tuple_shown(event.value)
    mover = event.player
    if event.event == "enter":
        if mover is None:
            return f"chance node {node} is entered."
        return f"player {mover} moves at {node}."
    if event.event == "evaluate":
        return f"{node} is evaluated: {value}."
    if event.event == "update":
        child = ids[event.child]
        if mover is None:
            return (
                f"chance node {node} takes {child} (p = "
                f"{_shown(tree.probabilities[event.child])}) into account: the expected "
                f"utilities so far are {value}."
            )
        assert event.value is not None
        return (
            f"player {mover} at {node} takes {child} into account: its best so far is "
            f"{value}, worth {_shown(event.value[mover])} to player {mover}."
        )
    if event.event == "cutoff":
        assert event.value is not None and event.held is not None and mover is not None
        assert result.max_sum is not None
        parent = tree.parents[event.node]
        above = result.movers[parent]
        assert above is not None
        own = event.value[mover]
        test = "<" if result.tie_break == "rightmost" else "<="
        cut = ", ".join(ids[i] for i in event.cut)
        return (
            f"player {mover} already has {_shown(own)} at {node}; with max_sum "
            f"{_shown(result.max_sum)} player {above} can get at most "
            f"{_shown(result.max_sum - own)} there, {test} the {_shown(event.held[above])} it "
            f"already holds at {ids[parent]}, so {node}'s remaining children are pruned ({cut})."
        )
    if event.node == 0:
        return f"{node} returns {value}: the value of the tree."
    return f"{node} returns {value} to its parent."


def _maxn_event_json(result: MaxnResult, event: MaxnTraceEvent) -> dict[str, Any]:
    ids = result.tree.ids
    entry: dict[str, Any] = {"event": event.event, "node": ids[event.node]}
    if event.value is not None:
        put_numbers(entry, "value", event.value)
    if event.player is not None:
        entry["player"] = event.player
    if event.child >= 0:
        entry["child"] = ids[event.child]
    if event.held is not None:
        put_numbers(entry, "held", event.held)
    if event.cut:
        entry["cut"] = [ids[i] for i in event.cut]
    entry["explanation"] = explain_maxn(result, event)
    return entry


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
