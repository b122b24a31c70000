"""One request computed in a process of its own: the compute side of :mod:`api.isolation`.

The fork server builds the app once (:mod:`api.fork_server`, which it preloads) and warms
it, with SymPy, SciPy, NumPy and Matplotlib loaded, and each request's process is forked
from it ready to serve. Such a process

1. holds itself to its bounds, which the kernel enforces whatever code runs: its address
   space may grow by at most ``ARBITER_MAX_MEMORY_MB`` past what it maps when it starts (an
   allocation past it raises ``MemoryError``, answered 413 ``memory-limit``), and its CPU
   time is capped a little past the time limit, should the front ever fail to stop it;
2. receives one request from the front (the environ's plain members, then the body), runs
   the app on it, and sends back the status, the headers and the body's chunks;
3. exits, which gives back all the memory the request used.
"""

from __future__ import annotations

import gc
import io
import os
import resource
import sys
from collections.abc import Iterable, Mapping
from multiprocessing.connection import Connection
from typing import Any

from flask import Flask

from api import create_app
from api.problems import memory_limit_detail, problem_answer

CPU_GRACE = 5
"""Seconds of CPU time past the time limit at which the kernel stops a request's process
(SIGXCPU): a backstop only, the front stops it sooner."""

MAX_REQUESTS = 1000
"""Requests one process serves before it retires."""

RETIRE_GROWTH_MB = 64
"""Megabytes a process may hold past what it held before its first request; past it, it
retires after its answer (what it freed but kept goes back to the machine this way)."""


def _warmed() -> Flask:
    """The app built from the environment's settings, after one small request of each kind,
    so that the caches and lazy imports those fill are there in every forked process."""
    app = create_app()
    client = app.test_client()
    warm_ups: list[tuple[str, dict[str, Any]]] = [
        ("/v1/trees/alphabeta", {"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "trace": True}),
        (
            "/v1/trees/expectimax",
            {
                "tree": {
                    "kind": "chance",
                    "children": [{"p": "1/2", "value": 1}, {"p": "1/2", "value": 3}],
                }
            },
        ),
        ("/v1/matrices/analyze", {"payoffs": [[[3, 3], [0, 5]], [[5, 0], [1, 1]]]}),
        (
            "/v1/lotteries/evaluate",
            {"lottery": [{"p": "1/3", "x": 900}, {"p": "2/3", "x": 100}], "utility": "sqrt(x)"},
        ),
        ("/v1/utility/analyze", {"utility": "log(x+1)", "domain": [0, 10], "points": [2]}),
        (
            "/v1/grade",
            {"problem": {"type": "minimax", "tree": [[3, 12], [2, 4]]}, "answer": {"value": 3}},
        ),
        ("/v1/games/solve", {"game": "nim"}),
    ]
    for path, body in warm_ups:
        client.post(path, json=body)
    return app


PRELOADED: Flask | None = None
"""The app every request's process serves, built in the fork server by :func:`preload`
(``None`` elsewhere: a process that imports this module for its functions builds nothing)."""


def preload() -> None:
    """Build and warm the app that the processes forked from here will serve.

    What start-up made (the app, the imported modules, the warm-ups' caches) lives as long
    as the process: it is moved out of the collector's sight (``gc.freeze``), so that no
    collection during a request scans it, and no forked process writes to its pages."""
    global PRELOADED
    PRELOADED = _warmed()
    gc.collect()
    gc.freeze()


def _mapped_bytes() -> int:
    """Bytes of address space this process maps now (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def _resident_bytes() -> int:
    """Bytes of memory this process holds now (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def bound_memory(memory_mb: int) -> None:
    """Let this process's address space grow by at most ``memory_mb`` megabytes from now
    (no bound where 0, or where the mapped size cannot be read)."""
    mapped = _mapped_bytes()
    if memory_mb <= 0 or not mapped:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = mapped + memory_mb * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def bound_cpu(seconds: float) -> None:
    """Let this process use ``seconds`` more of CPU time, then be stopped by the kernel
    (SIGXCPU). Only the soft limit moves, so the next request can move it again."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(usage.ru_utime + usage.ru_stime + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def serve(connection: Connection, config: Mapping[str, Any]) -> None:
    """Answer the requests the front sends on ``connection``, one at a time, until the
    front closes it or this process retires.

    ``config`` is what the front's app was created with (tests give the server small
    limits this way). Each answer goes back as ``(status, headers, chunk count, retiring)``
    and the chunks; the process retires (answers, then returns, and so exits) after
    :data:`MAX_REQUESTS` requests, after an answer of 413 ``memory-limit`` or 500, or when
    it holds :data:`RETIRE_GROWTH_MB` more than it did before its first request, so that
    the memory a large request used goes back to the machine and no request starts in a
    process another has left short of memory.
    """
    if PRELOADED is not None:
        # this copy of the app is this process's own: it may take the front's settings
        # (the limits are read per request; CORS, set when the app was built, stays the
        # environment's)
        app = PRELOADED
        app.config.update(config)
    else:
        app = create_app(config or None)
    memory_mb = int(app.config["ARBITER_MAX_MEMORY_MB"])
    time_limit = float(app.config["ARBITER_TIME_LIMIT"])
    bound_memory(memory_mb)
    held = _resident_bytes()
    for served in range(1, MAX_REQUESTS + 1):
        try:
            plain: dict[str, str] = connection.recv()
            body = connection.recv_bytes()
        except (EOFError, OSError):
            return  # the front let this process go
        bound_cpu(time_limit + CPU_GRACE)
        try:
            status, headers, chunks = _run(app, plain, body)
        except MemoryError:
            detail = memory_limit_detail(memory_mb)
            status, headers, chunks = problem_answer(
                413, "memory-limit", "Memory limit exceeded", detail
            )
        del body
        grown = _resident_bytes() - held
        retiring = (
            served == MAX_REQUESTS
            or grown > RETIRE_GROWTH_MB * 1024 * 1024
            or (status[:3] in ("413", "500") and _is_memory_or_internal(chunks))
        )
        connection.send((status, headers, len(chunks), retiring))
        for chunk in chunks:
            connection.send_bytes(chunk)
        if retiring:
            return


def _is_memory_or_internal(chunks: list[bytes]) -> bool:
    """Whether a 413 or 500 answer is a memory limit or an internal error (after which the
    process may hold half-built state), not an ordinary limit such as the node count."""
    head = b"".join(chunks)[:200]
    return b"/problems/memory-limit" in head or b"/problems/internal" in head


def _run(
    app: Flask, plain: dict[str, str], body: bytes
) -> tuple[str, list[tuple[str, str]], list[bytes]]:
    environ: dict[str, Any] = dict(plain)
    environ.update(
        {
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0),
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
    )
    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        started[:] = [status, headers]
        return lambda data: None

    answer: Iterable[bytes] = app(environ, start_response)
    try:
        chunks = [bytes(chunk) for chunk in answer if chunk]
    finally:
        close = getattr(answer, "close", None)
        if close is not None:
            close()
    return started[0], list(started[1]), chunks
