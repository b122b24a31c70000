"""The grade writers: hand-checked fields, and the same JSON as the API's schema dump, so
``arbiter grade`` prints what ``POST /v1/grade`` answers."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.class_report import summarize
from analysis.grading.json_output import grade_json, grades_json, summary_json
from analysis.grading.registry import grade_answer
from api.schemas.grading import GradeResultSchema, GradeSummarySchema

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}
CHANCE = {
    "type": "expectimax",
    "tree": {"kind": "max", "children": [{"kind": "chance", "children": [1, 2, 2]}, 1]},
}
GAME = {"type": "matrix", "A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}

CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (AIMA, {"value": 3, "best_move": "root.0", "pruned_leaves": ["root.1.1"]}),
    (AIMA, {"value": 2, "best_move": "root.1", "pruned_leaves": []}),
    (CHANCE, {"value": "5/3", "best_move": "root.0"}),
    (GAME, {"pure_equilibria": [["R1", "C1"]]}),
]


def test_a_grade_written_by_hand() -> None:
    # one of the two pruned leaves: F1 = 2/3 of the field's 2 points
    answer = {"value": 3, "best_move": "root.0", "pruned_leaves": ["root.1.1"]}
    written = grade_json(grade_answer(AIMA, answer))
    assert written["score"] == pytest.approx(10 / 3) and written["max_score"] == 4
    assert written["error"] is None
    pruned = written["items"][2]
    assert pruned["field"] == "pruned_leaves"
    assert pruned["expected"] == ["root.1.1", "root.1.2"] and "expected_exact" not in pruned
    assert pruned["missing"] == ["root.1.2"] and pruned["given"] == ["root.1.1"]


def test_an_inexact_expected_value_carries_its_exact_string() -> None:
    # the chance node is worth (1 + 2 + 2) / 3 = 5/3
    value = grade_json(grade_answer(CHANCE, {"value": "5/3", "best_move": "root.0"}))["items"][0]
    assert value["expected"] == pytest.approx(5 / 3) and value["expected_exact"] == "5/3"
    assert value["correct"] is True


@pytest.mark.parametrize(("problem", "answer"), CASES)
def test_the_writer_is_the_api_schema_dump(problem: dict[str, Any], answer: Any) -> None:
    grade = grade_answer(problem, answer)
    assert grade_json(grade) == GradeResultSchema().dump(grade)


def test_the_summary_is_the_api_schema_dump() -> None:
    grades = {
        f"s{i}": grade_answer(problem, answer) for i, (problem, answer) in enumerate(CASES[:2])
    }
    summary = summarize(grades)
    assert summary_json(summary) == GradeSummarySchema().dump(summary)
    written = grades_json(grades, summary)
    assert list(written["results"]) == ["s0", "s1"] and written["summary"]["count"] == 2
