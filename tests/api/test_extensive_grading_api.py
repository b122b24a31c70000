"""Grading and generating problems on games with information sets over the API: Kuhn
poker (player 1's value -1/18) as .efg text, graded by property at each feedback level."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from games.extensive.efg import write_efg
from games.extensive.poker import kuhn_poker

KUHN = {"type": "extensive", "efg": write_efg(kuhn_poker()), "player": "Player 2"}
# player 2's unique equilibrium strategy
PLAYER_2 = {
    "J, check": {"check": "2/3", "bet": "1/3"},
    "J, bet": {"fold": 1},
    "Q, check": {"check": 1},
    "Q, bet": {"fold": "2/3", "call": "1/3"},
    "K, check": {"bet": 1},
    "K, bet": {"call": 1},
}


def test_grade_kuhn_poker(client: FlaskClient) -> None:
    answer = {"value": "-1/18", "strategy": PLAYER_2}
    response = client.post("/v1/grade", json={"problem": KUHN, "answer": answer})
    assert response.status_code == 200, response.json
    body = response.json
    assert (body["score"], body["max_score"]) == (3, 3)
    assert body["items"][0]["expected_exact"] == "-1/18"
    assert body["items"][1]["expected_exact"]["Q, bet"] == {"fold": "2/3", "call": "1/3"}


def test_hints_name_the_exploited_sets_without_numbers(client: FlaskClient) -> None:
    never = {**PLAYER_2, "J, check": {"check": 1}}  # never bluffs: exploitable by 1/9
    body = {"problem": KUHN, "answer": {"strategy": never}, "feedback": "hints"}
    response = client.post("/v1/grade", json=body)
    assert response.status_code == 200
    text = json.dumps(response.json)
    assert "exploitable_strategy" in text and "Q, check, bet" in text
    assert "1/9" not in text and "1/18" not in text and "expected" not in text


def test_a_bad_answer_entry_is_named_and_a_bad_problem_is_a_422(client: FlaskClient) -> None:
    answer = {"value": "-1/18", "strategy": {"J, bet": {"raise": 1}}}
    body = client.post("/v1/grade", json={"problem": KUHN, "answer": answer}).json
    assert body["score"] == 1
    assert body["errors"][0]["pointer"] == "/answer/strategy/J, bet/raise"
    bad = {**KUHN, "player": "Player 3"}
    response = client.post("/v1/grade", json={"problem": bad, "answer": answer})
    assert response.status_code == 422
    assert response.json["errors"][0]["pointer"] == "/problem/player"


def test_generate_an_extensive_problem(client: FlaskClient) -> None:
    settings = {"type": "extensive", "seed": 3, "depth": 2, "branching": 2}
    made = client.post("/v1/problems/generate", json=settings).json
    assert made["answer"]["value"] == "133/12"  # solved by hand in the grading tests
    graded = client.post("/v1/grade", json={"problem": made["problem"], "answer": made["answer"]})
    assert graded.json["score"] == graded.json["max_score"] == 3
    response = client.post("/v1/problems/generate", json={**settings, "depth": 5})
    assert response.status_code == 422
    assert response.json["errors"][0]["pointer"] == "/depth"
