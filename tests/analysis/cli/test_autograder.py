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
from analysis.cli.error_handler import CommandLineError
from analysis.cli.problems import parser as problem_parser
from analysis.grading.assignments import read_assignment, student_problem

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


def unpacked(bundle: Path) -> Path:
    """The bundle unpacked once beside it, as Gradescope builds one image for every
    submission (the bundled modules are compiled by the first run, not by each)."""
    source = bundle.parent / f"{bundle.stem}-source"
    if not source.exists():
        with zipfile.ZipFile(bundle) as archive:
            archive.extractall(source)
        (source / "run_autograder").chmod(0o755)
    return source


def run(
    bundle: Path, root: Path, submission: dict[str, str], metadata: str | None = None
) -> dict[str, Any]:
    """Unpack as Gradescope does (/autograder/source), place the submission (and
    /autograder/submission_metadata.json), run."""
    for part in ("submission", "results"):
        (root / part).mkdir(parents=True)
    (root / "source").symlink_to(unpacked(bundle))
    if metadata is not None:
        (root / "submission_metadata.json").write_text(metadata)
    for name, text in submission.items():
        (root / "submission" / name).write_text(text)
    script = root / "source" / "run_autograder"
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


# An assignment with a variant per student: lottery problems of seed 5. The bundle names
# the student by Gradescope's submission_metadata.json: the first user's email by default,
# or the fields of --student-field in turn.
ASSIGNMENT = {"type": "lottery", "seed": 5}
ADA, BOB = "ada@example.edu", "bob@example.edu"


def metadata(**user: str | None) -> str:
    """submission_metadata.json as Gradescope documents it (users[] with email, id, name),
    with the roster's student id ``sid`` that submissions may also carry."""
    return json.dumps(
        {
            "id": 123456,
            "created_at": "2026-11-23T11:00:00.000000-08:00",
            "assignment": {"id": 2, "title": "Lotteries", "total_points": "5.0"},
            "submission_method": "upload",
            "users": [{"email": "x@example.edu", "id": 1, "name": "X", "sid": None, **user}],
            "previous_submissions": [],
        }
    )


def variant_key(student: str) -> dict[str, Any]:
    return student_problem(read_assignment(ASSIGNMENT), student, figure=False).answer


def build_assignment_bundle(folder: Path, *options: str) -> Path:
    """The variants of a roster (arbiter problem generate), then the bundle of their
    assignment.json."""
    roster = folder / "roster.txt"
    roster.write_text(f"{ADA}\n{BOB}\ns1001\n")
    generate = problem_parser("problem", "").parse_args(
        ["generate", "--type", "lottery", "--seed", "5", "--roster", str(roster)]
        + ["--output", str(folder / "variants")]
    )
    assert generate.run(generate) == 0
    zipped = folder / "autograder.zip"
    assignment = str(folder / "variants" / "assignment.json")
    args = parser("autograder", "").parse_args([assignment, *options, "--output", str(zipped)])
    assert autograder_command(args) == 0
    return zipped


@pytest.fixture(scope="module")
def assignment_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_assignment_bundle(tmp_path_factory.mktemp("build-assignment"))


@pytest.fixture(scope="module")
def sid_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("build-sid")
    return build_assignment_bundle(folder, "--student-field", "sid,email")


def test_the_assignment_bundle_names_the_student_by_the_metadata(
    assignment_bundle: Path, sid_bundle: Path
) -> None:
    names = zipfile.ZipFile(assignment_bundle).namelist()
    assert "assignment.json" in names and "problem.json" not in names
    bundled = json.loads(zipfile.ZipFile(assignment_bundle).read("assignment.json"))
    assert bundled["assignment"]["seed"] == 5 and "student" not in bundled["assignment"]
    # the roster its submissions are matched to goes with it
    assert bundled["roster"] == [ADA, BOB, "s1001"]
    script = zipfile.ZipFile(assignment_bundle).read("run_autograder").decode()
    assert '--gradescope-metadata "$ROOT/submission_metadata.json"' in script
    assert "--student-field email\n" in script
    # students see each field's status and points, never the key, by default
    assert "--feedback fields --visibility visible" in script
    script = zipfile.ZipFile(sid_bundle).read("run_autograder").decode()
    assert "--student-field sid,email\n" in script


def test_a_submitter_not_on_the_roster_scores_zero_with_the_reason(
    assignment_bundle: Path, tmp_path: Path
) -> None:
    # a Gradescope user the roster does not list is graded against no variant
    answer = {"answer.json": json.dumps(variant_key(ADA))}
    results = run(assignment_bundle, tmp_path / "stranger", answer, metadata(email="zed@x.edu"))
    check_fields(results)
    assert results["score"] == 0
    assert "could not be matched to a student on the assignment's roster" in results["output"]
    assert "'zed@x.edu' names no student on the roster" in results["output"]


@pytest.mark.parametrize(("owner", "other"), [(ADA, BOB), (BOB, ADA)])
def test_each_student_is_graded_against_their_own_variant(
    assignment_bundle: Path, tmp_path: Path, owner: str, other: str
) -> None:
    key = variant_key(owner)
    assert key != variant_key(other)  # else the test could not tell the variants apart
    answer = {"answer.json": json.dumps(key)}
    # the sid is not what names the student by default
    own = run(assignment_bundle, tmp_path / "own", answer, metadata(email=owner, sid="s1001"))
    check_fields(own)
    maximum = sum(t["max_score"] for t in own["tests"])
    assert maximum > 0 and own["score"] == maximum
    theirs = run(assignment_bundle, tmp_path / "other", answer, metadata(email=other))
    check_fields(theirs)
    assert sum(t["max_score"] for t in theirs["tests"]) == maximum
    assert theirs["score"] < maximum


@pytest.mark.parametrize(
    ("user", "student"), [({"sid": "s1001", "email": ADA}, "s1001"), ({"email": ADA}, ADA)]
)
def test_the_sid_then_the_email_names_the_student(
    sid_bundle: Path, tmp_path: Path, user: dict[str, str], student: str
) -> None:
    for whose in ("s1001", ADA):
        answer = {"answer.json": json.dumps(variant_key(whose))}
        results = run(sid_bundle, tmp_path / whose, answer, metadata(**user))
        maximum = sum(t["max_score"] for t in results["tests"])
        assert (results["score"] == maximum) == (whose == student), (whose, results["score"])


@pytest.mark.parametrize(
    ("submission", "reason"),
    [
        ({"answer.json": "{not json"}, "not valid JSON"),
        ({"answer.json": json.dumps({"emv": "lots"})}, f"/answers/{ADA}/emv"),
        ({"notes.txt": "no answer"}, "expected one .json answer file, found 0"),
    ],
)
def test_a_malformed_submission_to_an_assignment_scores_zero_with_the_reason(
    assignment_bundle: Path, tmp_path: Path, submission: dict[str, str], reason: str
) -> None:
    results = run(assignment_bundle, tmp_path / "autograder", submission, metadata(email=ADA))
    check_fields(results)
    assert results["score"] == 0
    assert reason in results["output"]
    right = {"answer.json": json.dumps(variant_key(ADA))}
    maximum = run(assignment_bundle, tmp_path / "right", right, metadata(email=ADA))["score"]
    assert sum(t["max_score"] for t in results["tests"]) == maximum > 0


def test_a_bad_student_field_fails_when_the_bundle_is_built(tmp_path: Path) -> None:
    assignment = tmp_path / "assignment.json"
    assignment.write_text(json.dumps({"assignment": ASSIGNMENT, "roster": [ADA]}))
    args = parser("autograder", "").parse_args(
        [str(assignment), "--student-field", "sid,phone", "--output", str(tmp_path / "a.zip")]
    )
    with pytest.raises(CommandLineError, match="email, sid, name, id"):
        autograder_command(args)
    assert not (tmp_path / "a.zip").exists()
