"""POST /v1/lotteries/eu-consistency with AIMA's Allais setup (ch. 16.3.4)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.test_lotteries import ALLAIS

PATH = "/v1/lotteries/eu-consistency"


def test_allais_is_inconsistent(client: FlaskClient) -> None:
    body = client.post(
        PATH, json={"lotteries": ALLAIS, "choices": [["B", ">", "A"], ["C", ">", "D"]]}
    ).get_json()
    assert body["consistent"] is False
    assert body["witness"] is None
    assert body["certificate"]["multipliers"] == [0.25, 1]
    assert body["certificate"]["multipliers_exact"] == ["1/4", "1"]
    assert "U(3000)" in body["certificate"]["explanation"]


def test_b_a_and_d_c_is_consistent(client: FlaskClient) -> None:
    body = client.post(
        PATH,
        json={
            "lotteries": ALLAIS,
            "increasing": True,
            "choices": [["B", ">", "A"], ["D", ">", "C"]],
        },
    ).get_json()
    assert body["consistent"] is True and body["certificate"] is None
    u = body["witness"]
    assert u["3000"] > 0.8 * u["4000"] + 0.2 * u["0"]
    assert 0.25 * u["3000"] + 0.75 * u["0"] > 0.2 * u["4000"] + 0.8 * u["0"]


def test_unknown_relation_points_at_it(client: FlaskClient) -> None:
    response = client.post(PATH, json={"lotteries": ALLAIS, "choices": [["B", "=>", "A"]]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/choices/0/1"
