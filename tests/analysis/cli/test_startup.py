"""Start-up of ``arbiter grade``: grading a tree problem, of an assignment or on its own,
loads none of the libraries only the other families need (SymPy for lotteries, SciPy for
matrix games and EU consistency, matplotlib for risk profiles), so a fresh process grades
one answer in about half a second (``bench/grading.py`` times it)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

from analysis.cli import main
from analysis.grading.generator_settings import TREE_TYPES

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("sympy", "scipy", "matplotlib")

GRADE_AND_LIST_MODULES = """
import contextlib, io, json, sys
from analysis.cli import main

runs = json.loads(sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()) as printed:
    codes = [main(["grade", *argv]) for argv in runs]
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy!r}))
print(json.dumps({{"codes": codes, "heavy": heavy, "printed": printed.getvalue()}}))
"""


def test_grading_a_tree_problem_loads_no_numerical_library(tmp_path: Path) -> None:
    roster = tmp_path / "roster.txt"
    roster.write_text("ada\nbob\n")
    runs = []
    for kind in TREE_TYPES:
        # the assignment as an instructor makes it, and ada's key as her answer
        handout = tmp_path / kind
        made = ["problem", "generate", "--type", kind, "--seed", "12"]
        assert main([*made, "--roster", str(roster), "--output", str(handout)]) == 0
        variant = json.loads((handout / "ada.json").read_text())
        answer = tmp_path / kind / "answers" / "ada.json"
        answer.parent.mkdir()
        answer.write_text(json.dumps(variant["answer"]))
        problem = handout / "problem.json"
        problem.write_text(json.dumps(variant["problem"]))
        runs += [
            [str(handout / "assignment.json"), str(answer), "--format", "csv"],
            [str(problem), str(answer), "--format", "csv"],
        ]
    code = GRADE_AND_LIST_MODULES.format(heavy=HEAVY)
    child = subprocess.run(
        [sys.executable, "-c", code, json.dumps(runs)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    report = json.loads(child.stdout)
    assert report["codes"] == [0] * len(runs)
    # each run graded ada's key: her CSV row (under its header) has full marks
    graded = []
    for row in csv.reader(io.StringIO(report["printed"])):
        if row[0] == "student":
            header = row
        else:
            graded.append(dict(zip(header, row, strict=True)))
    ada = [row for row in graded if row["student"] == "ada"]
    assert len(ada) == len(runs)
    assert all(row["score"] == row["max_score"] != "0" for row in ada), graded
    assert report["heavy"] == [], report["heavy"]
