"""The production server (`make serve`: gunicorn with api/serving.py): its own errors are
problem+json, its hard timeout comes after the app's limit, chunked uploads are bounded."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from api import serving
from api.config import DEFAULTS

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = "application/problem+json"
MASTER: dict[str, int] = {}


def test_hard_timeout_comes_well_after_the_apps_time_limit() -> None:
    assert serving.timeout >= DEFAULTS["ARBITER_TIME_LIMIT"] + 10
    assert serving.worker_class == "api.serving.ProblemWorker"
    assert serving.max_requests > 0 and serving.max_requests_jitter > 0
    assert serving.preload_app


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[int]:
    port = _free_port()
    gunicorn = Path(sys.executable).parent / "gunicorn"
    env = {**os.environ, "ARBITER_MAX_CONTENT_LENGTH": "2000", "ARBITER_TIME_LIMIT": "5"}
    process = subprocess.Popen(
        [str(gunicorn), "--config", "python:api.serving", "--workers", "1"]
        + ["--bind", f"127.0.0.1:{port}", "--log-level", "critical", "api:create_app()"],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        MASTER["pid"] = process.pid
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def _request(port: int, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body, **kwargs)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


def test_request_line_too_long_is_a_414_problem(server: int) -> None:
    status, kind, body = _request(server, "GET", "/v1/" + "a" * 9000)
    assert status == 414
    assert kind == PROBLEM
    assert json.loads(body)["type"].endswith("/uri-too-long")


def test_unknown_path_through_gunicorn_is_a_404_problem(server: int) -> None:
    status, kind, body = _request(server, "GET", "/nowhere")
    assert (status, kind) == (404, PROBLEM)
    assert json.loads(body)["status"] == 404


def test_chunked_upload_past_the_limit_is_a_413(server: int) -> None:
    chunks = iter([b'{"tree": [', *([b"1, " * 100] * 20), b"1]}"])
    status, kind, body = _request(
        server,
        "POST",
        "/v1/trees/minimax",
        chunks,
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        encode_chunked=True,
    )
    assert (status, kind) == (413, PROBLEM)
    assert "2000 bytes" in json.loads(body)["detail"]


def test_chunked_upload_within_the_limit_is_answered(server: int) -> None:
    chunks = iter([b'{"tree": [[3, 12, 8], ', b"[2, 4, 6], [14, 5, 2]]}"])
    status, _, body = _request(
        server,
        "POST",
        "/v1/trees/minimax",
        chunks,
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        encode_chunked=True,
    )
    assert status == 200
    assert json.loads(body)["value"] == 3


def test_worker_killed_for_its_hard_timeout_answers_a_problem() -> None:
    # the arbiter's abort makes the worker raise SystemExit while it handles the request
    ours, theirs = socket.socketpair()
    worker = SimpleNamespace(
        alive=False, timeout=90, log=SimpleNamespace(error=lambda *a: None, debug=print)
    )
    serving.ProblemWorker.handle_error(worker, None, ours, ("", 0), SystemExit(1))  # type: ignore[arg-type]
    ours.close()
    answer = theirs.recv(65536).decode("latin-1")
    theirs.close()
    head, _, body = answer.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 503 ")
    assert "Content-Type: application/problem+json" in head
    problem = json.loads(body)
    assert problem["type"].endswith("/worker-timeout")
    assert "90 s" in problem["detail"]


def test_a_long_request_yields_the_cpu_and_gets_it_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serving, "LONG_REQUEST", 0.05)
    worker = SimpleNamespace(alive=True, log=SimpleNamespace(debug=print))
    me = threading.get_native_id()
    before = os.getpriority(os.PRIO_PROCESS, me)
    serving.pre_request(worker, None)
    time.sleep(0.3)
    assert os.getpriority(os.PRIO_PROCESS, me) == serving.LONG_NICENESS
    serving.post_request(worker, None, {}, None)
    if os.geteuid() == 0:
        assert os.getpriority(os.PRIO_PROCESS, me) == before
        assert worker.alive
    else:  # raising priority again needs privileges: the worker retires instead
        assert not worker.alive


def test_a_quick_request_keeps_its_priority() -> None:
    worker = SimpleNamespace(alive=True, log=SimpleNamespace(debug=print))
    me = threading.get_native_id()
    before = os.getpriority(os.PRIO_PROCESS, me)
    serving.pre_request(worker, None)
    serving.post_request(worker, None, {}, None)
    assert os.getpriority(os.PRIO_PROCESS, me) == before
    assert worker.alive


def _niceness(pid: int) -> int:
    # field 19 of /proc/<pid>/stat, counted after the command name in parentheses
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_only_the_worker_of_a_long_request_is_lowered(server: int) -> None:
    hunt = json.dumps(
        # a hunt that never succeeds: a thousand draws keep the worker busy for seconds
        {
            "type": "alphabeta",
            "depth": 4,
            "branching": [6, 6],
            "min_pruned_leaves": 1295,
            "max_attempts": 1000,
        }
    )
    outcome: list[int] = []
    slow = threading.Thread(
        target=lambda: outcome.append(
            _request(
                server,
                "POST",
                "/v1/problems/generate",
                hunt,
                headers={"Content-Type": "application/json"},
            )[0]
        )
    )
    slow.start()
    time.sleep(serving.LONG_REQUEST + 0.5)
    master = MASTER["pid"]
    workers = [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit()
        and (entry / "stat").exists()
        and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master
    ]
    lowered = [_niceness(pid) for pid in workers]
    slow.join()
    assert _niceness(master) == 0
    assert lowered == [serving.LONG_NICENESS]
    assert outcome and outcome[0] in (413, 422)
    # the worker has its priority back for the next request (post_request runs just
    # after the answer is sent)
    settle = time.monotonic() + 5
    while any(_niceness(pid) for pid in workers) and time.monotonic() < settle:
        time.sleep(0.05)
    assert all(_niceness(pid) == 0 for pid in workers)
