"""Reading request bodies: content type, size, JSON syntax, nesting depth, envelope schema."""

from __future__ import annotations

import gc
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import orjson
from flask import current_app, request
from marshmallow import Schema
from werkzeug.wsgi import get_content_length

from api.problems import ApiProblem
from games.errors import FieldError
from games.limits import current_deadline


def json_body() -> Any:
    """The decoded JSON body, or a 415/400/413 problem.

    orjson (like Python's own parser) refuses nesting deeper than about 1,000
    levels; such a body is refused with a pointer to the flat tree form.
    """
    return decode(body_bytes())


def body_bytes() -> bytes:
    """The body's bytes, or a 415 (not JSON), 413 (too large) or 400 (empty) problem."""
    # the header's type before any parameters (werkzeug's ``request.mimetype``, without
    # parsing the parameters no endpoint reads)
    mimetype = request.environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiProblem(
            415,
            "unsupported-media-type",
            "Unsupported media type",
            f"send the body as application/json, not {mimetype or 'no content type'}",
            [FieldError("", "Content-Type must be application/json")],
        )
    data = _read_body()
    current_deadline().check()
    if not data:
        raise ApiProblem(
            400,
            "malformed-json",
            "Malformed JSON",
            "the request body is empty",
            [FieldError("", "empty body")],
        )
    return data


def decode(data: bytes) -> Any:
    """``data`` decoded as JSON, or a 400 (malformed) or 413 (nested too deeply) problem.

    The cyclic garbage collector is paused while it decodes: a large body is hundreds of
    thousands of new lists and dicts, and the collections their allocation sets off rescan
    them all (decoding a 3.9 MB tree of 100,000 objects took 198 ms with the collector on,
    80 ms off; a 200,000-node flat tree passed its time limit in the decoder alone).
    """
    try:
        with collector_paused():
            if _LONG_RUN in data.translate(_DIGITS_AS_ZERO):
                return _exact_loads(data)
            return orjson.loads(data)
    except RecursionError:
        raise _too_deep() from None
    except _NotJson as error:
        raise ApiProblem(
            400,
            "malformed-json",
            "Malformed JSON",
            f"the body is not valid JSON: {error}",
            [FieldError("", str(error))],
        ) from None
    except (json.JSONDecodeError, orjson.JSONDecodeError) as error:
        if "recursion" in str(error).lower() or "depth limit" in str(error).lower():
            raise _too_deep() from None
        if "not enough memory" in str(error).lower():
            # orjson reports an allocation past the process's bound as a decoding error
            raise MemoryError(str(error)) from None
        raise ApiProblem(
            400,
            "malformed-json",
            "Malformed JSON",
            f"the body is not valid JSON: {error} (at byte {error.pos})",
            [FieldError("", f"invalid JSON at byte {error.pos}")],
        ) from None


# A run of 19 digits may be an integer beyond 64 bits, which orjson would turn into a
# float; such bodies are read by the standard library, which keeps every integer exact.
# (Found by mapping every digit to "0" and looking for 19 zeros: both run in C at
# memory speed, where a regular expression takes most of a second on 20 MB.)
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * 19

_MAX_INTEGER_DIGITS = 4000
"""Longest JSON integer read (Python refuses to convert longer ones)."""


class _NotJson(ValueError):
    """Raised for JSON the standard library reads but Arbiter does not accept."""


def _parse_int(text: str) -> int:
    if len(text) > _MAX_INTEGER_DIGITS:
        raise _NotJson(f"an integer has more than {_MAX_INTEGER_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJson(f"the number {text[:40]} is beyond the range of a double")
    return value


def _refuse_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON value")


def _exact_loads(data: bytes) -> Any:
    """Parse as orjson does, but keep integers of any length exact."""
    return json.loads(
        data, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant
    )


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block, and switch it back on after if it
    was on before (what the block builds is freed by reference counting). For blocks that
    build a container or more per node of a large tree: see :func:`decode`."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _too_deep() -> ApiProblem:
    return ApiProblem(
        413,
        "nesting-too-deep",
        "JSON nested too deeply",
        "the JSON is nested deeper than the parser's limit of about 1,000 levels; "
        'post deep trees in the flat form {"root": id, "nodes": [...]}, where '
        "children are listed by id",
        [FieldError("", "JSON nesting deeper than about 1,000 levels")],
    )


def _read_body() -> bytes:
    """The body, refused with a 413 past ``MAX_CONTENT_LENGTH`` whether or not it is chunked.

    A declared ``Content-Length`` is checked against the limit and read as it is from the
    WSGI input (werkzeug's ``get_data`` wraps the stream in two layers first, most of the
    time of reading a small body); a body shorter than it declares is a 400. Werkzeug cuts a
    chunked body at the limit without saying so; here the stream is read to one byte past
    the limit instead.
    """
    environ = request.environ
    limit = int(current_app.config["MAX_CONTENT_LENGTH"])
    declared = get_content_length(environ)  # (None for a chunked body)
    if declared is not None:
        if declared > limit:
            raise _too_large(limit)
        data: bytes = environ["wsgi.input"].read(declared) if declared else b""
        if len(data) < declared:
            raise ApiProblem(
                400,
                "bad-request",
                "Bad Request",
                f"the body ended after {len(data)} of the {declared} bytes its Content-Length "
                "declares",
                [FieldError("", "body shorter than its Content-Length")],
            )
        return data
    if not environ.get("wsgi.input_terminated"):
        return b""
    stream = environ["wsgi.input"]
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(min(1 << 20, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)


def _too_large(limit: int) -> ApiProblem:
    return ApiProblem(
        413,
        "request-entity-too-large",
        "Request Entity Too Large",
        f"the request body is larger than the limit of {limit} bytes",
        [FieldError("", f"body larger than {limit} bytes")],
    )


@cache
def _schema(kind: type[Schema]) -> Schema:
    """One instance per schema class: making one deep-copies its fields (a tenth of the time
    of a small request), and loading leaves no state in it."""
    return kind()


def load(schema: type[Schema]) -> Any:
    """Decode the JSON body and validate its envelope with (an instance of) ``schema``."""
    decoded = json_body()
    current_deadline().check()
    if not isinstance(decoded, dict):
        raise ApiProblem(
            422,
            "invalid-request",
            "Invalid request",
            "the body must be a JSON object",
            [FieldError("", "expected an object")],
        )
    return _schema(schema).load(decoded)
