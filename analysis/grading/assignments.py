"""Assignments: a problem template and a seed, one variant per student, each student
graded against that student's own variant.

A student's variant is :func:`analysis.grading.problem_generator.generate_problem` of
the template with the seed and the student's id (the pair fixes the draw through
:func:`analysis.grading.generator_settings.variant_seed`), so the handout and the
grading agree on any machine, and regrading gives the same grades.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from analysis.grading.generator_settings import ProblemSettings, read_settings
from analysis.grading.problem_generator import GeneratedProblem, generate_problem
from analysis.grading.registry import AnswerGrader, grade_one, make_grader
from analysis.grading.results import Grade
from analysis.grading.roster import Roster, Unmatched
from analysis.grading.rubric import Rubric
from games.errors import ArbiterError, FieldError, InvalidInputError, join_pointer
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
    try:
        made = student_problem(template, student, figure=False)
    except ArbiterError as error:
        error.located(lambda parameter: join_pointer(pointer, parameter))
        raise
    return make_grader(made.problem, active_limits())


def grade_assignment(
    template: ProblemSettings,
    answers: Mapping[str, Any],
    rubric: Rubric,
    diagnose: bool = True,
    base: str = "/answers",
    assignment: str = "/assignment",
) -> dict[str, Grade]:
    """Grade each student's answer against that student's variant; ``answers`` is keyed
    by student id (match names to a roster first: :func:`grade_class`).

    An unreadable answer or field scores 0 with its ``error`` (pointing under
    ``base``/student), as :func:`analysis.grading.registry.grade_one` says; an error of
    the template (pointing under ``assignment``) or of the deadline is raised, refusing
    the whole class.
    """
    deadline = current_deadline()
    grades: dict[str, Grade] = {}
    for student, answer in answers.items():
        deadline.check()
        grader = student_grader(template, student, assignment)
        grades[student] = grade_one(grader, answer, rubric, diagnose, join_pointer(base, student))
    return grades


@dataclass(frozen=True, slots=True)
class ClassGrades:
    """A class graded against its roster: a grade per roster student, in roster order
    (``missing`` ones scored 0), the answers that belong to no student (not graded), and
    each student's answer with the rule that matched it (``matched``: student -> (the
    answer's name, rule))."""

    grades: dict[str, Grade]
    unmatched: list[Unmatched]
    matched: dict[str, tuple[str, str]]


def grade_class(
    grader_for: Callable[[str], AnswerGrader],
    roster: Roster,
    answers: Mapping[str, Any],
    rubric: Rubric,
    diagnose: bool = True,
    base: str = "/answers",
    unreadable: Mapping[str, str] | None = None,
) -> ClassGrades:
    """Match every answer (keyed by its name) to a roster student and grade it with
    ``grader_for(student)``; never grades an answer no student owns. Pointers of an
    answer's errors name it as it was handed in (``base``/name); ``unreadable`` maps the
    names of answers that could not be read at all (a file that is not JSON) to why."""
    deadline = current_deadline()
    sorted_out = roster.assign(answers)
    grades: dict[str, Grade] = {}
    # every variant asks the same questions: a student without an answer is scored out of
    # the maximum of one variant, drawn once, not of their own
    absent: float | None = None
    for student in roster.ids:
        deadline.check()
        name = sorted_out.answers.get(student)
        if name is None:
            if absent is None:
                absent = grader_for(roster.ids[0]).maximum(rubric)
            grades[student] = Grade.absent(absent)
            continue
        grader = grader_for(student)
        pointer = join_pointer(base, name)
        if unreadable and name in unreadable:
            failed = FieldError(pointer, unreadable[name])
            grades[student] = Grade.refused(grader.maximum(rubric), failed)
            continue
        grades[student] = grade_one(grader, answers[name], rubric, diagnose, pointer)
    matched = {s: (name, sorted_out.rules[s]) for s, name in sorted_out.answers.items()}
    return ClassGrades(grades, sorted_out.unmatched, matched)


def variant_grader(
    template: ProblemSettings, assignment: str = "/assignment"
) -> Callable[[str], AnswerGrader]:
    """``student -> grader of that student's variant`` (errors of the template point
    under ``assignment``)."""
    return partial(student_grader, template, pointer=assignment)
