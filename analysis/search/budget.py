"""The wall-clock budget of a search: the request's deadline and the search's own time limit."""

from __future__ import annotations

import time
from typing import Final

from games.limits import current_deadline

NODE_BATCH: Final = 256
"""Nodes between two budget checks (a check costs one clock reading)."""

NODE_COST: Final = 8
"""Units of the request's deadline (about a microsecond each) a node is charged: a node costs
5 to 15 microseconds with the game's rules in Python."""


class BudgetSpent(Exception):
    """The search's own time limit ran out: the caller keeps its deepest finished iteration."""


class SearchBudget:
    """Charges work to the request's deadline and stops a search at its own time limit.

    The request's deadline raises :class:`games.errors.TimeLimitError` as everywhere in
    Arbiter; the search's time limit (at most 90% of what remains of the request's) raises
    :class:`BudgetSpent`, which iterative deepening catches. ``armed`` is off while the first
    iteration runs, so a budgeted search always has a move.
    """

    __slots__ = ("armed", "deadline", "stop")

    def __init__(self, time_limit: float | None):
        self.deadline = current_deadline()
        self.armed = False
        self.stop: float | None = None
        if time_limit is not None:
            remaining = self.deadline.remaining()
            if remaining is not None:
                time_limit = min(time_limit, 0.9 * remaining)
            self.stop = time.monotonic() + time_limit

    def spend(self, units: int, cost: int = NODE_COST) -> None:
        """Record ``units`` nodes of work, each ``cost`` deadline units; stop the search when a
        limit has passed.

        :raises TimeLimitError: the request's deadline has passed.
        :raises BudgetSpent: the search's own time limit has passed.
        """
        self.deadline.spend(units * cost)
        if self.armed and self.stop is not None and time.monotonic() > self.stop:
            raise BudgetSpent
