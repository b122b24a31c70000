"""Configurable size and time limits applied while parsing and solving.

A computation runs under one :class:`Limits` and one :class:`Deadline`. The caller
that starts it (the REST layer does so once per request) enters :func:`limited`;
everything inside, parsers, searches, solvers, graders, finds the
same deadline with :func:`current_deadline` and the same bounds with
:func:`active_limits`, so one budget covers the whole request however the work is
split between modules. Outside :func:`limited` there is no deadline and the defaults
apply.

Long loops call :meth:`Deadline.spend` with the work they have done (a node, a
Fraction addition weighted by its size, one grading step); the clock is read once
per :data:`CHECK_EVERY` units, so checks cost next to nothing and still come within
milliseconds of each other however the work is shaped.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from games.errors import ExactSizeError, TimeLimitError

CHECK_EVERY = 4096
"""Units of work between two readings of the clock (a unit is roughly a microsecond)."""


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
    max_exact_digits
        Most decimal digits the numerator or the denominator of an exact number may
        reach while it is computed (sums and products of probabilities, backed-up
        values, utilities); past it the computation stops with :class:`ExactSizeError`.
    max_id_chars
        Most characters the node ids of a tree built here from a smaller description (a
        game graph unfolded) may hold together: ids grow with the names they repeat, so
        a tree well under ``max_nodes`` could otherwise hold gigabytes of id text.
    """

    max_nodes: int = 2_000_000
    max_depth: int = 1_000_000
    time_limit: float | None = 60.0
    max_exact_digits: int = 1000
    max_id_chars: int = 32_000_000

    def deadline(self) -> Deadline:
        """The deadline of the computation in progress, or a new one from now."""
        active = _ACTIVE.get()
        if active is not None:
            return active[1]
        return Deadline(self.time_limit)

    @property
    def max_exact_bits(self) -> int:
        # 3.3219... bits per decimal digit; one more so a number of exactly the
        # stated digit count always passes
        return self.max_exact_digits * 3322 // 1000 + 1


class Deadline:
    """A wall-clock budget checked from inside long loops by the work they do."""

    __slots__ = ("_credit", "_limit", "_stop")

    def __init__(self, seconds: float | None):
        self._limit = seconds
        self._stop = None if seconds is None else time.monotonic() + seconds
        self._credit = CHECK_EVERY

    @property
    def seconds(self) -> float | None:
        """The budget this deadline was given, in seconds (``None``: unlimited)."""
        return self._limit

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` when there is no limit (never negative)."""
        if self._stop is None:
            return None
        return max(0.0, self._stop - time.monotonic())

    def check(self) -> None:
        """Raise :class:`TimeLimitError` if the budget is spent.

        :raises TimeLimitError: the time limit has passed.
        """
        if self._stop is not None and time.monotonic() > self._stop:
            raise TimeLimitError(f"the computation exceeded the time limit of {self._limit} s")

    def spend(self, units: int = 1) -> None:
        """Record ``units`` of work done; read the clock once per :data:`CHECK_EVERY` units.

        :raises TimeLimitError: the time limit has passed.
        """
        credit = self._credit - units
        if credit > 0:
            self._credit = credit
            return
        self._credit = CHECK_EVERY
        self.check()


_ACTIVE: ContextVar[tuple[Limits, Deadline] | None] = ContextVar("arbiter_limits", default=None)
_DEFAULT = Limits()
_UNLIMITED = Deadline(None)


@contextmanager
def limited(limits: Limits) -> Iterator[Deadline]:
    """Run the computations inside under ``limits``, with one deadline starting now."""
    deadline = Deadline(limits.time_limit)
    token = _ACTIVE.set((limits, deadline))
    try:
        yield deadline
    finally:
        _ACTIVE.reset(token)


def active_limits() -> Limits:
    """The limits of the computation in progress (the defaults outside :func:`limited`)."""
    active = _ACTIVE.get()
    return _DEFAULT if active is None else active[0]


def current_deadline() -> Deadline:
    """The deadline of the computation in progress (none outside :func:`limited`)."""
    active = _ACTIVE.get()
    return _UNLIMITED if active is None else active[1]


def check_exact_size(value: object, pointer: str, what: str = "number") -> None:
    """Refuse an exact number whose numerator or denominator has grown past the limit.

    ``value`` is an ``int`` or a ``Fraction`` (anything else passes). Call it where exact
    numbers grow: after summing or multiplying probabilities, backing values up,
    evaluating utilities. The cost is two ``bit_length`` calls.

    :raises ExactSizeError: the number has more digits than ``max_exact_digits``.
    """
    numerator = getattr(value, "numerator", None)
    if not isinstance(numerator, int):
        return
    denominator: int = getattr(value, "denominator", 1)
    limits = active_limits()
    bits = limits.max_exact_bits
    if numerator.bit_length() > bits or denominator.bit_length() > bits:
        raise ExactSizeError(
            f"the exact {what} would need more than {limits.max_exact_digits} digits "
            "in its numerator or denominator",
            pointer,
        )


def spend_on_size(deadline: Deadline, value: object) -> None:
    """Charge the deadline for one arithmetic step on ``value``, in proportion to its size."""
    numerator = getattr(value, "numerator", 0)
    denominator = getattr(value, "denominator", 1)
    if isinstance(numerator, int) and isinstance(denominator, int):
        deadline.spend(1 + (numerator.bit_length() + denominator.bit_length()) // 512)
    else:
        deadline.spend(1)
