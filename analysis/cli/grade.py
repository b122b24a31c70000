"""``arbiter grade``: grade answers to a problem without the server.

    arbiter grade PROBLEM.json ANSWERS [--format json|csv|gradescope]
                  [--rubric RUBRIC.json] [--output results.json]

PROBLEM.json holds a problem (``{"type": "alphabeta", "tree": ...}``),
``{"problem": ..., "rubric": ...}``, or an assignment ``{"assignment": {generator settings
with a seed}, "rubric": ...}`` (``arbiter problem generate --roster`` writes one): each
student's answer is then graded against that student's variant (a malformed answer scores
0 with its error, the rest of the class is graded). ANSWERS is a directory of
``<student>.json`` answers, one answer file, or a file ``{"answers": {student: answer}}``.
``--format gradescope`` grades one answer and writes the ``results.json`` that
Gradescope's autograder reads.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from analysis.cli.documents import print_document, read_document, write_file
from analysis.cli.error_handler import EXIT_OK, CommandLineError, option_name, reading
from analysis.cli.options import ArgumentParser, command_parser
from analysis.grading.assignments import grade_assignment, read_assignment
from analysis.grading.class_report import grades_csv, gradescope_results, summarize
from analysis.grading.json_output import grades_json
from analysis.grading.registry import make_grader
from analysis.grading.rubric import parse_rubric
from games.errors import InvalidInputError
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
    command.add_argument(
        "problem", help="problem JSON file, {problem, rubric}, or {assignment, rubric}"
    )
    command.add_argument(
        "answers",
        help="a directory of <student>.json answers, one answer file, or {answers: {...}}",
    )
    command.add_argument(
        "--format",
        choices=["json", "csv", "gradescope"],
        default="json",
        help="json: every grade and a summary; csv: one row per student; "
        "gradescope: write one submission's results.json (default: json)",
    )
    command.add_argument(
        "--rubric", default=None, metavar="FILE", help="rubric JSON file (overrides the problem's)"
    )
    command.add_argument(
        "--output",
        default="results.json",
        metavar="FILE",
        help="where --format gradescope writes (default: results.json)",
    )
    return command


def grade_command(args: argparse.Namespace) -> int:
    """Grade every answer of ``args.answers`` and print the grades as ``args.format`` says."""
    document = read_document(args.problem)
    assigned = isinstance(document, dict) and "assignment" in document
    wrapped = isinstance(document, dict) and "problem" in document or assigned
    problem = document["problem"] if wrapped and not assigned else document
    raw_rubric = document.get("rubric") if wrapped else None
    if args.rubric is not None:
        raw_rubric = read_document(args.rubric)
    if assigned:
        # each student's answer against that student's variant (arbiter problem generate)
        with reading(args.problem, option_name):
            template = read_assignment(document["assignment"])
        answers = _answers(Path(args.answers))
        grades = grade_assignment(template, answers, parse_rubric(raw_rubric))
    else:
        grader = make_grader(problem, active_limits())
        rubric = parse_rubric(raw_rubric)
        answers = _answers(Path(args.answers))
        grades = {
            student: grader.grade(answer, rubric, pointer=f"/answers/{student}")
            for student, answer in answers.items()
        }
    if args.format == "gradescope":
        if len(grades) != 1:
            raise CommandLineError(
                "--format", f"gradescope grades one submission; got {len(grades)} answers"
            )
        (grade,) = grades.values()
        write_file(args.output, json.dumps(gradescope_results(grade), indent=2) + "\n")
        print(f"{grade.score:g} / {grade.max_score:g} written to {args.output}")
    elif args.format == "csv":
        sys.stdout.write(grades_csv(grades))
    else:
        print_document(grades_json(grades, summarize(grades)))
    return EXIT_OK


def _answers(source: Path) -> dict[str, Any]:
    if source.is_dir():
        return {path.stem: read_document(str(path)) for path in sorted(source.glob("*.json"))}
    document = read_document(str(source))
    if isinstance(document, dict) and set(document) == {"answers"}:
        answers = document["answers"]
        if not isinstance(answers, dict):
            raise InvalidInputError("answers maps student ids to answers", "/answers")
        return answers
    return {source.stem: document}
