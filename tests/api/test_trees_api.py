"""The tree endpoints over HTTP: answers, problem details for bad input, limits."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from flask.testing import FlaskClient

from api import create_app

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json(force=True)
    assert body["status"] == status
    assert {"type", "title", "detail", "errors"} <= body.keys()
    return body


def test_minimax_answers_aima_figure(client: FlaskClient) -> None:
    body = client.post("/v1/trees/minimax", json={"tree": AIMA}).get_json()
    assert body["value"] == 3
    assert "value_exact" not in body
    assert body["best_move"] == "root.0"
    assert body["best_moves"] == ["root.0"]
    assert body["principal_variation"] == ["root.0", "root.0.0"]
    assert body["nodes"]["root.1"] == {"value": 2, "bound": "exact"}
    assert len(body["nodes"]) == 13
    assert body["stats"] == {"nodes": 13, "leaves": 9, "visited": 13, "evaluated": 9, "cutoffs": 0}


def test_alphabeta_answers_aima_figure(client: FlaskClient) -> None:
    body = client.post(
        "/v1/trees/alphabeta", json={"tree": AIMA, "trace": True, "move_ordering": True}
    ).get_json()
    assert body["value"] == 3
    assert body["pruned"] == ["root.1.1", "root.1.2"]
    assert body["pruned_leaves"] == ["root.1.1", "root.1.2"]
    assert body["evaluated_leaves"][:4] == ["root.0.0", "root.0.1", "root.0.2", "root.1.0"]
    assert body["nodes"]["root.1"] == {"value": 2, "bound": "upper"}
    assert "root.1.1" not in body["nodes"]
    assert body["cutoffs"] == [
        {
            "node": "root.1",
            "alpha": 3,
            "beta": "inf",
            "value": 2,
            "after": "root.1.0",
            "cut": ["root.1.1", "root.1.2"],
        }
    ]
    assert body["trace"][0] == {
        "event": "enter",
        "node": "root",
        "alpha": "-inf",
        "beta": "inf",
        "value": None,
        "explanation": "MAX at root is entered with alpha = -inf and beta = inf.",
    }
    # the cutoff at B, as AIMA tells it: 2 <= alpha = 3, so B's other leaves are never seen
    [cut] = [event for event in body["trace"] if event["event"] == "cutoff"]
    assert cut["explanation"] == (
        "MIN at root.1: v = 2 <= alpha = 3, so root.1's remaining children are pruned "
        "(root.1.1, root.1.2)."
    )
    strict = client.post(
        "/v1/trees/alphabeta", json={"tree": AIMA, "trace": True, "prune_on_equality": False}
    ).get_json()
    [cut] = [event for event in strict["trace"] if event["event"] == "cutoff"]
    assert "v = 2 < alpha = 3" in cut["explanation"]
    returned = [e["explanation"] for e in body["trace"] if e["event"] == "return"]
    assert "root.1 returns 2 to its parent (an upper bound: root.1 is worth at most 2)." in returned
    assert body["move_ordering"] == {
        "given": 7,
        "best_first": 5,
        "worst_first": 9,
        "leaves": 9,
        "uniform": True,
        "branching": 3,
        "depth": 2,
        "minimal_tree": 5,
    }


@pytest.mark.parametrize("path", ["/v1/trees/minimax", "/v1/trees/alphabeta"])
def test_the_columns_layout_is_the_map_answer_by_breadth_first_index(
    client: FlaskClient, path: str
) -> None:
    mapped = client.post(path, json={"tree": AIMA}).get_json()
    columns = client.post(path, json={"tree": AIMA, "layout": "columns"}).get_json()
    # breadth-first: root 0, its children root.0-root.2 are 1-3, their leaves 4-12
    ids = ["root", "root.0", "root.1", "root.2"] + [
        f"root.{i}.{j}" for i in range(3) for j in range(3)
    ]
    assert "nodes" not in columns
    assert columns["best_move"] == 1 and mapped["best_move"] == "root.0"
    assert [ids[i] for i in columns["principal_variation"]] == mapped["principal_variation"]
    listed = [i for start, stop in columns["columns"]["node"] for i in range(start, stop)]
    assert [ids[i] for i in listed] == list(mapped["nodes"])
    assert columns["columns"]["value"] == [entry["value"] for entry in mapped["nodes"].values()]
    assert columns["stats"] == mapped["stats"]


@pytest.mark.parametrize(("equality", "pruned"), [(True, ["root.1.1"]), (False, [])])
def test_pruning_convention_option(client: FlaskClient, equality: bool, pruned: list[str]) -> None:
    body = client.post(
        "/v1/trees/alphabeta", json={"tree": [[10], [10, 0]], "prune_on_equality": equality}
    ).get_json()
    assert body["pruned_leaves"] == pruned
    assert body["prune_on_equality"] is equality


def test_exact_values_carry_exact_strings(client: FlaskClient) -> None:
    body = client.post(
        "/v1/trees/minimax",
        json={
            "tree": {
                "children": [
                    {"id": "a", "move": "left", "value": "-7/2"},
                    {"id": "b", "move": "right", "value": "0.1"},
                ]
            },
        },
    ).get_json()
    assert body["value"] == 0.1
    assert body["value_exact"] == "1/10"
    assert body["best_move"] == "b" and body["best_move_label"] == "right"
    assert body["nodes"]["a"] == {"value": -3.5, "value_exact": "-7/2", "bound": "exact"}


def test_depth_option_and_missing_eval(client: FlaskClient) -> None:
    tree = {
        "children": [{"id": "B", "eval": 5, "children": [1, 2]}, {"id": "C", "children": [8, 9]}]
    }
    body = problem(client.post("/v1/trees/minimax", json={"tree": tree, "depth": 1}), 422)
    assert body["errors"][0]["pointer"] == "/tree/children/1/eval"
    assert "'C'" in body["detail"]
    ok = client.post("/v1/trees/minimax", json={"tree": tree, "depth": 2}).get_json()
    assert ok["value"] == 8


def test_malformed_json_is_400(client: FlaskClient) -> None:
    body = problem(
        client.post("/v1/trees/minimax", data=b'{"tree": [1,', content_type="application/json"), 400
    )
    assert "not valid JSON" in body["detail"]


def test_wrong_content_type_is_415(client: FlaskClient) -> None:
    problem(client.post("/v1/trees/minimax", data=b'{"tree": [1]}', content_type="text/plain"), 415)


def test_non_object_body_is_422(client: FlaskClient) -> None:
    problem(client.post("/v1/trees/minimax", json=[1, 2]), 422)


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({}, "/tree"),
        ({"tree": [1], "depth": -1}, "/depth"),
        ({"tree": [1], "depth": 1.5}, "/depth"),
        ({"tree": [1], "depth": "2"}, "/depth"),
        ({"tree": [1], "root": "chance"}, "/root"),
        ({"tree": [1], "prune_on_equality": "yes"}, "/prune_on_equality"),
        ({"tree": [1], "colour": 1}, "/colour"),
        ({"tree": [1], "layout": "table"}, "/layout"),
        ({"tree": [1], "layout": "columns", "trace": True}, "/trace"),
        ({"tree": [[1, {"value": "NaN"}]]}, "/tree/0/1/value"),
        (
            {"tree": {"children": [{"id": "x", "value": 1}, {"id": "x", "value": 1}]}},
            "/tree/children/1/id",
        ),
    ],
)
def test_invalid_requests_point_at_the_field(
    client: FlaskClient, body: dict[str, Any], pointer: str
) -> None:
    found = problem(client.post("/v1/trees/alphabeta", json=body), 422)
    assert pointer in [error["pointer"] for error in found["errors"]]


def test_nan_literal_is_malformed_json(client: FlaskClient) -> None:
    problem(
        client.post(
            "/v1/trees/minimax", data=b'{"tree": [1, NaN]}', content_type="application/json"
        ),
        400,
    )


def test_body_size_limit_is_413() -> None:
    client = create_app({"MAX_CONTENT_LENGTH": 100}).test_client()
    body = problem(client.post("/v1/trees/minimax", json={"tree": list(range(100))}), 413)
    assert "100 bytes" in body["detail"]


def test_node_limit_is_413() -> None:
    client = create_app({"ARBITER_MAX_NODES": 10}).test_client()
    body = problem(client.post("/v1/trees/minimax", json={"tree": list(range(20))}), 413)
    assert "10 nodes" in body["detail"]


def test_depth_limit_is_413() -> None:
    client = create_app({"ARBITER_MAX_DEPTH": 3}).test_client()
    problem(client.post("/v1/trees/minimax", json={"tree": [[[[[1]]]]]}), 413)


def test_trace_limit_is_413() -> None:
    client = create_app({"ARBITER_MAX_TRACE_NODES": 5}).test_client()
    body = problem(client.post("/v1/trees/alphabeta", json={"tree": AIMA, "trace": True}), 413)
    assert body["errors"][0]["pointer"] == "/trace"


def test_minimax_trace_follows_figure_5_2(client: FlaskClient) -> None:
    # AIMA Fig 5.2 by hand: each MIN node is entered, reads its three leaves (folding each
    # into its best so far: 3, 3, 3 / 2, 2, 2 / 14, 5, 2) and returns 3, 2, 2; the root
    # folds each in (3, 3, 3) and returns 3: 1 + 3 * (1 + 3 * 2 + 1 + 1) + 1 = 29 steps
    answer = client.post("/v1/trees/minimax", json={"tree": AIMA, "trace": True}).get_json()
    trace = answer["trace"]
    assert len(trace) == 29
    assert [(e["event"], e["value"]) for e in trace if e["node"] == "root"] == [
        ("enter", None),
        ("update", 3),
        ("update", 3),
        ("update", 3),
        ("return", 3),
    ]
    returns = [(e["node"], e["value"]) for e in trace if e["event"] == "return"]
    assert returns == [("root.0", 3), ("root.1", 2), ("root.2", 2), ("root", 3)]
    updates = [e["value"] for e in trace if e["event"] == "update" and e["node"] == "root.2"]
    assert updates == [14, 5, 2]
    assert not any("alpha" in event or "beta" in event for event in trace)
    assert trace[3]["explanation"] == (
        "MIN at root.0 takes root.0.0 into account: the best so far is 3."
    )
    untraced = client.post("/v1/trees/minimax", json={"tree": AIMA}).get_json()
    assert "trace" not in untraced and untraced["nodes"] == answer["nodes"]


@pytest.mark.parametrize(
    ("path", "tree"),
    [
        ("/v1/trees/minimax", [[1, 2], [3, 4]]),
        ("/v1/trees/expectimax", {"kind": "chance", "children": [1, 2]}),
        ("/v1/trees/maxn", [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]),
    ],
)
def test_every_trace_is_limited_naming_trace(path: str, tree: Any) -> None:
    client = create_app({"ARBITER_MAX_TRACE_NODES": 2}).test_client()
    body = problem(client.post(path, json={"tree": tree, "trace": True}), 413)
    assert body["errors"][0]["pointer"] == "/trace"


def test_star1_and_max_n_traces_explain_their_cuts(client: FlaskClient) -> None:
    # Star1, bounds [0, 10]: root.0 = (6 + 4) / 2 = 5; after root.1's first outcome 0 the
    # rest can add at most 10 / 2, so root.1 <= 5 = alpha and its second outcome is cut
    coins = {
        "children": [
            {"kind": "chance", "children": [6, 4]},
            {"kind": "chance", "children": [0, 9]},
        ]
    }
    body = client.post(
        "/v1/trees/expectimax", json={"tree": coins, "bounds": [0, 10], "trace": True}
    ).get_json()
    [cut] = [event for event in body["trace"] if event["event"] == "cutoff"]
    assert (cut["node"], cut["bound"], cut["cut"], cut["value"]) == (
        "root.1",
        "upper",
        ["root.1.1"],
        5,
    )
    assert cut["explanation"].endswith(
        "so they cannot lift it past alpha and are pruned (root.1.1)."
    )
    plain = client.post("/v1/trees/expectimax", json={"tree": coins, "trace": True}).get_json()
    assert "alpha" not in plain["trace"][0]
    assert plain["trace"][-1]["explanation"] == "root returns 5: the value of the tree."
    three = {
        "player": 0,
        "children": [
            {"player": 1, "children": [{"value": [4, 3, 3]}, {"value": [1, 2, 7]}]},
            {"player": 1, "children": [{"value": [2, 7, 1]}, {"value": [6, 2, 2]}]},
        ],
    }
    body = client.post(
        "/v1/trees/maxn", json={"tree": three, "max_sum": 10, "trace": True}
    ).get_json()
    [cut] = [event for event in body["trace"] if event["event"] == "cutoff"]
    assert (cut["node"], cut["player"], cut["held"], cut["cut"]) == (
        "root.1",
        1,
        [4, 3, 3],
        ["root.1.1"],
    )
    assert cut["explanation"].startswith("player 1 already has 7 at root.1; with max_sum 10")


def test_5000_deep_nested_body_is_refused_and_points_to_flat_form(client: FlaskClient) -> None:
    raw = b'{"tree": ' + b"[" * 5000 + b"1" + b"]" * 5000 + b"}"
    body = problem(client.post("/v1/trees/minimax", data=raw, content_type="application/json"), 413)
    assert "flat form" in body["detail"]


def test_100000_deep_flat_chain_solves_over_http(client: FlaskClient) -> None:
    count = 100_000
    nodes: list[dict[str, Any]] = [
        {"id": f"n{i}", "children": [f"n{i + 1}"]} for i in range(count - 1)
    ]
    nodes.append({"id": f"n{count - 1}", "value": "7/2"})
    raw = orjson.dumps({"tree": {"root": "n0", "nodes": nodes}})
    for path in ("/v1/trees/minimax", "/v1/trees/alphabeta"):
        response = client.post(path, data=raw, content_type="application/json")
        assert response.status_code == 200
        body = response.get_json()
        assert body["value_exact"] == "7/2"
        assert len(body["nodes"]) == count


def test_unknown_path_and_method_are_problems(client: FlaskClient) -> None:
    problem(client.get("/v1/nowhere"), 404)
    problem(client.get("/v1/trees/minimax"), 405)


def test_health_and_docs(client: FlaskClient) -> None:
    assert client.get("/v1/health").get_json() == {"status": "ok", "version": "0.1.0"}
    page = client.get("/docs")
    assert page.status_code == 200 and b"/workbench/api-docs.js" in page.data
    assert b'url: "/openapi.yaml"' in client.get("/workbench/api-docs.js").data
    asset = client.get("/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.data) > 100_000
    asset.close()
    problem(client.get("/docs/assets/secret.txt"), 404)


@pytest.mark.parametrize(
    "path", ["/v1/trees/minimax", "/v1/trees/alphabeta", "/v1/trees/expectimax"]
)
def test_time_limit_is_413(path: str) -> None:
    client = create_app({"ARBITER_TIME_LIMIT": 0.0}).test_client()
    # a complete ternary tree of depth 10: 88,573 nodes, well past the first deadline check
    tree: Any = 1
    for _ in range(10):
        tree = [tree, tree, tree]
    body = problem(client.post(path, json={"tree": tree}), 413)
    assert "time limit" in body["detail"]


WIDE = [[(i * 7) % 201 - 100 for i in range(j, j + 60)] for j in range(0, 24_000, 60)]
"""400 MIN nodes of 60 leaves: a node map of about 1 MB and a column of values of about
90 kB, past the size from which an answer is gzipped for a client that accepts it."""


@pytest.mark.parametrize(
    ("path", "algorithm", "layout"),
    [
        ("/v1/trees/minimax", "minimax", "map"),
        ("/v1/trees/minimax", "minimax", "columns"),
        ("/v1/trees/alphabeta", "alphabeta", "map"),
        ("/v1/trees/alphabeta", "alphabeta", "columns"),
        ("/v1/trees/expectimax", "expectimax", "map"),
    ],
)
def test_a_large_answer_is_gzipped_for_a_client_that_accepts_it(
    client: FlaskClient, path: str, algorithm: str, layout: str
) -> None:
    import gzip

    from analysis.trees.json_output import solution_json
    from analysis.trees.solve import solve_tree
    from games.limits import Limits, limited
    from games.trees.parser import parse_tree

    body: dict[str, Any] = {"tree": WIDE} | ({"layout": layout} if layout != "map" else {})
    with limited(Limits()):  # the answer as the writers build it
        answer = orjson.dumps(solution_json(solve_tree(parse_tree(WIDE), algorithm), layout=layout))
    assert len(answer) > 65_536
    zipped = client.post(path, json=body, headers={"Accept-Encoding": "br;q=1, gzip;q=0.5"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    sent = zipped.get_data()
    assert len(sent) < len(answer) // 4 and gzip.decompress(sent) == answer
    for refused in ("", "identity", "gzip;q=0, *;q=1"):
        plain = client.post(path, json=body, headers={"Accept-Encoding": refused})
        assert "Content-Encoding" not in plain.headers and plain.get_data() == answer
    # a small answer is never compressed
    small = client.post(path, json={"tree": [[1, 2], [3]]}, headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers and small.get_json()["value"] == 3
