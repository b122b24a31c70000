"""The expectimax and max^n endpoints over HTTP."""

from __future__ import annotations

from flask.testing import FlaskClient

CHANCE = {
    "children": [
        {"kind": "chance", "children": [3, 12, 9]},
        {"kind": "chance", "children": [2, 4, 6]},
        {"kind": "chance", "children": [15, 6, 0]},
    ]
}


def test_expectimax_endpoint(client: FlaskClient) -> None:
    body = client.post("/v1/trees/expectimax", json={"tree": CHANCE}).get_json()
    # (3+12+9)/3 = 8, (2+4+6)/3 = 4, (15+6+0)/3 = 7
    assert body["value"] == 8
    assert [body["nodes"][f"root.{i}"]["value"] for i in range(3)] == [8, 4, 7]
    assert body["decisions"] == {"root": "root.0"}
    [outcomes] = body["principal_variation_outcomes"]
    assert outcomes["node"] == "root.0"
    assert [o["p_exact"] for o in outcomes["outcomes"]] == ["1/3"] * 3
    assert "pruned" not in body


def test_expectimax_with_bounds_prunes(client: FlaskClient) -> None:
    body = client.post("/v1/trees/expectimax", json={"tree": CHANCE, "bounds": [0, 15]}).get_json()
    assert body["value"] == 8
    assert body["pruned_leaves"] == ["root.1.2"]
    assert body["nodes"]["root.1"] == {"value": 7, "bound": "upper"}
    assert body["bounds"] == [0, 15]


def test_expectimax_errors(client: FlaskClient) -> None:
    out_of_range = client.post("/v1/trees/expectimax", json={"tree": CHANCE, "bounds": [0, 10]})
    assert out_of_range.status_code == 422
    assert out_of_range.get_json()["errors"][0]["pointer"] == "/tree/children/0/children/1"
    bad_sum = client.post(
        "/v1/trees/expectimax",
        json={
            "tree": {
                "kind": "chance",
                "children": [{"p": "0.5", "value": 1}, {"p": "0.6", "value": 2}],
            }
        },
    )
    assert bad_sum.status_code == 422
    assert "sum to 11/10" in bad_sum.get_json()["detail"]
    on_minimax = client.post("/v1/trees/minimax", json={"tree": CHANCE})
    assert on_minimax.status_code == 422
    assert "/v1/trees/expectimax" in on_minimax.get_json()["detail"]


def test_maxn_endpoint_with_pruning_and_paranoid(client: FlaskClient) -> None:
    tree = {
        "player": 0,
        "children": [
            {"player": 1, "children": [{"value": [6, 3, 1]}, {"value": [5, 4, 1]}]},
            {"player": 1, "children": [{"value": [1, 8, 1]}, {"value": [9, 0, 1]}]},
        ],
    }
    body = client.post(
        "/v1/trees/maxn", json={"tree": tree, "max_sum": 10, "paranoid": 0}
    ).get_json()
    assert body["value"] == [5, 4, 1]
    assert body["pruned"] == ["root.1.1"]
    assert body["players"] == {"root": 0, "root.0": 1, "root.1": 1}
    # paranoid: player 0 assumes player 1 minimises its utility: min(6,5) = 5, min(1,9) = 1
    assert body["paranoid"]["value"] == 5
    assert body["paranoid"]["pruned_leaves"] == ["root.1.1"]


def test_maxn_errors(client: FlaskClient) -> None:
    tree = {"player": 0, "children": [{"value": [1, 2]}, {"value": [3, 4]}]}
    too_big = client.post("/v1/trees/maxn", json={"tree": tree, "max_sum": 5})
    assert too_big.status_code == 422
    assert too_big.get_json()["errors"][0]["pointer"] == "/tree/children/1/value"
    # (a shorthand [[1, 2]] is a max^n leaf (1, 2) here: see tests/api/test_maxn_input.py)
    numbers = client.post(
        "/v1/trees/maxn", json={"tree": {"children": [{"value": 1}, {"value": 2}]}}
    )
    assert numbers.status_code == 422
    assert numbers.get_json()["errors"][0]["pointer"] == "/tree/children/0/value"
    ghost = client.post(
        "/v1/trees/maxn", json={"tree": {"player": 5, "children": [{"value": [1]}]}}
    )
    assert ghost.get_json()["errors"][0]["pointer"] == "/tree/player"
