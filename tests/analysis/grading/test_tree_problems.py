"""Grading of tree answers: scores and diagnoses checked against hand-derived textbook answers.

AIMA Fig. 5.2: ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`` has value 3, best move the
first child, and alpha-beta (left to right) prunes the leaves 4 and 6 of the
second MIN node. Every other expected answer below is derived by hand in a
comment next to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.rubric import parse_rubric
from analysis.grading.tree_problems import Grader
from games.errors import InvalidInputError

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
AIMA_RIGHT = {
    "value": 3,
    "best_move": "root.0",
    "nodes": {"root": 3, "root.0": 3, "root.1": 2, "root.2": 2},
    "pruned_leaves": ["root.1.1", "root.1.2"],
    "principal_variation": ["root.0", "root.0.0"],
    "evaluated_leaves": ["root.0.0", "root.0.1", "root.0.2", "root.1.0"]
    + ["root.2.0", "root.2.1", "root.2.2"],
}


def grader(tree: Any, kind: str = "alphabeta", **options: Any) -> Grader:
    return Grader.from_json({"type": kind, "tree": tree, **options})


def codes(grade: Any) -> list[str]:
    return [d.code for d in grade.diagnosis]


def test_right_answer_gets_full_marks_and_no_diagnosis() -> None:
    grade = grader(AIMA, questions=list(AIMA_RIGHT)).grade(AIMA_RIGHT)
    # default points: value 1, best_move 1, nodes 4, pv 1, pruned_leaves 2, evaluated 2
    assert (grade.score, grade.max_score) == (11, 11)
    assert all(item.correct for item in grade.items)
    assert grade.diagnosis == []


def test_fully_wrong_answer_gets_zero() -> None:
    answer = {
        "value": 14,
        "best_move": "root.2",
        "nodes": {"root": 14, "root.0": 12, "root.1": 6, "root.2": 14},
        "pruned_leaves": ["root.0.0"],
    }
    grade = grader(AIMA, questions=list(answer)).grade(answer)
    assert grade.score == 0
    assert grade.max_score == 8


def test_partial_credit_for_pruned_leaves_is_f1() -> None:
    # one of the two pruned leaves: 2 * 1 / (2 + 1) of 2 points
    grade = grader(AIMA, questions=["pruned_leaves"]).grade({"pruned_leaves": ["root.1.2"]})
    (item,) = grade.items
    assert item.score == pytest.approx(4 / 3)
    assert item.missing == ["root.1.1"]
    # an extra leaf costs too: 2 * 2 / (2 + 3) of 2 points
    grade = grader(AIMA, questions=["pruned_leaves"]).grade(
        {"pruned_leaves": ["root.1.1", "root.1.2", "root.2.2"]}
    )
    assert grade.items[0].score == pytest.approx(8 / 5)
    assert grade.items[0].extra == ["root.2.2"]


def test_partial_credit_per_node_and_extras_cost() -> None:
    # 3 of the 4 internal nodes right: 3/4 of 4 points
    nodes = grader(AIMA, questions=["nodes"])
    grade = nodes.grade({"root": 3, "root.0": 3, "root.1": 2, "root.2": 5})
    assert grade.score == 3
    assert grade.items[0].wrong == ["root.2"]
    # all 4 right plus a value for the pruned leaf root.1.1: 4 / (4 + 1) of 4 points
    grade = nodes.grade({"root": 3, "root.0": 3, "root.1": 2, "root.2": 2, "root.1.1": 4})
    assert grade.score == pytest.approx(16 / 5)
    assert "evaluated_pruned_leaf" in codes(grade)


def test_no_partial_credit_rubric() -> None:
    rubric = parse_rubric({"partial_credit": False})
    grade = grader(AIMA).grade({"pruned_leaves": ["root.1.2"]}, rubric)
    assert grade.score == 0


def test_rubric_points_and_required_fields() -> None:
    rubric = parse_rubric({"points": {"value": 2, "pruned_leaves": 3}})
    grade = grader(AIMA, questions=["value"]).grade({"value": 3}, rubric)
    # pruned_leaves has points, so it is asked although the problem asks only the value
    assert (grade.score, grade.max_score) == (2, 5)
    # without a rubric the problem's questions: value 1, best move 1, pruned leaves 2
    grade = grader(AIMA).grade({"value": 3})
    assert (grade.score, grade.max_score) == (1, 4)


@pytest.mark.parametrize("value", [3, 3.0, "3", "3/1", "6/2"])
def test_equivalent_values_accepted(value: Any) -> None:
    assert grader(AIMA).grade({"value": value}).score == 1


def test_half_written_as_decimal_or_fraction() -> None:
    tree = [["1/2", 3], [0, 7]]  # MIN nodes 1/2 and 0: root 1/2
    for value in (0.5, "1/2", "0.5", {"root": "2/4", "root.0": 0.5, "root.1": "0/3"}):
        answer = value if isinstance(value, dict) else {"value": value}
        grade = grader(tree, questions=list(answer) if "value" in answer else ["nodes"])
        graded = grade.grade(answer)
        assert graded.score == graded.max_score > 0


def test_tolerance() -> None:
    absolute = parse_rubric({"tolerance": {"mode": "absolute", "amount": 0.5}})
    relative = parse_rubric({"tolerance": {"mode": "relative", "amount": "1/10"}})
    assert grader(AIMA).grade({"value": 3.4}, absolute).score == 1
    assert grader(AIMA).grade({"value": 3.6}, absolute).score == 0
    assert grader(AIMA).grade({"value": 3.3}, relative).score == 1
    assert grader(AIMA).grade({"value": 3.31}, relative).score == 0


def test_any_optimal_move_and_line_accepted() -> None:
    tree = [[3, 5], [4, 3]]  # both MIN nodes are worth 3
    for move in ("root.0", "root.1"):
        assert grader(tree, "minimax").grade({"best_move": move}).score == 1
    line = {"principal_variation": ["root.1", "root.1.1"]}
    assert grader(tree, "minimax", questions=["principal_variation"]).grade(line).score == 1


def test_ordered_sets() -> None:
    rubric = parse_rubric({"sets": "ordered"})
    reordered = {"pruned_leaves": ["root.1.2", "root.1.1"]}
    # as sets: full marks; in order: longest common subsequence 1, so 2 * 1 / 4 of 2 points
    assert grader(AIMA).grade(reordered).score == 2
    assert grader(AIMA).grade(reordered, rubric).score == 1


@pytest.mark.parametrize(
    ("answer", "pointer"),
    [
        ({"nodes": {"B": 3}}, "/answer/nodes/B"),
        ({"pruned_leaves": ["root.1.1", "Z"]}, "/answer/pruned_leaves/1"),
        ({"value": [3]}, "/answer/value"),
        ({"value": "three"}, "/answer/value"),
        ({"best_move": 0}, "/answer/best_move"),
        ({"nodes": {"root": {"v": 3}}}, "/answer/nodes/root"),
        ({"score": 3, "value": 3}, "/answer/score"),
    ],
)
def test_malformed_answers_point_at_the_field(answer: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        grader(AIMA, questions=["value", "best_move", "nodes", "pruned_leaves"]).grade(answer)
    assert error.value.errors[0].pointer == pointer


def test_pruned_sets_not_part_of_minimax_answers() -> None:
    with pytest.raises(InvalidInputError) as error:
        grader(AIMA, "minimax").grade({"pruned_leaves": []})
    assert error.value.errors[0].pointer == "/answer/pruned_leaves"


MAXN = {
    "kind": "player",
    "children": [
        {"kind": "player", "children": [{"value": [1, 2, 3]}, {"value": [4, 2, 1]}]},
        {"kind": "player", "children": [{"value": [2, 5, 0]}, {"value": [6, 1, 1]}]},
    ],
}


def test_maxn_answers_and_tie_break_diagnosis() -> None:
    # Player 1 ties at root.0 (2 and 2): leftmost keeps (1,2,3); root.1 gives (2,5,0).
    # Player 0 then prefers (2,5,0) via root.1. Rightmost: root.0 = (4,2,1), which
    # player 0 prefers to (2,5,0): value (4,2,1) via root.0.
    right = {
        "value": [2, 5, 0],
        "best_move": "root.1",
        "nodes": {"root": [2, 5, 0], "root.0": [1, 2, 3], "root.1": ["2", "5", "0/1"]},
    }
    grade = grader(MAXN, "maxn").grade(right)
    assert grade.score == grade.max_score == 6
    grade = grader(MAXN, "maxn").grade({"value": [4, 2, 1], "best_move": "root.0"})
    assert grade.score == 0
    assert codes(grade) == ["wrong_tie_break"]
    with pytest.raises(InvalidInputError) as error:
        grader(MAXN, "maxn").grade({"nodes": {"root.0": [1, 2]}})
    assert error.value.errors[0].pointer == "/answer/nodes/root.0"


def test_depth_limited_alpha_beta_and_depth_zero() -> None:
    tree = {
        "children": [
            {"eval": 5, "children": [3, 12, 8]},
            {"eval": 1, "children": [2, 4, 6]},
            {"eval": 9, "children": [14, 5, 2]},
        ]
    }
    # depth 1: evals 5, 1, 9 are read in turn (nothing to prune at a MAX root): 9
    problem = grader(tree, depth=1)
    right = {"value": 9, "best_move": "root.2", "pruned_leaves": []}
    assert problem.grade(right).score == 4
    # one ply deeper is AIMA Fig. 5.2: 3 with 2 leaves pruned
    wrong = problem.grade({"value": 3, "best_move": "root.0"})
    assert "depth_off_by_one" in codes(wrong)
    # depth 0: the root's own eval would be needed; without one, a 422 at its eval
    with pytest.raises(InvalidInputError) as error:
        grader(tree, depth=0)
    assert error.value.errors[0].pointer == "/problem/tree/eval"
