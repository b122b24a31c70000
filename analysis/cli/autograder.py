"""``arbiter autograder``: the zip an instructor uploads to Gradescope for a problem or
an assignment with one variant per student.

    arbiter autograder PROBLEM_OR_ASSIGNMENT.json [--rubric RUBRIC.json] [--roster FILE]
                       [--feedback fields] [--visibility visible]
                       [--student-field email] [--output autograder.zip]

The zip holds ``setup.sh`` (a virtual environment ``/autograder/venv`` on a Python >= 3.11,
with the pinned requirements), ``run_autograder`` (grades the one ``.json`` answer in the
submission with ``arbiter grade --format gradescope``), ``problem.json`` (the problem and
rubric) or ``assignment.json`` (the template with its seed, the roster and the rubric),
``requirements.txt`` (the versions installed here) and Arbiter's core packages. For an
assignment, ``run_autograder`` names the student by Gradescope's
``submission_metadata.json`` (the first user's first field of ``--student-field`` that is
not empty, by default the email) matched to a roster student, and grades the answer
against that student's variant; a submission that matches no student scores 0 with the
reason. Students see ``--feedback`` (default ``fields``: no value of the key) when
``--visibility`` says.
Both scripts read ``AUTOGRADER_ROOT`` (default ``/autograder``, Gradescope's layout);
``run_autograder`` reads ``AUTOGRADER_PYTHON`` (default the venv's), ``setup.sh`` reads
``UV`` (a uv to use instead of installing the pinned one) and ``AUTOGRADER_APT=no`` (no
apt-get; not run either when not root). ``docs/gradescope.md`` says what was tried.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import zipfile
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Final

from analysis.cli.documents import read_document
from analysis.cli.error_handler import EXIT_OK, CommandLineError, option_name, reading
from analysis.cli.grade import GRADESCOPE_FIELDS, class_roster, student_fields
from analysis.cli.options import ArgumentParser, add_student_feedback, command_parser
from analysis.grading.assignments import read_assignment, student_grader
from analysis.grading.class_report import VISIBILITIES
from analysis.grading.generator_settings import settings_json
from analysis.grading.registry import make_grader
from analysis.grading.roster import roster_json
from analysis.grading.rubric import parse_rubric
from games.limits import active_limits

CORE: Final = ("games", "analysis", "utility")
"""The packages the grader runs on (the API and Flask are not needed)."""
REQUIREMENTS: Final = ("numpy", "scipy", "sympy", "matplotlib", "highspy", "python-flint")
"""What the core imports (distribution names); they and all they require are pinned at the
versions installed where the bundle is built."""
MODULES: Final = {"python-flint": "flint"}
"""The requirements imported under another name than their distribution's."""
UV_VERSION: Final = "0.13.8"
"""The uv that ``setup.sh`` installs from PyPI (the Makefile's)."""
REQUIRES_PYTHON: Final = ">=3.11"
"""The project's ``requires-python``: an older system Python is passed over."""

SETUP: Final = """#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image (docs/gradescope.md).
# Everything goes into a virtual environment under the root, never into the system's
# Python: Ubuntu 24.04 refuses a system-wide pip install (PEP 668), and 22.04's Python
# 3.10 is older than Arbiter needs. Overrides: AUTOGRADER_ROOT (default /autograder);
# UV, a uv to use instead of installing the pinned one; AUTOGRADER_APT=no, no apt-get
# (it runs only as root anyway).
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
VENV="$ROOT/venv"
# a Python that uv downloads stays under the root; uv's cache is on another disk
export UV_PYTHON_INSTALL_DIR="${UV_PYTHON_INSTALL_DIR:-$ROOT/python}"
export UV_LINK_MODE="${UV_LINK_MODE:-copy}"
cd "$ROOT"
if [ "$(id -u)" = 0 ] && [ "${AUTOGRADER_APT:-yes}" != no ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends ca-certificates python3 python3-venv
fi
if [ -z "${UV:-}" ]; then
    # the pinned uv from PyPI, into a venv of its own
    python3 -m venv "$ROOT/bootstrap"
    "$ROOT/bootstrap/bin/python" -m pip install --quiet --disable-pip-version-check "uv==UV_VERSION"
    UV="$ROOT/bootstrap/bin/uv"
fi
# the system's Python when it is recent enough (Ubuntu 24.04: 3.12), else (22.04: 3.10)
# a CPython that uv downloads, of the version the requirements were pinned on
if SYSTEM="$("$UV" python find --system --no-managed-python 'REQUIRES_PYTHON' 2>/dev/null)"
then
    "$UV" venv --no-project --clear --python "$SYSTEM" "$VENV"
else
    "$UV" venv --no-project --clear --managed-python --python PYTHON_VERSION "$VENV"
fi
"$UV" pip install --python "$VENV/bin/python" --requirement "$ROOT/source/requirements.txt"
# fail here, not on the first submission, when the grader cannot start
cd "$ROOT/source" && "$VENV/bin/python" -m analysis.cli grade --help > /dev/null
echo "Arbiter's grader is installed in $VENV"
"""

RUN: Final = """#!/usr/bin/env bash
# Gradescope runs this for every submission; results.json is written even for a
# malformed one (a 0 with the reason)
set -uo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PYTHON="${AUTOGRADER_PYTHON:-$ROOT/venv/bin/python}"
mkdir -p "$ROOT/results"
cd "$ROOT/source"
"$PYTHON" -m analysis.cli grade GRADED "$ROOT/submission" \\
    --format gradescope --output "$ROOT/results/results.json" \\
    --feedback FEEDBACK --visibility VISIBILITYSTUDENT
# a submission matched to no roster student still gets its results.json (a 0 that says
# why): only a missing results.json is the autograder's failure
[ -s "$ROOT/results/results.json" ]
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
        help="problem JSON file, {problem, rubric}, or {assignment, roster, rubric} "
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
        "--roster",
        default=None,
        metavar="FILE",
        help="for an assignment: the class its submissions are matched to (one id a line, or "
        "CSV; default: the roster assignment.json keeps)",
    )
    add_student_feedback(command)
    command.add_argument(
        "--visibility",
        choices=VISIBILITIES,
        default="visible",
        help="when students see the result and its tests (default: visible)",
    )
    command.add_argument(
        "--output",
        default="autograder.zip",
        metavar="FILE",
        help="where the zip is written (default: autograder.zip)",
    )
    return command


def requirements() -> str:
    """``requirements.txt``: the core's dependencies and everything they require, each at
    the version installed here, so that Gradescope installs what was tested.

    A requirement for an extra is left out; one under another marker (a platform, a Python)
    is pinned only when it is installed here, and keeps its marker.
    """
    pins: dict[str, str] = {}
    markers: dict[str, set[str]] = {name: {""} for name in REQUIREMENTS}
    waiting = list(REQUIREMENTS)
    while waiting:
        name = waiting.pop()
        if name in pins:
            continue
        try:
            installed = distribution(name)
        except PackageNotFoundError:
            if name in REQUIREMENTS:
                raise CommandLineError(name, "not installed; the bundle pins its version") from None
            continue  # needed only elsewhere (another platform or Python)
        pins[name] = f"{installed.metadata['Name']}=={installed.version}"
        for requirement in installed.requires or ():
            _, _, marker = requirement.partition(";")
            if re.search(r"\bextra\s*==", marker):
                continue
            required = _distribution_name(requirement)
            markers.setdefault(required, set()).add(marker.strip())
            waiting.append(required)
    lines = []
    for name, pin in pins.items():
        when = " or ".join(f"({marker})" for marker in sorted(markers[name]))
        lines.append(pin if "" in markers[name] else f"{pin} ; {when}")
    return "\n".join(sorted(lines, key=str.lower)) + "\n"


def _distribution_name(requirement: str) -> str:
    """The normalized name (PEP 503) at the head of a requirement such as ``numpy>=1.25``."""
    head = re.match(r"[A-Za-z0-9._-]+", requirement.strip())
    assert head is not None, requirement
    return re.sub(r"[-_.]+", "-", head.group()).lower()


def setup_script() -> str:
    """``setup.sh``, with the pinned uv and the Python the requirements were pinned on."""
    built_on = f"{sys.version_info.major}.{sys.version_info.minor}"
    return (
        SETUP.replace("UV_VERSION", UV_VERSION)
        .replace("REQUIRES_PYTHON", REQUIRES_PYTHON)
        .replace("PYTHON_VERSION", built_on)
    )


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
    roster = class_roster(args.roster, document, args.problem)
    if assigned:
        with reading(args.problem, option_name):
            template = read_assignment(document["assignment"])
        if roster is None:
            raise CommandLineError(
                "--roster",
                "this assignment gives each student a variant: the bundle needs the roster "
                "its submissions are matched to (--roster FILE, or an assignment.json "
                "generated with arbiter problem generate --roster)",
            )
        # one variant drawn here, so that a template no draw can meet fails now
        student_grader(template, roster.ids[0], "/assignment")
        graded = "assignment.json"
        content = {
            "assignment": settings_json(template),
            "roster": roster_json(roster),
            "rubric": rubric,
        }
        script = RUN.replace("STUDENT", STUDENT.replace("FIELDS", fields))
    else:
        make_grader(problem, active_limits())  # a malformed problem fails here, not on Gradescope
        graded = "problem.json"
        content = {"problem": problem, "rubric": rubric}
        script = RUN.replace("STUDENT", "")
    script = script.replace("FEEDBACK", args.feedback).replace("VISIBILITY", args.visibility)
    try:
        with zipfile.ZipFile(args.output, "w", zipfile.ZIP_DEFLATED) as bundle:
            _add(bundle, "setup.sh", setup_script())
            _add(bundle, "run_autograder", script.replace("GRADED", graded))
            _add(bundle, graded, json.dumps(content))
            _add(bundle, "requirements.txt", requirements())
            for path, name in core_sources():
                bundle.write(path, name)
    except OSError as error:
        raise CommandLineError(args.output, error.strerror or str(error)) from None
    print(f"autograder for Gradescope written to {args.output}")
    return EXIT_OK


def core_sources() -> list[tuple[Path, str]]:
    """The Python files of Arbiter's core packages (:data:`CORE`), each with its path
    inside a bundle or an image's build context."""
    root = Path(__file__).resolve().parents[2]
    return [
        (path, path.relative_to(root).as_posix())
        for package in CORE
        for path in sorted((root / package).rglob("*.py"))
    ]


def _add(bundle: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o755 << 16  # executable, as Gradescope runs the two scripts
    info.compress_type = zipfile.ZIP_DEFLATED
    bundle.writestr(info, text)
