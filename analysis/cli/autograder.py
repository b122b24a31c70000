"""``arbiter autograder``: the zip an instructor uploads to Gradescope for one problem.

    arbiter autograder PROBLEM.json [--rubric RUBRIC.json] [--output autograder.zip]

The zip holds ``setup.sh`` (installs the pinned requirements), ``run_autograder`` (grades
the one ``.json`` answer in the submission with ``arbiter grade --format gradescope``),
``problem.json`` (the problem and rubric), ``requirements.txt`` (the versions installed
here) and Arbiter's core packages. ``run_autograder`` reads ``AUTOGRADER_ROOT`` (default
``/autograder``, Gradescope's layout) and ``AUTOGRADER_PYTHON`` (default ``python3``).
"""

from __future__ import annotations

import argparse
import json
import zipfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Final

from analysis.cli.documents import read_document
from analysis.cli.error_handler import EXIT_OK, CommandLineError
from analysis.cli.options import ArgumentParser, command_parser
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
"$PYTHON" -m analysis.cli grade problem.json "$ROOT/submission" \\
    --format gradescope --output "$ROOT/results/results.json"
"""


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter autograder``."""
    command = command_parser(
        name,
        summary,
        "Build the Gradescope autograder zip (setup.sh, run_autograder, the problem, pinned "
        "requirements and Arbiter's core) that grades one JSON answer per submission.",
    )
    command.set_defaults(run=autograder_command)
    command.add_argument("problem", help="problem JSON file, or {problem, rubric}")
    command.add_argument(
        "--rubric", default=None, metavar="FILE", help="rubric JSON file (overrides the problem's)"
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
    wrapped = isinstance(document, dict) and "problem" in document
    problem = document["problem"] if wrapped else document
    rubric = document.get("rubric") if wrapped else None
    if args.rubric is not None:
        rubric = read_document(args.rubric)
    make_grader(problem, active_limits())  # a malformed problem fails here, not on Gradescope
    parse_rubric(rubric)
    root = Path(__file__).resolve().parents[2]
    try:
        with zipfile.ZipFile(args.output, "w", zipfile.ZIP_DEFLATED) as bundle:
            _add(bundle, "setup.sh", SETUP)
            _add(bundle, "run_autograder", RUN)
            _add(bundle, "problem.json", json.dumps({"problem": problem, "rubric": rubric}))
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
