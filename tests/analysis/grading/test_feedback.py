"""Feedback levels: below ``full`` no output writes a value of the key the student did not
write. Every writer (the grade's JSON, Gradescope's and PrairieLearn's results.json, the
CSV, the CLI) is read at every level and searched for the key's numbers and node ids."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from analysis.cli.program import main
from analysis.grading.assignments import read_assignment, student_problem
from analysis.grading.class_report import grades_csv, gradescope_results, prairielearn_results
from analysis.grading.feedback import FEEDBACK_LEVELS, hint, status
from analysis.grading.json_output import grade_json
from analysis.grading.registry import grade_one, make_grader
from analysis.grading.rubric import parse_rubric

# AIMA's Figure 5.2. The key: value 3 by root.0; nodes root 3, root.0 3, root.1 2, root.2 2;
# line root.0, root.0.0; pruned leaves root.1.1, root.1.2 (root.1 cut after its leaf 2).
AIMA = {
    "type": "alphabeta",
    "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
    "questions": ["value", "best_move", "nodes", "principal_variation", "pruned_leaves"],
}
# wrong everywhere, and none of its numbers or ids is one the key has and it lacks
WRONG = {
    "value": 14,
    "best_move": "root.2",
    "nodes": {"root": 14, "root.0": 8, "root.1": 6, "root.2": 14},
    "principal_variation": ["root.2", "root.2.0"],
    "pruned_leaves": ["root.2.1", "root.2.2"],
}
# points that are neither 2 nor 3, so that a score can never pass for a value of the key
RUBRIC = parse_rubric(
    {
        "points": {
            "value": 10,
            "best_move": 10,
            "nodes": 40,
            "principal_variation": 10,
            "pruned_leaves": 20,
        }
    }
)
KEY_NUMBERS = {"3", "2"}
KEY_IDS = {"root.0.0", "root.1.1", "root.1.2"}
"""What the key holds and the student did not write (root.0 and root.1 the student values)."""
ID = re.compile(r"root(?:\.\d+)*")
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def leaks(text: str) -> set[str]:
    """The key's ids, and its numbers outside node ids, that ``text`` writes."""
    ids = set(ID.findall(text))
    numbers = set(NUMBER.findall(ID.sub("", text)))
    return (ids & KEY_IDS) | (numbers & KEY_NUMBERS)


def outputs(level: str) -> dict[str, str]:
    grader = make_grader(AIMA)
    grade = grade_one(grader, WRONG, RUBRIC)
    asked = {name: float(RUBRIC.points_for(name)) for name in AIMA["questions"]}
    return {
        "json": json.dumps(grade_json(grade, level)),
        "gradescope": json.dumps(gradescope_results(grade, asked, level)),
        "prairielearn": json.dumps(prairielearn_results(grade, asked, level)),
        "csv": grades_csv({"ada": grade}),
    }


@pytest.mark.parametrize("level", ["score", "fields", "hints"])
def test_no_level_below_full_gives_the_key_away(level: str) -> None:
    for name, text in outputs(level).items():
        assert not leaks(text), (name, leaks(text), text)


def test_full_feedback_does_give_the_key() -> None:
    # the search above can fail: full feedback writes every value and id it looks for
    written = outputs("full")
    assert leaks(written["json"]) == KEY_NUMBERS | KEY_IDS
    assert leaks(written["gradescope"]) == KEY_NUMBERS | KEY_IDS - {"root.0.0"}
    assert "wrong values at root (yours 14, right 3), root.0 (yours 8, right 3)" in written["json"]


def test_what_each_level_shows() -> None:
    score, fields, hints = (json.loads(outputs(level)["json"]) for level in FEEDBACK_LEVELS[:3])
    assert score == {"score": 0.0, "max_score": 90.0, "status": "graded", "error": None}
    assert [(i["field"], i["status"]) for i in fields["items"]] == [
        ("value", "wrong"),
        ("best_move", "wrong"),
        ("nodes", "wrong"),
        ("principal_variation", "wrong"),
        ("pruned_leaves", "wrong"),
    ]
    assert "diagnosis" not in fields and "hint" not in fields["items"][0]
    by_field = {item["field"]: item["hint"] for item in hints["items"]}
    # the student's own wrong entries are named; the missing ones only counted
    assert by_field["nodes"] == "wrong: root, root.0, root.1, root.2 are wrong"
    assert by_field["pruned_leaves"] == (
        "wrong: root.2.1, root.2.2 should not be there; some entries are missing"
    )
    assert all("hint" in d and "message" not in d for d in hints["diagnosis"])


def test_partly_right_and_unreadable_fields() -> None:
    answer = {"value": 3, "nodes": {"root": 3, "root.0": 3, "root.1": 5}, "best_move": "Q"}
    grade = grade_one(make_grader(AIMA), answer, RUBRIC)
    items = {item.field: item for item in grade.items}
    assert [status(items[name]) for name in AIMA["questions"]] == [
        "right",
        "unreadable",
        "partly right",
        "not answered",
        "not answered",
    ]
    assert hint(items["best_move"]) == "could not be read: there is no node 'Q' in the tree"
    assert hint(items["nodes"]) == "partly right: root.1 is wrong; some entries are missing"
    # value 10 of 10, nodes 2 of the 4 values backed up: 20 of 40
    assert grade.score == 30


def test_lottery_hints_name_the_mistake_without_the_right_value() -> None:
    template = read_assignment({"type": "lottery", "seed": 5})
    key = student_problem(template, "ada", figure=False).answer
    # the certainty equivalent given as the EMV: the mistake the diagnosis names
    answer = {"emv": key["emv"], "certainty_equivalent": key["emv"]}
    grader = make_grader(student_problem(template, "ada", figure=False).problem)
    grade = grade_one(grader, answer, parse_rubric(None))
    assert [d.code for d in grade.diagnosis] == ["emv_as_certainty_equivalent"]
    hints = json.dumps(grade_json(grade, "hints"))
    right = key["certainty_equivalent"]
    shown = {str(right), f"{float(right):g}"} if not isinstance(right, str) else {right}
    assert not any(text in hints for text in shown), hints
    assert "the certainty equivalent you give is the EMV" in hints
    assert any(text in json.dumps(grade_json(grade, "full")) for text in shown)


@pytest.mark.parametrize("level", ["score", "fields", "hints"])
def test_the_command_line_at_each_level(
    tmp_path: Path, level: str, capsys: pytest.CaptureFixture[str]
) -> None:
    problem = tmp_path / "problem.json"
    problem.write_text(json.dumps({"problem": AIMA, "rubric": {"points": RUBRIC_POINTS}}))
    answer = tmp_path / "ada.json"
    answer.write_text(json.dumps(WRONG))
    written: list[str] = []
    for output in ("json", "gradescope", "prairielearn"):
        target = tmp_path / f"{output}.out"
        argv = ["grade", str(problem), str(answer), "--feedback", level, "--format", output]
        assert main([*argv, "--output", str(target)]) == 0
        written.append(target.read_text())
    capsys.readouterr()
    for text in written:
        assert not leaks(text), text


RUBRIC_POINTS: dict[str, Any] = {
    "value": 10,
    "best_move": 10,
    "nodes": 40,
    "principal_variation": 10,
    "pruned_leaves": 20,
}
