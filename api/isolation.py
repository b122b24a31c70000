"""Every computation in a process that computes nothing else meanwhile, stopped at its
deadline: the front's WSGI app.

The server (:mod:`api.serving`) reads each request whole before it calls this app, so a
slow or silent client never holds anything here. This app then

- answers the cheap requests itself, in the front process: pages, assets, the spec, the
  health check (``GET``, ``HEAD``, ``OPTIONS``), and any path or method the API does not
  have (404, 405);
- admits every other request under :class:`~api.admission.Admission` (slots, a bounded
  queue, a share per client; refused with 503 or 429 and ``Retry-After``);
- hands it to an idle compute process (a :class:`Worker`), or to a new one forked from
  multiprocessing's fork server, which has the app loaded (:mod:`api.fork_server`,
  :mod:`api.compute`). The process is bounded in memory by the kernel; it is lowered in CPU
  priority once its request has run :data:`LONG_REQUEST` seconds, so that quick requests
  get the cores first; and it is killed if it has not answered by the time limit plus
  :data:`GRACE` seconds, whatever code it is in (SymPy, SciPy, a C loop): the client then
  gets 413 ``time-limit``. A process that dies without an answer (out of memory where a
  library could not raise ``MemoryError``) gets its client 413 ``memory-limit``.

A process serves requests one after another while nothing marks it: it retires after a
request that grew it past :data:`api.compute.RETIRE_GROWTH_MB` (so the memory a large
request used goes back to the machine), after a memory-limit or internal error, after a
request that lowered it (an unprivileged server cannot raise a priority again), and after
:data:`api.compute.MAX_REQUESTS` requests. A killed process is never reused.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from api import compute, create_app
from api.admission import Admission, Refusal
from api.problems import memory_limit_detail, problem_answer

log = logging.getLogger(__name__)

GRACE = 1.0
"""Seconds past the time limit before a request's process is killed; the app's own checks
answer at the limit, this only catches code that never checks (a library call)."""

LONG_REQUEST = 0.25
"""Seconds after which a request's process yields the CPU to others (nice 19); the small
requests of a course (a homework tree, a 3x3 game, a lottery) take a few milliseconds."""

LONG_NICENESS = 19

CHEAP_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

StartResponse = Callable[..., Any]
Answer = tuple[str, list[tuple[str, str]], list[bytes]]


def default_slots(memory_mb: int) -> int:
    """Two computation slots per core plus four, as many as the machine's memory holds at
    ``memory_mb`` each (three quarters of it), and at least two."""
    by_cores = 2 * (os.cpu_count() or 1) + 4
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return by_cores
    by_memory = int(memory * 3 / 4) // (max(memory_mb, 1) * 1024 * 1024)
    return max(2, min(by_cores, by_memory))


class IsolatedApp:
    """The WSGI app of the production server; ``config`` as for :func:`api.create_app`."""

    def __init__(self, config: Mapping[str, Any] | None = None):
        self.config = dict(config or {})
        # the front keeps no freed memory for later: it holds no large request's data
        self.front: Flask = create_app(self.config)
        settings = self.front.config
        self.time_limit = float(settings["ARBITER_TIME_LIMIT"])
        self.memory_mb = int(settings["ARBITER_MAX_MEMORY_MB"])
        slots = int(settings["ARBITER_WORKERS"]) or default_slots(self.memory_mb)
        share = int(settings["ARBITER_CLIENT_SHARE"]) or max(1, slots // 4)
        queue = int(settings["ARBITER_QUEUE"]) or 8 * slots
        self.admission = Admission(slots, share, queue, float(settings["ARBITER_QUEUE_TIMEOUT"]))
        self.context = multiprocessing.get_context("forkserver")
        self._idle: list[Worker] = []
        self._idle_lock = threading.Lock()

    def start(self) -> None:
        """Start the fork server and wait until it has the app loaded (a few seconds), so
        that the first request does not wait for it."""
        self._compute(
            {
                "REQUEST_METHOD": "GET",
                "PATH_INFO": "/v1/health",
                "SERVER_NAME": "localhost",
                "SERVER_PORT": "80",
                "wsgi.url_scheme": "http",
            },
            b"",
            time.monotonic() + 600,
        )

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD", "GET") in CHEAP_METHODS or not self._routed(environ):
            return self.front(environ, start_response)
        client = str(environ.get("REMOTE_ADDR") or "")
        try:
            with self.admission.admitted(client):
                body = environ["wsgi.input"].read()
                status, headers, chunks = self._compute(environ, body, None)
        except Refusal as refusal:
            status, headers, chunks = problem_answer(
                refusal.status, refusal.slug, refusal.title, refusal.detail
            )
            headers.append(("Retry-After", str(refusal.retry_after)))
        start_response(status, headers)
        return chunks

    def _routed(self, environ: dict[str, Any]) -> bool:
        """Whether the API has this path and method (if not, the front answers 404 or 405)."""
        try:
            self.front.url_map.bind_to_environ(environ).match()
        except HTTPException:
            return False
        return True

    def _compute(self, environ: Mapping[str, Any], body: bytes, until: float | None) -> Answer:
        """The app's answer to one request, from a process that computes nothing else
        meanwhile."""
        plain = {k: v for k, v in environ.items() if isinstance(v, str)}
        try:
            worker = self._worker(plain, body)
        except OSError:
            log.exception("no compute process could take a request")
            return problem_answer(
                500,
                "internal",
                "Internal error",
                "the server failed to handle this request; it has been logged",
            )
        started = time.monotonic()
        if until is None:
            until = started + self.time_limit + GRACE
        try:
            head = _receive(worker, started, until)
            if head is None:
                return self._stopped(worker, "time")
            status, headers, count, retiring = head
            chunks = []
            for _ in range(count):
                if not _wait(worker, started, until):
                    return self._stopped(worker, "time")
                chunks.append(worker.connection.recv_bytes())
        except (EOFError, OSError):
            return self._stopped(worker, "died")
        if retiring or not worker.restore_priority():
            worker.retire()
        else:
            with self._idle_lock:
                self._idle.append(worker)
        return status, headers, chunks

    def _worker(self, plain: dict[str, str], body: bytes) -> Worker:
        """A process that has taken this request: an idle one, or a new one.

        :raises OSError: no new process could take it either.
        """
        while True:
            with self._idle_lock:
                worker = self._idle.pop() if self._idle else None
            fresh = worker is None
            if worker is None:
                worker = Worker(self.context, self.config)
            try:
                worker.connection.send(plain)
                worker.connection.send_bytes(body)
                return worker
            except OSError:
                # an idle process that died meanwhile (killed from outside): the request
                # never reached it, so another takes it; a new one that cannot is a fault
                worker.retire()
                if fresh:
                    raise

    def _stopped(self, worker: Worker, why: str) -> Answer:
        """The problem for a process killed at its deadline (``why == "time"``) or found
        dead without an answer."""
        worker.kill()
        if why != "time":
            worker.process.join(1)  # for its exit code
        if why == "time" or worker.process.exitcode == -signal.SIGXCPU:
            detail = (
                f"the computation exceeded the time limit of {self.time_limit} s "
                "(the server's ARBITER_TIME_LIMIT) and was stopped"
            )
            return problem_answer(413, "time-limit", "Time limit exceeded", detail)
        # the app answers MemoryError itself: a process that dies without a word ran out
        # of memory inside a library that could not raise it (or the kernel killed it)
        log.error(
            "a request's process ended without an answer (exit code %s)",
            worker.process.exitcode,
        )
        return problem_answer(
            413, "memory-limit", "Memory limit exceeded", memory_limit_detail(self.memory_mb)
        )


class Worker:
    """A process forked from the fork server that computes requests one at a time
    (:func:`api.compute.serve`), and its end of the pipe between them."""

    def __init__(self, context: Any, config: Mapping[str, Any]):
        _start_fork_server()
        self.connection, theirs = context.Pipe()
        self.process: multiprocessing.process.BaseProcess = context.Process(
            target=compute.serve, args=(theirs, dict(config)), name="arbiter-compute"
        )
        # (the first start waits for the fork server to load the app)
        self.process.start()
        theirs.close()
        self.lowered = False

    def lower_priority(self) -> None:
        """Let every quick request have the cores before this long one (nice 19)."""
        if self.lowered or self.process.pid is None:
            return
        try:
            os.setpriority(os.PRIO_PROCESS, self.process.pid, LONG_NICENESS)
            self.lowered = True
        except OSError:
            log.debug("could not lower the priority of process %s", self.process.pid)

    def restore_priority(self) -> bool:
        """Give a lowered process its priority back; False where that needs a privilege
        this server does not have (the process then retires)."""
        if not self.lowered or self.process.pid is None:
            return True
        try:
            os.setpriority(os.PRIO_PROCESS, self.process.pid, 0)
        except OSError:
            return False
        self.lowered = False
        return True

    def retire(self) -> None:
        """Let the process go: it exits once it reads the end of its pipe (or has already).
        The fork server reaps it; no one waits here while the kernel frees its memory."""
        self.connection.close()

    def kill(self) -> None:
        """Stop the process at once, whatever it is doing (the fork server reaps it)."""
        self.process.kill()
        self.connection.close()


_fork_server_lock = threading.Lock()


def _start_fork_server() -> None:
    """Have multiprocessing's fork server preload the app (:mod:`api.fork_server`), and
    start it; the first call waits for that. (Should the fork server ever die, the next
    request's start launches a new one, which preloads the same.)"""
    with _fork_server_lock:
        if getattr(_start_fork_server, "done", False):
            return
        multiprocessing.set_forkserver_preload(["api.fork_server"])
        multiprocessing.forkserver.ensure_running()
        _start_fork_server.done = True  # type: ignore[attr-defined]


def _wait(worker: Worker, started: float, until: float) -> bool:
    """Wait for the worker to send something, lowering its priority once it has run
    :data:`LONG_REQUEST` seconds; False if nothing came by ``until``."""
    lower_at = started + LONG_REQUEST
    while True:
        now = time.monotonic()
        if now >= until:
            return False
        step = until - now if worker.lowered or now >= lower_at else lower_at - now
        if worker.connection.poll(max(0.0, step)):
            return True
        if time.monotonic() >= lower_at:
            worker.lower_priority()


def _receive(worker: Worker, started: float, until: float) -> Any:
    if not _wait(worker, started, until):
        return None
    return worker.connection.recv()
