"""``arbiter problem``: generate problems, one or one variant per student, without the server.

    arbiter problem generate [SETTINGS.json] [--type T] [--seed N] [--student ID]
    arbiter problem generate [SETTINGS.json] --seed N --roster ROSTER.txt --output DIR

SETTINGS.json holds the body of ``POST /v1/problems/generate`` (every field optional);
``--type``, ``--seed`` and ``--student`` override it. One problem is printed as that
endpoint answers it (a fresh seed is drawn and printed when none is given). With a roster
(one student id a line, or a CSV file with an id column: :mod:`analysis.grading.roster`),
each student's variant is written to DIR: ``<id>.json`` (the problem, its key, statement,
figure and seed), ``<id>.md`` (the statement) and ``<id>.svg`` (the figure, where one
fits); and ``assignment.json``, the template with its seed and the roster, with which
``arbiter grade DIR/assignment.json ANSWERS`` grades each student's answer against that
student's variant.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Final

from analysis.cli.documents import print_document, write_file
from analysis.cli.error_handler import EXIT_OK, CommandLineError, reading
from analysis.cli.options import ArgumentParser, add_draw_options, command_parser, drawn_settings
from analysis.grading.assignments import student_problem
from analysis.grading.generator_settings import (
    fresh_seed,
    settings_json,
)
from analysis.grading.json_output import generated_json
from analysis.grading.problem_generator import GeneratedProblem, generate_problem
from analysis.grading.roster import Roster, parse_roster_text, read_roster, roster_json

ACTIONS: Final = ("generate",)
FILE_NAME: Final = re.compile(r"[A-Za-z0-9._@+-]+")
"""Student ids that are safe as file names on every system (no separators, no spaces)."""


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter problem``."""
    command = command_parser(
        name,
        summary,
        "Generate a problem of any gradable type (minimax, alphabeta, expectimax, maxn, "
        "matrix, lottery, preferences, eu-consistency, extensive) with its statement, figure "
        "and key, "
        "or one variant per student of a roster.",
    )
    command.set_defaults(run=problem_command)
    command.add_argument("action", choices=ACTIONS, help="what to do: generate")
    command.add_argument(
        "settings",
        nargs="?",
        default=None,
        help="JSON file of generator settings, as the body of POST /v1/problems/generate "
        "(- for standard input; none: the defaults)",
    )
    add_draw_options(command)
    command.add_argument(
        "--student", default=None, metavar="ID", help="generate this student's variant"
    )
    command.add_argument(
        "--roster",
        default=None,
        metavar="FILE",
        help="the class: one student id a line, or a CSV file with an id column (Canvas, "
        "Gradescope or Arbiter columns); write each student's variant to --output",
    )
    command.add_argument(
        "--output", default=None, metavar="DIR", help="where --roster writes the variants"
    )
    return command


def problem_command(args: argparse.Namespace) -> int:
    """Generate one problem, or a roster's variants, as ``args`` say."""
    with drawn_settings(args, ("type", "seed", "student")) as settings:
        if args.roster is None:
            if args.output is not None:
                raise CommandLineError("--output", "is for --roster: one file set per student")
            print_document(generated_json(generate_problem(settings)))
            return EXIT_OK
        if args.student is not None:
            raise CommandLineError("--student", "give either --student or --roster")
        if args.output is None:
            raise CommandLineError("--output", "--roster writes one file set per student to DIR")
        template = dataclasses.replace(
            settings, seed=fresh_seed() if settings.seed is None else settings.seed
        )
        roster = _roster(args.roster)
        made = {student: student_problem(template, student) for student in roster.ids}
    _write_variants(Path(args.output), template, roster, made)
    print(f"{len(made)} variants of seed {template.seed} written to {args.output}")
    return EXIT_OK


def _roster(source: str) -> Roster:
    """The roster file ``source`` (one id a line, or CSV: :mod:`analysis.grading.roster`);
    each id names the student's files, so it must be a safe file name."""
    try:
        text = Path(source).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise CommandLineError(source, reason or str(error)) from None
    with reading(source, lambda parameter: parameter):
        roster = read_roster(parse_roster_text(text), "")
    for number, student in enumerate(roster.ids, 1):
        if not FILE_NAME.fullmatch(student) or student in (".", ".."):
            raise CommandLineError(
                f"{source}#/{number - 1}",
                f"student id {student!r} is not a safe file name (letters, digits, . _ @ + -)",
            )
    return roster


def _write_variants(
    folder: Path, template: Any, roster: Roster, made: dict[str, GeneratedProblem]
) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CommandLineError(str(folder), error.strerror or str(error)) from None
    assignment = {"assignment": settings_json(template), "roster": roster_json(roster)}
    write_file(str(folder / "assignment.json"), json.dumps(assignment, indent=2) + "\n")
    for student, problem in made.items():
        body = json.dumps(generated_json(problem), indent=2) + "\n"
        write_file(str(folder / f"{student}.json"), body)
        write_file(str(folder / f"{student}.md"), problem.statement)
        if problem.figure is not None:
            write_file(str(folder / f"{student}.svg"), problem.figure)
