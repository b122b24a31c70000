"""``arbiter grade`` and ``arbiter solve`` (AIMA Fig. 5.2: value 3, leaves 4 and 6 pruned)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from analysis.cli import main

PROBLEM = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}


@pytest.fixture
def problem(tmp_path: Path) -> Path:
    path = tmp_path / "problem.json"
    path.write_text(json.dumps({"problem": PROBLEM, "rubric": {"points": {"value": 1}}}))
    return path


def test_gradescope_results(
    tmp_path: Path, problem: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "ada.json"
    answer.write_text(json.dumps({"value": 3, "pruned_leaves": ["root.1.2"]}))
    output = tmp_path / "results.json"
    args = ["grade", str(problem), str(answer), "--format", "gradescope", "--output", str(output)]
    assert main(args) == 0
    results = json.loads(output.read_text())
    # value 1 of 1; pruned_leaves 2 * (2 * 1 / 3) of 2
    assert results["score"] == pytest.approx(1 + 4 / 3)
    tests = {test["name"]: test for test in results["tests"]}
    assert tests["value"]["max_score"] == 1
    # students see each field's status by default, never the key's leaves
    assert tests["pruned_leaves"]["output"] == "partly right"
    args += ["--feedback", "full"]
    assert main(args) == 0
    tests = {test["name"]: test for test in json.loads(output.read_text())["tests"]}
    assert tests["pruned_leaves"]["output"] == "missing: root.1.1"


def test_directory_of_answers_as_csv(
    tmp_path: Path, problem: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "answers"
    folder.mkdir()
    (folder / "ada.json").write_text(json.dumps({"value": 3}))
    (folder / "bob.json").write_text(json.dumps({"value": "6"}))
    assert main(["grade", str(problem), str(folder), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["student"], r["score"]) for r in rows] == [("ada", "1"), ("bob", "0")]
    assert main(["grade", str(problem), str(folder)]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["mean"] == 0.5


def test_csv_student_ids_never_run_as_spreadsheet_formulas(
    tmp_path: Path, problem: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evil = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "-1", "@SUM(A1)"]
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"answers": {student: {"value": 3} for student in evil}}))
    assert main(["grade", str(problem), str(answers), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["student"] for row in rows] == ["'" + student for student in evil]
    assert {row["score"] for row in rows} == {"1"}


def test_a_bad_answer_scores_zero_and_the_class_is_graded(
    tmp_path: Path, problem: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.json").write_text(json.dumps({"value": 3}))
    (folder / "cy.json").write_text(json.dumps({"pruned_leaves": ["nowhere"]}))
    (folder / "dan.json").write_text("{not json")
    assert main(["grade", str(problem), str(folder)]) == 0
    out = json.loads(capsys.readouterr().out)
    cy, dan = out["results"]["cy"], out["results"]["dan"]
    # cy's one field cannot be read: 0 for it, with its own error; dan's file is no JSON
    assert cy["errors"][0]["pointer"] == "/answers/cy/pruned_leaves/0"
    assert (cy["score"], cy["max_score"]) == (0, out["results"]["ada"]["max_score"])
    assert (cy["status"], dan["status"]) == ("graded", "unreadable")
    assert dan["error"]["pointer"] == "/answers/dan" and "not valid JSON" in dan["error"]["message"]
    assert (out["summary"]["count"], out["summary"]["errors"]) == (3, 1)


def test_solve_any_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "tree.json"
    source.write_text(json.dumps([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    assert main(["solve", str(source)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["type"], out["value"], out["best_move"]) == ("minimax", 3, "root.0")
    source.write_text(json.dumps(PROBLEM))
    assert main(["solve", str(source)]) == 0
    assert json.loads(capsys.readouterr().out)["pruned_leaves"] == ["root.1.1", "root.1.2"]
    chance = {
        "children": [
            {"kind": "chance", "children": [{"p": "1/4", "value": 4}, {"p": "3/4", "value": 0}]}
        ]
    }
    source.write_text(json.dumps({"tree": chance}))
    assert main(["solve", str(source)]) == 0
    assert json.loads(capsys.readouterr().out)["type"] == "expectimax"


def test_solve_matrix_and_lottery(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.json"
    # battle of the sexes: pure equilibria on the diagonal
    source.write_text(json.dumps({"A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}))
    assert main(["solve", str(source)]) == 0
    found = json.loads(capsys.readouterr().out)["pure_equilibria"]
    assert [e["profile"] for e in found] == [[0, 0], [1, 1]]
    assert found[0]["payoffs"] == [2, 1]
    # [1000, 0] at even odds, U = sqrt(x): EMV 500, CE 250
    source.write_text(
        json.dumps({"lottery": [{"p": 0.5, "x": 1000}, {"p": 0.5, "x": 0}], "utility": "sqrt(x)"})
    )
    assert main(["solve", str(source)]) == 0
    out = json.loads(capsys.readouterr().out)
    # integers are written exactly as JSON numbers, so no companion (docs/numbers.md)
    assert (out["emv"], out["certainty_equivalent"]) == (500, 250)
    assert "certainty_equivalent_exact" not in out
