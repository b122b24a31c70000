"""Exceptions raised by the Arbiter core.

Every error is an :class:`ArbiterError` (a ``ValueError``) carrying one or more
:class:`FieldError` entries. A parser's error carries an RFC 6901 JSON pointer to
the offending field of the document it read; an algorithm's error instead names
the keyword ``parameter`` it refuses (``depth``, ``bounds``), and each caller says
where that parameter came from: the REST layer maps it to a request pointer
(``/depth``), the CLI to an option (``--depth``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with one field of the input."""

    pointer: str
    message: str
    parameter: str = ""
    """The algorithm's keyword parameter at fault, when the error is not about a document."""


class ArbiterError(ValueError):
    """Base of every error the Arbiter core raises on bad input."""

    title = "Invalid input"
    slug = "invalid-input"

    def __init__(
        self,
        message: str,
        pointer: str = "",
        errors: Iterable[FieldError] = (),
        *,
        parameter: str = "",
    ):
        super().__init__(message)
        self.message = message
        collected = list(errors)
        self.errors: list[FieldError] = collected or [FieldError(pointer, message, parameter)]

    def located(self, where: Callable[[str], str]) -> None:
        """Give each parameter error a pointer: ``where(parameter)`` (the caller's name for it)."""
        self.errors = [
            FieldError(where(e.parameter), e.message, e.parameter)
            if e.parameter and not e.pointer
            else e
            for e in self.errors
        ]


class InvalidInputError(ArbiterError):
    """Raised when the input is well-formed JSON but not a valid model (a 422)."""

    title = "Invalid input"


class LimitExceededError(ArbiterError):
    """Raised when the input or the computation exceeds a configured limit (a 413)."""

    title = "Limit exceeded"
    slug = "limit-exceeded"


class TimeLimitError(LimitExceededError):
    """Raised when a computation runs past its deadline (a 413)."""

    title = "Time limit exceeded"
    slug = "time-limit"

    def __init__(self, message: str, pointer: str = "", *, parameter: str = ""):
        super().__init__(message, pointer, parameter=parameter)


class ExactSizeError(LimitExceededError):
    """Raised when an exact number grows past the configured number of digits (a 413)."""

    title = "Exact number too large"
    slug = "number-too-large"


class DomainError(ArbiterError):
    """Raised when a valid input asks for something mathematically undefined (a 422)."""

    title = "Undefined for this input"
    slug = "undefined"


def join_pointer(base: str, *tokens: str | int) -> str:
    """Extend the JSON pointer ``base`` with ``tokens``, escaping ``~`` and ``/`` (RFC 6901)."""
    parts = [base]
    for token in tokens:
        text = str(token).replace("~", "~0").replace("/", "~1")
        parts.append("/" + text)
    return "".join(parts)
