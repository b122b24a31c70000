"""Exact numbers: read from JSON (integers, decimals, ``"p/q"`` strings) and written back.

Reading: :func:`parse_exact`. Writing: :func:`put_number` and :func:`put_numbers` are the
one writer of numbers for every JSON answer, under the rule of ``docs/numbers.md`` (a JSON
number, plus ``<name>_exact`` exactly where that number is not the value).

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
import sys
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias

from games.errors import ExactSizeError, InvalidInputError

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
        if -MAX_MAGNITUDE <= raw <= MAX_MAGNITUDE:
            return raw
        raise InvalidInputError("integer is larger in magnitude than 1e300", pointer)
    if type(raw) is float:
        if not math.isfinite(raw):
            raise InvalidInputError(f"number must be finite, got {raw!r}", pointer)
        if abs(raw) > 1e300:
            raise InvalidInputError(f"{raw!r} is larger in magnitude than 1e300", pointer)
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


JSON_INT_LIMIT = 2**63
"""Integers in ``[-2**63, 2**63)`` are written as JSON integers; others as the nearest double."""
assert array("q").itemsize == 8  # (the range :func:`_machine_integers` checks with an array)

MAX_EXACT_TEXT_BITS = 13_000
"""Longest numerator or denominator written out in an exact string (about 3,900 digits,
below Python's 4,300-digit conversion limit); past it the exact string is left out."""


def to_float(value: Exact) -> int | float:
    """The JSON number of ``value``, under Arbiter's one rule for writing numbers.

    An integer within 64 bits (``-2**63 <= n < 2**63``) is written as itself; any other
    value (a fraction, a larger integer) as the nearest double, with the exact value
    given beside it by :func:`exact_text`. Values beyond the double range (about
    1.8e308) are written as the largest double of their sign; every input is capped
    at 1e300 and derived values are checked before they grow that far.
    """
    if type(value) is int and -JSON_INT_LIMIT <= value < JSON_INT_LIMIT:
        return value
    try:
        return float(value)
    except OverflowError:
        return sys.float_info.max if value > 0 else -sys.float_info.max


def is_json_exact(value: Exact) -> bool:
    """Whether :func:`to_float` writes ``value`` exactly (an integer within 64 bits)."""
    return type(value) is int and -JSON_INT_LIMIT <= value < JSON_INT_LIMIT


def exact_text(value: Exact) -> str | None:
    """``value`` as an exact string (``"-7/2"``, ``"12"``), or ``None`` when it is too long.

    Numbers are bounded while they are computed (``Limits.max_exact_digits``), so ``None``
    is a last line of defence against writing a string Python refuses to build.
    """
    numerator = value.numerator
    denominator = value.denominator
    if (
        numerator.bit_length() > MAX_EXACT_TEXT_BITS
        or denominator.bit_length() > MAX_EXACT_TEXT_BITS
    ):
        return None
    if denominator == 1:
        return str(numerator)
    return f"{numerator}/{denominator}"


@dataclass(frozen=True, slots=True)
class Irrational:
    """An exact value with no ``int``/``Fraction`` form (``5*sqrt(10)``).

    Written as ``approx`` (its nearest double) with ``formula`` as the exact string.
    """

    approx: float
    formula: str


Number: TypeAlias = Exact | float | Irrational
"""What :func:`put_number` writes: an exact value, a float computed as such, or an
irrational exact value."""


Label: TypeAlias = str | bool | None
"""A JSON value that is not a number (a strategy's name, a flag, null): written as is."""

Numbers: TypeAlias = "Sequence[Number | Label | Numbers] | Mapping[str, Number | Label | Numbers]"
"""A list, tuple or string-keyed map of numbers (and labels among them), possibly nested."""


def put_number(target: dict[str, Any], name: str, value: Number | None) -> None:
    """Write ``value`` into ``target`` as ``name`` and, where needed, ``name_exact``.

    The rule (``docs/numbers.md``): ``name`` is the JSON number of :func:`to_float`;
    ``name_exact`` is the exact string (:func:`exact_text`) written exactly when that
    number is not the value itself (:func:`is_json_exact` is false). A float (a value
    computed in floating point) is its own value and gets no companion; an
    :class:`Irrational` gets its formula; ``None`` is written as ``null``.
    """
    if value is None or isinstance(value, float):
        target[name] = value
    elif isinstance(value, Irrational):
        target[name] = value.approx
        target[f"{name}_exact"] = value.formula
    else:
        target[name] = to_float(value)
        if not is_json_exact(value):
            text = exact_text(value)
            if text is not None:
                target[f"{name}_exact"] = text


def put_bound(target: dict[str, Any], name: str, value: Number | None) -> None:
    """:func:`put_number` for an end of a search's window (an alpha or a beta), which may be
    infinite: +/- infinity is written as the string ``"inf"`` or ``"-inf"``."""
    if isinstance(value, float) and math.isinf(value):
        target[name] = "inf" if value > 0 else "-inf"
    else:
        put_number(target, name, value)


def put_numbers(target: dict[str, Any], name: str, values: Numbers) -> None:
    """Write a list, tuple or map of numbers (nested to any depth) as ``name`` and ``name_exact``.

    ``name`` holds the JSON numbers in the same shape (tuples become lists); strings,
    booleans and nulls among them are written as they are, in both. When any
    entry is not written exactly, ``name_exact`` holds the whole structure again with
    every entry as its exact string (integers too, so it can be read on its own);
    otherwise it is left out. The rule is the one of :func:`put_number`, applied to
    the container as a whole; floats in a companion are their shortest ``repr``.

    :raises ExactSizeError: an entry is too long to write exactly (past
        :data:`MAX_EXACT_TEXT_BITS`; computed numbers are bounded well before).
    """
    if isinstance(values, list | tuple) and _machine_integers(values):
        target[name] = list(values)  # (the common case, checked in C: written as they are)
        return
    target[name] = _shape(values, _number)
    if not _all_exact(values):
        target[f"{name}_exact"] = _shape(values, exact_entry)


def _machine_integers(values: Sequence[Any]) -> bool:
    """Whether ``values`` are all ints within 64 bits, which the rule writes as they are."""
    if not values or set(map(type, values)) != {int}:
        return False
    try:  # (a signed 64-bit array holds exactly the ints in [-JSON_INT_LIMIT, JSON_INT_LIMIT))
        array("q", values)
    except OverflowError:
        return False
    return True


def read_exact_form(approx: float, text: str | None) -> Number:
    """The number whose double is ``approx`` and whose exact form, if one was found, is ``text``.

    Symbolic results (expected utilities, certainty equivalents) come as a double and
    SymPy's text of the exact value: a rational text (``"250"``, ``"-7/2"``) is read
    back as that rational, so :func:`put_number` applies the one rule to it; any other
    text (``"5*sqrt(10)"``) is an :class:`Irrational`; no text leaves the double.
    """
    if text is None:
        return approx
    rational = _RATIONAL_TEXT.fullmatch(text)
    if rational is None:
        return Irrational(approx, text)
    return normalize(Fraction(int(rational.group(1)), int(rational.group(2) or 1)))


_RATIONAL_TEXT = re.compile(r"(-?\d+)(?:/(\d+))?")


def _number(value: Number | Label) -> int | float | Label:
    if value is None or isinstance(value, str | bool | float):
        return value
    if isinstance(value, Irrational):
        return value.approx
    return to_float(value)


def exact_entry(value: Number | Label) -> str | Label:
    """An entry of a container's ``x_exact`` companion: the exact string of a number
    (integers too), a float's shortest ``repr``, labels as they are.

    :raises ExactSizeError: past :data:`MAX_EXACT_TEXT_BITS`.
    """
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Irrational):
        return value.formula
    text = exact_text(value)
    if text is None:  # only past Limits.max_exact_digits raised near MAX_EXACT_TEXT_BITS
        raise ExactSizeError("a number is too large to write out exactly", "")
    return text


def _is_exact(value: Number | Label) -> bool:
    if value is None or isinstance(value, str | bool | float):
        return True
    if isinstance(value, Irrational):
        return False
    return is_json_exact(value)


def _all_exact(values: Numbers) -> bool:
    """Whether every entry is written exactly (an explicit stack: nesting is user-sized)."""
    stack: list[Any] = [values]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif not _is_exact(item):
            return False
    return True


def _shape(values: Numbers, write: Callable[[Number], Any]) -> Any:
    """``values`` with every entry replaced by ``write(entry)``, tuples as lists.

    Built with an explicit stack rather than recursion (nesting depth is user-sized).
    """
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(values, root, 0)]
    while stack:
        item, parent, key = stack.pop()
        if isinstance(item, Mapping):
            built: Any = {}
            for k, v in item.items():
                built[k] = None
                stack.append((v, built, k))
        elif isinstance(item, (list, tuple)):
            built = [None] * len(item)
            stack.extend((v, built, i) for i, v in enumerate(item))
        else:
            built = write(item)
        parent[key] = built
    return root[0]
