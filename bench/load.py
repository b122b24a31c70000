"""Load and fault benchmark: the production server under a mix of small requests,
then with attackers sending the slowest requests known, then with a worker killed.

Starts ``gunicorn --config python:api.serving 'api:create_app()'`` on loopback (the
``make serve`` command, on a free port) and runs three phases of ``--seconds`` each:

1. quiet: ``--clients`` threads loop over five small requests (a small minimax tree,
   alpha-beta with its trace, a 3x3 matrix, a lottery, a grading request);
2. attack: the same, plus ``--attackers`` threads that send, one after another, the
   slowest requests we know of (each one held to the app's time limit);
3. fault: the quiet mix again, and one worker is killed (SIGKILL) a third of the way in.

For each phase it prints requests/s, errors, the p50 and p99 latency of the small
requests, and for the fault phase the recovery time (from the kill until the master has
its full set of workers again and a new one has answered). It stops by itself.
Targets (issue 10): no errors apart from the requests in flight on the killed worker;
p99 of small requests with 2 attackers at most 2x the quiet p99.

    python bench/load.py [--clients 3] [--attackers 2] [--seconds 20] [--workers 5]
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
    bodies = [
        ("/v1/problems/generate", generate),
        ("/v1/trees/expectimax", chain),
        ("/v1/lotteries/evaluate", lottery),
        ("/v1/matrices/analyze", matrix),
    ]
    return [(path, json.dumps(body).encode()) for path, body in bodies]


def _post(port: int, path: str, body: bytes, timeout: float) -> int:
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
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
    port: int, requests: list[tuple[str, bytes]], stop: float, tally: Tally, offset: int
) -> None:
    index = offset
    while time.monotonic() < stop:
        path, body = requests[index % len(requests)]
        index += 1
        started = time.monotonic()
        try:
            status = _post(port, path, body, timeout=120)
            tally.record(time.monotonic() - started, status, None)
        except (OSError, http.client.HTTPException) as error:
            tally.record(time.monotonic() - started, None, f"{path}: {error!r}")


def _workers(master: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            found.append(int(entry.name))
    return found


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
    master: int | None = None,
) -> dict[str, object]:
    small, slow = _small_requests(), _slow_requests()
    tally, attack = Tally(), Tally()
    stop = time.monotonic() + args.seconds
    clients = [
        threading.Thread(target=_client_loop, args=(port, small, stop, tally, i))
        for i in range(args.clients)
    ]
    attacks = [
        threading.Thread(target=_client_loop, args=(port, slow, stop, attack, i))
        for i in range(attackers)
    ]
    threads = clients + attacks
    started = time.monotonic()
    for thread in threads:
        thread.start()
    recovery = None
    if master is not None:
        time.sleep(args.seconds / 3)
        victim = _workers(master)[0]
        killed = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        while True:
            alive = [pid for pid in _workers(master) if pid != victim]
            if len(alive) >= args.workers:
                break
            time.sleep(0.01)
        # the new worker has been forked; wait until it (or any worker) answers
        path, body = small[0]
        while True:
            try:
                if _post(port, path, body, timeout=5) == 200:
                    break
            except OSError:
                time.sleep(0.01)
        recovery = time.monotonic() - killed
    for thread in clients:
        thread.join()
    elapsed = time.monotonic() - started
    for thread in attacks:  # their last request may run on to the time limit
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
    if attackers:
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--attackers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=min(2 * (os.cpu_count() or 1) + 1, 9))
    parser.add_argument(
        "--time-limit",
        type=float,
        default=10.0,
        help="the server's ARBITER_TIME_LIMIT, so attackers cycle within a phase (default 10)",
    )
    args = parser.parse_args()

    port = _free_port()
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen(
        [
            str(gunicorn),
            "--config",
            "python:api.serving",
            "--workers",
            str(args.workers),
            "--bind",
            f"{HOST}:{port}",
            "--log-level",
            "warning",
            "api:create_app()",
        ],
        cwd=ROOT,
        env={**os.environ, "ARBITER_TIME_LIMIT": str(args.time_limit)},
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if _post(port, "/v1/trees/minimax", b'{"tree": [[1]]}', timeout=2) == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        print(
            f"gunicorn, {args.workers} workers, {args.clients} clients, "
            f"{args.seconds:g} s per phase, time limit {args.time_limit:g} s, "
            f"{os.cpu_count()} cores"
        )
        quiet = _phase("quiet", port, args)
        print(json.dumps(quiet))
        attacked = _phase("attack", port, args, attackers=args.attackers)
        print(json.dumps(attacked))
        fault = _phase("fault", port, args, master=server.pid)
        print(json.dumps(fault))
        ratio = float(attacked["p99_ms"]) / float(quiet["p99_ms"])  # type: ignore[arg-type]
        print(
            f"p99 of small requests with {args.attackers} attackers / quiet p99: {ratio:.2f} "
            f"(target <= 2); errors: quiet {quiet['errors']}, attack {attacked['errors']}, "
            f"fault {fault['errors']} (in flight on the killed worker allowed); "
            f"recovery {fault['recovery_s']} s"
        )
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=40)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
