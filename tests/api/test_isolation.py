"""Every computation in a process of its own (api/isolation.py, api/compute.py): the same
answers as the app in-process, cheap requests answered in the front, library code stopped
at the deadline, memory held to its bound, refusals with Retry-After."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import Client

from api import create_app
from api.isolation import GRACE, IsolatedApp, Worker

FIG_5_2 = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def _nested_sqrt(levels: int) -> str:
    formula = "x"
    for _ in range(levels):
        formula = f"sqrt(x+{formula})"
    return formula


# SymPy spends minutes in N() on this one, never checking the deadline (issue 25)
ESCAPING_FORMULA = {"utility": _nested_sqrt(14), "domain": [0, 10], "points": [3]}


@pytest.fixture(scope="module")
def isolated() -> Iterator[Client]:
    yield Client(IsolatedApp({"ARBITER_TIME_LIMIT": 1.0, "ARBITER_MAX_MEMORY_MB": 64}))


def _post(client: Client, path: str, body: Any, **kwargs: Any) -> tuple[int, Any, float]:
    started = time.monotonic()
    response = client.post(path, json=body, **kwargs)
    return response.status_code, response.get_json(), time.monotonic() - started


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/trees/alphabeta", {"tree": FIG_5_2, "trace": True}),
        ("/v1/matrices/analyze", {"payoffs": [[[3, 3], [0, 5]], [[5, 0], [1, 1]]]}),
        (
            "/v1/lotteries/evaluate",
            {"lottery": [{"p": "1/3", "x": 900}, {"p": "2/3", "x": 100}], "utility": "sqrt(x)"},
        ),
        ("/v1/trees/minimax", {"tree": [[1, "x"]]}),
    ],
)
def test_answers_are_the_apps_own(isolated: Client, path: str, body: Any) -> None:
    in_process = create_app({"ARBITER_TIME_LIMIT": 1.0}).test_client().post(path, json=body)
    response = isolated.post(path, json=body)
    assert response.status_code == in_process.status_code
    assert response.headers["Content-Type"] == in_process.headers["Content-Type"]
    assert response.get_json() == in_process.get_json()


def test_cheap_requests_never_reach_a_computation(monkeypatch: pytest.MonkeyPatch) -> None:
    app = IsolatedApp()

    def refuse(*args: Any) -> Any:
        raise AssertionError("a cheap request was sent to a computation process")

    monkeypatch.setattr(app, "_compute", refuse)
    client = Client(app)
    assert client.get("/v1/health").status_code == 200
    assert client.get("/").status_code == 200
    assert client.post("/v1/nowhere", json={}).status_code == 404
    wrong_method = client.put("/v1/trees/minimax", json={})
    assert wrong_method.status_code == 405
    assert wrong_method.headers["Content-Type"] == "application/problem+json"


def test_library_code_that_never_checks_the_deadline_is_stopped(isolated: Client) -> None:
    status, problem, took = _post(isolated, "/v1/utility/analyze", ESCAPING_FORMULA)
    assert status == 413
    assert problem["type"].endswith("/time-limit")
    assert "1.0 s" in problem["detail"]
    assert 1.0 <= took <= 1.0 + GRACE + 1.0
    # the next request is answered as usual
    assert _post(isolated, "/v1/trees/minimax", {"tree": FIG_5_2})[1]["value"] == 3


_leaf = st.sampled_from(["x", "2", "1/3", "(x+1)", "3*x"])


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    unary = st.tuples(st.sampled_from(["sqrt", "log", "exp"]), inner).map(
        lambda t: f"{t[0]}({t[1]} + 1)" if t[0] == "log" else f"{t[0]}({t[1]})"
    )
    binary = st.tuples(inner, st.sampled_from(["+", "*", "-"]), inner).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"
    )
    power = st.tuples(inner, st.integers(1, 99), st.integers(2, 100)).map(
        lambda t: f"({t[0]})^({t[1]}/{t[2]})"
    )
    return st.one_of(unary, binary, power)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(formula=st.recursive(_leaf, _extend, max_leaves=12))
def test_random_nested_formulas_answer_by_the_deadline(isolated: Client, formula: str) -> None:
    body = {"utility": formula, "domain": [0, 10], "points": [2, 3]}
    status, problem, took = _post(isolated, "/v1/utility/analyze", body)
    assert status in (200, 413, 422), problem
    assert took <= 1.0 + 2.0


def _objects_tree(leaves: int) -> dict[str, Any]:
    inner = [
        {"id": f"n{i}", "children": [f"n{2 * i + 1}", f"n{2 * i + 2}"]} for i in range(leaves - 1)
    ]
    outer = [{"id": f"n{i}", "value": i % 7} for i in range(leaves - 1, 2 * leaves - 1)]
    return {"tree": {"root": "n0", "nodes": inner + outer}}


def test_a_request_past_the_memory_bound_is_a_413_and_the_next_is_served(
    isolated: Client,
) -> None:
    status, problem, _ = _post(isolated, "/v1/trees/alphabeta", _objects_tree(100_000))
    assert status == 413
    assert problem["type"].endswith("/memory-limit")
    assert "64 MB" in problem["detail"] and "ARBITER_MAX_MEMORY_MB" in problem["detail"]
    # the same shape, smaller, fits; its value by the textbook recursion
    small = _objects_tree(1024)
    nodes = {node["id"]: node for node in small["tree"]["nodes"]}

    def value(name: str, maximise: bool) -> int:
        node = nodes[name]
        if "value" in node:
            return int(node["value"])
        values = [value(child, not maximise) for child in node["children"]]
        return max(values) if maximise else min(values)

    status, answer, _ = _post(isolated, "/v1/trees/alphabeta", small)
    assert status == 200 and answer["value"] == value("n0", True)


def test_one_client_cannot_hold_every_slot() -> None:
    app = IsolatedApp(
        {
            "ARBITER_TIME_LIMIT": 2.0,
            "ARBITER_WORKERS": 2,
            "ARBITER_CLIENT_SHARE": 1,
            "ARBITER_QUEUE_TIMEOUT": 0.5,
        }
    )
    client = Client(app)
    alice = {"REMOTE_ADDR": "10.0.0.1"}
    answers: list[int] = []

    def slow() -> None:
        response = client.post("/v1/utility/analyze", json=ESCAPING_FORMULA, environ_base=alice)
        answers.append(response.status_code)

    first, second = (threading.Thread(target=slow) for _ in range(2))
    first.start()
    time.sleep(0.3)
    second.start()  # waits behind alice's first: her share is one
    time.sleep(0.3)
    third = client.post("/v1/trees/minimax", json={"tree": FIG_5_2}, environ_base=alice)
    assert third.status_code == 429
    assert int(third.headers["Retry-After"]) > 0
    assert third.get_json()["type"].endswith("/too-many-requests")
    # bob gets the slot alice cannot take
    bob = client.post(
        "/v1/trees/minimax", json={"tree": FIG_5_2}, environ_base={"REMOTE_ADDR": "10.0.0.2"}
    )
    assert bob.status_code == 200 and bob.get_json()["value"] == 3
    first.join(10)
    second.join(10)
    assert answers == [413, 413] or sorted(answers) == [413, 503]


def test_a_process_that_dies_without_answering_is_a_memory_problem() -> None:
    app = IsolatedApp({"ARBITER_MAX_MEMORY_MB": 300})
    worker = Worker(app.context, app.config)
    os.kill(worker.process.pid or 0, signal.SIGKILL)
    status, headers, chunks = app._stopped(worker, "died")
    assert status.startswith("413 ")
    assert ("Content-Type", "application/problem+json") in headers
    problem = json.loads(chunks[0])
    assert problem["type"].endswith("/memory-limit") and "300 MB" in problem["detail"]


def test_processes_are_reused_and_a_dead_idle_one_is_replaced() -> None:
    app = IsolatedApp()
    client = Client(app)
    assert client.post("/v1/trees/minimax", json={"tree": FIG_5_2}).status_code == 200
    [idle] = app._idle
    assert client.post("/v1/trees/minimax", json={"tree": FIG_5_2}).status_code == 200
    assert app._idle == [idle]  # the same process served the second request
    os.kill(idle.process.pid or 0, signal.SIGKILL)
    idle.process.join(5)
    answer = client.post("/v1/trees/minimax", json={"tree": FIG_5_2})
    assert answer.status_code == 200 and answer.get_json()["value"] == 3
    assert app._idle and app._idle[0] is not idle


def test_a_process_stopped_at_its_deadline_is_not_reused(isolated: Client) -> None:
    app = isolated.application
    assert isinstance(app, IsolatedApp)
    isolated.post("/v1/trees/minimax", json={"tree": FIG_5_2})
    before = list(app._idle)
    assert _post(isolated, "/v1/utility/analyze", ESCAPING_FORMULA)[0] == 413
    assert all(worker.process.is_alive() for worker in app._idle)
    assert len(app._idle) <= len(before)
