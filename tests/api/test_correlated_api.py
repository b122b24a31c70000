"""/v1/matrices/analyze with include: ["correlated_equilibria"]: Chicken's welfare-extreme
correlated equilibria (derived by hand in tests/analysis/equilibria/test_correlated.py),
three players, floats on request, and hostile input refused with a pointer, never a 500."""

from __future__ import annotations

from typing import Any

import numpy as np
from flask.testing import FlaskClient

from api import create_app

URL = "/v1/matrices/analyze"
CHICKEN: dict[str, Any] = {
    "payoffs": [[[6, 6], [2, 7]], [[7, 2], [0, 0]]],
    "labels": [["chicken", "dare"], ["chicken", "dare"]],
    "include": ["correlated_equilibria"],
}


def _distribution(answer: dict[str, Any]) -> dict[tuple[str, ...], str]:
    return {
        tuple(entry["labels"]): entry.get("probability_exact", str(entry["probability"]))
        for entry in answer["distribution"]
    }


def test_chicken(client: FlaskClient) -> None:
    response = client.post(URL, json=CHICKEN)
    assert response.status_code == 200
    data = response.get_json()
    assert set(data) == {"players", "shape", "labels", "correlated_equilibria", "notes"}
    found = data["correlated_equilibria"]
    best = found["max_welfare"]
    assert _distribution(best) == {
        ("chicken", "chicken"): "1/2",
        ("chicken", "dare"): "1/4",
        ("dare", "chicken"): "1/4",
    }
    assert best["distribution"][0] == {
        "profile": [0, 0],
        "labels": ["chicken", "chicken"],
        "probability": 0.5,
        "probability_exact": "1/2",
    }
    assert best["payoffs"] == [5.25, 5.25] and best["payoffs_exact"] == ["21/4", "21/4"]
    assert best["welfare"] == 10.5 and best["welfare_exact"] == "21/2"
    assert best["exact"] is True
    assert {
        (b["player"], b["recommended_label"], b["deviation_label"]) for b in best["binding"]
    } == {(0, "chicken", "dare"), (1, "chicken", "dare")}
    worst = found["min_welfare"]
    assert worst["payoffs_exact"] == ["18/5", "18/5"]
    assert _distribution(worst) == {
        ("chicken", "dare"): "2/5",
        ("dare", "chicken"): "2/5",
        ("dare", "dare"): "1/5",
    }
    coarse = found["coarse"]
    assert coarse["max_welfare"]["welfare"] >= best["welfare"]
    assert coarse["min_welfare"]["welfare"] <= worst["welfare"]
    assert all(b["recommended"] is None for b in coarse["max_welfare"]["binding"])


def test_not_computed_by_default(client: FlaskClient) -> None:
    body = {key: value for key, value in CHICKEN.items() if key != "include"}
    assert "correlated_equilibria" not in client.post(URL, json=body).get_json()


def test_integer_answers_need_no_companions(client: FlaskClient) -> None:
    # Aumann's game: the minimum-welfare CE pays 2 to each (1/3 on three cells)
    body = {"A": [[5, 0], [4, 1]], "B": [[1, 0], [4, 5]], "include": ["correlated_equilibria"]}
    worst = client.post(URL, json=body).get_json()["correlated_equilibria"]["min_welfare"]
    assert worst["payoffs"] == [2, 2] and "payoffs_exact" not in worst
    assert worst["welfare"] == 4 and "welfare_exact" not in worst
    assert {e["probability_exact"] for e in worst["distribution"]} == {"1/3"}


def test_three_players(client: FlaskClient) -> None:
    # Chicken with a third player paid 1 whatever happens: welfare 21/2 + 1
    first = [[[6, 6], [2, 2]], [[7, 7], [0, 0]]]
    second = [[[6, 6], [7, 7]], [[2, 2], [0, 0]]]
    third = [[[1, 1], [1, 1]], [[1, 1], [1, 1]]]
    body = {"payoff_arrays": [first, second, third], "include": ["correlated_equilibria"]}
    data = client.post(URL, json=body).get_json()
    best = data["correlated_equilibria"]["max_welfare"]
    assert best["welfare_exact"] == "23/2"
    assert all(len(entry["profile"]) == 3 for entry in best["distribution"])


def test_float_arithmetic_has_no_companions(client: FlaskClient) -> None:
    body = {**CHICKEN, "arithmetic": "float"}
    best = client.post(URL, json=body).get_json()["correlated_equilibria"]["max_welfare"]
    assert best["exact"] is False
    assert "welfare_exact" not in best
    assert abs(best["welfare"] - 10.5) < 1e-9


def test_huge_game_is_refused_with_a_pointer(client: FlaskClient) -> None:
    zeros = [[0] * 60] * 60
    response = client.post(URL, json={"A": zeros, "B": zeros, "include": ["correlated_equilibria"]})
    assert response.status_code == 413
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["errors"][0]["pointer"] == "/include"
    assert "60x60" in problem["detail"]


def test_many_players_are_refused(client: FlaskClient) -> None:
    # 8 players with 4 strategies: 65,536 profiles, 32 coarse constraints per profile
    shape = (4,) * 8
    arrays = [np.zeros(shape, dtype=int).tolist() for _ in shape]
    response = client.post(
        URL, json={"payoff_arrays": arrays, "include": ["correlated_equilibria"]}
    )
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["pointer"] == "/include"


def test_deadline_is_a_413_not_a_500() -> None:
    rng = np.random.default_rng(7)
    client = create_app({"TESTING": True, "ARBITER_TIME_LIMIT": 0.05}).test_client()
    body = {
        "A": rng.integers(-9, 10, (30, 30)).tolist(),
        "B": rng.integers(-9, 10, (30, 30)).tolist(),
        "include": ["correlated_equilibria"],
    }
    response = client.post(URL, json=body)
    assert response.status_code == 413
    assert response.get_json()["type"].endswith("time-limit")


def test_unknown_part_and_bad_types(client: FlaskClient) -> None:
    bad = client.post(URL, json={**CHICKEN, "include": ["correlated"]})
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["pointer"] == "/include/0"
    wrong = client.post(URL, json={**CHICKEN, "include": "correlated_equilibria"})
    assert wrong.status_code == 422
    assert wrong.get_json()["errors"][0]["pointer"] == "/include"


def test_degenerate_games(client: FlaskClient) -> None:
    # one strategy each: the only distribution, no incentive constraint to bind
    single = client.post(URL, json={"A": [[3]], "B": [[-1]], "include": ["correlated_equilibria"]})
    assert single.status_code == 200
    best = single.get_json()["correlated_equilibria"]["max_welfare"]
    assert best["distribution"] == [{"profile": [0, 0], "labels": ["R1", "C1"], "probability": 1}]
    assert best["welfare"] == 2
    # all payoffs equal and huge: every distribution is an equilibrium
    big = str(10**30)
    body = {"A": [[big, big]] * 2, "B": [[big, big]] * 2, "include": ["correlated_equilibria"]}
    response = client.post(URL, json=body)
    assert response.status_code == 200
    found = response.get_json()["correlated_equilibria"]["max_welfare"]
    assert found["welfare_exact"] == str(2 * 10**30)
