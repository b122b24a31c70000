"""/v1/trees/maxn takes max^n trees as docs/trees.md writes them: players defaulted, and bare
utility lists as leaves in the shorthand."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_bare_utility_lists(client: FlaskClient) -> None:
    tree = [[[1, 2, 3], [6, 1, 2]], [[2, 5, 0], [6, 1, 1]]]
    body = client.post("/v1/trees/maxn", json={"tree": tree}).get_json()
    # player 1 takes (1, 2, 3) (2 > 1) and (2, 5, 0) (5 > 1); player 0 then (2, 5, 0) (2 > 1)
    assert body["value"] == [2, 5, 0]
    assert body["players"] == {"root": 0, "root.0": 1, "root.1": 1}
    assert body["decisions"] == {"root": "root.1", "root.0": "root.0.0", "root.1": "root.1.0"}
    # the same tree at a two-player endpoint: arrays are nodes, numbers leaves
    two_player = client.post("/v1/trees/minimax", json={"tree": tree}).get_json()
    assert two_player["value"] == 5  # max(min(3, 6), min(5, 6))


def test_players_default_to_the_next_after_the_parent(client: FlaskClient) -> None:
    tree = {
        "children": [
            {"children": [{"value": [1, 2, 3]}, {"children": [{"value": [0, 0, 9]}]}]},
            {"value": [0, 1, 1]},
        ]
    }
    body = client.post("/v1/trees/maxn", json={"tree": tree}).get_json()
    assert body["players"] == {"root": 0, "root.0": 1, "root.0.1": 2}
    # player 1 compares 2 with 0 and keeps (1, 2, 3); player 0 then 1 against 0
    assert body["value"] == [1, 2, 3]


def test_refusals_point_at_fields_that_were_sent(client: FlaskClient) -> None:
    stated = {"kind": "max", "children": [{"value": [1, 2]}]}
    answer = client.post("/v1/trees/maxn", json={"tree": stated})
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["pointer"] == "/tree/kind"
    numbers = client.post("/v1/trees/maxn", json={"tree": [[1, 2], 3]})
    assert numbers.status_code == 422
    assert numbers.get_json()["errors"][0]["pointer"] == "/tree/1"
    player = client.post("/v1/trees/minimax", json={"tree": {"player": 0, "children": [1, 2]}})
    assert player.status_code == 422
    assert player.get_json()["errors"][0]["pointer"] == "/tree/player"
