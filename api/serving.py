"""Gunicorn settings for `make serve`: `gunicorn --config python:api.serving "api:create_app()"`.

The worker's hard timeout is derived from the app's own time limit so that the app's
limit (a 413 problem) always fires first; workers are recycled after a bounded number
of requests; the errors gunicorn writes itself (a request line too long, a worker
killed for running past the hard timeout) are ``application/problem+json`` like every
error the app writes; and a request still running after :data:`LONG_REQUEST` seconds
is lowered in CPU priority, so that a few slow requests (the most any client can make
run is the time limit) cannot starve the quick ones sharing the machine's cores.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import orjson
from gunicorn import util
from gunicorn.workers.sync import SyncWorker

from api.config import settings
from api.problems import PROBLEM_TYPE

_time_limit = float(settings(None)["ARBITER_TIME_LIMIT"])

# Seconds past the app's time limit before gunicorn kills a silent worker. The app checks
# its deadline by work done and stops within about a second of it; the margin covers the
# response being written to a slow client.
GRACE = 30

worker_class = "api.serving.ProblemWorker"
# Import the app once in the master: workers fork ready to serve, so a worker that is
# recycled or killed is replaced in milliseconds instead of re-importing SymPy and SciPy.
preload_app = True
timeout = int(_time_limit) + GRACE
graceful_timeout = 30
# Recycle workers so that memory one large request left fragmented is given back.
max_requests = int(os.environ.get("ARBITER_MAX_REQUESTS", "1000"))
max_requests_jitter = max(1, max_requests // 10)
# Request lines past 8 KiB are answered 414 by gunicorn before the app sees them.
limit_request_line = 8190


LONG_REQUEST = 0.25
"""Seconds after which a request's worker yields CPU to the others (nice 19); the small
requests of a course (a homework tree, a 3x3 game, a lottery) take a few milliseconds."""

LONG_NICENESS = 19


def _lower_priority(worker: Any, thread_id: int) -> None:
    try:
        os.setpriority(os.PRIO_PROCESS, thread_id, LONG_NICENESS)
        worker.lowered = True
    except OSError:
        worker.log.debug("could not lower the priority of a long request")


def pre_request(worker: Any, req: Any) -> None:
    """Start the clock that lowers this worker's priority if the request runs long."""
    # Linux keeps a niceness per thread: aim at the thread that handles the request. Ask
    # the kernel for its id: a worker forked from a preloaded master inherits the
    # master's thread objects, whose ``native_id`` is the master's.
    timer = threading.Timer(LONG_REQUEST, _lower_priority, (worker, threading.get_native_id()))
    timer.daemon = True
    worker.long_request_timer = timer
    worker.lowered = False
    timer.start()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """Cancel the clock; give a lowered worker its priority back, or retire it."""
    timer = getattr(worker, "long_request_timer", None)
    if timer is not None:
        timer.cancel()
        timer.join()
    if getattr(worker, "lowered", False):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 0)
            worker.lowered = False
        except OSError:
            # raising priority needs CAP_SYS_NICE: let a fresh worker take this one's place
            worker.alive = False


def _problem_bytes(status: int, reason: str, slug: str, detail: str) -> bytes:
    body = orjson.dumps(
        {
            "type": PROBLEM_TYPE + slug,
            "title": reason,
            "status": status,
            "detail": detail,
            "errors": [],
        }
    )
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def _write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    slug = reason.lower().replace(" ", "-") or "error"
    detail = mesg or reason
    if status_int == 500:
        slug, detail = "internal", "the server failed to handle this request; it has been logged"
    util.write_nonblock(sock, _problem_bytes(status_int, reason, slug, detail))


class ProblemWorker(SyncWorker):  # type: ignore[misc]  # gunicorn ships no type information
    """A sync worker whose own error pages are problem+json instead of HTML."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if isinstance(exc, SystemExit) and not self.alive:
            # gunicorn's arbiter aborted this worker for running past ``timeout``
            self.log.error("worker aborted after the %s s hard timeout", self.timeout)
            try:
                util.write_nonblock(
                    client,
                    _problem_bytes(
                        503,
                        "Service Unavailable",
                        "worker-timeout",
                        f"the request ran past the server's hard limit of {self.timeout} s "
                        "and its worker was restarted",
                    ),
                )
            except Exception:
                self.log.debug("failed to send the timeout problem")
            return
        original = util.write_error
        util.write_error = _write_problem
        try:
            super().handle_error(req, client, addr, exc)
        finally:
            util.write_error = original
