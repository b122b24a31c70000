"""The one number rule (docs/numbers.md) as tests read it, independent of games.numbers.

Each number ``x`` is a JSON number; ``x_exact`` is present exactly when that number is
not the value itself and then holds the exact string. A container's companion repeats
the container's shape with every entry as a string.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any

JSON_INT_LIMIT = 2**63
SUFFIX = "_exact"


def exact_string(answer: dict[str, Any], name: str) -> str | None:
    """The exact string of ``answer[name]``: its companion, or the integer the number is.

    ``None`` when the number is a float with no companion (computed numerically).
    """
    if name + SUFFIX in answer:
        text: str = answer[name + SUFFIX]
        return text
    value = answer[name]
    return str(value) if type(value) is int else None


def exact_strings(answer: dict[str, Any], name: str) -> Any:
    """The exact strings of a list or map of numbers, in its shape."""
    if name + SUFFIX in answer:
        return answer[name + SUFFIX]
    return _shape(answer[name], str)


def _shape(value: Any, write: Any) -> Any:
    if isinstance(value, dict):
        return {k: _shape(v, write) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v, write) for v in value]
    return write(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _rational(text: str) -> Fraction | None:
    try:
        return Fraction(text)
    except ValueError:
        return None  # a formula such as 5*sqrt(10)


def _check_pair(number: Any, text: Any, where: str, problems: list[str]) -> None:
    """``text`` is the exact string of the JSON number ``number`` (scalars, lists, maps)."""
    if isinstance(number, dict) and isinstance(text, dict):
        if number.keys() != text.keys():
            problems.append(f"{where}: companion keys differ")
            return
        for key in number:
            _check_pair(number[key], text[key], f"{where}/{key}", problems)
        return
    if isinstance(number, list) and isinstance(text, list):
        if len(number) != len(text):
            problems.append(f"{where}: companion length differs")
            return
        for i, (n, t) in enumerate(zip(number, text, strict=True)):
            _check_pair(n, t, f"{where}/{i}", problems)
        return
    if not _is_number(number) or not isinstance(text, str):
        problems.append(f"{where}: {text!r} is not the exact string of {number!r}")
        return
    exact = _rational(text)
    if exact is None:
        return  # a formula: its value is checked by the endpoint's own tests
    try:
        nearest = float(exact)
    except OverflowError:  # beyond the double range: written as the largest double
        nearest = math.copysign(sys.float_info.max, exact)
    if nearest != number:
        problems.append(f"{where}: {number!r} is not the nearest double of {text}")


def _all_exact(number: Any) -> bool:
    """Whether every entry is written exactly: a JSON integer within 64 bits, or a float."""
    if isinstance(number, dict):
        return all(_all_exact(v) for v in number.values())
    if isinstance(number, list):
        return all(_all_exact(v) for v in number)
    return (
        not _is_number(number)
        or type(number) is float
        or -JSON_INT_LIMIT <= number < JSON_INT_LIMIT
    )


def _needless(number: Any, text: Any) -> bool:
    """A companion adds nothing: every string is the integer the JSON number already is."""
    if isinstance(number, dict) and isinstance(text, dict):
        return all(_needless(number[k], text[k]) for k in number)
    if isinstance(number, list) and isinstance(text, list):
        return all(_needless(n, t) for n, t in zip(number, text, strict=True))
    return type(number) is int and text == str(number)


def rule_violations(document: Any) -> list[str]:
    """Every place ``document`` breaks the rule: an ``x_exact`` without ``x``, one that
    does not give ``x`` exactly, or one beside a number that is already exact."""
    problems: list[str] = []
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, list):
            stack.extend((item, f"{where}/{i}") for i, item in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            stack.append((value, f"{where}/{key}"))
            if not key.endswith(SUFFIX):
                continue
            name = key[: -len(SUFFIX)]
            if name not in node:
                problems.append(f"{where}/{key}: no sibling {name!r}")
                continue
            _check_pair(node[name], value, f"{where}/{key}", problems)
            if _needless(node[name], value):
                problems.append(f"{where}/{key}: {name} is already exact")
    return problems
