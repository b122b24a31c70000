"""Reading request bodies: content type, size, JSON syntax, nesting depth, envelope schema."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from threading import Lock
from typing import Any, Final

import orjson
from flask import current_app, request
from marshmallow import Schema
from werkzeug.wsgi import get_content_length

from api.problems import ApiProblem
from games.errors import FieldError
from games.limits import active_limits, current_deadline
from games.trees.compiled_reader import ScannedShorthand, scan_shorthand


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
    """``data`` decoded as JSON, or a 400 (malformed) or 413 (nested too deeply) problem."""
    try:
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


@dataclass(frozen=True, slots=True)
class ScannedTree:
    """A body's plain ``tree``, read from its bytes by the compiled scanner (see
    :func:`load`), and where its text lies in the body (for a reader that needs the decoded
    JSON after all: the text is copied out only then). ``scanned`` is None for a plain tree
    of more nodes than the limit allows, refused without being decoded."""

    scanned: ScannedShorthand | None
    body: bytes
    start: int
    end: int

    @property
    def text(self) -> bytes:
        return self.body[self.start : self.end]


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


def load(schema: type[Schema], *, scan_tree: bool = False) -> Any:
    """Decode the JSON body and validate its envelope with (an instance of) ``schema``.

    With ``scan_tree``, a plain ``tree`` member (nested arrays of integers, and objects
    whose one member is ``children`` or ``value``) is read straight from the body's bytes
    into columns, and only the rest of the body is decoded: the member is then a
    :class:`ScannedTree` (see :func:`api.tree_requests.read_tree`). A large plain tree costs
    its decoder more than the scan costs in all. Any body the scanner does not take whole
    (another tree form, a syntax error anywhere, the depth limit passed) is decoded as usual,
    so its answer and errors are the same either way. A plain tree past the node limit is
    refused by the reader at ``/tree`` without being decoded: decoded, such a body took some
    20 times its size in memory and a second of work before the readers refused it.

    The rest of such a body is most often the same few bytes request after request
    (``{"tree":0}``, ``{"tree":0,"layout":"columns"}``): its envelope, once validated, is kept
    by its exact text (see :data:`ENVELOPES_KEPT`), and the same text is not decoded and
    validated again (most of the fixed cost of a small tree request after Flask's own).
    """
    data = body_bytes()
    found = _scanned(data) if scan_tree else None
    if found is not None:
        text, tree = found
        kept = _envelopes.get((schema, text))
        if kept is not None:
            current_deadline().check()
            return {**kept, "tree": tree}
        rest = _rest(text)
        if rest is not None:
            current_deadline().check()
            rest["tree"] = tree
            loaded = _schema(schema).load(rest)
            _keep(schema, text, loaded)
            return loaded
    decoded = decode(data)
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


def _scanned(data: bytes) -> tuple[bytes, ScannedTree] | None:
    """The body's shorthand ``tree`` scanned (see :func:`load`), with the rest of the body,
    the tree's text replaced by a placeholder; or None."""
    found = scan_shorthand(data, active_limits())
    if found is None:
        return None
    scanned, start, end = found
    return data[:start] + b"0" + data[end:], ScannedTree(scanned, data, start, end)


def _rest(text: bytes) -> dict[str, Any] | None:
    """The rest of a scanned body (see :func:`_scanned`) decoded, or None: the whole body is
    then decoded, for the answer or the error that gives."""
    if _LONG_RUN in text.translate(_DIGITS_AS_ZERO):
        return None  # (the exact decoder, whose nesting limit is Python's, reads it all)
    try:
        rest = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None  # (decoded whole, for the error's byte position)
    return rest if isinstance(rest, dict) else None


ENVELOPES_KEPT: Final = 256
"""Validated envelopes of tree requests kept, by schema and the exact text of the body
around the tree (of at most :data:`ENVELOPE_TEXT` bytes, every member a plain value), the
oldest dropped first. Only schemas whose validation reads nothing but the body qualify
(the tree endpoints' do: no limit of the app's configuration is read there)."""

ENVELOPE_TEXT: Final = 256
"""Longest text of a kept envelope (see :data:`ENVELOPES_KEPT`), in bytes."""

_PLAIN: Final = (type(None), bool, int, float, str)
_envelopes: dict[tuple[type[Schema], bytes], dict[str, Any]] = {}
_envelopes_lock = Lock()


def _keep(schema: type[Schema], text: bytes, loaded: Any) -> None:
    """Keep ``loaded``, the envelope validated from ``text``, but its tree (see
    :data:`ENVELOPES_KEPT`): only where every other member is a plain value, which a request
    reading it cannot change for the next."""
    if len(text) > ENVELOPE_TEXT or not isinstance(loaded, dict):
        return
    envelope = {name: value for name, value in loaded.items() if name != "tree"}
    if not all(type(value) in _PLAIN for value in envelope.values()):
        return
    with _envelopes_lock:
        if len(_envelopes) >= ENVELOPES_KEPT:
            del _envelopes[next(iter(_envelopes))]
        _envelopes[(schema, text)] = envelope
