"""docs/instructors.md runs as shown: its ``sh`` blocks (but the ``curl`` ones, which
tests/test_readme.py runs against a live server) run in order in one empty folder, with
``arbiter`` meaning ``python -m analysis.cli`` of this tree, and each prints what the page
shows below it (a text block: all of standard output and standard error; a JSON block:
the fields an object lists; a list as a whole)."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.shell_examples import ROOT, arbiter_environment, run_shell

PAGE = ROOT / "docs" / "instructors.md"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


@dataclass(frozen=True)
class Step:
    """One ``sh`` block of the page and the output block after it (``kind`` "" if none)."""

    index: int
    command: str
    kind: str
    shown: str


def steps() -> list[Step]:
    """The page's shell blocks, in order, each with the block that shows its output."""
    blocks = BLOCK.findall(PAGE.read_text())
    found: list[Step] = []
    for index, (kind, body) in enumerate(blocks):
        if kind != "sh" or body.lstrip().startswith("curl"):
            continue
        following = blocks[index + 1] if index + 1 < len(blocks) else ("", "")
        shown_kind = following[0] if following[0] in ("json", "text") else ""
        found.append(Step(len(found), body, shown_kind, following[1] if shown_kind else ""))
    return found


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Run every step in one folder, in order; the folder and what each step printed.
    Every step must succeed (exit status 0), the ones that only write files too."""
    base = tmp_path_factory.mktemp("instructors")
    env = arbiter_environment(base)
    work = base / "work"
    work.mkdir()
    outputs = []
    for step in steps():
        run = run_shell(step.command, work, env)
        assert run.returncode == 0, f"step {step.index} failed:\n{step.command}\n{run.stdout}"
        outputs.append(run.stdout)
    return work, outputs


def test_the_page_walks_through_an_assignment() -> None:
    commands = "\n".join(step.command for step in steps())
    for needed in (
        "arbiter problem generate settings.json --seed 12 --roster roster.csv --output hw1",
        "arbiter grade hw1/assignment.json answers --format csv",
        "--format gradescope",
        "--format prairielearn",
        "arbiter autograder",
        "--rubric rubric.json",
    ):
        assert needed in commands
    assert sum(1 for step in steps() if step.kind) >= 10


SHOWN = [step for step in steps() if step.kind]


@pytest.mark.parametrize("step", SHOWN, ids=[str(step.index) for step in SHOWN])
def test_step_prints_what_the_page_shows(session: tuple[Path, list[str]], step: Step) -> None:
    _, outputs = session
    out = outputs[step.index]
    if step.kind == "text":
        assert out.rstrip("\n") == step.shown.rstrip("\n")
    else:
        answer, shown = json.loads(out), json.loads(step.shown)
        if isinstance(shown, dict):
            answer = {name: answer.get(name) for name in shown}
        assert answer == shown


def test_the_figure_shown_is_frances(session: tuple[Path, list[str]]) -> None:
    work, _ = session
    shown = ROOT / "docs" / "images" / "instructors-frances.svg"
    assert (work / "hw1" / "s2400136.svg").read_bytes() == shown.read_bytes()


def test_the_class_csv_adds_up(session: tuple[Path, list[str]]) -> None:
    """The gradebook's scores are the sums of its fields' points, worked by hand on the page:
    Frances 1 + 1 + 4 * 2/4 + 1 + 0 = 5, and with the rubric 1 + 1 + 2 * 2/4 + 1 + 0 = 4."""
    work, _ = session
    fields = ("value", "best_move", "nodes", "principal_variation", "pruned_leaves")
    for name, total in (("grades.csv", 5), ("regraded.csv", 4)):
        with (work / name).open(newline="") as table:
            frances = next(row for row in csv.DictReader(table) if row["student"] == "s2400136")
        assert sum(float(frances[field]) for field in fields) == float(frances["score"]) == total
