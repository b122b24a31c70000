"""The production server (`make serve`: `python -m api`, api/serving.py) under the attacks of
issue 25, started by the test as `make serve` starts it: idle and trickling connections,
library code that never checks its deadline, a request past the memory bound, one client
sending more than its share, malformed chunked bodies; its own errors are problems."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.isolation import GRACE, LONG_NICENESS
from api.serving import addresses

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = "application/problem+json"
TIME_LIMIT = 2.0
FIG_5_2 = json.dumps({"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]})


def _nested_sqrt(levels: int) -> str:
    formula = "x"
    for _ in range(levels):
        formula = f"sqrt(x+{formula})"
    return formula


# SymPy spends minutes in N() on this one without checking the deadline
ESCAPING = json.dumps({"utility": _nested_sqrt(14), "domain": [0, 10], "points": [3]})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, process: subprocess.Popen[str], port: int, banner: str):
        self.process = process
        self.port = port
        self.banner = banner


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    port = _free_port()
    env = {
        **os.environ,
        "ARBITER_TIME_LIMIT": str(TIME_LIMIT),
        "ARBITER_MAX_CONTENT_LENGTH": str(8 * 1024 * 1024),
        "ARBITER_MAX_MEMORY_MB": "64",
        "ARBITER_WORKERS": "3",
        "ARBITER_CLIENT_SHARE": "1",
        "ARBITER_QUEUE_TIMEOUT": "1",
        "ARBITER_CHANNEL_TIMEOUT": "3",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "api", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        banner = ""
        deadline = time.monotonic() + 120
        while "The workbench:" not in banner:
            line = process.stdout.readline()
            if not line or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {banner!r}")
            banner += line
        yield Server(process, port, banner)
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()


def _request(
    port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1", **kw: Any
) -> tuple[int, dict[str, str], bytes, float]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0)
    )
    started = time.monotonic()
    try:
        headers = kw.pop("headers", {"Content-Type": "application/json"})
        connection.request(method, path, body, headers=headers, **kw)
        response = connection.getresponse()
        data = response.read()
        return response.status, dict(response.getheaders()), data, time.monotonic() - started
    finally:
        connection.close()


def test_the_server_says_where_the_workbench_is(server: Server) -> None:
    assert f"The workbench: http://127.0.0.1:{server.port}/" in server.banner
    assert "3 computations at once, 1 per client" in server.banner


def test_idle_and_trickling_connections_hold_no_worker(server: Server) -> None:
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
    tricklers = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
    head = (
        b"POST /v1/trees/minimax HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n"
    )
    stop = threading.Event()

    def trickle(connection: socket.socket) -> None:
        connection.sendall(head)
        while not stop.wait(0.5):
            try:
                connection.sendall(b" ")
            except OSError:
                return

    threads = [threading.Thread(target=trickle, args=(c,), daemon=True) for c in tricklers]
    for thread in threads:
        thread.start()
    try:
        # more trickling bodies than computation slots: none of them holds one
        latencies = []
        for _ in range(10):
            for method, path, body in (
                ("GET", "/v1/health", None),
                ("POST", "/v1/trees/minimax", FIG_5_2),
            ):
                status, _, _, took = _request(server.port, method, path, body)
                assert status == 200
                latencies.append(took)
        assert max(latencies) < 1.0
    finally:
        stop.set()
        for thread in threads:
            thread.join(5)
        for connection in tricklers:
            connection.close()
    # a connection silent past ARBITER_CHANNEL_TIMEOUT (3 s) is closed by the server
    idle[0].settimeout(15)
    assert idle[0].recv(1) == b""
    for connection in idle:
        connection.close()


def _descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, ValueError):
                continue
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, p in parents.items() if p == parent]
        found += children
        frontier += children
    return found


def _niceness(pid: int) -> int:
    # field 19 of /proc/<pid>/stat, counted after the command name in parentheses
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_library_code_past_the_deadline_is_stopped_while_others_are_served(
    server: Server,
) -> None:
    outcome: list[tuple[int, dict[str, str], bytes, float]] = []
    slow = threading.Thread(
        target=lambda: outcome.append(
            _request(server.port, "POST", "/v1/utility/analyze", ESCAPING, source="127.0.0.3")
        )
    )
    slow.start()
    time.sleep(0.8)
    # the slow request's process has yielded the CPU; the server itself has not
    lowered = []
    for pid in _descendants(server.process.pid):
        try:
            lowered.append(_niceness(pid))
        except OSError:
            continue
    assert LONG_NICENESS in lowered
    assert _niceness(server.process.pid) == 0
    status, _, body, took = _request(server.port, "POST", "/v1/trees/minimax", FIG_5_2)
    assert status == 200 and json.loads(body)["value"] == 3 and took < 1.0
    slow.join(30)
    status, headers, body, took = outcome[0]
    assert status == 413 and headers["Content-Type"] == PROBLEM
    assert json.loads(body)["type"].endswith("/time-limit")
    assert took <= TIME_LIMIT + GRACE + 1.0


def test_a_request_past_the_memory_bound_is_a_413(server: Server) -> None:
    inner = [{"id": f"n{i}", "children": [f"n{2 * i + 1}", f"n{2 * i + 2}"]} for i in range(99_999)]
    leaves = [{"id": f"n{i}", "value": i % 7} for i in range(99_999, 199_999)]
    body = json.dumps({"tree": {"root": "n0", "nodes": inner + leaves}})
    status, headers, answer, _ = _request(server.port, "POST", "/v1/trees/alphabeta", body)
    assert status == 413 and headers["Content-Type"] == PROBLEM
    problem = json.loads(answer)
    assert problem["type"].endswith("/memory-limit") and "64 MB" in problem["detail"]
    assert _request(server.port, "POST", "/v1/trees/minimax", FIG_5_2)[0] == 200


def test_one_client_cannot_take_every_slot(server: Server) -> None:
    answers: list[int] = []

    def slow() -> None:
        answers.append(
            _request(server.port, "POST", "/v1/utility/analyze", ESCAPING, source="127.0.0.4")[0]
        )

    threads = [threading.Thread(target=slow) for _ in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(0.3)
    # the same client's third request: past its share of one running and one waiting
    status, headers, body, took = _request(
        server.port, "POST", "/v1/trees/minimax", FIG_5_2, source="127.0.0.4"
    )
    assert status == 429 and took < 1.0
    assert headers["Content-Type"] == PROBLEM and int(headers["Retry-After"]) > 0
    # another client is served at once
    status, _, body, took = _request(
        server.port, "POST", "/v1/trees/minimax", FIG_5_2, source="127.0.0.5"
    )
    assert status == 200 and took < 1.0
    for thread in threads:
        thread.join(30)
    assert 413 in answers


def _chunked(port: int, chunks: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        connection.sendall(
            b"POST /v1/trees/minimax HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + chunks
        )
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < int(
            (re.search(rb"Content-Length: (\d+)", answer) or [b"", b"0"])[1]
        ):
            data = connection.recv(65536)
            if not data:
                break
            answer += data
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def test_chunked_bodies(server: Server) -> None:
    # within the limit: answered
    status, _, body = _chunked(
        server.port,
        b"10\r\n"
        + FIG_5_2[:16].encode()
        + b"\r\n"
        + f"{len(FIG_5_2) - 16:x}".encode()
        + b"\r\n"
        + FIG_5_2[16:].encode()
        + b"\r\n0\r\n\r\n",
    )
    assert status == 200 and json.loads(body)["value"] == 3
    # a chunk size that is not hexadecimal: a 400 problem
    status, headers, body = _chunked(server.port, b"zz\r\n{}\r\n0\r\n\r\n")
    assert status == 400 and headers["Content-Type"] == PROBLEM
    assert json.loads(body)["status"] == 400
    # past the body limit: a 413 problem, read no further than the limit
    chunk = b"x" * 1_000_000
    status, headers, body = _chunked(
        server.port, (f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n") * 9
    )
    assert status == 413 and headers["Content-Type"] == PROBLEM
    assert str(8 * 1024 * 1024) in json.loads(body)["detail"]


@pytest.mark.parametrize(
    "cut",
    [
        b'Transfer-Encoding: chunked\r\n\r\n10\r\n{"tree": [[3, 12',
        b'Content-Length: 100\r\n\r\n{"tree": [[3, 12',
    ],
    ids=["chunked", "content-length"],
)
def test_a_body_cut_short_is_a_400_problem(server: Server, cut: bytes) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as connection:
        connection.sendall(
            b"POST /v1/trees/minimax HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + cut
        )
        connection.shutdown(socket.SHUT_WR)
        answer = b""
        while data := connection.recv(65536):
            answer += data
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"Content-Type: application/problem+json" in head
    assert "ended before its body was complete" in json.loads(body)["detail"]


def test_headers_past_the_limit_are_a_431_problem(server: Server) -> None:
    status, headers, body, _ = _request(
        server.port, "GET", "/v1/health", headers={"X-Big": "a" * 70_000}
    )
    assert status == 431 and headers["Content-Type"] == PROBLEM


def test_pages_refuse_framing_and_inline_script(server: Server) -> None:
    for path in ("/", "/matrices", "/docs"):
        status, headers, _, _ = _request(server.port, "GET", path)
        assert status == 200
        policy = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_the_addresses_printed_for_a_class() -> None:
    assert addresses("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]
    assert addresses("::1", 8000) == ["http://[::1]:8000/"]
    every = addresses("0.0.0.0", 8000)
    assert every[0] == "http://127.0.0.1:8000/"
    assert all(re.fullmatch(r"http://[0-9.]+:8000/", address) for address in every)
