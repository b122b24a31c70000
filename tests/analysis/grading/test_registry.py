"""Picking the grader by the problem's type, and grading a batch with the key once."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.consistency_problems import ConsistencyGrader
from analysis.grading.lottery_problems import LotteryGrader
from analysis.grading.matrix_problems import MatrixGrader
from analysis.grading.preference_problems import PreferenceGrader
from analysis.grading.registry import BatchGrade, grade_batch, grade_one, make_grader
from analysis.grading.rubric import Rubric, parse_rubric
from analysis.grading.tree_problems import Grader
from games.errors import InvalidInputError

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}


@pytest.mark.parametrize(
    ("problem", "kind"),
    [
        (AIMA, Grader),
        ({"type": "matrix", "A": [[1, 0], [0, 1]], "B": [[1, 0], [0, 1]]}, MatrixGrader),
        ({"type": "lottery", "lottery": [[1, 5]]}, LotteryGrader),
        (
            {"type": "preferences", "prizes": ["A", "B"], "preferences": [["A", ">", "B"]]},
            PreferenceGrader,
        ),
        (
            {
                "type": "eu-consistency",
                "lotteries": {"A": [[1, 1]], "B": [[1, 0]]},
                "choices": [["A", ">", "B"]],
            },
            ConsistencyGrader,
        ),
    ],
)
def test_make_grader_by_type(problem: Any, kind: type) -> None:
    assert isinstance(make_grader(problem), kind)


def test_a_problem_is_an_object() -> None:
    with pytest.raises(InvalidInputError) as error:
        make_grader([1, 2])
    assert error.value.errors[0].pointer == "/problem"


def test_batch_key_once_and_malformed_answers_per_student() -> None:
    answers = {
        "ada": {"value": 3, "pruned_leaves": ["root.1.1", "root.1.2"]},
        "bob": {"value": 14, "pruned_leaves": ["root.1.2"]},
        "cy": {"value": "three"},
    }
    graded = grade_batch(make_grader(AIMA), answers, Rubric())
    # the problem asks value, best move and pruned leaves (1 + 1 + 2 points)
    assert graded.key == {
        "value": 3,
        "best_move": "root.0",
        "pruned_leaves": ["root.1.1", "root.1.2"],
    }
    ada, bob, cy = (graded.results[s] for s in ("ada", "bob", "cy"))
    assert (ada.score, ada.max_score) == (3, 4)
    assert ada.items[1].feedback == "not answered"
    # value wrong; one of two pruned leaves: 2 * 1 / 3 of 2 points
    assert bob.score == 4 / 3
    (_, _, leaves) = bob.items
    assert (leaves.missing, leaves.missing_count) == (["root.1.1"], 1)
    # cy's value cannot be read: 0 for it with its own error, the pointer into the batch;
    # the fields he left out score 0 as unanswered
    assert isinstance(cy, BatchGrade)
    assert (cy.score, cy.max_score, cy.error) == (0, 4, None)
    value = cy.items[0]
    assert value.error is not None and value.error.pointer == "/answers/cy/value"
    assert value.feedback.startswith("could not be read: 'three' is not a number")
    assert [e.pointer for e in cy.errors] == ["/answers/cy/value"]


def test_batch_key_carries_exact_values() -> None:
    tree = {"kind": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", "value": 2}]}
    graded = grade_batch(
        make_grader({"type": "expectimax", "tree": tree}),
        {"ada": {"value": 2}},
        parse_rubric(None),
    )
    # 1/3 * 1 + 2/3 * 2 = 5/3; a chance root has no best move to ask
    assert graded.key == {
        "value": 5 / 3,
        "value_exact": "5/3",
        "nodes": {"root": 5 / 3},
        "nodes_exact": {"root": "5/3"},
    }


def test_a_template_placeholder_left_null_is_not_answered() -> None:
    # the statement's answer template: null for values and moves, every internal node
    # named; the student filled in the root only
    answer = {
        "value": None,
        "best_move": None,
        "nodes": {"root": 3, "root.0": None, "root.1": None, "root.2": None},
        "pruned_leaves": [],
    }
    problem = {**AIMA, "questions": ["value", "best_move", "nodes", "pruned_leaves"]}
    grade = grade_one(make_grader(problem), answer, Rubric())
    feedback = {item.field: item.feedback for item in grade.items}
    assert (feedback["value"], feedback["best_move"]) == ("not answered", "not answered")
    # one of the four values backed up: 1 of the 4 points; none of the 2 pruned leaves
    assert feedback["nodes"] == "3 node(s) missing: root.0, root.1, root.2"
    assert (grade.score, grade.errors) == (1, [])
