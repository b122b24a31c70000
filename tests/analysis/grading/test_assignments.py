"""Assignments: a variant per student, fixed by the seed and the student's id, graded
against that student's own variant."""

from __future__ import annotations

import json

import pytest

from analysis.grading.assignments import (
    grade_assignment,
    read_assignment,
    student_grader,
    student_problem,
)
from analysis.grading.generator_settings import ProblemSettings
from analysis.grading.json_output import grade_json
from analysis.grading.rubric import Rubric
from games.errors import InvalidInputError
from tests.analysis.grading.full_marks import assert_full_marks

TEMPLATE = {"type": "alphabeta", "depth": 3, "branching": [2, 3], "seed": 2026}
ROSTER = [f"s{n:03d}" for n in range(40)]


def test_each_student_gets_a_deterministic_variant() -> None:
    template = read_assignment(TEMPLATE)
    first = {s: student_problem(template, s, figure=False).problem for s in ROSTER}
    again = {s: student_problem(template, s, figure=False).problem for s in ROSTER}
    assert first == again
    # 40 random trees of 4 to 27 leaves over 21 values: all distinct
    assert len({json.dumps(p["tree"]) for p in first.values()}) == len(ROSTER)
    # the student's variant is the one the generator gives for seed and student
    made = student_problem(template, "s007")
    assert made.seed == 2026 and made.student == "s007"
    assert made.problem == first["s007"]
    assert_full_marks(made)


def test_grading_uses_the_students_own_variant() -> None:
    # three children everywhere: every variant has the same node ids, other leaves
    template = read_assignment({**TEMPLATE, "branching": 3})
    ada = student_problem(template, "ada").answer
    grade = student_grader(template, "ada", "/assignment").grade(ada)
    assert grade.score == grade.max_score
    # ada's key answers bob's tree wrongly somewhere (different leaves)
    bob = student_grader(template, "bob", "/assignment").grade(ada)
    assert bob.score < bob.max_score
    # regrading gives byte-identical grades
    texts = {
        json.dumps(grade_json(student_grader(template, "bob", "/a").grade(ada))) for _ in range(3)
    }
    assert len(texts) == 1


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ({"type": "minimax"}, "/assignment/seed"),
        ({"type": "minimax", "seed": None}, "/assignment/seed"),
        ({"type": "minimax", "seed": 1, "student": "ada"}, "/assignment/student"),
        ({"type": "minimax", "seed": 1, "depth": "3"}, "/assignment/depth"),
    ],
)
def test_an_assignment_fixes_its_seed(raw: object, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        read_assignment(raw)
    assert error.value.errors[0].pointer == pointer


def test_a_template_error_points_into_the_assignment() -> None:
    template = ProblemSettings(type="minimax", seed=1, depth=9)
    with pytest.raises(InvalidInputError) as error:
        student_grader(template, "ada", "/assignment")
    assert error.value.errors[0].pointer == "/assignment/depth"


def test_a_class_is_graded_variant_by_variant() -> None:
    template = read_assignment({"type": "lottery", "seed": 5})
    answers = {s: student_problem(template, s, figure=False).answer for s in ("ada", "bob")}
    answers["cyd"] = dict(answers["bob"])  # bob's answer, handed in by cyd
    # dan's own key with one field he wrote as no number can be
    answers["dan"] = {**student_problem(template, "dan", figure=False).answer, "emv": "lots"}
    grades = grade_assignment(template, answers, Rubric())
    assert grades["ada"].score == grades["ada"].max_score == 5
    assert grades["bob"].score == 5
    # cyd's variant is another lottery: bob's numbers do not fit it
    assert grades["cyd"].score < 5
    # dan's emv cannot be read: 0 for it, with its own error; his four other fields,
    # right, keep their points
    dan = grades["dan"]
    assert (dan.score, dan.max_score, dan.error) == (4.0, 5.0, None)
    emv = next(item for item in dan.items if item.field == "emv")
    assert (emv.score, emv.max_score) == (0.0, 1.0)
    assert emv.error is not None and emv.error.pointer == "/answers/dan/emv"
