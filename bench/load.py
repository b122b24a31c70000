"""Load and fault benchmark: the production server under a mix of small requests, then
under slow clients, then with attackers sending the slowest requests known, then with a
request's process killed.

Starts ``python -m api`` on loopback (the ``make serve`` command, on a free port) and runs
four phases of ``--seconds`` each:

1. quiet: ``--clients`` threads loop over small requests (a small minimax tree, alpha-beta
   with its trace, a 3x3 matrix, a lottery, a grading request) and ``GET /v1/health``;
2. slow clients: the same, while 5 connections sit idle and 5 send a request body a byte
   every 2 s;
3. attack: the same, plus ``--attackers`` threads, each from its own loopback address (a
   client of its own, so the per-client share does not stop them), sending one after
   another the worst small requests known (connect four 9x9, the slowest generator hunt,
   the slowest formula, each held to the time limit) and the slowest large ones;
4. fault: the quiet mix again, and the process of a running request is killed (SIGKILL)
   a third of the way in.

For each phase it prints requests/s, errors, the p50 and p99 latency of the small
requests, and for the fault phase the recovery time (from the kill until a new request is
answered). It stops by itself. Targets (issue 25): no 5xx; p99 of small requests with slow
clients and with six attackers under 1 s and within 5x the quiet p99.

    python bench/load.py [--clients 3] [--attackers 6] [--seconds 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.matrices import degenerate_games  # noqa: E402

HOST = "127.0.0.1"


def _small_requests() -> list[tuple[str, bytes]]:
    fig_5_2 = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    bodies = [
        ("/v1/trees/minimax", {"tree": fig_5_2}),
        ("/v1/trees/alphabeta", {"tree": [[[3, 5], [6, 9]], [[1, 2], [0, -1]]], "trace": True}),
        (
            "/v1/matrices/analyze",
            {
                "payoffs": [
                    [[3, 3], [0, 5], [1, 1]],
                    [[5, 0], [1, 1], [0, 2]],
                    [[2, 1], [1, 0], [4, 4]],
                ],
                "include": ["pure_equilibria", "equilibria"],
            },
        ),
        (
            "/v1/lotteries/evaluate",
            {"lottery": [{"p": "1/3", "x": 900}, {"p": "2/3", "x": 100}], "utility": "sqrt(x)"},
        ),
        (
            "/v1/grade",
            {
                "problem": {"type": "alphabeta", "tree": fig_5_2},
                "answer": {"value": 3, "best_move": "root.0", "pruned_leaves": ["root.1.1"]},
            },
        ),
    ]
    return [(path, json.dumps(body).encode()) for path, body in bodies]


def _slow_requests() -> list[tuple[str, bytes]]:
    """The slowest requests found while hardening (issue 10), each near the body limit or
    the time limit."""
    # a generator hunt that never succeeds: it draws trees until the time limit
    generate = {
        "type": "alphabeta",
        "depth": 4,
        "branching": [6, 6],
        "min_pruned_leaves": 1295,
        "max_attempts": 1000,
    }
    # a flat chance chain: MAX and chance nodes alternate down a 30,000-ply spine, each
    # chance node with outcomes of probability (q - 1)/q and 1/q for q = 97, 89, 83
    depth = 30_000
    denominators = (97, 89, 83)
    nodes: list[dict[str, object]] = []
    for level in range(depth):
        node: dict[str, object] = {"id": f"n{level}"}
        if level == depth - 1:
            node["value"] = 1
        else:
            node["children"] = [f"n{level + 1}", f"x{level}"]
            if level % 2:
                node["kind"] = "chance"
        nodes.append(node)
    for level in range(depth - 1):
        leaf: dict[str, object] = {"id": f"x{level}", "value": level % 5}
        nodes.append(leaf)
    for level in range(1, depth - 1, 2):
        q = denominators[level % 3]
        nodes[level + 1]["p"] = f"{q - 1}/{q}"
        nodes[depth + level]["p"] = f"1/{q}"
    chain = {"tree": {"root": "n0", "nodes": nodes}}
    big = "1" + "7" * 94
    lottery = {
        "lottery": [{"p": f"1/{big}", "x": i} for i in range(4000)],
        "utility": "x",
    }
    # the slowest degenerate 15x15 game of bench/matrices.py (2,207 extreme equilibria)
    [(_, first, second), *_] = degenerate_games(2024, 1)
    pairs = zip(first, second, strict=True)
    degenerate = [[[a, b] for a, b in zip(*rows, strict=True)] for rows in pairs]
    matrix = {"payoffs": degenerate, "include": ["equilibria"]}
    nested = "x"
    for _ in range(14):
        nested = f"sqrt(x+{nested})"
    bodies = [
        # the worst small requests (issue 25): each a few dozen bytes, each held to the
        # time limit, and what one of them did to the old server's memory
        ("/v1/games/solve", {"game": "connect_four", "params": {"rows": 9, "columns": 9}}),
        ("/v1/problems/generate", generate),
        ("/v1/utility/analyze", {"utility": nested, "domain": [0, 10], "points": [3]}),
        ("/v1/trees/expectimax", chain),
        ("/v1/lotteries/evaluate", lottery),
        ("/v1/matrices/analyze", matrix),
    ]
    return [(path, json.dumps(body).encode()) for path, body in bodies]


def _request(port: int, path: str, body: bytes | None, timeout: float, source: str = HOST) -> int:
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0))
    try:
        if body is None:
            connection.request("GET", path)
        else:
            connection.request("POST", path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, seconds: float, status: int | None, error: str | None) -> None:
        with self.lock:
            if status is not None:
                self.statuses[status] = self.statuses.get(status, 0) + 1
            if error is not None or (status is not None and status >= 500):
                self.errors.append(error or f"HTTP {status}")
            elif status == 200:
                self.latencies.append(seconds)


def _client_loop(
    port: int,
    requests: list[tuple[str, bytes | None]],
    stop: float,
    tally: Tally,
    offset: int,
    source: str = HOST,
) -> None:
    index = offset
    while time.monotonic() < stop:
        path, body = requests[index % len(requests)]
        index += 1
        started = time.monotonic()
        try:
            status = _request(port, path, body, timeout=120, source=source)
            tally.record(time.monotonic() - started, status, None)
        except (OSError, http.client.HTTPException) as error:
            tally.record(time.monotonic() - started, None, f"{path}: {error!r}")


def _slow_clients(port: int, stop: float) -> list[threading.Thread]:
    """Five connections that send nothing and five that send a body a byte every 2 s."""
    head = (
        f"POST /v1/trees/minimax HTTP/1.1\r\nHost: {HOST}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    ).encode()

    def idle() -> None:
        with socket.create_connection((HOST, port)) as connection:
            connection.settimeout(max(0.1, stop - time.monotonic()))
            try:
                while time.monotonic() < stop and connection.recv(1):
                    pass
            except OSError:
                pass

    def trickle() -> None:
        connection = socket.create_connection((HOST, port))
        try:
            connection.sendall(head)
            while time.monotonic() < stop:
                time.sleep(min(2.0, max(0.0, stop - time.monotonic())))
                connection.sendall(b" ")
        except OSError:
            pass
        finally:
            connection.close()

    threads = [threading.Thread(target=idle, daemon=True) for _ in range(5)]
    threads += [threading.Thread(target=trickle, daemon=True) for _ in range(5)]
    return threads


def _request_processes(server: int) -> list[int]:
    """The processes computing a request now: grandchildren of the server (its child is
    the fork server), the fork server's resource tracker aside."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    children = {pid for pid, parent in parents.items() if parent == server}
    return [pid for pid, parent in parents.items() if parent in children]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _phase(
    name: str,
    port: int,
    args: argparse.Namespace,
    attackers: int = 0,
    slow_clients: bool = False,
    server: int | None = None,
) -> dict[str, object]:
    small: list[tuple[str, bytes | None]] = [*_small_requests(), ("/v1/health", None)]
    slow: list[tuple[str, bytes | None]] = list(_slow_requests())
    tally, attack = Tally(), Tally()
    stop = time.monotonic() + args.seconds
    clients = [
        threading.Thread(target=_client_loop, args=(port, small, stop, tally, i))
        for i in range(args.clients)
    ]
    attacks = [
        threading.Thread(
            target=_client_loop, args=(port, slow, stop, attack, i, f"127.0.0.{10 + i}")
        )
        for i in range(attackers)
    ]
    background = _slow_clients(port, stop) if slow_clients else []
    for thread in background + attacks:
        thread.start()
    if slow_clients or attackers:
        time.sleep(1.0)  # the slow clients connected, the attackers' requests running
    started = time.monotonic()
    for thread in clients:
        thread.start()
    recovery = None
    if server is not None:
        time.sleep(args.seconds / 3)
        # a request of a client of its own, long enough to be caught running
        victim_client = threading.Thread(
            target=_client_loop,
            args=(port, slow[:1], time.monotonic() + 0.1, attack, 0, "127.0.0.9"),
        )
        victim_client.start()
        victims: list[int] = []
        while not victims:
            victims = _request_processes(server)
            time.sleep(0.01)
        killed = time.monotonic()
        os.kill(victims[0], signal.SIGKILL)
        path, body = small[0]
        while True:
            try:
                if _request(port, path, body, timeout=5) == 200:
                    break
            except OSError:
                time.sleep(0.01)
        recovery = time.monotonic() - killed
        victim_client.join()
    for thread in clients:
        thread.join()
    elapsed = time.monotonic() - started
    for thread in attacks + background:  # their last request may run on to the time limit
        thread.join()
    result: dict[str, object] = {
        "phase": name,
        "requests_per_s": round(len(tally.latencies) / elapsed, 1),
        "ok": len(tally.latencies),
        "errors": len(tally.errors),
        "p50_ms": round(1000 * statistics.median(tally.latencies), 1) if tally.latencies else None,
        "p99_ms": round(1000 * _percentile(tally.latencies, 0.99), 1),
        "statuses": tally.statuses,
    }
    if attackers or server is not None:
        result["attack_requests"] = sum(attack.statuses.values())
        result["attack_statuses"] = attack.statuses
        result["attack_errors"] = len(attack.errors)
    if recovery is not None:
        result["recovery_s"] = round(recovery, 3)
    if tally.errors:
        result["error_samples"] = tally.errors[:3]
    return result


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--attackers", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=10.0,
        help="the server's ARBITER_TIME_LIMIT, so attackers cycle within a phase (default 10)",
    )
    args = parser.parse_args()

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "api", "--host", HOST, "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, "ARBITER_TIME_LIMIT": str(args.time_limit)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        banner = ""
        while "The workbench:" not in banner:
            line = server.stdout.readline()
            if not line:
                raise SystemExit("the server did not start")
            banner += line
        print(banner.strip().splitlines()[-2])
        print(
            f"{args.clients} clients, {args.seconds:g} s per phase, "
            f"time limit {args.time_limit:g} s, {os.cpu_count()} cores"
        )
        quiet = _phase("quiet", port, args)
        print(json.dumps(quiet))
        slowed = _phase("slow clients", port, args, slow_clients=True)
        print(json.dumps(slowed))
        attacked = _phase("attack", port, args, attackers=args.attackers)
        print(json.dumps(attacked))
        fault = _phase("fault", port, args, server=server.pid)
        print(json.dumps(fault))
        base = float(quiet["p99_ms"])  # type: ignore[arg-type]
        print(
            f"p99 of small requests / quiet p99: slow clients "
            f"{float(slowed['p99_ms']) / base:.2f}, {args.attackers} attackers "  # type: ignore[arg-type]
            f"{float(attacked['p99_ms']) / base:.2f} (targets: <= 5 and under 1 s); "  # type: ignore[arg-type]
            f"errors: quiet {quiet['errors']}, slow clients {slowed['errors']}, "
            f"attack {attacked['errors']}, fault {fault['errors']}; "
            f"recovery after the kill {fault['recovery_s']} s"
        )
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=40)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
