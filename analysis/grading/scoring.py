"""Score an answer to a tree problem field by field, with partial credit.

Only the fields the answer holds are graded (plus those the rubric requires).
The partial-credit rules, documented in ``docs/grading.md``:

* ``value``, ``best_move``: all or nothing; any optimal move is accepted.
* ``nodes``: per node. ``score = points * right / (expected + wrong_static + extra)``
  where ``expected`` are the internal nodes the search backs up, ``wrong_static``
  leaves quoted with a wrong value, and ``extra`` nodes given a value that the
  search never reaches (pruned or beyond the depth cutoff).
* ``pruned``, ``pruned_leaves``, ``evaluated_leaves``: F1 score
  ``2 * matched / (expected + given)``; as ordered lists ``matched`` is the
  longest common subsequence, so both missing and extra entries cost.
* ``principal_variation``: the longest correct prefix (each step an optimal
  child) over the longer of the expected and the given line.

With ``partial_credit`` off, a field scores its points only when fully right.
Scoring spends on the deadline of the computation in progress.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from analysis.grading.answer_key import AnswerKey, Value
from analysis.grading.answers import Answer
from analysis.grading.results import NONE, Expected, GradedItem, f1_fraction, graded_item
from analysis.grading.rubric import FIELDS, SEARCH_FIELDS, Rubric
from games.limits import current_deadline
from games.trees.model import Tree


def _ids(tree: Tree, indices: Iterable[int]) -> list[str]:
    ids = tree.ids
    return [ids[i] for i in indices]


def _lcs(expected: Sequence[int], given: Sequence[int]) -> int:
    """Longest common subsequence; ``expected`` has no repeats, so it is the longest
    increasing run of the positions (in ``expected``) of the given entries: O(n log n)."""
    where = {node: position for position, node in enumerate(expected)}
    tails: list[int] = []
    for node in given:
        position = where.get(node)
        if position is None:
            continue
        slot = bisect_left(tails, position)
        if slot == len(tails):
            tails.append(position)
        else:
            tails[slot] = position
    return len(tails)


class KeyJson:
    """The key's entries as JSON (the ``expected`` of each item), each built on first use
    and kept: a batch writes the ``nodes`` map of a large key once, not once per student."""

    def __init__(self, tree: Tree, key: AnswerKey) -> None:
        self.tree = tree
        self.key = key
        self._built: dict[str, Expected] = {}

    def __getitem__(self, name: str) -> Expected:
        if name not in self._built:
            self._built[name] = self._build(name)
        return self._built[name]

    def _build(self, name: str) -> Expected:
        tree, key = self.tree, self.key
        if name == "value":
            return Expected.of(key.value)
        if name == "best_move":
            return Expected(tree.ids[key.best_move] if key.best_move >= 0 else None)
        if name == "nodes":
            current_deadline().spend(len(key.nodes))
            ids = tree.ids
            return Expected.of({ids[i]: v for i, v in key.nodes.items()})
        if name == "principal_variation":
            return Expected(_ids(tree, key.principal_variation))
        listed: list[int] | None = getattr(key, name)
        return Expected(None if listed is None else _ids(tree, listed))


def score_answer(
    tree: Tree, key: AnswerKey, answer: Answer, rubric: Rubric, shown: KeyJson | None = None
) -> list[GradedItem]:
    """Per-field grades of ``answer`` against ``key`` (see the module docstring).

    ``shown`` gives each item's ``expected``; without it (when an answer is only scored
    against a mistaken key) ``expected`` is ``None``.
    """
    items = []
    names = answer.present() + [n for n in rubric.required if getattr(answer, n) is None]
    for name in FIELDS:
        if name not in names:
            continue
        if name in SEARCH_FIELDS and getattr(key, name) is None:
            continue
        given_raw = answer.raw.get(name)
        expected = NONE if shown is None else shown[name]
        if name == "value":
            items.append(_grade_value(key, answer.value, rubric, expected, given_raw))
        elif name == "best_move":
            items.append(_grade_move(tree, key, answer.best_move, rubric, expected, given_raw))
        elif name == "nodes":
            items.append(_grade_nodes(tree, key, answer.nodes, rubric, expected, given_raw))
        elif name == "principal_variation":
            line = answer.principal_variation
            items.append(_grade_line(tree, key, line, rubric, expected, given_raw))
        else:
            wanted: list[int] = getattr(key, name)
            given: list[int] | None = getattr(answer, name)
            items.append(_grade_list(tree, name, wanted, given, rubric, expected, given_raw))
    return items


def _grade_value(
    key: AnswerKey,
    given: Value | None,
    rubric: Rubric,
    expected: Expected,
    raw: Any,
) -> GradedItem:
    if given is None:
        return graded_item("value", Fraction(0), rubric, expected, None, "no root value given")
    if rubric.close(given, key.value):
        return graded_item("value", Fraction(1), rubric, expected, raw, "correct")
    return graded_item(
        "value",
        Fraction(0),
        rubric,
        expected,
        raw,
        f"your root value {given} is wrong; it is {key.value}",
    )


def _grade_move(
    tree: Tree,
    key: AnswerKey,
    given: int | None,
    rubric: Rubric,
    expected: Expected,
    raw: Any,
) -> GradedItem:
    if given is None:
        return graded_item("best_move", Fraction(0), rubric, expected, None, "no move given")
    current_deadline().spend(len(key.best_moves))
    if given in key.best_moves:
        note = "correct"
        if len(key.best_moves) > 1:
            note += f" (optimal moves: {', '.join(_ids(tree, sorted(key.best_moves)))})"
        return graded_item("best_move", Fraction(1), rubric, expected, raw, note)
    moves = ", ".join(_ids(tree, sorted(key.best_moves)))
    return graded_item(
        "best_move",
        Fraction(0),
        rubric,
        expected,
        raw,
        f"your move {tree.ids[given]} is not optimal; optimal: {moves}",
    )


def _grade_nodes(
    tree: Tree,
    key: AnswerKey,
    given: dict[int, Value] | None,
    rubric: Rubric,
    expected: Expected,
    raw: Any,
) -> GradedItem:
    ids = tree.ids
    given = given or {}
    # a comparison per given node, a look-up per node of the key
    current_deadline().spend(
        len(given) * (1 if rubric.tolerance == "exact" else 4) + len(key.nodes)
    )
    right: list[int] = []
    wrong: list[int] = []
    extra: list[int] = []
    for node, value in given.items():
        if node in key.nodes:
            (right if rubric.close(value, key.nodes[node]) else wrong).append(node)
        elif node in key.statics:
            if not rubric.close(value, key.statics[node]):
                wrong.append(node)
        else:
            extra.append(node)
    missing = [node for node in key.nodes if node not in given]
    wrong_static = sum(1 for node in wrong if node not in key.nodes)
    denominator = len(key.nodes) + wrong_static + len(extra)
    fraction = Fraction(len(right), denominator) if denominator else Fraction(1)
    notes = []
    if wrong:
        notes.append(
            "wrong values at "
            + ", ".join(
                f"{ids[n]} (yours {given[n]}, right {key.nodes.get(n, key.statics.get(n))})"
                for n in wrong[:10]
            )
        )
    if missing:
        notes.append(f"{len(missing)} node(s) missing: " + ", ".join(_ids(tree, missing[:10])))
    if extra:
        notes.append(
            "value(s) given for node(s) the search never reaches: "
            + ", ".join(_ids(tree, extra[:10]))
        )
    feedback = "; ".join(notes) or "correct"
    return graded_item(
        "nodes",
        fraction,
        rubric,
        expected,
        raw,
        feedback,
        _ids(tree, missing),
        _ids(tree, extra),
        _ids(tree, wrong),
    )


def _grade_line(
    tree: Tree,
    key: AnswerKey,
    given: list[int] | None,
    rubric: Rubric,
    expected: Expected,
    raw: Any,
) -> GradedItem:
    given = given or []
    current_deadline().spend(len(given))
    parent, good = 0, 0
    for step in given:
        if step not in key.optimal.get(parent, ()):
            break
        good += 1
        parent = step
    complete = good == len(given) and parent not in key.optimal
    longest = max(len(given), len(key.principal_variation))
    fraction = Fraction(1) if complete else Fraction(good, longest or 1)
    if complete:
        feedback = "correct"
    elif good < len(given):
        feedback = f"step {good + 1} ({tree.ids[given[good]]}) is not an optimal move"
    else:
        feedback = f"the line stops at {tree.ids[parent]} before the search does"
    return graded_item("principal_variation", fraction, rubric, expected, raw, feedback)


def _grade_list(
    tree: Tree,
    name: str,
    wanted: list[int],
    given: list[int] | None,
    rubric: Rubric,
    expected: Expected,
    raw: Any,
) -> GradedItem:
    given = given or []
    current_deadline().spend(2 * (len(wanted) + len(given)))
    expected_set, seen = set(wanted), set(given)
    missing = [n for n in wanted if n not in seen]
    extra = [n for n in given if n not in expected_set]
    matched = _lcs(wanted, given) if rubric.ordered else len(expected_set & seen)
    fraction = f1_fraction(matched, len(wanted), len(given))
    notes = []
    if missing:
        notes.append("missing: " + ", ".join(_ids(tree, missing[:10])))
    if extra:
        notes.append("should not be listed: " + ", ".join(_ids(tree, extra[:10])))
    if rubric.ordered and not missing and not extra and fraction < 1:
        notes.append("right nodes, wrong order (the search goes left to right)")
    return graded_item(
        name,
        fraction,
        rubric,
        expected,
        raw,
        "; ".join(notes) or "correct",
        _ids(tree, missing),
        _ids(tree, extra),
    )
