"""``arbiter prairielearn``: a PrairieLearn question, graded by Arbiter in PrairieLearn's
external grader, from generator settings.

    arbiter prairielearn [SETTINGS.json] --output DIR [--type T] [--seed N]
                         [--variants N] [--feedback fields] [--rubric RUBRIC.json]
                         [--image NAME] [--timeout SECONDS]
                         [--uuid UUID] [--title T] [--topic T] [--tag TAG ...]

SETTINGS.json holds the body of ``POST /v1/problems/generate``, as for ``arbiter problem
generate``. DIR becomes a question folder, to copy under a course's ``questions/``:

- ``info.json``: a v3 question, ``"gradingMethod": "External"``, the grader's image and
  entrypoint; its uuid is derived from the settings and seed unless ``--uuid`` gives one.
- ``variants/variant-<k>.json``: ``--variants`` variants drawn ahead (variant ``k`` is
  :func:`~analysis.grading.assignments.student_problem` of the template for the student
  ``variant-<k>``): the name, the statement (Markdown), the figure (SVG), how to fill
  in the answer and the answer template of each; no key.
- ``server.py``: ``generate(data)`` puts variant ``variant_seed % N`` into ``params``.
  PrairieLearn runs it in its own Python, without Arbiter: it reads ``variants/`` only.
- ``question.html``: the statement, the figure, an editor for ``answer.json`` holding
  the answer template, and the grader's results with the submitted file.
- ``tests/assignment.json`` (the template with its seed, the variants as its roster, the
  rubric) and ``tests/run``, the entrypoint: ``arbiter grade --format prairielearn`` of
  ``/grade/student/answer.json`` as the variant ``data.json``'s params name, at
  ``--feedback``; anything it cannot grade is ``"gradable": false`` with the reason.
  ``GRADE_ROOT`` (default ``/grade``) moves the tree it reads and writes.
- ``grader/``: the image's build context: a ``Dockerfile`` on the Python the requirements
  were pinned on, ``requirements.txt`` (as ``arbiter autograder`` pins it) and Arbiter's core.
- ``README.md``: what the folder is, for the course's staff (PrairieLearn shows it to them only).

``docs/prairielearn.md`` says how to add the question to a course and what was tried.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import shutil
import sys
import uuid
from pathlib import Path
from typing import Any, Final

from analysis.cli.autograder import CORE, core_sources, requirements
from analysis.cli.documents import read_document, write_file
from analysis.cli.error_handler import EXIT_OK, CommandLineError, option_name, reading
from analysis.cli.options import (
    ArgumentParser,
    add_draw_options,
    add_student_feedback,
    command_parser,
    drawn_settings,
)
from analysis.cli.program import version
from analysis.grading.assignments import student_problem
from analysis.grading.generator_settings import (
    ProblemSettings,
    fresh_seed,
    settings_json,
)
from analysis.grading.problem_generator import GeneratedProblem, code_span
from analysis.grading.rubric import parse_rubric

DEFAULT_VARIANTS: Final = 100
MAX_VARIANTS: Final = 1000
"""Most variants one question draws ahead (a lottery's figure takes about 0.3 s)."""
MAX_TIMEOUT: Final = 600
"""PrairieLearn's longest grading job, in seconds."""
ENTRYPOINT: Final = "/grade/tests/run"
NAMESPACE: Final = uuid.UUID("fb2a2b18-6352-4c4f-9b76-7adf30d0a4fa")
"""The namespace of the questions' uuids (uuid5 of the settings, seed included)."""

HANDOUT: Final = re.compile(
    r"\A## (?P<title>[^\n]*)\n\n"
    r"(?:(?P<student>Variant for student [^\n]*)\n\n)?"
    r"(?P<body>.*)\n\n"
    r"Hand in your answer as this JSON object, filled in: (?P<fill>[^\n]*)\n\n"
    r"(?P<fence>`{3,})json\n(?P<template>.*)\n(?P=fence)\n*\Z",
    re.S,
)
"""A statement as :func:`analysis.grading.problem_generator.handout` writes it."""

QUESTION_HTML: Final = """\
{{! Written by arbiter prairielearn: server.py puts the variant's statement, figure,
    instructions and answer template into params; tests/run grades answer.json against
    that variant. }}
<pl-question-panel>
<markdown>
{{{params.statement}}}
</markdown>
{{#params.figure}}
<div class="text-center my-3">{{{params.figure}}}</div>
{{/params.figure}}
<markdown>
{{{params.instructions}}}
</markdown>
<pl-file-editor file-name="answer.json" ace-mode="ace/mode/json">
{{params.answer_template}}
</pl-file-editor>
</pl-question-panel>

<pl-submission-panel>
<pl-external-grader-results></pl-external-grader-results>
<pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""

SERVER: Final = '''\
"""This question's variants, written by arbiter prairielearn (Arbiter's
docs/prairielearn.md). PrairieLearn runs this file in its own Python, without Arbiter:
generate() picks one of the VARIANTS variants drawn ahead into variants/ by
PrairieLearn's variant seed and puts what its page shows into params. Nothing here
holds a key: the grader (tests/run) recomputes it from the variant's name."""

import json
from pathlib import Path

VARIANTS = COUNT
FOLDER = Path(__file__).resolve().parent / "variants"


def generate(data):
    index = int(data["variant_seed"]) % VARIANTS
    with open(FOLDER / f"variant-{index}.json", encoding="utf-8") as file:
        data["params"].update(json.load(file))
'''

RUN: Final = '''\
#!/usr/bin/env python3
"""PrairieLearn's grading entrypoint for this question, written by arbiter prairielearn.

Grades /grade/student/answer.json against the variant that /grade/data/data.json's
params name, with Arbiter's own grader (arbiter grade --format prairielearn), into
/grade/results/results.json. Whatever goes wrong, results.json is written: a submission
that cannot be graded is "gradable": false, with the reason, and costs no attempt.
GRADE_ROOT (default /grade) moves the tree, for tests.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

FEEDBACK = "LEVEL"
ROOT = Path(os.environ.get("GRADE_ROOT", "/grade"))
RESULTS = ROOT / "results" / "results.json"


def refuse(message):
    """Write a results.json that grades nothing and says why."""
    results = {"gradable": False, "score": 0.0, "message": message, "tests": []}
    RESULTS.write_text(json.dumps(results, indent=2) + "\\n", encoding="utf-8")


def variant():
    """The name of the variant the submission answers, or None."""
    try:
        data = json.loads((ROOT / "data" / "data.json").read_text(encoding="utf-8"))
        name = data["params"]["variant"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return name if isinstance(name, str) and name else None


def grade():
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    if RESULTS.exists():
        RESULTS.unlink()
    name = variant()
    if name is None:
        refuse("the grader found no variant in data.json (params.variant): ask your instructor")
        return
    command = [
        sys.executable, "-m", "analysis.cli", "grade",
        str(ROOT / "tests" / "assignment.json"), str(ROOT / "student" / "answer.json"),
        "--student=" + name, "--format", "prairielearn", "--feedback", FEEDBACK,
        "--output", str(RESULTS),
    ]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if not RESULTS.is_file():
        said = run.stderr.strip().splitlines()
        reason = said[-1] if said else f"exit status {run.returncode}"
        refuse(f"the grader could not grade this submission ({reason}): ask your instructor")


if __name__ == "__main__":
    try:
        grade()
    except Exception as error:  # results.json whatever happens: PL shows its message
        refuse(f"the grader failed ({type(error).__name__}: {error}): ask your instructor")
'''

DOCKERFILE: Final = """\
# Arbiter's grader for PrairieLearn (written by arbiter prairielearn; Arbiter's
# docs/prairielearn.md): the Python the requirements were pinned on, those requirements
# in a venv, and Arbiter's core on PYTHONPATH. Build it for PrairieLearn's platform:
#   docker build --platform linux/amd64 -t IMAGE .
FROM python:PYTHON_VERSION-slim
ENV PATH=/venv/bin:$PATH PYTHONPATH=/arbiter PYTHONIOENCODING=UTF-8
COPY requirements.txt /arbiter/requirements.txt
RUN python -m venv /venv \\
    && pip install --no-cache-dir --disable-pip-version-check -r /arbiter/requirements.txt
COPY games /arbiter/games
COPY analysis /arbiter/analysis
COPY utility /arbiter/utility
# each grading job is a fresh container: compile once here, and fail the build, not the
# first submission, when the grader cannot start
RUN python -m compileall -q /arbiter && python -m analysis.cli grade --help > /dev/null
"""

README: Final = """\
# TITLE

Written by `arbiter prairielearn` (Arbiter VERSION) from these generator settings:

```json
SETTINGS
```

- `variants/`: COUNT variants drawn ahead; `server.py` gives each PrairieLearn variant
  the one its variant seed picks (seed modulo COUNT). No file here holds a key.
- `tests/`: the grader. `tests/run` grades `answer.json` with `arbiter grade` against the
  variant the submission answers (`tests/assignment.json`: these settings, the variants
  as a roster), showing students `FEEDBACK` feedback.
- `grader/`: the build context of the grader's image, `IMAGE` in `info.json`:
  `docker build --platform linux/amd64 -t IMAGE grader`. A PrairieLearn server pulls
  images from Docker Hub: push it there under the course's account (and name that with
  `--image`), then sync it on the course's Sync page.

Regenerate with the same settings and seed to keep this question's uuid and variants.
"""


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter prairielearn``."""
    command = command_parser(
        name,
        summary,
        "Write a PrairieLearn question folder from generator settings: info.json, "
        "question.html, server.py choosing one of --variants variants drawn ahead by "
        "PrairieLearn's variant seed, and tests/ with the external grader that grades "
        "answer.json against that variant with arbiter grade; grader/ builds its image.",
    )
    command.set_defaults(run=prairielearn_command)
    command.add_argument(
        "settings",
        nargs="?",
        default=None,
        help="JSON file of generator settings, as the body of POST /v1/problems/generate "
        "(- for standard input; none: the defaults)",
    )
    command.add_argument(
        "--output", required=True, metavar="DIR", help="the question folder to write"
    )
    add_draw_options(command)
    command.add_argument(
        "--variants",
        type=_variant_count,
        default=DEFAULT_VARIANTS,
        metavar="N",
        help=f"how many variants to draw ahead, 1 to {MAX_VARIANTS} (default: {DEFAULT_VARIANTS})",
    )
    add_student_feedback(command)
    command.add_argument(
        "--rubric", default=None, metavar="FILE", help="rubric JSON file for the grader"
    )
    command.add_argument(
        "--image",
        default=None,
        metavar="NAME",
        help="the grader's Docker image, as pushed to Docker Hub (default: "
        "arbiter-grader:VERSION, a local tag of grader/)",
    )
    command.add_argument(
        "--timeout",
        type=_timeout,
        default=30,
        metavar="SECONDS",
        help=f"PrairieLearn stops a grading job after this long, 1 to {MAX_TIMEOUT} (default: 30)",
    )
    command.add_argument(
        "--uuid",
        type=_uuid,
        default=None,
        metavar="UUID",
        help="the question's uuid (default: derived from the settings and seed)",
    )
    command.add_argument(
        "--title", default=None, metavar="T", help="the question's title (default: the statement's)"
    )
    command.add_argument(
        "--topic", default="Game theory", metavar="T", help="its topic (default: Game theory)"
    )
    command.add_argument(
        "--tag",
        action="append",
        default=None,
        metavar="TAG",
        help="a tag (repeatable; default: arbiter and the problem type)",
    )
    return command


def _variant_count(text: str) -> int:
    count = _whole(text)
    if not 1 <= count <= MAX_VARIANTS:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_VARIANTS}, got {text!r}")
    return count


def _timeout(text: str) -> int:
    seconds = _whole(text)
    if not 1 <= seconds <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_TIMEOUT} seconds, got {text!r}")
    return seconds


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _uuid(text: str) -> str:
    try:
        return str(uuid.UUID(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a uuid: {text!r}") from None


def variant_name(index: int) -> str:
    """The name of the pool's variant ``index``: the student whose variant it is."""
    return f"variant-{index}"


def question_uuid(template: ProblemSettings) -> str:
    """The uuid of the question drawn from ``template``: the same settings and seed give
    the same uuid, so that a question written again replaces itself in the course."""
    return str(uuid.uuid5(NAMESPACE, json.dumps(settings_json(template), sort_keys=True)))


@dataclasses.dataclass(frozen=True, slots=True)
class Handout:
    """A variant as a PrairieLearn page shows it: the title, the statement (Markdown),
    the figure (SVG or empty), how to fill in the answer (Markdown) and the answer
    template (JSON text) the editor starts from."""

    name: str
    title: str
    statement: str
    figure: str
    instructions: str
    answer_template: str

    def params(self) -> dict[str, str]:
        """What ``server.py`` puts into ``data["params"]``: everything but the title."""
        return {
            "variant": self.name,
            "statement": self.statement,
            "figure": self.figure,
            "instructions": self.instructions,
            "answer_template": self.answer_template,
        }


def handout(made: GeneratedProblem) -> Handout:
    """The variant ``made`` for a PrairieLearn page: its statement less its title (the
    page has it), the line naming the student and the seed (a variant's name means
    nothing to a student, and with the seed Arbiter would draw the key) and the template
    block (the editor holds it).

    :raises ValueError: the statement is not in the form ``handout`` writes (a bug).
    """
    found = HANDOUT.fullmatch(made.statement)
    named = None
    if made.student is not None:
        named = f"Variant for student {code_span(made.student)} (seed {made.seed})."
    if found is None or found["student"] != named:
        raise ValueError(f"the statement of {made.student!r} is not in the form handout() writes")
    template = found["template"]
    json.loads(template)  # what the editor starts from must be JSON
    return Handout(
        made.student or "",
        found["title"],
        found["body"] + "\n",
        made.figure or "",
        f"Fill in `answer.json` below: {found['fill']}\n",
        template,
    )


def prairielearn_command(args: argparse.Namespace) -> int:
    """Draw the variants and write the question folder."""
    with drawn_settings(args, ("type", "seed")) as settings:
        if settings.student is not None:
            raise CommandLineError(
                f"{args.settings}#/student",
                "a PrairieLearn question is for every student, with variants of its own: "
                "leave student out",
            )
        template = dataclasses.replace(
            settings, seed=fresh_seed() if settings.seed is None else settings.seed
        )
        pages = [handout(student_problem(template, variant_name(k))) for k in range(args.variants)]
    rubric = None if args.rubric is None else read_document(args.rubric)
    with reading(args.rubric or "", option_name):
        parse_rubric(rubric, "")  # the file is the rubric: its pointers start at its root
    image = args.image or f"arbiter-grader:{version()}"
    folder = Path(args.output)
    _write_question(folder, args, template, pages, rubric, image)
    print(
        f"PrairieLearn question, {len(pages)} variant{'s' if len(pages) > 1 else ''} of seed "
        f"{template.seed}, written to {folder}"
    )
    print(f"build its grader: docker build --platform linux/amd64 -t {image} {folder / 'grader'}")
    return EXIT_OK


def info_json(
    args: argparse.Namespace, template: ProblemSettings, title: str, image: str
) -> dict[str, Any]:
    """The question's ``info.json``, in the fields of PrairieLearn's question schema.

    ``externalGradingOptions.enabled`` is deprecated in current PrairieLearn (and ignored:
    an External question is graded externally) but older servers grade externally only
    with it, so it is written.
    """
    return {
        "uuid": args.uuid or question_uuid(template),
        "type": "v3",
        "title": args.title or title,
        "topic": args.topic,
        "tags": args.tag if args.tag is not None else ["arbiter", template.type],
        "comment": f"written by arbiter prairielearn from seed {template.seed}; see README.md",
        "gradingMethod": "External",
        "partialCredit": True,
        # the key is never shown: the page has no answer panel, and PL holds no key
        "showCorrectAnswer": False,
        "externalGradingOptions": {
            "enabled": True,
            "image": image,
            "entrypoint": ENTRYPOINT,
            "timeout": args.timeout,
        },
    }


def _write_question(
    folder: Path,
    args: argparse.Namespace,
    template: ProblemSettings,
    pages: list[Handout],
    rubric: Any,
    image: str,
) -> None:
    """Write the question folder (replacing the variants a former run wrote there)."""
    variants = folder / "variants"
    try:
        for part in (folder, variants, folder / "tests", folder / "grader"):
            part.mkdir(parents=True, exist_ok=True)
        for stale in variants.glob("variant-*.json"):
            stale.unlink()
    except OSError as error:
        raise CommandLineError(
            str(error.filename or folder), error.strerror or str(error)
        ) from None
    info = info_json(args, template, pages[0].title, image)
    _write_json(folder / "info.json", info)
    write_file(str(folder / "question.html"), QUESTION_HTML)
    write_file(str(folder / "server.py"), SERVER.replace("COUNT", str(len(pages))))
    for page in pages:
        _write_json(variants / f"{page.name}.json", page.params())
    assignment = {
        "assignment": settings_json(template),
        "roster": [page.name for page in pages],
        "rubric": rubric,
    }
    _write_json(folder / "tests" / "assignment.json", assignment)
    run = folder / "tests" / "run"
    write_file(str(run), RUN.replace("LEVEL", args.feedback))
    run.chmod(0o755)  # PrairieLearn makes it executable too; a local docker run may not
    built_on = f"{sys.version_info.major}.{sys.version_info.minor}"
    dockerfile = DOCKERFILE.replace("PYTHON_VERSION", built_on).replace("IMAGE", image)
    write_file(str(folder / "grader" / "Dockerfile"), dockerfile)
    write_file(str(folder / "grader" / "requirements.txt"), requirements())
    _copy_core(folder / "grader")
    readme = {
        "TITLE": info["title"],
        "VERSION": version(),
        "SETTINGS": json.dumps(settings_json(template), indent=2),
        "COUNT": str(len(pages)),
        "FEEDBACK": args.feedback,
        "IMAGE": image,
    }
    write_file(str(folder / "README.md"), re.sub("|".join(readme), lambda m: readme[m[0]], README))


def _write_json(path: Path, document: Any) -> None:
    write_file(str(path), json.dumps(document, indent=2) + "\n")


def _copy_core(context: Path) -> None:
    """Arbiter's core packages (their Python source) into the image's build context."""
    try:
        for package in CORE:
            shutil.rmtree(context / package, ignore_errors=True)
        for path, name in core_sources():
            target = context / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    except OSError as error:
        raise CommandLineError(
            str(error.filename or context), error.strerror or str(error)
        ) from None
