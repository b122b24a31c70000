"""Configurable size and time limits applied while parsing and solving."""

from __future__ import annotations

import time
from dataclasses import dataclass

from games.errors import LimitExceededError


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what one request may ask for.

    Attributes
    ----------
    max_nodes
        Most nodes a tree may have.
    max_depth
        Deepest a tree may be, in plies from the root.
    time_limit
        Seconds a computation may run before it is stopped, or ``None``.
    """

    max_nodes: int = 2_000_000
    max_depth: int = 1_000_000
    time_limit: float | None = 60.0

    def deadline(self) -> Deadline:
        return Deadline(self.time_limit)


class Deadline:
    """A wall-clock budget checked from inside long loops.

    ``check`` is cheap enough to call every few thousand iterations.
    """

    __slots__ = ("_limit", "_stop")

    def __init__(self, seconds: float | None):
        self._limit = seconds
        self._stop = None if seconds is None else time.monotonic() + seconds

    def check(self) -> None:
        if self._stop is not None and time.monotonic() > self._stop:
            raise LimitExceededError(f"computation exceeded the time limit of {self._limit} s", "")
