"""``arbiter autograder``: the zip an instructor uploads to Gradescope for a problem or
an assignment with one variant per student.

    arbiter autograder PROBLEM_OR_ASSIGNMENT.json [--rubric RUBRIC.json]
                       [--student-field email] [--output autograder.zip]

The zip holds ``setup.sh`` (installs the pinned requirements), ``run_autograder`` (grades
the one ``.json`` answer in the submission with ``arbiter grade --format gradescope``),
``problem.json`` (the problem and rubric) or ``assignment.json`` (the template with its
seed, and the rubric), ``requirements.txt`` (the versions installed here) and Arbiter's
core packages. For an assignment, ``run_autograder`` names the student by Gradescope's
``submission_metadata.json`` (the first user's first field of ``--student-field`` that is
not empty, by default the email) and grades the answer against that student's variant.
``run_autograder`` reads ``AUTOGRADER_ROOT`` (default ``/autograder``, Gradescope's
layout) and ``AUTOGRADER_PYTHON`` (default ``python3``).
"""

from __future__ import annotations

import argparse
import json
import zipfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Final

from analysis.cli.documents import read_document
from analysis.cli.error_handler import EXIT_OK, CommandLineError, option_name, reading
from analysis.cli.grade import GRADESCOPE_FIELDS, student_fields
from analysis.cli.options import ArgumentParser, command_parser
from analysis.grading.assignments import read_assignment, student_grader
from analysis.grading.generator_settings import settings_json
from analysis.grading.registry import make_grader
from analysis.grading.rubric import parse_rubric
from games.limits import active_limits

CORE: Final = ("games", "analysis", "utility")
"""The packages the grader runs on (the API and Flask are not needed)."""
REQUIREMENTS: Final = ("numpy", "scipy", "sympy", "mpmath", "matplotlib")
"""What the core imports, pinned at the versions installed where the bundle is built."""

SETUP: Final = """#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image
set -euo pipefail
apt-get update && apt-get install -y python3 python3-pip
pip3 install -r /autograder/source/requirements.txt
"""

RUN: Final = """#!/usr/bin/env bash
# Gradescope runs this for every submission; results.json is written even for a
# malformed one (a 0 with the reason)
set -uo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PYTHON="${AUTOGRADER_PYTHON:-python3}"
mkdir -p "$ROOT/results"
cd "$ROOT/source"
"$PYTHON" -m analysis.cli grade GRADED "$ROOT/submission" \\
    --format gradescope --output "$ROOT/results/results.json"STUDENT
"""
STUDENT: Final = """ \\
    --gradescope-metadata "$ROOT/submission_metadata.json" --student-field FIELDS"""


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter autograder``."""
    command = command_parser(
        name,
        summary,
        "Build the Gradescope autograder zip (setup.sh, run_autograder, the problem or "
        "assignment, pinned requirements and Arbiter's core) that grades one JSON answer per "
        "submission; for an assignment, against the submitting student's variant.",
    )
    command.set_defaults(run=autograder_command)
    command.add_argument(
        "problem",
        help="problem JSON file, {problem, rubric}, or {assignment, rubric} "
        "(arbiter problem generate --roster writes one)",
    )
    command.add_argument(
        "--rubric", default=None, metavar="FILE", help="rubric JSON file (overrides the problem's)"
    )
    command.add_argument(
        "--student-field",
        default="email",
        metavar="FIELDS",
        help="for an assignment: the fields of the first user of Gradescope's "
        "submission_metadata.json tried in turn for the student id, comma-separated "
        f"({', '.join(GRADESCOPE_FIELDS)}; default: email, the one field Gradescope documents)",
    )
    command.add_argument(
        "--output",
        default="autograder.zip",
        metavar="FILE",
        help="where the zip is written (default: autograder.zip)",
    )
    return command


def requirements() -> str:
    """``requirements.txt``: each core dependency at the version installed here."""
    lines = []
    for name in REQUIREMENTS:
        try:
            lines.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            raise CommandLineError(name, "not installed; the bundle pins its version") from None
    return "\n".join(lines) + "\n"


def autograder_command(args: argparse.Namespace) -> int:
    """Check the problem (its key is computed once here) and write the zip."""
    document = read_document(args.problem)
    assigned = isinstance(document, dict) and "assignment" in document
    wrapped = isinstance(document, dict) and "problem" in document
    problem = document["problem"] if wrapped else document
    rubric = document.get("rubric") if wrapped or assigned else None
    if args.rubric is not None:
        rubric = read_document(args.rubric)
    parse_rubric(rubric)
    fields = ",".join(student_fields(args.student_field))  # a typo fails here
    if assigned:
        with reading(args.problem, option_name):
            template = read_assignment(document["assignment"])
        # one variant drawn here, so that a template no draw can meet fails now
        student_grader(template, "autograder-check", "/assignment")
        graded = "assignment.json"
        content = {"assignment": settings_json(template), "rubric": rubric}
        script = RUN.replace("STUDENT", STUDENT.replace("FIELDS", fields))
    else:
        make_grader(problem, active_limits())  # a malformed problem fails here, not on Gradescope
        graded = "problem.json"
        content = {"problem": problem, "rubric": rubric}
        script = RUN.replace("STUDENT", "")
    root = Path(__file__).resolve().parents[2]
    try:
        with zipfile.ZipFile(args.output, "w", zipfile.ZIP_DEFLATED) as bundle:
            _add(bundle, "setup.sh", SETUP)
            _add(bundle, "run_autograder", script.replace("GRADED", graded))
            _add(bundle, graded, json.dumps(content))
            _add(bundle, "requirements.txt", requirements())
            for package in CORE:
                for path in sorted((root / package).rglob("*.py")):
                    bundle.write(path, path.relative_to(root).as_posix())
    except OSError as error:
        raise CommandLineError(args.output, error.strerror or str(error)) from None
    print(f"autograder for Gradescope written to {args.output}")
    return EXIT_OK


def _add(bundle: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o755 << 16  # executable, as Gradescope runs the two scripts
    info.compress_type = zipfile.ZIP_DEFLATED
    bundle.writestr(info, text)
