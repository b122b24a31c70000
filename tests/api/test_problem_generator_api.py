"""``POST /v1/problems/generate`` for every gradable type, student variants, and
``POST /v1/assignments/grade``."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from analysis.grading.assignments import read_assignment, student_problem
from analysis.grading.json_output import generated_json
from analysis.grading.problem_generator import ProblemSettings, generate_problem
from api.schemas.grading import GenerateResultSchema

TYPES = [
    {"type": "minimax"},
    {"type": "alphabeta", "min_pruned_leaves": 1},
    {"type": "expectimax"},
    {"type": "maxn", "players": 3},
    {"type": "matrix", "matrix": "pure"},
    {"type": "matrix", "matrix": "mixed"},
    {"type": "matrix", "matrix": "dominance"},
    {"type": "lottery", "utility": "sqrt"},
    {"type": "lottery", "utility": "square"},
    {"type": "preferences", "consistent": True},
    {"type": "preferences", "consistent": False},
    {"type": "eu-consistency", "consistent": True},
    {"type": "eu-consistency", "consistent": False},
]


def _generate(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/problems/generate", json=body)
    assert response.status_code == 200, response.json
    made: dict[str, Any] = response.json
    return made


@pytest.mark.parametrize("request_body", TYPES, ids=lambda b: "-".join(map(str, b.values())))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_type_scores_full_marks_with_its_own_key(
    client: FlaskClient, request_body: dict[str, Any], seed: int
) -> None:
    made = _generate(client, {**request_body, "seed": seed})
    assert made["seed"] == seed and made["problem"]["type"] == request_body["type"]
    assert made["statement"].startswith("## ")
    # a figure where one fits: trees and lotteries
    drawn = request_body["type"] not in ("matrix", "preferences", "eu-consistency")
    assert (made["figure"] is not None) == drawn
    graded = client.post("/v1/grade", json={"problem": made["problem"], "answer": made["answer"]})
    assert graded.status_code == 200
    body = graded.json
    assert body["score"] == body["max_score"] > 0
    assert all(item["correct"] for item in body["items"])
    assert {item["field"] for item in body["items"]} == set(made["answer"])


def test_without_a_seed_a_fresh_one_is_drawn_and_returned(client: FlaskClient) -> None:
    body = {"type": "alphabeta", "depth": 3, "branching": [2, 3]}
    made = [_generate(client, body) for _ in range(5)]
    assert len({m["seed"] for m in made}) == 5
    assert len({str(m["problem"]["tree"]) for m in made}) > 1
    # the seed returned reproduces the problem
    again = _generate(client, {**body, "seed": made[0]["seed"]})
    assert again == made[0]


def test_a_single_branching(client: FlaskClient) -> None:
    made = _generate(client, {"type": "minimax", "depth": 2, "branching": 3, "seed": 1})
    tree = made["problem"]["tree"]
    assert len(tree) == 3 and all(len(kid) == 3 for kid in tree)
    assert (
        _generate(client, {"type": "minimax", "depth": 2, "branching": [3, 3], "seed": 1}) == made
    )


def test_student_variants(client: FlaskClient) -> None:
    body = {"type": "expectimax", "depth": 2, "seed": 99}
    ada = _generate(client, {**body, "student": "ada"})
    assert ada == _generate(client, {**body, "student": "ada"})
    assert ada["student"] == "ada" and ada["seed"] == 99
    others = [_generate(client, {**body, "student": s})["problem"] for s in ("bob", "cyd", "dee")]
    assert ada["problem"] not in others
    # the API's variant is the core's, and its JSON the core writer's
    core = student_problem(read_assignment(body), "ada")
    assert generated_json(core) == ada


def test_the_writer_is_the_schema_dump(app: Flask) -> None:
    made = generate_problem(ProblemSettings(type="lottery", seed=3, student="x"))
    with app.app_context():
        assert GenerateResultSchema().dump(made) == generated_json(made)


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"branching": [3]}, "/branching"),
        ({"branching": True}, "/branching"),
        ({"seed": -1}, "/seed"),
        ({"seed": "7"}, "/seed"),
        ({"student": ""}, "/student"),
        ({"consistent": 1}, "/consistent"),
        ({"matrix": "zero-sum"}, "/matrix"),
        ({"type": "poker"}, "/type"),
        ({"type": "matrix", "values": [0, 1]}, "/values"),
        ({"type": "lottery", "min_pruned_leaves": 2}, "/min_pruned_leaves"),
        ({"type": "maxn", "players": 7}, "/players"),
    ],
)
def test_bad_settings_name_their_field(
    client: FlaskClient, body: dict[str, Any], pointer: str
) -> None:
    response = client.post("/v1/problems/generate", json=body)
    assert response.status_code == 422
    assert response.json["errors"][0]["pointer"] == pointer


def test_a_class_graded_variant_by_variant(client: FlaskClient) -> None:
    template = {"type": "matrix", "matrix": "mixed", "seed": 8}
    keys = {
        s: _generate(client, {**template, "student": s})["answer"] for s in ("ada", "bob", "cyd")
    }
    answers = {"ada": keys["ada"], "bob": keys["ada"], "cyd": {"equilibria": "none"}}
    body = {"assignment": template, "answers": answers}
    response = client.post("/v1/assignments/grade", json=body)
    assert response.status_code == 200
    results = response.json["results"]
    assert results["ada"]["score"] == results["ada"]["max_score"] == 4
    # ada's equilibrium is not bob's: bob's own variant grades it
    assert results["bob"]["score"] < 4
    # cyd's one field cannot be read: 0 with its own error, the answer is still graded
    assert results["cyd"]["score"] == 0 and results["cyd"]["max_score"] == 4
    assert results["cyd"]["errors"][0]["pointer"] == "/answers/cyd/equilibria"
    assert response.json["summary"]["errors"] == 0
    assert response.json["unmatched"] == []
    again = client.post("/v1/assignments/grade", json=body)
    assert again.data == response.data


def test_a_class_graded_against_its_roster(client: FlaskClient) -> None:
    template = {"type": "lottery", "seed": 5}
    ada = _generate(client, {**template, "student": "ada"})["answer"]
    roster = [{"id": "ada", "email": "ada@uni.edu"}, "bob", "cyd"]
    # ada's answer under her address; a stray answer no student owns; bob and cyd none
    answers = {"ADA@uni.edu": ada, "zed": ada}
    body = {"assignment": template, "answers": answers, "roster": roster, "feedback": "fields"}
    response = client.post("/v1/assignments/grade", json=body)
    assert response.status_code == 200
    results = response.json["results"]
    assert list(results) == ["ada", "bob", "cyd"]
    assert results["ada"]["score"] == results["ada"]["max_score"] == 5
    # fields feedback: status and points, no key
    shown = {"field", "score", "max_score", "status"}
    assert all(set(item) == shown for item in results["ada"]["items"])
    assert [results[s]["status"] for s in ("bob", "cyd")] == ["missing", "missing"]
    assert response.json["unmatched"] == [
        {"answer": "zed", "reason": "names no student on the roster"}
    ]
    summary = response.json["summary"]
    assert (summary["count"], summary["graded"], summary["missing"], summary["unmatched"]) == (
        3,
        1,
        2,
        1,
    )
    refused = client.post("/v1/assignments/grade", json={**body, "roster": ["ada", "ada"]})
    assert refused.status_code == 422
    assert refused.json["errors"][0]["pointer"] == "/roster/1"


def test_an_assignment_without_a_seed_is_refused(client: FlaskClient) -> None:
    body = {"assignment": {"type": "lottery"}, "answers": {"ada": {}}}
    response = client.post("/v1/assignments/grade", json=body)
    assert response.status_code == 422
    assert response.json["errors"][0]["pointer"] == "/assignment/seed"
