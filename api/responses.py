"""JSON responses serialised with orjson (several times faster than the stdlib), gzipped
when large and the client accepts it."""

from __future__ import annotations

import gzip
from typing import Any, Final

import orjson
from flask import Response, request

GZIP_FROM: Final = 64 * 1024
"""Smallest answer, in bytes, sent gzipped to a client that accepts it (a tree answer runs
to 50 bytes a node; below this size compressing costs more time than it saves)."""

GZIP_LEVEL: Final = 1
"""zlib's fastest level: a tree answer's repetitive JSON still shrinks about tenfold, at
several times the speed of the default level."""


def json_response(body: Any, status: int = 200) -> Response:
    """``body`` as JSON (orjson), gzipped when at least :data:`GZIP_FROM` bytes long and the
    request's ``Accept-Encoding`` gives gzip a quality above 0 (werkzeug reads the header,
    ``*`` included)."""
    data = orjson.dumps(body)
    response = Response(data, status=status, mimetype="application/json")
    if len(data) >= GZIP_FROM:
        response.vary.add("Accept-Encoding")
        if request.accept_encodings["gzip"] > 0:
            response.set_data(gzip.compress(data, GZIP_LEVEL, mtime=0))
            response.headers["Content-Encoding"] = "gzip"
    return response
