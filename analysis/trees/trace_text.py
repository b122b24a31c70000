"""What each step of a traced tree search says: its sentence and its JSON entry.

The workbench's step-through shows a search's trace (alpha-beta, Star1, expectimax, max^n)
one event at a time, each with a sentence saying what the step does and why; the tree
answers (:mod:`analysis.trees.json_output`) write each event with it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analysis.trees.max_n import MaxnResult, MaxnTraceEvent
from analysis.trees.minimax import EXACT, UPPER, TraceEvent
from games.numbers import Exact, exact_text, normalize, put_bound, put_numbers
from games.trees.model import CHANCE, Tree


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


def event_json(
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
        put_bound(entry, "alpha", event.alpha)
        put_bound(entry, "beta", event.beta)
    put_bound(entry, "value", event.value)
    if event.child >= 0:
        entry["child"] = ids[event.child]
        if event.event == "update" and tree.kinds[event.node] == CHANCE:
            put_bound(entry, "rest", _unseen(tree, event.node, event.child))
    if event.event == "return" and windowed:
        entry["bound"] = event.bound
    if event.event == "cutoff" and event.bound != EXACT:
        entry["bound"] = event.bound
    if event.cut:
        entry["cut"] = [ids[i] for i in event.cut]
    entry["explanation"] = explain(tree, event, prune_on_equality, bounds, windowed=windowed)
    return entry


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


def maxn_event_json(result: MaxnResult, event: MaxnTraceEvent) -> dict[str, Any]:
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
