"""The grading and problem-generator endpoints (answers derived by hand from AIMA Fig. 5.2)."""

from __future__ import annotations

import csv
import dataclasses
import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from analysis.grading.class_report import summarize
from analysis.grading.problem_generator import GeneratedProblem, generate_problem
from analysis.grading.registry import BatchGrade, BatchGrades, grade_batch, make_grader
from analysis.grading.results import Grade, GradedItem
from analysis.grading.rubric import Rubric
from api.schemas.grading import GradeBatchResultSchema, dump_batch
from api.views import grading as views

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}
ASK_ALL = {**AIMA, "questions": ["value", "best_move", "nodes", "pruned", "pruned_leaves"]}


def test_grade_full_marks(client: FlaskClient) -> None:
    answer = {"value": "3", "best_move": "root.0", "pruned_leaves": ["root.1.2", "root.1.1"]}
    response = client.post("/v1/grade", json={"problem": AIMA, "answer": answer})
    assert response.status_code == 200
    body = response.json
    assert (body["score"], body["max_score"]) == (4, 4)
    assert body["diagnosis"] == []
    assert body["items"][2]["expected"] == ["root.1.1", "root.1.2"]


def test_grade_partial_with_diagnosis(client: FlaskClient) -> None:
    answer = {"value": 3, "pruned_leaves": []}
    response = client.post("/v1/grade", json={"problem": AIMA, "answer": answer})
    body = response.json
    assert body["score"] == 1
    # the problem asks value, best move and pruned leaves: the move is not answered
    assert body["items"][1]["feedback"] == "not answered"
    assert body["items"][2]["missing"] == ["root.1.1", "root.1.2"]
    departure = [d for d in body["diagnosis"] if d["code"] == "first_departure"]
    assert departure[0]["node"] == "root.1"


def test_batch_csv_student_ids_never_run_as_spreadsheet_formulas(client: FlaskClient) -> None:
    answers = {'=HYPERLINK("http://x","y")': {"value": 3}, "+cmd|' /C calc'!A0": {"value": True}}
    body = {"problem": AIMA, "answers": answers}
    response = client.post("/v1/grade/batch", json=body, headers={"Accept": "text/csv"})
    text = response.data.decode()
    assert '\n"\'=HYPERLINK(""http://x"",""y"")",1,4,graded,1,' in text
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(text))}
    assert set(rows) == {"'" + student for student in answers}
    # the error cell starts with its pointer's "/", naming the student as given
    error = rows["'+cmd|' /C calc'!A0"]["error"]
    assert error.startswith("/answers/+cmd|' ~1C calc'!A0/value: ")


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"problem": {**AIMA, "questions": ["score"]}, "answer": {}}, "/problem/questions/0"),
        ({"problem": AIMA, "answer": []}, "/answer"),
        ({"problem": {"type": "chess", "tree": [1]}, "answer": {}}, "/problem/type"),
        ({"problem": AIMA, "answer": {}, "rubric": {"sets": "bag"}}, "/rubric/sets"),
    ],
)
def test_malformed_input_422_with_pointer(
    client: FlaskClient, body: dict[str, Any], pointer: str
) -> None:
    response = client.post("/v1/grade", json=body)
    assert response.status_code == 422
    assert response.json["errors"][0]["pointer"] == pointer


@pytest.mark.parametrize(
    ("answer", "field", "pointer"),
    [
        ({"value": 3, "nodes": {"X": 1}}, "nodes", "/answer/nodes/X"),
        ({"value": 3, "pruned": [7]}, "pruned", "/answer/pruned/0"),
        ({"value": True, "nodes": {"root": 3}}, "value", "/answer/value"),
    ],
)
def test_a_field_that_cannot_be_read_scores_zero_and_the_rest_is_graded(
    client: FlaskClient, answer: dict[str, Any], field: str, pointer: str
) -> None:
    response = client.post("/v1/grade", json={"problem": ASK_ALL, "answer": answer})
    assert response.status_code == 200
    body = response.json
    (bad,) = [item for item in body["items"] if item["field"] == field]
    assert (bad["score"], bad["status"], bad["error"]["pointer"]) == (0, "unreadable", pointer)
    assert [e["pointer"] for e in body["errors"]] == [pointer]
    # the right root value (3) or root node value (3 of 4 nodes' 4 points: 1) still counts
    assert body["score"] == 1


ANSWERS = {
    "ada": {"value": 3, "pruned_leaves": ["root.1.1", "root.1.2"]},
    "bob": {"value": 3, "pruned_leaves": ["root.1.2"]},
    "cy": {"value": 6, "pruned_leaves": ["root.2.1", "root.2.2"]},
}


def test_batch_summary(client: FlaskClient) -> None:
    body = {
        "problem": {**AIMA, "questions": ["value", "pruned_leaves"]},
        "answers": ANSWERS,
        "rubric": {"points": {"value": 1, "pruned_leaves": 2}},
    }
    response = client.post("/v1/grade/batch", json=body)
    assert response.status_code == 200
    results, summary = response.json["results"], response.json["summary"]
    # bob: 1 + 2 * (2 * 1 / 3); cy (a MIN root): 0 + 0
    assert results["ada"]["score"] == 3
    assert results["bob"]["score"] == pytest.approx(1 + 4 / 3)
    assert results["cy"]["score"] == 0
    assert summary["count"] == 3
    assert summary["mean"] == pytest.approx((3 + 7 / 3) / 3)
    assert summary["full_marks"] == 1
    assert summary["distribution"]["90-100%"] == 1
    assert summary["distribution"]["70-80%"] == 1
    assert summary["distribution"]["0-10%"] == 1
    assert {"code": "wrong_root_player", "count": 1} in summary["common_mistakes"]


def test_batch_csv(client: FlaskClient) -> None:
    body = {"problem": AIMA, "answers": ANSWERS}
    response = client.post("/v1/grade/batch", json=body, headers={"Accept": "text/csv"})
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    assert [row["student"] for row in rows] == ["ada", "bob", "cy"]
    assert rows[0]["score"] == "3"
    assert "wrong_root_player" in rows[2]["diagnosis"]


def test_batch_malformed_answer_scores_zero_with_pointer(client: FlaskClient) -> None:
    answers = {
        "ada": {"value": 3},
        "b/o": {"best_move": "Q"},
        "cy": {"pruned_leaves": "root.1.1"},
    }
    body = {"problem": ASK_ALL, "answers": answers, "rubric": {"points": {"value": 1}}}
    response = client.post("/v1/grade/batch", json=body)
    assert response.status_code == 200
    results, summary = response.json["results"], response.json["summary"]
    assert results["ada"]["score"] == 1
    assert results["ada"]["error"] is None
    bob = results["b/o"]
    # every student is out of the problem's maximum: 1 + 1 + 4 + 2 + 2; a field that
    # cannot be read scores 0 with its own error, on its item
    assert (bob["score"], bob["max_score"], bob["error"]) == (0, 10, None)
    (move,) = [item for item in bob["items"] if item["field"] == "best_move"]
    assert move["status"] == "unreadable"
    assert move["error"]["pointer"] == "/answers/b~1o/best_move"
    assert "Q" in move["error"]["message"]
    assert [e["pointer"] for e in bob["errors"]] == ["/answers/b~1o/best_move"]
    assert results["cy"]["errors"][0]["pointer"] == "/answers/cy/pruned_leaves"
    # ada answered the value only: 1 of 10, not full marks; an answer that is not an object
    # is the only one counted among errors
    assert (summary["count"], summary["errors"], summary["full_marks"]) == (3, 0, 0)
    assert summary["mean"] == pytest.approx(1 / 3)
    assert summary["distribution"]["0-10%"] == 2


def test_batch_csv_reports_errors(client: FlaskClient) -> None:
    body = {"problem": AIMA, "answers": {"ada": {"value": 3}, "bob": {"value": True}}}
    response = client.post("/v1/grade/batch", json=body, headers={"Accept": "text/csv"})
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    assert rows[0]["error"] == ""
    # bob's value cannot be read: 0 in its column, the reason in the error cell
    assert (rows[1]["score"], rows[1]["value"], rows[1]["status"]) == ("0", "0", "graded")
    assert rows[1]["error"].startswith("/answers/bob/value: ")


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"problem": {"type": "chess"}, "answers": {"ada": {}}}, "/problem/type"),
        ({"problem": AIMA, "answers": {"ada": {}}, "rubric": {"sets": "bag"}}, "/rubric/sets"),
    ],
)
def test_batch_malformed_problem_or_rubric_still_422(
    client: FlaskClient, body: dict[str, Any], pointer: str
) -> None:
    response = client.post("/v1/grade/batch", json=body)
    assert response.status_code == 422
    assert response.json["errors"][0]["pointer"] == pointer


def test_batch_csv_lists_non_tree_fields(client: FlaskClient) -> None:
    problem = {"type": "matrix", "A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}
    answers = {"ada": {"pure_equilibria": [[0, 0], [1, 1]]}, "bob": {"equilibria": "none"}}
    body = {"problem": problem, "answers": answers}
    response = client.post("/v1/grade/batch", json=body, headers={"Accept": "text/csv"})
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    assert rows[0]["pure_equilibria"] == "2"
    assert rows[1]["error"].startswith("/answers/bob/equilibria: ")


def test_generator_is_reproducible_and_meets_constraints(client: FlaskClient) -> None:
    request = {
        "type": "alphabeta",
        "depth": 3,
        "branching": [2, 3],
        "seed": 11,
        "min_pruned_leaves": 3,
        "unique_best_move": True,
        "no_ties": True,
    }
    first = client.post("/v1/problems/generate", json=request).json
    again = client.post("/v1/problems/generate", json=request).json
    assert first == again
    other = client.post("/v1/problems/generate", json={**request, "seed": 12}).json
    assert other["problem"] != first["problem"]
    assert len(first["answer"]["pruned_leaves"]) >= 3
    # the key grades itself full marks through /v1/grade
    key = first["answer"]
    graded = client.post("/v1/grade", json={"problem": first["problem"], "answer": key}).json
    assert graded["score"] == graded["max_score"]


def _tree_leaves(node: Any) -> list[Any]:
    if isinstance(node, list):
        return [leaf for kid in node for leaf in _tree_leaves(kid)]
    return [node]


def test_generator_shape(client: FlaskClient) -> None:
    request = {"type": "minimax", "depth": 2, "branching": [3, 3], "values": [-5, 5], "seed": 1}
    tree = client.post("/v1/problems/generate", json=request).json["problem"]["tree"]
    assert len(tree) == 3 and all(len(kid) == 3 for kid in tree)
    assert all(-5 <= leaf <= 5 for leaf in _tree_leaves(tree))


def test_generator_small_denominators(client: FlaskClient) -> None:
    request = {
        "type": "expectimax",
        "depth": 2,
        "branching": [2, 3],
        "seed": 5,
        "denominators": [4],
    }
    tree = client.post("/v1/problems/generate", json=request).json["problem"]["tree"]
    for chance in tree["children"]:
        assert chance["kind"] == "chance"
        assert all(kid["p"] in ("1/4", "1/2", "3/4") for kid in chance["children"])


def test_generator_impossible_constraints_422(client: FlaskClient) -> None:
    request = {"depth": 1, "branching": [2, 2], "min_pruned_leaves": 1, "max_attempts": 20}
    response = client.post("/v1/problems/generate", json=request)
    assert response.status_code == 422


def test_matrix_problem_through_the_api(client: FlaskClient) -> None:
    problem = {"type": "matrix", "A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}
    answer = {"pure_equilibria": [[1, 1], [0, 0]]}
    body = client.post("/v1/grade", json={"problem": problem, "answer": answer}).json
    # a two-player game asks the mixed equilibria too (2 points), not answered here
    assert (body["score"], body["max_score"]) == (2, 4)
    bad = client.post(
        "/v1/grade", json={"problem": problem, "answer": {"pure_equilibria": [[0, 5]]}}
    )
    assert bad.status_code == 200
    assert bad.json["errors"][0]["pointer"] == "/answer/pure_equilibria/0/1"


def test_preferences_problem_through_the_api(client: FlaskClient) -> None:
    problem = {
        "type": "preferences",
        "prizes": ["A", "B", "C"],
        "preferences": [["A", ">", "B"], ["B", ">", "C"], ["C", ">", "A"]],
    }
    answer = {"axioms": {"transitivity": True}}
    body = client.post("/v1/grade", json={"problem": problem, "answer": answer}).json
    assert body["score"] == 0
    assert body["items"][0]["expected"]["transitivity"] is False
    bad = client.post("/v1/grade", json={"problem": problem, "answer": {"utility": {"D": 1}}})
    assert bad.status_code == 200
    assert bad.json["errors"][0]["pointer"] == "/answer/utility/D"


def test_eu_consistency_problem_through_the_api(client: FlaskClient) -> None:
    problem = {
        "type": "eu-consistency",
        "lotteries": {
            "A": [{"p": "0.8", "x": 4000}, {"p": "0.2", "x": 0}],
            "B": [{"p": 1, "x": 3000}],
            "C": [{"p": "0.2", "x": 4000}, {"p": "0.8", "x": 0}],
            "D": [{"p": "0.25", "x": 3000}, {"p": "0.75", "x": 0}],
        },
        "choices": [["B", ">", "A"], ["C", ">", "D"]],
    }
    body = client.post("/v1/grade", json={"problem": problem, "answer": {"consistent": True}}).json
    assert body["score"] == 0
    assert body["diagnosis"][0]["code"] == "missed_eu_violation"


def test_mixed_equilibria_through_the_api(client: FlaskClient) -> None:
    problem = {"type": "matrix", "A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}
    mixed = {"row": ["2/3", "1/3"], "col": ["1/3", "2/3"]}
    answer = {"equilibria": [mixed, {"row": [1, 0], "col": [1, 0]}, {"row": [0, 1], "col": [0, 1]}]}
    asked = {**problem, "questions": ["equilibria"]}
    body = client.post("/v1/grade", json={"problem": asked, "answer": answer}).json
    assert body["score"] == body["max_score"] == 2


# -- the responses are their schemas' dumps: a new attribute cannot leak into them --------


@dataclasses.dataclass(frozen=True, slots=True)
class LoudItem(GradedItem):
    hidden_attribute: str = "never sent"


@dataclasses.dataclass(frozen=True, slots=True)
class LoudGrade(Grade):
    hidden_attribute: str = "never sent"


@dataclasses.dataclass(frozen=True, slots=True)
class LoudBatchGrade(BatchGrade):
    hidden_attribute: str = "never sent"


@dataclasses.dataclass(frozen=True, slots=True)
class LoudProblem(GeneratedProblem):
    hidden_attribute: str = "never sent"


def _copy(value: Any, kind: type) -> Any:
    return kind(**{f.name: getattr(value, f.name) for f in dataclasses.fields(value)})


class LoudGrader:
    def __init__(self, problem: Any, limits: Any = None) -> None:
        self.grader = make_grader(problem, limits)

    @property
    def fields(self) -> tuple[str, ...]:
        return self.grader.fields

    @property
    def answer_fields(self) -> tuple[str, ...]:
        return tuple(getattr(self.grader, "answer_fields", self.grader.fields))

    def maximum(self, rubric: Any = None) -> float:
        return self.grader.maximum(rubric)

    def rubric_for(self, rubric: Any = None) -> Any:
        return self.grader.rubric_for(rubric)

    def grade(self, raw_answer: Any, *args: Any, **options: Any) -> Grade:
        grade = self.grader.grade(raw_answer, *args, **options)
        loud = _copy(grade, LoudGrade)
        return dataclasses.replace(loud, items=[_copy(item, LoudItem) for item in grade.items])


def _loud_batch(*args: Any, **options: Any) -> BatchGrades:
    graded = grade_batch(*args, **options)
    results = {s: _copy(g, LoudBatchGrade) for s, g in graded.results.items()}
    return BatchGrades(graded.key, results)


def test_a_new_attribute_never_reaches_the_response(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = {"value": 2, "pruned_leaves": ["root.1.1"]}
    batch = {"problem": AIMA, "answers": {"ada": answer, "bob": {"value": "x"}}}
    settings = {"type": "alphabeta", "depth": 2, "seed": 3}
    requests = [
        ("/v1/grade", {"problem": AIMA, "answer": answer}),
        ("/v1/grade/batch", batch),
        ("/v1/problems/generate", settings),
    ]
    plain = [client.post(path, json=body).json for path, body in requests]
    monkeypatch.setattr(views, "make_grader", LoudGrader)
    monkeypatch.setattr(views, "grade_batch", _loud_batch)
    monkeypatch.setattr(
        views, "generate_problem", lambda settings: _copy(generate_problem(settings), LoudProblem)
    )
    # the stand-ins really do carry the attribute the schemas do not name
    assert LoudGrader(AIMA).grade(answer).hidden_attribute == "never sent"
    loud = [client.post(path, json=body).json for path, body in requests]
    assert loud == plain
    assert "hidden_attribute" not in str(loud)


def test_fast_batch_dump_is_the_schema_dump(app: Flask) -> None:
    answers = {"ada": {"value": 2, "pruned_leaves": ["root.1.1"]}, "bob": {"value": "x"}}
    with app.app_context():
        graded = grade_batch(make_grader(AIMA), answers, Rubric())
    summary = summarize(graded.results)
    body = {"key": graded.key, "results": graded.results, "summary": summary}
    assert dump_batch(graded.key, graded.results, summary) == GradeBatchResultSchema().dump(body)
