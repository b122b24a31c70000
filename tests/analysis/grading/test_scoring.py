"""Scoring a tree answer field by field, against keys derived by hand.

AIMA Fig. 5.2 ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``, alpha-beta left to right with
pruning on equality: internal values root 3, root.0 3, root.1 2 (stops after 2 <= 3),
root.2 2; pruned leaves root.1.1, root.1.2; principal variation root.0, root.0.0.
"""

from __future__ import annotations

from typing import Any

from analysis.grading.answer_key import correct_key, parse_problem
from analysis.grading.answers import parse_answer
from analysis.grading.results import GradedItem
from analysis.grading.rubric import Rubric, parse_rubric
from analysis.grading.scoring import KeyJson, _lcs, score_answer

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}


def scored(problem: Any, raw: Any, rubric: Rubric | None = None) -> dict[str, GradedItem]:
    parsed = parse_problem(problem)
    key, _ = correct_key(parsed)
    answer = parse_answer(parsed.tree, raw)
    items = score_answer(parsed.tree, key, answer, rubric or Rubric(), KeyJson(parsed.tree, key))
    return {item.field: item for item in items}


def test_nodes_right_wrong_missing_and_extra() -> None:
    # root and root.0 right, root.1 wrong, root.2 missing, root.1.1 is pruned (extra):
    # 2 right / (4 expected + 0 wrong leaves + 1 extra) of 4 points
    items = scored(AIMA, {"nodes": {"root": 3, "root.0": 3, "root.1": 4, "root.1.1": 5}})
    nodes = items["nodes"]
    assert nodes.score == 4 * 2 / 5
    assert (nodes.wrong, nodes.missing, nodes.extra) == (["root.1"], ["root.2"], ["root.1.1"])
    assert nodes.expected == {"root": 3, "root.0": 3, "root.1": 2, "root.2": 2}
    assert nodes.expected_exact is None  # every value is an integer


def test_a_wrong_leaf_value_costs() -> None:
    # leaves quoted right earn nothing; a leaf quoted wrong adds 1 to the denominator
    items = scored(
        AIMA, {"nodes": {"root": 3, "root.0": 3, "root.1": 2, "root.2": 2, "root.0.0": 4}}
    )
    assert items["nodes"].score == 4 * 4 / 5
    assert items["nodes"].wrong == ["root.0.0"]


def test_value_move_and_line() -> None:
    items = scored(AIMA, {"value": 14, "best_move": "root.0", "principal_variation": ["root.0"]})
    assert items["value"].score == 0
    assert items["value"].feedback == "your root value 14 is wrong; it is 3"
    assert items["best_move"].correct
    # one right step of a two-step line that stops early: 1 / 2 of 1 point
    line = items["principal_variation"]
    assert line.score == 0.5
    assert line.feedback == "the line stops at root.0 before the search does"


def test_pruned_leaves_as_sets_and_as_ordered_lists() -> None:
    answer = {"pruned_leaves": ["root.1.2", "root.1.1", "root.2.2"]}
    # as sets: 2 matched of 2 expected and 3 given: 2 * 2 / 5 of 2 points
    assert scored(AIMA, answer)["pruned_leaves"].score == 2 * 4 / 5
    # in order the longest common subsequence is 1: 2 * 1 / 5
    ordered = scored(AIMA, answer, parse_rubric({"sets": "ordered"}))["pruned_leaves"]
    assert ordered.score == 2 * 2 / 5
    assert ordered.extra == ["root.2.2"]


def test_required_fields_score_zero_when_absent() -> None:
    items = scored(AIMA, {"value": 3}, parse_rubric({"required": ["evaluated_leaves"]}))
    assert list(items) == ["value", "evaluated_leaves"]
    assert items["evaluated_leaves"].score == 0
    assert items["evaluated_leaves"].missing == [
        "root.0.0",
        "root.0.1",
        "root.0.2",
        "root.1.0",
        "root.2.0",
        "root.2.1",
        "root.2.2",
    ]


def test_exact_values_in_the_key() -> None:
    # chance node with p = 1/3, 2/3 over 1 and 2: 1/3 + 4/3 = 5/3
    tree = {"kind": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", "value": 2}]}
    items = scored({"type": "expectimax", "tree": tree}, {"value": "5/3", "nodes": {"root": 2}})
    assert items["value"].correct
    assert (items["value"].expected, items["value"].expected_exact) == (5 / 3, "5/3")
    assert items["nodes"].expected == {"root": 5 / 3}
    assert items["nodes"].expected_exact == {"root": "5/3"}


def test_longest_common_subsequence() -> None:
    assert _lcs([1, 2, 3, 4], [4, 1, 3]) == 2  # 1, 3
    assert _lcs([1, 2, 3], [3, 2, 1]) == 1
    assert _lcs([1, 2], [5, 6]) == 0
