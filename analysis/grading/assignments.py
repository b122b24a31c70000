"""Assignments: a problem template and a seed, one variant per student, each student
graded against that student's own variant.

A student's variant is :func:`analysis.grading.problem_generator.generate_problem` of
the template with the seed and the student's id (the pair fixes the draw through
:func:`analysis.grading.generator_settings.variant_seed`), so the handout and the
grading agree on any machine, and regrading gives the same grades.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from analysis.grading.generator_settings import ProblemSettings, read_settings
from analysis.grading.problem_generator import GeneratedProblem, generate_problem
from analysis.grading.registry import AnswerGrader, make_grader
from analysis.grading.results import Grade
from analysis.grading.rubric import Rubric
from games.errors import ArbiterError, InvalidInputError, join_pointer
from games.limits import active_limits, current_deadline


def read_assignment(raw: Any, pointer: str = "/assignment") -> ProblemSettings:
    """The template of an assignment: generator settings with a fixed ``seed``.

    :raises InvalidInputError: as :func:`read_settings`, or when the seed is missing
        (without one no two runs would hand out the same variants).
    """
    settings = read_settings(raw, pointer)
    if settings.seed is None or "seed" not in raw:
        raise InvalidInputError(
            "an assignment fixes its seed, so that every run hands out the same variants",
            join_pointer(pointer, "seed"),
        )
    if settings.student is not None:
        raise InvalidInputError(
            "an assignment is for every student; the student comes with each answer",
            join_pointer(pointer, "student"),
        )
    return settings


def student_problem(
    template: ProblemSettings, student: str, figure: bool = True
) -> GeneratedProblem:
    """``student``'s variant of the assignment ``template``."""
    return generate_problem(dataclasses.replace(template, student=student), figure=figure)


def student_grader(template: ProblemSettings, student: str, pointer: str) -> AnswerGrader:
    """The grader of ``student``'s variant; an error of the template points under
    ``pointer`` (the assignment's place in the document)."""
    return _variant(template, student, pointer)[0]


def _variant(
    template: ProblemSettings, student: str, pointer: str
) -> tuple[AnswerGrader, dict[str, Any]]:
    try:
        made = student_problem(template, student, figure=False)
    except ArbiterError as error:
        error.located(lambda parameter: join_pointer(pointer, parameter))
        raise
    return make_grader(made.problem, active_limits()), made.answer


def grade_assignment(
    template: ProblemSettings,
    answers: Mapping[str, Any],
    rubric: Rubric,
    diagnose: bool = True,
    base: str = "/answers",
    assignment: str = "/assignment",
) -> dict[str, Grade]:
    """Grade each student's answer against that student's variant.

    A malformed answer scores 0 out of what the variant's own key scores, with its
    ``error`` (pointing under ``base``/student); an error of the template (pointing
    under ``assignment``) or of the deadline is raised, refusing the whole class.
    """
    deadline = current_deadline()
    grades: dict[str, Grade] = {}
    for student, answer in answers.items():
        deadline.check()
        grader, key = _variant(template, student, assignment)
        pointer = join_pointer(base, student)
        try:
            grades[student] = grader.grade(answer, rubric, diagnose=diagnose, pointer=pointer)
        except ArbiterError as error:
            if not all(_within(e.pointer, pointer) for e in error.errors):
                raise
            most = grader.grade(key, rubric, diagnose=False).max_score
            grades[student] = Grade(0.0, most, [], [], error.errors[0])
    return grades


def _within(pointer: str, base: str) -> bool:
    return pointer == base or pointer.startswith(base + "/")
