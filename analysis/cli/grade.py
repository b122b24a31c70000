"""``arbiter grade``: grade answers to a problem or an assignment without the server.

    arbiter grade PROBLEM.json ANSWERS [--format json|csv|gradescope|prairielearn]
                  [--roster ROSTER] [--allow-unmatched] [--feedback LEVEL]
                  [--rubric RUBRIC.json] [--output FILE]
                  [--student ID | --gradescope-metadata FILE [--student-field email]]

PROBLEM.json holds a problem (``{"type": "alphabeta", "tree": ...}``),
``{"problem": ..., "rubric": ...}``, or an assignment ``{"assignment": {generator settings
with a seed}, "roster": [...], "rubric": ...}`` (``arbiter problem generate --roster``
writes one): each student's answer is then graded against that student's variant.
ANSWERS is a directory of answers (``<name>.json`` files, or folders holding one
``.json`` file each, as learning systems export them), one answer file, or a file
``{"answers": {name: answer}}``.

With a roster (``--roster``, or the one the assignment keeps; an assignment needs one)
each answer's name is matched to a student (exact id, then the rules of
:mod:`analysis.grading.roster`): an answer that matches no student is listed apart and
graded against nothing (exit status 1 unless ``--allow-unmatched``), and a student
without an answer gets a row marked missing, scored 0. ``--feedback`` sets what each
grade shows (``score``, ``fields``, ``hints``, ``full``: :mod:`analysis.grading.feedback`).
``--format gradescope`` and ``--format prairielearn`` grade one submission and write the
``results.json`` Gradescope's autograder or PrairieLearn's external grader reads;
``--student`` names its student, or ``--gradescope-metadata`` takes it from Gradescope's
``submission_metadata.json`` (the first of ``--student-field`` that its first user has
and that names a roster student).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from analysis.cli.documents import print_document, read_document, write_file
from analysis.cli.error_handler import (
    EXIT_ATTENTION,
    EXIT_OK,
    CommandLineError,
    option_name,
    reading,
)
from analysis.cli.options import ArgumentParser, command_parser
from analysis.grading.assignments import (
    ClassGrades,
    grade_class,
    read_assignment,
    variant_grader,
)
from analysis.grading.class_report import (
    VISIBILITIES,
    grades_csv,
    gradescope_results,
    prairielearn_results,
    summarize,
)
from analysis.grading.feedback import FEEDBACK_LEVELS
from analysis.grading.json_output import grades_json
from analysis.grading.registry import AnswerGrader, grade_one, make_grader
from analysis.grading.results import Grade
from analysis.grading.roster import Roster, Unmatched, parse_roster_text, read_roster
from analysis.grading.rubric import Rubric, parse_rubric
from games.errors import FieldError, InvalidInputError, join_pointer
from games.limits import active_limits


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter grade``."""
    command = command_parser(
        name,
        summary,
        "Grade students' answers to a tree, matrix, lottery, preference, EU-consistency or "
        "extensive-form problem, or to an "
        "assignment with a variant per student, against the key computed from the problem, "
        "with partial credit by a rubric; match answers to a roster.",
    )
    command.set_defaults(run=grade_command)
    command.add_argument(
        "problem", help="problem JSON file, {problem, rubric}, or {assignment, roster, rubric}"
    )
    command.add_argument(
        "answers",
        help="a directory of answers (<name>.json files, or folders of one .json file each), "
        "one answer file, or {answers: {...}}",
    )
    command.add_argument(
        "--format",
        choices=["json", "csv", "gradescope", "prairielearn"],
        default="json",
        help="json: every grade and a summary; csv: one row per student; "
        "gradescope, prairielearn: one submission's results.json (default: json)",
    )
    command.add_argument(
        "--roster",
        default=None,
        metavar="FILE",
        help="the class: one student id a line, or a CSV file with an id column (Canvas, "
        "Gradescope and Arbiter columns; replaces the assignment's own roster)",
    )
    command.add_argument(
        "--allow-unmatched",
        action="store_true",
        help="exit 0 even when some answers match no roster student (they are still listed "
        "apart and not graded)",
    )
    command.add_argument(
        "--feedback",
        choices=FEEDBACK_LEVELS,
        default=None,
        help="what each grade shows: score (total only), fields (each field's points and "
        "status), hints (and hints from the student's own answer), full (and the key's "
        "entries) (default: fields for gradescope and prairielearn, which students see; "
        "full otherwise)",
    )
    command.add_argument(
        "--visibility",
        choices=VISIBILITIES,
        default="visible",
        help="with --format gradescope: when students see the result and its tests "
        "(default: visible)",
    )
    command.add_argument(
        "--rubric", default=None, metavar="FILE", help="rubric JSON file (overrides the problem's)"
    )
    command.add_argument(
        "--output",
        default=None,
        metavar="FILE",
        help="write to FILE instead of standard output (--format gradescope and "
        "prairielearn: default results.json)",
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


def gradescope_identities(source: str, fields: str) -> list[str]:
    """What names the student of a Gradescope submission: the values of ``fields``
    (comma-separated, in that order) that the first user of the metadata file ``source``
    has, not empty.

    :raises CommandLineError: as :func:`student_fields`, or when the file is unreadable or
        lists no user, or the first user has none of ``fields``.
    """
    wanted = student_fields(fields)
    metadata = read_document(source)
    users = metadata.get("users") if isinstance(metadata, dict) else None
    if not isinstance(users, list) or not users or not isinstance(users[0], dict):
        raise CommandLineError(source, "expected users: [{email, id, name, ...}], found none")
    found = []
    for field in wanted:
        value = users[0].get(field)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            found.append(str(value).strip())
    if not found:
        raise CommandLineError(
            source, f"the submission's first user has no {' or '.join(wanted)} to name the student"
        )
    return found


def _roster_file(source: str) -> Roster:
    try:
        text = Path(source).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise CommandLineError(source, reason or str(error)) from None
    with reading(source, option_name):
        return read_roster(parse_roster_text(text), "")


def class_roster(option: str | None, document: Any, source: str) -> Roster | None:
    """The roster of ``--roster`` (a file), else the one the problem document keeps."""
    if option is not None:
        return _roster_file(option)
    if isinstance(document, dict) and "roster" in document:
        with reading(source, option_name):
            return read_roster(document["roster"])
    return None


def grade_command(args: argparse.Namespace) -> int:
    """Grade every answer of ``args.answers`` and write the grades as ``args.format`` says."""
    document = read_document(args.problem)
    assigned = isinstance(document, dict) and "assignment" in document
    wrapped = isinstance(document, dict) and "problem" in document or assigned
    problem = document["problem"] if wrapped and not assigned else document
    raw_rubric = document.get("rubric") if wrapped else None
    if args.rubric is not None:
        raw_rubric = read_document(args.rubric)
    rubric = parse_rubric(raw_rubric)
    roster = class_roster(args.roster, document, args.problem)
    grader_for: Callable[[str], AnswerGrader]
    if assigned:
        # each student's answer against that student's variant (arbiter problem generate)
        with reading(args.problem, option_name):
            template = read_assignment(document["assignment"])
        if roster is None:
            raise CommandLineError(
                "--roster",
                "this assignment gives each student a variant, so each answer must be matched "
                "to a roster student: give --roster FILE (or generate the assignment with "
                "arbiter problem generate --roster)",
            )
        grader_for = variant_grader(template)
    else:
        grader = make_grader(problem, active_limits())

        def grader_for(student: str) -> AnswerGrader:
            return grader

    one = args.format in ("gradescope", "prairielearn")
    if args.feedback is None:
        args.feedback = "fields" if one else "full"
    names = _submission_names(args)
    source = Path(args.answers)
    answers, whole_class = _answers(source)
    if one or names is not None or not whole_class:
        # one submission, named by --student, Gradescope, or its file's name
        return _grade_submission(args, names, roster, grader_for, rubric, answers)
    fields: list[str] | None = None
    if roster is not None:
        unreadable = {
            name: f"{answer.where}: {answer.message}"
            for name, answer in answers.items()
            if isinstance(answer, CommandLineError)
        }
        graded = grade_class(grader_for, roster, answers, rubric, unreadable=unreadable)
        fields = _asked(grader_for(roster.ids[0]), rubric)
    else:
        graded = ClassGrades(_grade_each(grader_for, answers, rubric), [], {})
        fields = _asked(grader_for(next(iter(answers), "")), rubric) if answers else None
    _write(args, graded.grades, fields, graded.unmatched, graded.matched)
    return _report_unmatched(graded.unmatched, args.allow_unmatched)


def _write(
    args: argparse.Namespace,
    grades: dict[str, Grade],
    fields: list[str] | None,
    unmatched: list[Unmatched],
    matched: dict[str, tuple[str, str]] | None = None,
) -> None:
    """Print the grades as ``--format`` csv or json says, or write them to ``--output``."""
    if args.format == "csv":
        text = grades_csv(grades, fields)
        if args.output is None:
            sys.stdout.write(text)
    else:
        summary = summarize(grades, len(unmatched))
        document = grades_json(grades, summary, args.feedback, unmatched, matched)
        if args.output is None:
            print_document(document)
        text = json.dumps(document, indent=2) + "\n"
    if args.output is not None:
        write_file(args.output, text)
        print(f"{len(grades)} grade{'s' if len(grades) != 1 else ''} written to {args.output}")


def _asked(grader: AnswerGrader, rubric: Rubric) -> list[str]:
    return list(grader.rubric_for(rubric).required)


def _report_unmatched(unmatched: list[Unmatched], allowed: bool) -> int:
    """List the answers no roster student owns on standard error; exit status 1 unless
    they are ``allowed``."""
    if not unmatched:
        return EXIT_OK
    sys.stdout.flush()  # what was written comes first, piped or not
    count = len(unmatched)
    print(
        f"arbiter: {count} answer{'s' if count > 1 else ''} matched no roster student and "
        f"{'were' if count > 1 else 'was'} not graded:",
        file=sys.stderr,
    )
    for entry in unmatched:
        print(f"  {entry.answer}: {entry.reason}", file=sys.stderr)
    return EXIT_OK if allowed else EXIT_ATTENTION


def _submission_names(args: argparse.Namespace) -> list[str] | None:
    """The names that may name the one submission's student (``--student``, or the
    Gradescope identity), or ``None`` when neither is given."""
    if args.gradescope_metadata is not None:
        if args.student is not None:
            raise CommandLineError("--student", "give either --student or --gradescope-metadata")
        return gradescope_identities(args.gradescope_metadata, args.student_field)
    return None if args.student is None else [args.student]


def _grade_submission(
    args: argparse.Namespace,
    names: list[str] | None,
    roster: Roster | None,
    grader_for: Callable[[str], AnswerGrader],
    rubric: Rubric,
    answers: dict[str, Any],
) -> int:
    """Grade one submission (``answers``: of a file, or of a folder with one ``.json``
    file) as the student ``names`` name, and write it as ``args.format`` says."""
    source = Path(args.answers)
    if not source.is_dir() and len(answers) != 1:
        # a file of several answers is the instructor's mistake, not a student's
        if args.format in ("gradescope", "prairielearn"):
            message = f"{args.format} grades one submission; got {len(answers)} answers"
            raise CommandLineError("--format", message)
        message = f"names the student of one answer; got {len(answers)} answers"
        raise CommandLineError("--student", message)
    if names is None:
        names = [source.stem] if not source.is_dir() else list(answers) or [source.name]
    student, why, how = _whose(names, roster)
    grader = grader_for(student if student is not None else roster.ids[0] if roster else "")
    chosen = grader.rubric_for(rubric)
    asked = {name: float(chosen.points_for(name)) for name in chosen.required}
    if student is None:
        # graded against nothing: a 0 that says why (about no field: the pointer is empty)
        grade = Grade.refused(grader.maximum(rubric), FieldError("", why))
    elif len(answers) != 1:
        message = f"expected one .json answer file, found {len(answers)}"
        grade = Grade.refused(grader.maximum(rubric), FieldError("/answers", message))
    else:
        (answer,) = answers.values()
        grade = _grade_or_refuse(grader, answer, rubric, join_pointer("/answers", student))
    if args.format in ("gradescope", "prairielearn"):
        if args.format == "gradescope":
            results = gradescope_results(grade, asked, args.feedback, args.visibility)
        else:
            results = prairielearn_results(grade, asked, args.feedback)
        output = args.output or "results.json"
        write_file(output, json.dumps(results, indent=2) + "\n")
        print(f"{grade.score:g} / {grade.max_score:g} written to {output}")
    elif student is None:
        _write(args, {}, list(asked), [Unmatched(", ".join(names), why)])
    else:
        _write(args, {student: grade}, list(asked), [], None if how is None else {student: how})
    if student is None:
        return _report_unmatched([Unmatched(", ".join(names), why)], args.allow_unmatched)
    return EXIT_OK


def _whose(
    names: list[str], roster: Roster | None
) -> tuple[str | None, str, tuple[str, str] | None]:
    """The roster student the first of ``names`` that matches one is (without a roster:
    the first name), and that name with the rule that matched it; or ``None`` and why."""
    if roster is None:
        return names[0], "", None
    reasons = []
    for name in names:
        found = roster.match(name)
        if found.student is not None:
            return found.student, "", (name, found.rule or "")
        reasons.append(f"{name!r} {found.reason}")
    return (
        None,
        "this submission could not be matched to a student on the assignment's roster ("
        + "; ".join(reasons)
        + "): ask your instructor",
        None,
    )


def _grade_or_refuse(grader: AnswerGrader, answer: Any, rubric: Rubric, pointer: str) -> Grade:
    """The grade of one answer, or of an answer file that could not be read."""
    if isinstance(answer, CommandLineError):
        return Grade.refused(
            grader.maximum(rubric), FieldError(pointer, f"{answer.where}: {answer.message}")
        )
    return grade_one(grader, answer, rubric, pointer=pointer)


def _grade_each(
    grader_for: Callable[[str], AnswerGrader], answers: dict[str, Any], rubric: Rubric
) -> dict[str, Grade]:
    """Every answer's grade under its own name (no roster); an unreadable answer (or
    answer file) scores 0 with its error, and the others are graded all the same."""
    return {
        name: _grade_or_refuse(grader_for(name), answer, rubric, join_pointer("/answers", name))
        for name, answer in answers.items()
    }


def _read_answer(path: Path) -> Any:
    """The answer in ``path``, or the error that makes it unreadable."""
    try:
        return read_document(str(path))
    except CommandLineError as error:
        return error


def _answers(source: Path) -> tuple[dict[str, Any], bool]:
    """The answers under ``source`` by name, and whether they are a class's (a directory
    or ``{"answers": {...}}``) rather than one answer file's: a directory's
    ``<name>.json`` files and folders holding one ``.json`` file each (named by the
    folder; a folder with none or several is an unreadable answer), one file by its name,
    or ``{"answers": {...}}``."""
    if source.is_dir():
        found: dict[str, Any] = {}
        for path in sorted(source.iterdir()):
            if path.is_file() and path.suffix == ".json":
                found[path.stem] = _read_answer(path)
            elif path.is_dir():
                inside = sorted(path.glob("*.json"))
                if len(inside) == 1:
                    found[path.name] = _read_answer(inside[0])
                elif inside:
                    found[path.name] = CommandLineError(
                        str(path), f"expected one .json answer file, found {len(inside)}"
                    )
        return found, True
    document = _read_answer(source)
    if isinstance(document, dict) and set(document) == {"answers"}:
        answers = document["answers"]
        if not isinstance(answers, dict):
            raise InvalidInputError("answers maps student ids to answers", "/answers")
        return answers, True
    return {source.stem: document}, False
