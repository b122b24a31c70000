"""POST /v1/preferences/check: response shape on AIMA's intransitive example (Fig. 16.1)."""

from __future__ import annotations

from flask.testing import FlaskClient

PATH = "/v1/preferences/check"


def test_cycle_reported_with_money_pump(client: FlaskClient) -> None:
    body = client.post(
        PATH,
        json={
            "prizes": ["A", "B", "C"],
            "preferences": [["A", ">", "B"], ["B", ">", "C"], ["C", ">", "A"]],
        },
    ).get_json()
    assert set(body["axioms"]) == {
        "orderability",
        "transitivity",
        "continuity",
        "substitutability",
        "monotonicity",
        "decomposability",
    }
    assert body["axioms"]["transitivity"]["holds"] is False
    assert body["axioms"]["transitivity"]["witness"]["cycle"] == ["A", "B", "C"]
    assert body["utility"] is None


def test_consistent_preferences_get_a_utility(client: FlaskClient) -> None:
    body = client.post(
        PATH,
        json={
            "prizes": ["A", "B", "C"],
            "lotteries": {"L": [{"p": "0.25", "x": "A"}, {"p": "0.75", "x": "C"}]},
            "preferences": [["A", ">", "B"], ["B", ">", "C"], ["B", "~", "L"]],
        },
    ).get_json()
    # U(A) = 1, U(C) = 0, U(B) = EU(L) = 1/4
    assert body["utility_exact"] == {"A": "1", "B": "1/4", "C": "0"}
    assert body["expected_utility_consistent"] is True


def test_unknown_name_is_422(client: FlaskClient) -> None:
    response = client.post(PATH, json={"prizes": ["A"], "preferences": [["A", ">", "B"]]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/preferences/0/2"
