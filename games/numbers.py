"""Exact numbers read from JSON: integers, decimals and ``"p/q"`` strings.

Values are kept as ``int`` whenever they are integral and as
:class:`fractions.Fraction` otherwise, so arithmetic on them is exact and cheap.
A JSON number such as ``0.1`` is read as the decimal it was written as (1/10),
not as the nearest binary float: ``repr`` of a float is the shortest decimal
that round-trips, which is the text the client sent for any number with at most
17 significant digits.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import TypeAlias

from games.errors import InvalidInputError

Exact: TypeAlias = int | Fraction

MAX_NUMBER_TEXT = 200
"""Longest numeric string accepted; longer strings are refused, never parsed."""

MAX_EXPONENT = 400
"""Largest decimal exponent accepted in scientific notation (``1e400``)."""

MAX_MAGNITUDE = 10**300
"""Largest absolute value accepted, so every value also has a finite float form."""

_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?")
_RATIO = re.compile(r"([+-]?\d+)\s*/\s*([+-]?\d+)")


def normalize(value: Fraction) -> Exact:
    """Return ``value`` as an ``int`` when it is integral, else unchanged."""
    if value.denominator == 1:
        return value.numerator
    return value


def parse_exact(raw: object, pointer: str) -> Exact:
    """Read a JSON number or numeric string as an exact value.

    Parameters
    ----------
    raw
        An ``int``, a finite ``float``, a decimal string (``"-0.25"``, ``"1e-3"``)
        or a ratio string (``"-7/2"``).
    pointer
        JSON pointer of ``raw`` in the request, used in error messages.

    Raises
    ------
    InvalidInputError
        If ``raw`` is not a finite number in one of these forms.
    """
    if type(raw) is int:
        return raw
    if type(raw) is float:
        if not math.isfinite(raw):
            raise InvalidInputError(f"number must be finite, got {raw!r}", pointer)
        return normalize(Fraction(repr(raw)))
    if isinstance(raw, str):
        return _parse_text(raw, pointer)
    raise InvalidInputError(
        f'expected a number or a numeric string such as "-7/2" or "0.1", got {_describe(raw)}',
        pointer,
    )


def _parse_text(text: str, pointer: str) -> Exact:
    if len(text) > MAX_NUMBER_TEXT:
        raise InvalidInputError(
            f"numeric string is longer than {MAX_NUMBER_TEXT} characters", pointer
        )
    stripped = text.strip()
    decimal = _DECIMAL.fullmatch(stripped)
    if decimal:
        exponent = decimal.group(1)
        if exponent is not None and abs(int(exponent)) > MAX_EXPONENT:
            raise InvalidInputError(f"exponent of {text!r} is beyond +/-{MAX_EXPONENT}", pointer)
        return _bounded(normalize(Fraction(stripped)), text, pointer)
    ratio = _RATIO.fullmatch(stripped)
    if ratio:
        denominator = int(ratio.group(2))
        if denominator == 0:
            raise InvalidInputError(f"zero denominator in {text!r}", pointer)
        return _bounded(normalize(Fraction(int(ratio.group(1)), denominator)), text, pointer)
    if stripped.lower().lstrip("+-") in {"nan", "inf", "infinity"}:
        raise InvalidInputError(f"number must be finite, got {text!r}", pointer)
    raise InvalidInputError(
        f'{text!r} is not a number; write an integer, a decimal such as "0.1" '
        'or a fraction such as "-7/2"',
        pointer,
    )


def _bounded(value: Exact, text: str, pointer: str) -> Exact:
    if abs(value) > MAX_MAGNITUDE:  # type: ignore[operator]  # Fraction.__abs__ is untyped
        raise InvalidInputError(f"{text!r} is larger in magnitude than 1e300", pointer)
    return value


def _describe(raw: object) -> str:
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return "a boolean"
    if isinstance(raw, list):
        return "an array"
    if isinstance(raw, dict):
        return "an object"
    return type(raw).__name__


def describe_json(raw: object) -> str:
    """Name the JSON type of ``raw`` for error messages (``"an array"``, ``"null"``)."""
    if isinstance(raw, str):
        return "a string"
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return "a number"
    return _describe(raw)


def to_float(value: Exact) -> int | float:
    """JSON-ready number: the ``int`` itself, or the nearest ``float``."""
    if type(value) is int:
        return value
    return float(value)
