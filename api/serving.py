"""The production server: ``make serve`` runs ``python -m api.serving``.

Waitress is the front. Its one event loop reads every request whole (a body past 512 KB
waits in a temporary file) before any thread sees it, and writes every answer from a
buffer, so a client that sends nothing, or a byte every few seconds, or reads its answer
slowly, holds a socket and no more: no thread, no computation slot. A connection silent for
``ARBITER_CHANNEL_TIMEOUT`` seconds is closed. Its threads then call
:class:`~api.isolation.IsolatedApp`, which answers pages and assets itself and runs every
computation in a process of its own, bounded in time and memory. The errors Waitress writes
itself (a malformed request line or chunk, a body past the limit) are
``application/problem+json`` like every other error.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import socket
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, cast

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask
from waitress.utilities import BadRequest

from api.config import settings
from api.problems import problem_answer

# Each computation runs on one core: the numerical libraries start no thread pools (and
# the fork server, which loads them, must have a single thread to fork from).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from api.isolation import IsolatedApp  # noqa: E402  (after the thread settings above)

log = logging.getLogger("arbiter")

FRONT_THREADS = 8
"""Threads besides one per computation slot and queued request: pages and assets."""


class ProblemErrorTask(ErrorTask):
    """Waitress's own error answers (a bad request line, header or chunk; a body past the
    limit) as problems, like the app's."""

    # what waitress sets, where types-waitress says less: a list, not any sequence
    response_headers: list[tuple[str, str]]

    def execute(self) -> None:
        # waitress makes an error task of the request's parser (types-waitress: its Error)
        error = cast(HTTPRequestParser, self.request).error
        assert error is not None, "an error task for a request without an error"
        slug = error.reason.lower().replace(" ", "-")
        detail = str(error.body)
        if error.code == 413:
            slug = "request-entity-too-large"
            limit = self.channel.server.adj.max_request_body_size
            detail = f"the request body is larger than the limit of {limit} bytes"
        status, headers, body = problem_answer(error.code, slug, error.reason, detail)
        self.status = status
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body[0])
        self.write(body[0])


class ProblemChannel(HTTPChannel):
    """Waitress's connection, with its errors as problems, and a 400 for a request whose
    client ends its side of the connection before the request is complete (Waitress would
    close the connection without a word)."""

    error_task_class = ProblemErrorTask
    # what waitress's HTTPChannel sets, where types-waitress omits it or says less
    requests_lock: threading.Lock
    requests: list[HTTPRequestParser]

    def handle_read(self) -> None:
        partial = self.request
        if partial is None or partial.completed or self.socket is None:
            super().handle_read()
            return
        try:
            # the socket's own recv: the dispatcher's closes the connection on end of input
            data = self.socket.recv(self.adj.recv_bytes)
        except BlockingIOError:
            return
        except OSError:
            self.handle_close()
            return
        if data:
            self.last_activity = time.time()
            self.received(data)
            return
        partial.error = BadRequest("the request ended before its body was complete")
        partial.completed = True
        with self.requests_lock:
            self.request = None
            self.requests.append(partial)
            if len(self.requests) == 1:
                # waitress queues the channel itself: its service() runs the requests
                self.server.add_task(self)  # type: ignore[arg-type]


def server_options(config: dict[str, Any], app: IsolatedApp) -> dict[str, Any]:
    """Waitress's settings under the app's settings."""
    admission = app.admission
    options: dict[str, Any] = {
        "threads": admission.slots + admission.queue + FRONT_THREADS,
        "channel_timeout": int(config["ARBITER_CHANNEL_TIMEOUT"]),
        "cleanup_interval": max(1, int(config["ARBITER_CHANNEL_TIMEOUT"]) // 6),
        "connection_limit": int(config["ARBITER_CONNECTION_LIMIT"]),
        "max_request_body_size": int(config["MAX_CONTENT_LENGTH"]),
        "max_request_header_size": 64 * 1024,
        # poll(), not select(): more than 1,024 sockets
        "asyncore_use_poll": True,
        # a large answer is written from a temporary file past this size; its thread is
        # held only while the answer is written to the buffer, never while it is sent
        "outbuf_high_watermark": 256 * 1024 * 1024,
        "ident": "arbiter",
        "clear_untrusted_proxy_headers": True,
    }
    proxy = str(config["ARBITER_TRUSTED_PROXY"]).strip()
    if proxy:
        options["trusted_proxy"] = proxy
        options["trusted_proxy_headers"] = {"x-forwarded-for", "x-forwarded-proto"}
    return options


def _open_enough_files(connections: int) -> None:
    """Raise this process's limit of open files to hold ``connections`` sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


def addresses(host: str, port: int) -> list[str]:
    """The workbench's addresses to print: the host's, or this machine's when it listens on
    every interface."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{'[' + host + ']' if ':' in host else host}:{port}/"]
    found = [f"http://127.0.0.1:{port}/"]
    ips: list[str] = []
    try:
        name = socket.gethostname()
        for info in socket.getaddrinfo(name, port, socket.AF_INET, socket.SOCK_STREAM):
            ips.append(str(info[4][0]))
    except OSError:
        pass
    try:
        # the address this machine would send from: connecting a UDP socket sends nothing
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            ips.append(str(probe.getsockname()[0]))
    except OSError:
        pass
    found += [f"http://{ip}:{port}/" for ip in ips if not ip.startswith(("127.", "0."))]
    return list(dict.fromkeys(found))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m api.serving", description="Serve Arbiter's API and workbench."
    )
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    arguments = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    config = settings(None)
    app = IsolatedApp()
    options = server_options(config, app)
    _open_enough_files(options["connection_limit"])
    # waitress registers a server per address the host resolves to ("localhost" may give
    # two) in its socket map, and returns a wrapper without channel_class when there are
    # several: every one of them must accept connections as ProblemChannels
    socket_map: dict[int, Any] = {}
    server = create_server(app, map=socket_map, host=arguments.host, port=arguments.port, **options)
    for listener in list(socket_map.values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = ProblemChannel
    print("Arbiter: loading the app into the computation server...", flush=True)
    app.start()
    admission = app.admission
    print(
        f"Arbiter is serving on {arguments.host}:{arguments.port}: "
        f"{admission.slots} computations at once, {admission.share} per client, "
        f"{config['ARBITER_TIME_LIMIT']} s and {config['ARBITER_MAX_MEMORY_MB']} MB each.\n"
        "The workbench: " + "  ".join(addresses(arguments.host, arguments.port)),
        flush=True,
    )
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
