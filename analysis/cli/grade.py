"""``arbiter grade``: grade answers to a problem without the server.

    arbiter grade PROBLEM.json ANSWERS [--format json|csv|gradescope|prairielearn]
                  [--rubric RUBRIC.json] [--output results.json]
                  [--student ID | --gradescope-metadata FILE [--student-field email]]

PROBLEM.json holds a problem (``{"type": "alphabeta", "tree": ...}``),
``{"problem": ..., "rubric": ...}``, or an assignment ``{"assignment": {generator settings
with a seed}, "rubric": ...}`` (``arbiter problem generate --roster`` writes one): each
student's answer is then graded against that student's variant. ANSWERS is a directory of
``<student>.json`` answers, one answer file, or a file ``{"answers": {student: answer}}``.
``--format gradescope`` and ``--format prairielearn`` grade one submission and write
the ``results.json`` that Gradescope's autograder or PrairieLearn's external grader
reads. A malformed answer scores 0 with its error as feedback; the rest of the class is
graded (and a results.json is written for a malformed submission too). ``--student``
grades the one answer as that student's (against that student's variant of an
assignment); ``--gradescope-metadata`` takes the student from Gradescope's
``submission_metadata.json``: the first of ``--student-field`` that its first user has.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Final

from analysis.cli.documents import print_document, read_document, write_file
from analysis.cli.error_handler import EXIT_OK, CommandLineError, option_name, reading
from analysis.cli.options import ArgumentParser, command_parser
from analysis.grading.assignments import read_assignment, student_grader
from analysis.grading.class_report import (
    grades_csv,
    gradescope_results,
    prairielearn_results,
    summarize,
)
from analysis.grading.json_output import grades_json
from analysis.grading.registry import AnswerGrader, make_grader
from analysis.grading.results import Grade
from analysis.grading.rubric import Rubric, parse_rubric
from games.errors import ArbiterError, FieldError, InvalidInputError, join_pointer
from games.limits import active_limits


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter grade``."""
    command = command_parser(
        name,
        summary,
        "Grade students' answers to a tree, matrix, lottery or preference problem against "
        "the key computed from the problem, with partial credit by a rubric.",
    )
    command.set_defaults(run=grade_command)
    command.add_argument("problem", help="problem JSON file, or {problem, rubric}")
    command.add_argument(
        "answers",
        help="a directory of <student>.json answers, one answer file, or {answers: {...}}",
    )
    command.add_argument(
        "--format",
        choices=["json", "csv", "gradescope", "prairielearn"],
        default="json",
        help="json: every grade and a summary; csv: one row per student; "
        "gradescope, prairielearn: write one submission's results.json (default: json)",
    )
    command.add_argument(
        "--rubric", default=None, metavar="FILE", help="rubric JSON file (overrides the problem's)"
    )
    command.add_argument(
        "--output",
        default="results.json",
        metavar="FILE",
        help="where --format gradescope or prairielearn writes (default: results.json)",
    )
    command.add_argument(
        "--student",
        default=None,
        metavar="ID",
        help="grade the one answer as this student's (an assignment: against their variant)",
    )
    command.add_argument(
        "--gradescope-metadata",
        default=None,
        metavar="FILE",
        help="take --student from Gradescope's submission_metadata.json (its first user)",
    )
    command.add_argument(
        "--student-field",
        default="email",
        metavar="FIELDS",
        help="with --gradescope-metadata: the user fields tried in turn, comma-separated "
        f"({', '.join(GRADESCOPE_FIELDS)}; default: email, the one field Gradescope documents)",
    )
    return command


GRADESCOPE_FIELDS: Final = ("email", "sid", "name", "id")
"""The fields of a user in Gradescope's ``submission_metadata.json`` that can name a
student: ``email``, ``id`` and ``name`` are documented; ``sid`` (the course roster's
student id) is not, though submissions may carry it."""


def student_fields(fields: str) -> list[str]:
    """``--student-field`` read: the comma-separated user fields, in order.

    :raises CommandLineError: when one is not among :data:`GRADESCOPE_FIELDS`.
    """
    wanted = [field.strip() for field in fields.split(",") if field.strip()]
    if not wanted or any(field not in GRADESCOPE_FIELDS for field in wanted):
        raise CommandLineError(
            "--student-field",
            f"expected fields among {', '.join(GRADESCOPE_FIELDS)}, got {fields!r}",
        )
    return wanted


def gradescope_student(source: str, fields: str) -> str:
    """The student id of a Gradescope submission: the first of ``fields`` (comma-separated)
    that the first user of the metadata file ``source`` has, not empty.

    :raises CommandLineError: as :func:`student_fields`, or when the file is unreadable or
        lists no user, or the first user has none of ``fields``.
    """
    wanted = student_fields(fields)
    metadata = read_document(source)
    users = metadata.get("users") if isinstance(metadata, dict) else None
    if not isinstance(users, list) or not users or not isinstance(users[0], dict):
        raise CommandLineError(source, "expected users: [{email, id, name, ...}], found none")
    for field in wanted:
        value = users[0].get(field)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value).strip()
    raise CommandLineError(
        source, f"the submission's first user has no {' or '.join(wanted)} to name the student"
    )


def grade_command(args: argparse.Namespace) -> int:
    """Grade every answer of ``args.answers`` and print the grades as ``args.format`` says."""
    document = read_document(args.problem)
    assigned = isinstance(document, dict) and "assignment" in document
    wrapped = isinstance(document, dict) and "problem" in document or assigned
    problem = document["problem"] if wrapped and not assigned else document
    raw_rubric = document.get("rubric") if wrapped else None
    if args.rubric is not None:
        raw_rubric = read_document(args.rubric)
    rubric = parse_rubric(raw_rubric)
    grader_for: Callable[[str], AnswerGrader]
    if assigned:
        # each student's answer against that student's variant (arbiter problem generate)
        with reading(args.problem, option_name):
            template = read_assignment(document["assignment"])
        grader_for = partial(student_grader, template, pointer="/assignment")
    else:
        grader = make_grader(problem, active_limits())

        def grader_for(student: str) -> AnswerGrader:
            return grader

    student = args.student
    if args.gradescope_metadata is not None:
        if student is not None:
            raise CommandLineError("--student", "give either --student or --gradescope-metadata")
        student = gradescope_student(args.gradescope_metadata, args.student_field)
    source = Path(args.answers)
    one = args.format in ("gradescope", "prairielearn")
    if (one or student is not None) and source.is_dir() and len(list(source.glob("*.json"))) != 1:
        # a submission without exactly one answer file is the student's error, not ours
        found = len(list(source.glob("*.json")))
        name = source.name if student is None else student
        error = FieldError("/answers", f"expected one .json answer file, found {found}")
        grades = {name: Grade(0.0, grader_for(name).maximum(rubric), [], [], error)}
    else:
        answers = _answers(source)
        if student is not None:
            if len(answers) != 1:
                raise CommandLineError(
                    "--student", f"names the student of one answer; got {len(answers)} answers"
                )
            answers = {student: next(iter(answers.values()))}
        grades = _grade_each(grader_for, answers, rubric)
    if one:
        if len(grades) != 1:
            raise CommandLineError(
                "--format", f"{args.format} grades one submission; got {len(grades)} answers"
            )
        ((student, grade),) = grades.items()
        asked = grader_for(student).rubric_for(rubric)
        points = {name: float(asked.points_for(name)) for name in asked.required}
        write = gradescope_results if args.format == "gradescope" else prairielearn_results
        write_file(args.output, json.dumps(write(grade, points), indent=2) + "\n")
        print(f"{grade.score:g} / {grade.max_score:g} written to {args.output}")
    elif args.format == "csv":
        sys.stdout.write(grades_csv(grades))
    else:
        print_document(grades_json(grades, summarize(grades)))
    return EXIT_OK


def _grade_each(
    grader_for: Callable[[str], AnswerGrader], answers: dict[str, Any], rubric: Rubric
) -> dict[str, Grade]:
    """Every student's full grade; a malformed answer (or answer file) scores 0 out of the
    problem's maximum with its error, and the others are graded all the same."""
    grades: dict[str, Grade] = {}
    for student, answer in answers.items():
        grader = grader_for(student)
        pointer = join_pointer("/answers", student)
        if isinstance(answer, CommandLineError):
            error = FieldError(pointer, f"{answer.where}: {answer.message}")
            grades[student] = Grade(0.0, grader.maximum(rubric), [], [], error)
            continue
        try:
            grades[student] = grader.grade(answer, rubric, pointer=pointer)
        except ArbiterError as failed:
            inside = (
                e.pointer == pointer or e.pointer.startswith(pointer + "/") for e in failed.errors
            )
            if not all(inside):
                raise  # the problem, the rubric or the deadline: not this student's doing
            grade = Grade(0.0, grader.maximum(rubric), [], [], failed.errors[0])
            grades[student] = grade
    return grades


def _read_answer(path: Path) -> Any:
    """The answer in ``path``, or the error that makes it unreadable."""
    try:
        return read_document(str(path))
    except CommandLineError as error:
        return error


def _answers(source: Path) -> dict[str, Any]:
    if source.is_dir():
        return {path.stem: _read_answer(path) for path in sorted(source.glob("*.json"))}
    document = _read_answer(source)
    if isinstance(document, dict) and set(document) == {"answers"}:
        answers = document["answers"]
        if not isinstance(answers, dict):
            raise InvalidInputError("answers maps student ids to answers", "/answers")
        return answers
    return {source.stem: document}
