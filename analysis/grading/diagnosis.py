"""Recognise the usual mistaken conventions in a wrong answer to a tree problem.

Each mistake is replayed: the search is re-run under the mistaken convention
and the student's answer is scored against that key with the same rubric. A
convention that explains the answer better than the correct search is
reported (the best-fitting ones only). Codes are stable; ``docs/grading.md``
lists them all. Every replayed search and every walk over the answer spends on
the deadline of the computation in progress.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Final, Protocol

from analysis.grading.answer_key import (
    AnswerKey,
    TreeProblem,
    Value,
    alpha_beta_key,
    expectimax_key,
    leaves_under,
    maxn_key,
    minimax_key,
)
from analysis.grading.answers import Answer
from analysis.grading.results import Diagnosis, GradedItem
from analysis.grading.rubric import Rubric
from analysis.grading.scoring import score_answer
from analysis.trees.alpha_beta import AlphaBetaResult
from analysis.trees.horizon import horizon
from analysis.trees.solve import solve_tree
from games.errors import ArbiterError, LimitExceededError
from games.limits import current_deadline
from games.numbers import Exact
from games.trees.model import CHANCE, MAX, MIN, Tree

MAX_DIAGNOSED_NODES = 20_000

MESSAGES = {
    "strict_pruning": "pruned only on strict inequality (v > beta, v < alpha), "
    "but this problem prunes on equality too",
    "prune_on_equality": "pruned on equality (v >= beta, v <= alpha), "
    "but this problem prunes only on strict inequality",
    "alpha_not_passed_at_root": "searched each root child with a fresh window (-inf, +inf): "
    "the root's alpha (beta) was not passed on to later root children",
    "right_to_left": "searched children from right to left",
    "wrong_root_player": "treated the root as the other player (MAX as MIN or MIN as MAX)",
    "depth_off_by_one": "searched one ply too deep or too shallow",
    "depth_in_rounds": "counted the depth in rounds (one move by each player) rather than plies",
    "wrong_tie_break": "broke ties between equally good children the other way "
    "(leftmost instead of rightmost, or the reverse)",
    "uniform_chance": "averaged the outcomes of chance nodes instead of weighting them by "
    "their probabilities",
}


class Grader(Protocol):
    """What the diagnosis reads of a tree grader (:class:`analysis.grading.tree_problems.Grader`):
    the problem, its key, the traced alpha-beta run and the children within the depth."""

    @property
    def problem(self) -> TreeProblem: ...

    @property
    def tree(self) -> Tree: ...

    @property
    def key(self) -> AnswerKey: ...

    @property
    def traced(self) -> AlphaBetaResult | None: ...

    @property
    def children(self) -> Sequence[Sequence[int]]: ...

    def variants(self) -> list[tuple[str, str, AnswerKey]]:
        """``(code, message, key)`` of each mistaken convention (:func:`mistaken_keys`)."""
        ...


def _flip(tree: Tree) -> Tree:
    return tree.with_max_min_swapped()


def _uniform(tree: Tree) -> Tree:
    return tree.with_uniform_chance()


def _reversed(tree: Tree) -> Tree:
    return tree.reversed_children()


def _subtree(tree: Tree, top: int) -> Tree:
    """The subtree under ``top`` as a tree of its own, with the same ids."""
    return tree.subtree(top)


def _fresh_root_windows(problem: TreeProblem) -> AnswerKey:
    """Alpha-beta where every root child is searched with (-inf, +inf)."""
    tree, depth = problem.tree, problem.depth
    seen = horizon(tree, depth)
    children = seen.children
    root_max = tree.kinds[0] == MAX
    values: dict[int, Value] = {}
    statics: dict[int, Value] = {}
    pruned: list[int] = []
    pruned_leaves: list[int] = []
    evaluated: list[int] = []
    best, best_value = -1, None
    lines: dict[int, list[int]] = {}
    for kid in children[0]:
        if not children[kid]:
            score = seen.static[kid]  # a leaf's value, or a frontier node's eval
            assert score is not None and not isinstance(score, tuple)
            kid_value: Exact = score
            statics[kid] = kid_value
            evaluated.append(kid)
            lines[kid] = [kid]
        else:
            sub = _subtree(tree, kid)
            result = solve_tree(
                sub,
                "alphabeta",
                depth=None if depth is None else depth - 1,
                prune_on_equality=problem.prune_on_equality,
            ).search
            assert isinstance(result, AlphaBetaResult)
            key = alpha_beta_key(result, horizon(sub, result.depth).children)
            back = [tree.index_of(name) for name in sub.ids]
            values.update((back[i], v) for i, v in key.nodes.items())
            statics.update((back[i], v) for i, v in key.statics.items())
            pruned += [back[i] for i in key.pruned or ()]
            pruned_leaves += [back[i] for i in key.pruned_leaves or ()]
            evaluated += [back[i] for i in key.evaluated_leaves or ()]
            kid_value = result.value
            lines[kid] = [kid] + [back[i] for i in result.principal_variation]
        if best_value is None or (kid_value > best_value if root_max else kid_value < best_value):
            best, best_value = kid, kid_value
    assert best_value is not None
    values[0] = best_value
    line = lines[best]
    # the line this search plays, step by step, so that a student who follows it is
    # scored as following it (an empty map would make every line's first step wrong)
    optimal = {0: frozenset({best})}
    optimal.update((node, frozenset({kid})) for node, kid in zip(line, line[1:], strict=False))
    return AnswerKey(
        value=best_value,
        best_move=best,
        best_moves=frozenset({best}),
        nodes=values,
        statics=statics,
        principal_variation=line,
        optimal=optimal,
        pruned=pruned,
        pruned_leaves=pruned_leaves,
        evaluated_leaves=evaluated,
    )


def _search(problem: TreeProblem, tree: Tree, depth: int | None, equality: bool) -> AnswerKey:
    if problem.type == "maxn":
        return maxn_key(tree, depth, problem.tie_break, problem.max_sum)
    if problem.type == "minimax":
        return minimax_key(tree, depth)
    if problem.type == "expectimax":
        return expectimax_key(tree, depth)
    result = solve_tree(tree, "alphabeta", depth=depth, prune_on_equality=equality).search
    assert isinstance(result, AlphaBetaResult)
    return alpha_beta_key(result, horizon(problem.tree, depth).children)


def _at_depth(problem: TreeProblem, depth: int) -> Callable[[], AnswerKey]:
    return lambda: _search(problem, problem.tree, depth, problem.prune_on_equality)


def mistaken_keys(problem: TreeProblem, correct: AnswerKey) -> list[tuple[str, str, AnswerKey]]:
    """``(code, message, key)`` for every mistaken convention that changes the answer."""
    tree, depth, equality = problem.tree, problem.depth, problem.prune_on_equality
    if len(tree) > MAX_DIAGNOSED_NODES:
        return []
    runs: list[tuple[str, Callable[[], AnswerKey]]] = []
    if problem.type == "alphabeta":
        code = "strict_pruning" if equality else "prune_on_equality"
        runs.append((code, lambda: _search(problem, tree, depth, not equality)))
        if depth != 0 and tree.children[0]:
            runs.append(("alpha_not_passed_at_root", lambda: _fresh_root_windows(problem)))
        runs.append(("right_to_left", lambda: _search(problem, _reversed(tree), depth, equality)))
    if tree.kinds[0] in (MAX, MIN):
        runs.append(("wrong_root_player", lambda: _search(problem, _flip(tree), depth, equality)))
    if depth is not None:
        for other in (depth - 1, depth + 1):
            if other >= 0:
                runs.append(("depth_off_by_one", _at_depth(problem, other)))
        runs.append(("depth_in_rounds", lambda: _search(problem, tree, 2 * depth, equality)))
    if problem.type == "maxn":
        reverse = "rightmost" if problem.tie_break == "leftmost" else "leftmost"
        flipped = dataclasses.replace(problem, tie_break=reverse)
        runs.append(("wrong_tie_break", lambda: _search(flipped, tree, depth, equality)))
    if problem.type in ("expectimax", "maxn") and CHANCE in tree.kinds:
        runs.append(("uniform_chance", lambda: _search(problem, _uniform(tree), depth, equality)))
    found = []
    for code, run in runs:
        try:
            key = run()
        except LimitExceededError:
            raise  # the request's time or number-size limit, not this convention's fault
        except ArbiterError:
            continue  # e.g. a frontier node without an eval at the other depth
        if _differs(key, correct):
            found.append((code, MESSAGES[code], key))
    return found


def _differs(key: AnswerKey, correct: AnswerKey) -> bool:
    return (
        key.value != correct.value
        or key.nodes != correct.nodes
        or key.pruned_leaves != correct.pruned_leaves
        or key.evaluated_leaves != correct.evaluated_leaves
        or not key.best_moves <= correct.best_moves
    )


MARGIN: Final = Fraction(1, 2)
"""A convention is reported only when it explains at least this share of the points the
right search finds wrong (``(fit - right) / (1 - right)``, fits being shares of the points
of the fields answered)..."""
MIN_FIT: Final = Fraction(3, 4)
"""...and explains at least this share of them..."""
MIN_EVIDENCE: Final = 2
"""...and at least this many entries of the answer that the right search gets wrong
agree with the convention (a value, a move, a node's value, a leaf listed or left out)."""
NO_USUAL_MISTAKE: Final = "no usual mistake explains this answer"


def _departures(items: Sequence[GradedItem]) -> set[tuple[str, str]]:
    """The entries of the answer an item finds wrong: each node with a wrong value or
    given though never reached, each leaf missing or extra, or the field as a whole."""
    found: set[tuple[str, str]] = set()
    for item in items:
        listed = item.wrong + item.extra
        if item.field != "nodes":
            listed = listed + item.missing
        if listed:
            found.update((item.field, entry) for entry in listed)
        elif not item.correct:
            found.add((item.field, ""))
    return found


def _fit(items: Sequence[GradedItem]) -> Fraction:
    most = sum(Fraction(item.max_score) for item in items)
    return sum(Fraction(item.score) for item in items) / most if most else Fraction(0)


def diagnose(grader: Grader, answer: Answer, rubric: Rubric) -> list[Diagnosis]:
    """The mistakes that explain ``answer`` substantially better than the right search
    (:data:`MARGIN`, :data:`MIN_FIT`, :data:`MIN_EVIDENCE`), the best-fitting ones, then
    where it leaves the correct trace; when no convention explains it,
    ``no_usual_mistake``."""
    # partial credit on, so that a closer fit always scores higher
    fair = dataclasses.replace(rubric, partial_credit=True, required=())
    right = score_answer(grader.tree, grader.key, answer, fair)
    baseline, wrong = _fit(right), _departures(right)
    fits: list[tuple[Fraction, str, str]] = []
    for code, message, key in grader.variants():
        items = score_answer(grader.tree, key, answer, fair)
        fit = _fit(items)
        if fit < MIN_FIT or fit - baseline < MARGIN * (1 - baseline):
            continue
        if len(wrong - _departures(items)) >= MIN_EVIDENCE:
            fits.append((fit, code, message))
    found: list[Diagnosis] = []
    if fits:
        top = max(fit for fit, _, _ in fits)
        reported = set()
        for fit, code, message in fits:
            if fit == top and code not in reported:
                reported.add(code)
                share = "fully" if fit == 1 else f"{float(fit):.0%} of the way"
                matches = f"your answer matches a search that {message}"
                found.append(Diagnosis(code, f"{matches} ({share})", hint=matches))
    else:
        found.append(Diagnosis("no_usual_mistake", NO_USUAL_MISTAKE, hint=NO_USUAL_MISTAKE))
    found.extend(_pruned_leaf_evaluated(grader, answer))
    departure = first_departure(grader, answer)
    if departure is not None:
        found.append(departure)
    return found


def _pruned_leaf_evaluated(grader: Grader, answer: Answer) -> list[Diagnosis]:
    key = grader.key
    if key.pruned_leaves is None or not (answer.evaluated_leaves or answer.nodes):
        return []
    pruned = set(key.pruned_leaves)
    current_deadline().spend(
        len(pruned) + len(answer.evaluated_leaves or ()) + len(answer.nodes or {})
    )
    named = [n for n in (answer.evaluated_leaves or ()) if n in pruned]
    named += [n for n in (answer.nodes or {}) if n in pruned]
    if not named:
        return []
    order = {leaf: position for position, leaf in enumerate(key.pruned_leaves)}
    first = min(named, key=order.__getitem__)
    name = grader.tree.ids[first]
    return [
        Diagnosis(
            "evaluated_pruned_leaf",
            f"leaf {name} is pruned, so it is never evaluated; it should not get a value "
            "or be listed as evaluated",
            name,
            f"you give leaf {name} a value or list it as evaluated; does the search reach it?",
        )
    ]


def _show(bound: Any) -> str:
    if isinstance(bound, float):
        return "+inf" if bound > 0 else "-inf"
    return str(bound)


def _student_pruned(grader: Grader, answer: Answer) -> set[int] | None:
    if answer.pruned_leaves is not None:
        return set(answer.pruned_leaves)
    children = grader.children
    if answer.pruned is not None:
        return _leaves_under_any(set(answer.pruned), children)
    if answer.evaluated_leaves is not None:
        statics = [n for n, kids in enumerate(children) if not kids and _reached(grader, n)]
        evaluated = set(answer.evaluated_leaves)
        return {n for n in statics if n not in evaluated}
    return None


def _leaves_under_any(tops: set[int], children: Sequence[Sequence[int]]) -> set[int]:
    """The static nodes under any of ``tops``, in one walk of the tree (tops listed many
    times, or inside one another, cost nothing extra)."""
    current_deadline().spend(2 * len(children))
    found: set[int] = set()
    stack = [(0, 0 in tops)]
    while stack:
        node, below = stack.pop()
        kids = children[node]
        if not kids:
            if below:
                found.add(node)
            continue
        stack.extend((kid, below or kid in tops) for kid in kids)
    return found


def _reached(grader: Grader, node: int) -> bool:
    depth = grader.problem.depth
    return depth is None or grader.tree.depths[node] <= depth


def _departs(node: str) -> str:
    return f"your answer first departs from the right search at node {node}"


def first_departure(grader: Grader, answer: Answer) -> Diagnosis | None:
    """The first step of the correct alpha-beta trace that the answer contradicts."""
    result = grader.traced
    if result is None or result.trace is None:
        return _first_wrong_value(grader, answer)
    tree, ids, children = grader.tree, grader.tree.ids, grader.children
    pruned = _student_pruned(grader, answer)
    nodes = answer.nodes or {}
    if pruned is None and not nodes:
        return None  # nothing in the answer to hold against the trace
    strict = not grader.problem.prune_on_equality
    deadline = current_deadline()
    # the trace covers at most MAX_TRACED_NODES nodes: one charge for the walk
    deadline.spend(len(result.trace))
    for event in result.trace:
        node = event.node
        if event.event == "evaluate" and pruned is not None and node in pruned:
            parent = tree.parents[node]
            return Diagnosis(
                "first_departure",
                f"leaf {ids[node]} is evaluated, not pruned: when the search reaches it, "
                f"{ids[parent]} has alpha = {_show(event.alpha)} and beta = {_show(event.beta)} "
                "and no cutoff has happened",
                ids[node],
                _departs(ids[node]),
            )
        if event.event == "cutoff" and pruned is not None:
            cut = leaves_under(tree, event.cut, children)
            deadline.spend(len(cut))
            if any(leaf not in pruned for leaf in cut):
                is_max = tree.kinds[node] == MAX
                if is_max:
                    test = f"v = {_show(event.value)} {'>' if strict else '>='} "
                    test += f"beta = {_show(event.beta)}"
                else:
                    test = f"v = {_show(event.value)} {'<' if strict else '<='} "
                    test += f"alpha = {_show(event.alpha)}"
                player = "MAX" if is_max else "MIN"
                after = ids[event.child]
                seen = f"leaf {after}" if not children[event.child] else f"child {after}"
                return Diagnosis(
                    "first_departure",
                    f"at node {ids[node]}, after {seen} = {result.values[event.child]}, "
                    f"{player} has {test}, so {', '.join(ids[t] for t in event.cut)} "
                    f"{'is' if len(event.cut) == 1 else 'are'} never evaluated",
                    ids[node],
                    _departs(ids[node]),
                )
        if event.event == "return" and node in nodes and children[node]:
            if nodes[node] != event.value:
                return Diagnosis(
                    "first_departure",
                    f"node {ids[node]} returns {event.value} (alpha = {_show(event.alpha)}, "
                    f"beta = {_show(event.beta)} when it returns), not {nodes[node]}",
                    ids[node],
                    _departs(ids[node]),
                )
    return None


def _first_wrong_value(grader: Grader, answer: Answer) -> Diagnosis | None:
    """Minimax and expectimax: the first node, children before parents and left to right,
    whose value the answer gets wrong, with how it is backed up."""
    nodes = answer.nodes
    if not nodes or len(grader.tree) > MAX_DIAGNOSED_NODES:
        return None
    tree, children, key = grader.tree, grader.children, grader.key
    ids = tree.ids
    deadline = current_deadline()
    deadline.spend(4 * len(children))
    for node in reversed(tree.preorder(0, [kids[::-1] for kids in children])):
        deadline.spend(1)
        if node not in nodes or node not in key.nodes or nodes[node] == key.nodes[node]:
            continue
        kids = children[node]
        seen = ", ".join(f"{ids[kid]} = {key.nodes.get(kid, key.statics.get(kid))}" for kid in kids)
        if tree.kinds[node] == CHANCE:
            how = f"the probability-weighted sum of its outcomes ({seen})"
        elif tree.kinds[node] not in (MAX, MIN):
            how = f"the child best for the player to move among {seen}"
        else:
            how = f"the {'largest' if tree.kinds[node] == MAX else 'smallest'} of {seen}"
        return Diagnosis(
            "first_departure",
            f"node {ids[node]} is worth {key.nodes[node]}, {how}, not {nodes[node]}",
            ids[node],
            _departs(ids[node]),
        )
    return None
