"""``arbiter problem generate``: one problem, a roster's variants, and grading the class
against each student's variant with ``arbiter grade``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from analysis.cli import main
from analysis.cli.problems import parser

# AIMA-shaped: depth 2, three children, seed 4 draws [[3, 12, 15], [2, 2, 0], [17, 9, 1]]
SETTINGS = {"type": "alphabeta", "depth": 2, "branching": 3, "seed": 4}


def test_the_parser_defaults() -> None:
    args = parser("problem", "generate problems").parse_args(["generate"])
    assert (args.settings, args.type, args.seed, args.student, args.roster) == (None,) * 5


def test_one_problem_as_the_endpoint_gives_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(SETTINGS))
    assert main(["problem", "generate", str(settings)]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["problem"]["tree"] == [[3, 12, 15], [2, 2, 0], [17, 9, 1]]
    # root = max(3, min(2, ...) <= 2, min(17, 9, 1) = 1) = 3; root.1 cut after its first leaf
    assert made["answer"]["value"] == 3
    assert made["answer"]["pruned_leaves"] == ["root.1.1", "root.1.2"]
    assert made["seed"] == 4 and made["student"] is None
    assert made["figure"].startswith("<svg") and "## Alpha-beta pruning" in made["statement"]
    # options override the file; a student's variant is another tree
    assert main(["problem", "generate", str(settings), "--student", "ada"]) == 0
    ada = json.loads(capsys.readouterr().out)
    assert ada["student"] == "ada" and ada["problem"]["tree"] != made["problem"]["tree"]


def test_without_a_seed_a_fresh_one_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    seeds = set()
    for _ in range(3):
        assert main(["problem", "generate", "--type", "matrix"]) == 0
        seeds.add(json.loads(capsys.readouterr().out)["seed"])
    assert len(seeds) == 3


def test_roster_variants_then_grading_the_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = tmp_path / "roster.txt"
    roster.write_text("ada\nbob\n\ncyd\n")
    out = tmp_path / "handout"
    argv = ["problem", "generate", "--type", "eu-consistency", "--seed", "11"]
    assert main([*argv, "--roster", str(roster), "--output", str(out)]) == 0
    assert "3 variants of seed 11" in capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "ada.json", "ada.md", "assignment.json", "bob.json", "bob.md", "cyd.json", "cyd.md",
    ]  # fmt: skip
    # each student's key is the generator's variant for (seed, student)
    assert main([*argv, "--student", "bob"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((out / "bob.json").read_text())
    answers = tmp_path / "answers"
    answers.mkdir()
    for student in ("ada", "bob"):
        key = json.loads((out / f"{student}.json").read_text())["answer"]
        (answers / f"{student}.json").write_text(json.dumps(key))
    (answers / "cyd.json").write_text(json.dumps({"consistent": "maybe"}))
    grading = ["grade", str(out / "assignment.json"), str(answers), "--format", "csv"]
    assert main(grading) == 0
    first = capsys.readouterr().out
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(first))}
    assert (rows["ada"]["score"], rows["ada"]["max_score"]) == ("3", "3")
    assert rows["bob"]["score"] == "3"
    # cyd's answer is malformed: 0 of 3 with the pointer, and the class is still graded
    assert (rows["cyd"]["score"], rows["cyd"]["max_score"]) == ("0", "3")
    assert rows["cyd"]["error"].startswith("/answers/cyd/consistent")
    # regrading gives the same bytes
    assert main(grading) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["--seed", "-1"], "--seed"),
        (["--type", "matrix", "--roster", "r.txt"], "--output"),
        (["--output", "d"], "--output"),
    ],
)
def test_refusals_name_the_option(
    argv: list[str], where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["problem", "generate", *argv]) == 2
    assert capsys.readouterr().err.startswith(f"arbiter: {where}: ")


def test_a_setting_in_the_file_is_named_by_its_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = tmp_path / "s.json"
    settings.write_text(json.dumps({"depth": 12}))
    assert main(["problem", "generate", str(settings)]) == 2
    assert capsys.readouterr().err == f"arbiter: {settings}#/depth: depth must be 1..8\n"


def test_unsafe_student_ids_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "roster.txt"
    roster.write_text("ada\n../etc\n")
    argv = ["problem", "generate", "--roster", str(roster), "--output", str(tmp_path / "o")]
    assert main(argv) == 2
    # the second student, /1 from 0
    assert f"{roster}#/1: student id '../etc' is not a safe file name" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
