"""``arbiter grade``'s own parser and ``grade_command``, called directly on hand-made files.

The problem: minimax on [[3, 5], [2, 9]] (MAX over two MIN nodes): the MIN nodes are worth
min(3, 5) = 3 and min(2, 9) = 2, so the value is 3 and the best move is root.0. The rubric
gives 1 point each to value and best_move. The end-to-end runs through ``arbiter`` (the
AIMA tree, CSV, Gradescope) are in ``test_grade_and_solve.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis.cli.error_handler import CommandLineError
from analysis.cli.grade import grade_command, parser
from games.errors import InvalidInputError

PROBLEM = {"type": "minimax", "tree": [[3, 5], [2, 9]], "questions": ["value", "best_move"]}
RUBRIC = {"points": {"value": 1, "best_move": 1}}


def write(path: Path, content: Any) -> str:
    path.write_text(json.dumps(content))
    return str(path)


def grade(*argv: str) -> int:
    return grade_command(parser("grade", "grade answers").parse_args(list(argv)))


@pytest.fixture
def problem(tmp_path: Path) -> str:
    return write(tmp_path / "problem.json", {"problem": PROBLEM, "rubric": RUBRIC})


def test_the_parser_defaults() -> None:
    args = parser("grade", "grade answers").parse_args(["p.json", "answers"])
    assert (args.format, args.rubric, args.output) == ("json", None, None)
    assert (args.roster, args.allow_unmatched, args.feedback, args.visibility) == (
        None,
        False,
        None,  # fields for gradescope and prairielearn, full otherwise
        "visible",
    )
    assert args.run is grade_command
    assert (args.student, args.gradescope_metadata, args.student_field) == (None, None, "email")


def test_one_answer_file_half_right(
    tmp_path: Path, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = write(tmp_path / "ada.json", {"value": 3, "best_move": "root.1"})
    assert grade(problem, answer) == 0
    out = json.loads(capsys.readouterr().out)
    ada = out["results"]["ada"]  # the student is named after the file
    assert (ada["score"], ada["max_score"]) == (1, 2)
    fields = {item["field"]: item for item in ada["items"]}
    assert fields["value"]["correct"] and fields["value"]["expected"] == 3
    assert not fields["best_move"]["correct"]
    assert fields["best_move"]["expected"] == "root.0"
    assert out["summary"]["mean"] == 1


def test_a_file_of_answers_and_a_rubric_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = write(tmp_path / "bare.json", PROBLEM)  # a problem with no rubric of its own
    answers = write(
        tmp_path / "class.json",
        {"answers": {"ada": {"value": 3, "best_move": "root.0"}, "bob": {"value": 2}}},
    )
    rubric = write(tmp_path / "rubric.json", {"points": {"value": 3, "best_move": 1}})
    assert grade(bare, answers, "--rubric", rubric) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    # bob leaves out best_move, which the rubric requires: 0 of 3 + 0 of 1
    scores = {name: (r["score"], r["max_score"]) for name, r in results.items()}
    assert scores == {"ada": (4, 4), "bob": (0, 4)}


def test_gradescope_needs_exactly_one_answer(tmp_path: Path, problem: str) -> None:
    folder = tmp_path / "answers"
    folder.mkdir()
    write(folder / "ada.json", {"value": 3})
    write(folder / "bob.json", {"value": 2})
    output = tmp_path / "results.json"
    # the submission is malformed: a 0 with the reason, not an autograder failure
    assert grade(problem, str(folder), "--format", "gradescope", "--output", str(output)) == 0
    results = json.loads(output.read_text())
    assert results["score"] == 0
    assert "expected one .json answer file, found 2" in results["output"]
    assert [(t["name"], t["max_score"]) for t in results["tests"]] == [
        ("value", 1),
        ("best_move", 1),
    ]
    # a file of several answers is the instructor's mistake: refused
    answers = write(tmp_path / "class.json", {"answers": {"ada": {}, "bob": {}}})
    with pytest.raises(CommandLineError) as caught:
        grade(problem, answers, "--format", "gradescope")
    assert (caught.value.where, caught.value.message) == (
        "--format",
        "gradescope grades one submission; got 2 answers",
    )


def test_gradescope_writes_the_score(
    tmp_path: Path, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = write(tmp_path / "ada.json", {"value": 3, "best_move": "root.1"})
    output = tmp_path / "results.json"
    assert grade(problem, answer, "--format", "gradescope", "--output", str(output)) == 0
    assert capsys.readouterr().out == f"1 / 2 written to {output}\n"
    assert json.loads(output.read_text())["score"] == 1


def test_answers_must_map_students(tmp_path: Path, problem: str) -> None:
    answers = write(tmp_path / "class.json", {"answers": [{"value": 3}]})
    with pytest.raises(InvalidInputError) as caught:
        grade(problem, answers)
    assert caught.value.errors[0].pointer == "/answers"


def test_student_names_the_one_answer(
    tmp_path: Path, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = write(tmp_path / "answer.json", {"value": 3, "best_move": "root.0"})
    assert grade(problem, answer, "--student", "s42") == 0
    assert set(json.loads(capsys.readouterr().out)["results"]) == {"s42"}
    both = write(tmp_path / "both.json", {"answers": {"ada": {}, "bob": {}}})
    with pytest.raises(CommandLineError, match="one answer; got 2 answers"):
        grade(problem, both, "--student", "s42")


GRADESCOPE_USER = {"email": "ada@example.edu", "id": 77, "name": "Ada L", "sid": "s42"}


@pytest.mark.parametrize(
    ("fields", "user", "student"),
    [
        ("email", GRADESCOPE_USER, "ada@example.edu"),
        ("sid,email", GRADESCOPE_USER, "s42"),
        ("sid,email", {**GRADESCOPE_USER, "sid": None}, "ada@example.edu"),
        ("sid,email", {**GRADESCOPE_USER, "sid": "  "}, "ada@example.edu"),
        ("id", GRADESCOPE_USER, "77"),
        ("name, sid", GRADESCOPE_USER, "Ada L"),
    ],
)
def test_the_student_from_gradescope_metadata(
    tmp_path: Path,
    problem: str,
    capsys: pytest.CaptureFixture[str],
    fields: str,
    user: dict[str, Any],
    student: str,
) -> None:
    # the first user of a group submission names it
    users = [user, {"email": "bob@example.edu", "sid": "s43"}]
    metadata = write(tmp_path / "submission_metadata.json", {"id": 1, "users": users})
    answer = write(tmp_path / "answer.json", {"value": 3})
    assert grade(problem, answer, "--gradescope-metadata", metadata, "--student-field", fields) == 0
    assert set(json.loads(capsys.readouterr().out)["results"]) == {student}


@pytest.mark.parametrize(
    ("content", "fields", "message"),
    [
        ({"users": []}, "sid,email", "expected users"),
        ({"id": 1}, "sid,email", "expected users"),
        ({"users": [{"name": "Ada", "sid": ""}]}, "sid,email", "has no sid or email"),
        ({"users": [{"name": "Ada", "sid": "s42"}]}, "email", "has no email"),
        ({"users": [GRADESCOPE_USER]}, "sid,phone", "email, sid, name, id"),
        ({"users": [GRADESCOPE_USER]}, ",", "email, sid, name, id"),
    ],
)
def test_unusable_gradescope_metadata_is_refused(
    tmp_path: Path, problem: str, content: dict[str, Any], fields: str, message: str
) -> None:
    metadata = write(tmp_path / "submission_metadata.json", content)
    answer = write(tmp_path / "answer.json", {"value": 3})
    with pytest.raises(CommandLineError, match=message):
        grade(problem, answer, "--gradescope-metadata", metadata, "--student-field", fields)
    with pytest.raises(CommandLineError, match="either --student or --gradescope-metadata"):
        grade(problem, answer, "--gradescope-metadata", metadata, "--student", "ada")


ASSIGNMENT = {"type": "minimax", "depth": 2, "branching": 2, "seed": 7}


@pytest.fixture
def assignment(tmp_path: Path) -> str:
    roster = [{"id": "ada", "email": "ada@uni.edu", "lms_id": "501"}, "bob", "cyd"]
    return write(tmp_path / "assignment.json", {"assignment": ASSIGNMENT, "roster": roster})


def test_a_class_against_its_roster(
    tmp_path: Path, assignment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "download"
    folder.mkdir()
    write(folder / "lovelaceada_501_9_answer.json", {"value": 1})  # Canvas: ada's user id
    (folder / "BOB.json").write_text('{"value": 9,')  # not JSON
    write(folder / "stray.json", {"value": 1})
    assert grade(assignment, str(folder)) == 1  # an answer no student owns
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert list(out["results"]) == ["ada", "bob", "cyd"]
    assert out["matched"] == {
        "ada": {"answer": "lovelaceada_501_9_answer", "rule": "canvas"},
        "bob": {"answer": "BOB", "rule": "case"},
    }
    # bob's file is not JSON: the reason, not "an answer is an object"
    assert "not valid JSON" in out["results"]["bob"]["error"]["message"]
    assert out["results"]["cyd"]["status"] == "missing"
    assert out["unmatched"] == [{"answer": "stray", "reason": "names no student on the roster"}]
    assert captured.err.splitlines() == [
        "arbiter: 1 answer matched no roster student and was not graded:",
        "  stray: names no student on the roster",
    ]
    summary = out["summary"]
    assert [summary[k] for k in ("count", "graded", "errors", "missing", "unmatched")] == [
        3,
        1,
        1,
        1,
        1,
    ]
    assert grade(assignment, str(folder), "--allow-unmatched", "--format", "csv") == 0


def test_an_assignment_needs_a_roster(tmp_path: Path) -> None:
    bare = write(tmp_path / "bare.json", {"assignment": ASSIGNMENT})
    answer = write(tmp_path / "ada.json", {"value": 1})
    with pytest.raises(CommandLineError, match="give --roster FILE") as caught:
        grade(bare, answer)
    assert caught.value.where == "--roster"


def test_one_answer_file_is_one_submission_not_a_class(
    tmp_path: Path, assignment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = write(tmp_path / "ADA@uni.edu.json", {"value": 1})
    assert grade(assignment, answer) == 0
    out = json.loads(capsys.readouterr().out)
    # no rows for the 2 students who are not in it
    assert list(out["results"]) == ["ada"] and out["summary"]["missing"] == 0
    assert out["matched"] == {"ada": {"answer": "ADA@uni.edu", "rule": "email"}}


def test_a_gradescope_submitter_not_on_the_roster(tmp_path: Path, assignment: str) -> None:
    answer = write(tmp_path / "answer.json", {"value": 1})
    output = tmp_path / "results.json"
    argv = [assignment, answer, "--format", "gradescope", "--student", "zed"]
    assert grade(*argv, "--output", str(output)) == 1
    results = json.loads(output.read_text())
    assert results["score"] == 0
    # about whose the submission is, not about the answer, which was never read
    assert results["output"].startswith("this submission could not be matched to a student")
    assert {test["output"] for test in results["tests"]} == {"not graded (see above)"}
