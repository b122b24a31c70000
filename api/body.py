"""Reading request bodies: content type, JSON syntax, nesting depth, envelope schema."""

from __future__ import annotations

from typing import Any

import orjson
from flask import request
from marshmallow import Schema

from api.problems import ApiProblem
from games.errors import FieldError


def json_body() -> Any:
    """The decoded JSON body, or a 415/400/413 problem.

    orjson (like Python's own parser) refuses nesting deeper than about 1,000
    levels; such a body is refused with a pointer to the flat tree form.
    """
    mimetype = request.mimetype
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiProblem(
            415,
            "unsupported-media-type",
            "Unsupported media type",
            f"send the body as application/json, not {mimetype or 'no content type'}",
            [FieldError("", "Content-Type must be application/json")],
        )
    data = request.get_data(cache=False)
    if not data:
        raise ApiProblem(
            400,
            "malformed-json",
            "Malformed JSON",
            "the request body is empty",
            [FieldError("", "empty body")],
        )
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as error:
        if "recursion" in str(error).lower() or "depth limit" in str(error).lower():
            raise ApiProblem(
                413,
                "nesting-too-deep",
                "JSON nested too deeply",
                "the JSON is nested deeper than the parser's limit of about 1,000 levels; "
                'post deep trees in the flat form {"root": id, "nodes": [...]}, where '
                "children are listed by id",
                [FieldError("", "JSON nesting deeper than about 1,000 levels")],
            ) from None
        raise ApiProblem(
            400,
            "malformed-json",
            "Malformed JSON",
            f"the body is not valid JSON: {error} (at byte {error.pos})",
            [FieldError("", f"invalid JSON at byte {error.pos}")],
        ) from None


def load(schema: Schema) -> Any:
    """Decode the JSON body and validate its envelope with ``schema``."""
    data = json_body()
    if not isinstance(data, dict):
        raise ApiProblem(
            422,
            "invalid-request",
            "Invalid request",
            "the body must be a JSON object",
            [FieldError("", "expected an object")],
        )
    return schema.load(data)
