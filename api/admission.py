"""Admission control: how many computations run at once, and how many one client may hold.

The server runs at most ``slots`` computations at once, each in a process of its own
(:mod:`api.isolation`). A request that finds every slot taken waits, first come first
served, in a queue of at most ``queue`` requests for at most ``wait`` seconds; past either
bound it is refused at once with a 503 ``overloaded`` problem and a ``Retry-After`` header,
so a crowd sees a quick "try again" rather than a hang.

One client (one address, as the server sees it) may run at most ``share`` computations
and have at most ``share`` more waiting: a student who sends the slowest requests he can
build, as fast as he can, holds ``share`` slots and gets 429 ``too-many-requests`` for the
rest, while the others keep the remaining slots. A waiting request whose client is at its
share is passed over by those behind it, so it never blocks another client's request.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager


class Refusal(Exception):
    """Raised when a request is not admitted: the status to answer, why, and when to retry."""

    def __init__(self, status: int, slug: str, title: str, detail: str, retry_after: int):
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = detail
        self.retry_after = retry_after


class Admission:
    """Slots for computations, a bounded queue, and a share per client."""

    def __init__(self, slots: int, share: int, queue: int, wait: float, retry_after: int = 5):
        if slots < 1 or share < 1 or queue < 0 or wait < 0:
            raise ValueError("slots and share must be at least 1, queue and wait at least 0")
        self.slots = slots
        self.share = share
        self.queue = queue
        self.wait = wait
        self.retry_after = retry_after
        self._lock = threading.Condition()
        self._running: Counter[str] = Counter()
        self._waiting: deque[tuple[int, str]] = deque()
        self._tickets = 0

    @property
    def running(self) -> int:
        """Computations running now."""
        with self._lock:
            return self._running.total()

    @property
    def waiting(self) -> int:
        """Requests waiting for a slot now."""
        with self._lock:
            return len(self._waiting)

    @contextmanager
    def admitted(self, client: str) -> Iterator[None]:
        """Hold one slot for ``client`` while the block runs.

        :raises Refusal: the client is past its share, or the queue is full, or no slot
            came free within the wait.
        """
        self._enter(client)
        try:
            yield
        finally:
            with self._lock:
                self._running[client] -= 1
                if self._running[client] <= 0:
                    del self._running[client]
                self._lock.notify_all()

    def _enter(self, client: str) -> None:
        with self._lock:
            mine = self._running[client] + sum(1 for _, c in self._waiting if c == client)
            if mine >= 2 * self.share:
                raise Refusal(
                    429,
                    "too-many-requests",
                    "Too many requests",
                    f"this client already has {mine} requests running or waiting, the most one "
                    f"client may have (the server's ARBITER_CLIENT_SHARE is {self.share} running "
                    f"and {self.share} waiting); retry once one of them has been answered",
                    self.retry_after,
                )
            if self._may_run(client, None):
                self._running[client] += 1
                return
            if len(self._waiting) >= self.queue:
                raise self._overloaded()
            self._tickets += 1
            ticket = (self._tickets, client)
            self._waiting.append(ticket)
            until = time.monotonic() + self.wait
            try:
                while not self._may_run(client, ticket):
                    left = until - time.monotonic()
                    if left <= 0:
                        raise self._overloaded()
                    self._lock.wait(left)
            finally:
                self._waiting.remove(ticket)
                # the requests behind this one may now be first in line
                self._lock.notify_all()
            self._running[client] += 1

    def _may_run(self, client: str, ticket: tuple[int, str] | None) -> bool:
        """A free slot, the client under its share, and no request ahead of ``ticket``
        (``None``: a request not yet queued) that could take the slot instead."""
        if self._running.total() >= self.slots or self._running[client] >= self.share:
            return False
        for ahead in self._waiting:
            if ahead == ticket:
                return True
            if self._running[ahead[1]] < self.share:
                return False
        return ticket is None

    def _overloaded(self) -> Refusal:
        return Refusal(
            503,
            "overloaded",
            "Server overloaded",
            f"all {self.slots} computation slots are taken and {len(self._waiting)} requests "
            "are waiting; retry after the time the Retry-After header gives",
            self.retry_after,
        )
