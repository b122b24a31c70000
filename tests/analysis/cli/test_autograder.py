"""The Gradescope bundle, unpacked into a temporary directory laid out as Gradescope's
container (``source/``, ``submission/``, ``results/``) and run as Gradescope runs it.

AIMA Fig. 5.2 ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``: value 3 by root.0, alpha-beta
prunes root.1.1 and root.1.2; the problem asks value (1), best move (1), pruned leaves (2).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from analysis.cli.autograder import autograder_command, parser, requirements

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}
RIGHT = {"value": 3, "best_move": "root.0", "pruned_leaves": ["root.1.1", "root.1.2"]}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("build")
    problem = folder / "problem.json"
    problem.write_text(json.dumps(AIMA))
    zipped = folder / "autograder.zip"
    args = parser("autograder", "").parse_args([str(problem), "--output", str(zipped)])
    assert autograder_command(args) == 0
    return zipped


def run(bundle: Path, root: Path, submission: dict[str, str]) -> dict[str, Any]:
    """Unpack as Gradescope does (/autograder/source), place the submission, run."""
    for part in ("source", "submission", "results"):
        (root / part).mkdir(parents=True)
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    for name, text in submission.items():
        (root / "submission" / name).write_text(text)
    script = root / "source" / "run_autograder"
    script.chmod(0o755)
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    # from elsewhere, so that only the bundled copy of Arbiter can be imported
    subprocess.run([str(script)], env=env, cwd=root, check=True, timeout=120)
    results: dict[str, Any] = json.loads((root / "results" / "results.json").read_text())
    return results


def check_fields(results: dict[str, Any]) -> None:
    """Gradescope's documented fields, with their types."""
    assert isinstance(results["score"], (int, float)) and isinstance(results["output"], str)
    for test in results["tests"]:
        assert set(test) >= {"score", "max_score", "name", "output", "visibility"}
        assert test["visibility"] in ("visible", "hidden", "after_due_date", "after_published")


def test_the_zip_holds_what_gradescope_needs(bundle: Path) -> None:
    names = zipfile.ZipFile(bundle).namelist()
    assert {"setup.sh", "run_autograder", "problem.json", "requirements.txt"} <= set(names)
    assert "analysis/cli/grade.py" in names and "games/numbers.py" in names
    assert not any(name.startswith("api/") for name in names)
    pins = requirements().splitlines()
    assert all("==" in line for line in pins) and any(p.startswith("sympy==") for p in pins)


def test_right_answer(bundle: Path, tmp_path: Path) -> None:
    results = run(bundle, tmp_path / "autograder", {"answer.json": json.dumps(RIGHT)})
    check_fields(results)
    assert results["score"] == 4
    assert [(t["name"], t["score"], t["max_score"]) for t in results["tests"]] == [
        ("value", 1, 1),
        ("best_move", 1, 1),
        ("pruned_leaves", 2, 2),
    ]


def test_partly_right_answer(bundle: Path, tmp_path: Path) -> None:
    # value right; one of two pruned leaves: 2 * 1 / 3 of 2 points; the move not answered
    answer = {"value": 3, "pruned_leaves": ["root.1.2"]}
    results = run(bundle, tmp_path / "autograder", {"answer.json": json.dumps(answer)})
    check_fields(results)
    assert results["score"] == pytest.approx(1 + 4 / 3)
    tests = {t["name"]: t for t in results["tests"]}
    assert tests["best_move"]["output"] == "not answered"


@pytest.mark.parametrize(
    ("submission", "reason"),
    [
        ({"answer.json": "{not json"}, "not valid JSON"),
        ({"answer.json": json.dumps({"value": "three"})}, "/answers/answer/value"),
        ({"notes.txt": "no answer"}, "expected one .json answer file, found 0"),
    ],
)
def test_malformed_submission_scores_zero_with_the_reason(
    bundle: Path, tmp_path: Path, submission: dict[str, str], reason: str
) -> None:
    results = run(bundle, tmp_path / "autograder", submission)
    check_fields(results)
    assert results["score"] == 0
    assert reason in results["output"]
    assert sum(t["max_score"] for t in results["tests"]) == 4
