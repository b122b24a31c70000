"""Reading the JSON documents a command is given, and writing its answers.

A file is read as the API reads a request body: UTF-8, strict JSON (no ``NaN``, no
number beyond the range of a double), integers of any length kept exact. Every
problem is a :class:`~analysis.cli.error_handler.CommandLineError` naming the file and,
for bad text, the line and column.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, Final

from analysis.cli.error_handler import CommandLineError, source_name

MAX_INTEGER_DIGITS: Final = 4000
"""Longest JSON integer read, as in the API (Python refuses to convert much longer ones)."""


class _NotArbiterJson(ValueError):
    """Raised for JSON that Python reads but Arbiter does not accept."""


def read_document(source: str) -> Any:
    """The decoded JSON of the file ``source`` (``-``: standard input).

    :raises CommandLineError: the file cannot be read, is not UTF-8 or not JSON.
    """
    return decode_json(read_text(source, "JSON"), source)


def read_text(source: str, expected: str) -> str:
    """The text of the file ``source`` (``-``: standard input), which should hold ``expected``.

    :raises CommandLineError: the file cannot be read, is not UTF-8 or is empty.
    """
    name = source_name(source)
    try:
        data = _read_stdin() if source == "-" else Path(source).read_bytes()
    except OSError as error:
        raise CommandLineError(name, error.strerror or str(error)) from None
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is allowed, as RFC 8259 permits
    except UnicodeDecodeError as error:
        line, column = _position(data, error.start)
        raise CommandLineError(
            f"{name}:{line}:{column}", f"not UTF-8 text (byte 0x{data[error.start]:02x})"
        ) from None
    if not text.strip():
        raise CommandLineError(name, f"the file is empty; expected {expected}")
    return text


def decode_json(text: str, source: str) -> Any:
    """The JSON ``text`` read from ``source``, decoded as the API decodes bodies.

    :raises CommandLineError: the text is not JSON Arbiter accepts.
    """
    name = source_name(source)
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
        )
    except json.JSONDecodeError as error:
        raise CommandLineError(
            f"{name}:{error.lineno}:{error.colno}", f"not valid JSON: {error.msg}"
        ) from None
    except _NotArbiterJson as error:
        raise CommandLineError(name, str(error)) from None
    except RecursionError:
        raise CommandLineError(
            name,
            "JSON nested deeper than the parser's limit of about 1,000 levels; write deep "
            'trees in the flat form {"root": id, "nodes": [...]}, where children are listed by id',
        ) from None


def print_document(document: Any) -> None:
    """Write ``document`` to standard output as indented JSON."""
    json.dump(document, sys.stdout, indent=2)
    sys.stdout.write("\n")


def write_file(path: str, text: str) -> None:
    """Write ``text`` to the file ``path``.

    :raises CommandLineError: the file cannot be written.
    """
    try:
        Path(path).write_text(text)
    except OSError as error:
        raise CommandLineError(path, error.strerror or str(error)) from None


def _read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        data: bytes = stream.read()
        return data
    return str(sys.stdin.read()).encode()


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """Line and column (in bytes, both from 1) of the byte at ``offset``."""
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def _parse_int(text: str) -> int:
    if len(text) > MAX_INTEGER_DIGITS:
        raise _NotArbiterJson(f"an integer has more than {MAX_INTEGER_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotArbiterJson(f"the number {text[:40]} is beyond the range of a double")
    return value


def _refuse_constant(name: str) -> Any:
    raise _NotArbiterJson(f"{name} is not a JSON value")
