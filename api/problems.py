"""RFC 9457 problem details: every error leaves the API as ``application/problem+json``."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from http import HTTPStatus
from typing import Any

import orjson
from flask import Flask, Response, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from games.errors import (
    ArbiterError,
    ExactSizeError,
    FieldError,
    LimitExceededError,
    TimeLimitError,
)

PROBLEM_TYPE = "https://arbiter.dev/problems/"
log = logging.getLogger(__name__)

_SETTINGS: dict[type[ArbiterError], str] = {
    TimeLimitError: "ARBITER_TIME_LIMIT",
    ExactSizeError: "ARBITER_MAX_EXACT_DIGITS",
}
"""The setting behind each limit error, named in its problem's detail."""


class ApiProblem(Exception):
    """An error raised by the REST layer itself (content type, JSON syntax, ...)."""

    def __init__(
        self, status: int, slug: str, title: str, detail: str, errors: Iterable[FieldError] = ()
    ):
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = detail
        self.errors = list(errors)


def problem_body(
    status: int, slug: str, title: str, detail: str, errors: Iterable[FieldError] = ()
) -> bytes:
    """The JSON of one problem: what every error answer of the app and the server holds."""
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE + slug,
        "title": title,
        "status": status,
        "detail": detail,
        "errors": [{"pointer": e.pointer, "message": e.message} for e in errors],
    }
    return orjson.dumps(body)


def problem(
    status: int, slug: str, title: str, detail: str, errors: Iterable[FieldError] = ()
) -> Response:
    return Response(
        problem_body(status, slug, title, detail, errors),
        status=status,
        mimetype="application/problem+json",
    )


def problem_answer(
    status: int, slug: str, title: str, detail: str
) -> tuple[str, list[tuple[str, str]], list[bytes]]:
    """One problem as a WSGI status line, headers and body, for the answers the server
    writes outside the app (a request refused at admission, stopped or out of memory)."""
    body = problem_body(status, slug, title, detail, [FieldError("", detail)])
    headers = [
        ("Content-Type", "application/problem+json"),
        ("Content-Length", str(len(body))),
        ("X-Content-Type-Options", "nosniff"),
    ]
    return f"{status} {HTTPStatus(status).phrase}", headers, [body]


def memory_limit_detail(megabytes: object) -> str:
    """What a request stopped at the memory bound is told."""
    return (
        f"the computation needed more than the memory limit of {megabytes} MB "
        "(the server's ARBITER_MAX_MEMORY_MB)"
    )


def pointers_from_messages(messages: Any, prefix: str = "") -> list[FieldError]:
    """Turn marshmallow's nested error messages into pointer/message pairs."""
    if isinstance(messages, Mapping):
        found: list[FieldError] = []
        for key, value in messages.items():
            token = str(key).replace("~", "~0").replace("/", "~1")
            where = prefix if key == "_schema" else f"{prefix}/{token}"
            found.extend(pointers_from_messages(value, where))
        return found
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [FieldError(prefix, m) for m in messages]
    if isinstance(messages, list):
        return [e for m in messages for e in pointers_from_messages(m, prefix)]
    return [FieldError(prefix, str(messages))]


def request_field(parameter: str) -> str:
    """The request pointer of a core parameter: requests name their fields as the core does."""
    return "/" + parameter


@contextmanager
def parameters_at(**pointers: str) -> Iterator[None]:
    """Point errors about the core's parameters at this request's fields, for the few
    fields named apart from the parameter they feed (``include`` feeds ``parts``)."""
    try:
        yield
    except ArbiterError as error:
        error.located(lambda name: pointers.get(name) or request_field(name))
        raise


def register_error_handlers(app: Flask) -> None:
    """Map every exception to one problem response, once, here."""

    @app.errorhandler(ApiProblem)
    def api_problem(error: ApiProblem) -> Response:
        return problem(error.status, error.slug, error.title, error.detail, error.errors)

    @app.errorhandler(ArbiterError)
    def arbiter_error(error: ArbiterError) -> Response:
        # a core parameter not mapped by its view is the request field of the same name
        error.located(request_field)
        if isinstance(error, LimitExceededError):
            detail = error.message
            setting = _SETTINGS.get(type(error))
            if setting:
                detail = f"{detail} (the server's {setting})"
            return problem(413, error.slug, error.title, detail, error.errors)
        return problem(422, error.slug, error.title, error.message, error.errors)

    @app.errorhandler(ValidationError)
    def validation_error(error: ValidationError) -> Response:
        found = pointers_from_messages(error.messages)
        detail = "; ".join(f"{e.pointer or '/'}: {e.message}" for e in found[:5])
        return problem(422, "invalid-request", "Invalid request", detail, found)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        slug = (error.name or "error").lower().replace(" ", "-")
        detail = error.description or error.name or ""
        allowed = [m for m in getattr(error, "valid_methods", None) or () if m != "OPTIONS"]
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            detail = f"the request body is larger than the limit of {limit} bytes"
        elif status == 405 and allowed:
            detail = (
                f"{request.method} is not allowed on {request.path}; use {' or '.join(allowed)}"
            )
        response = problem(status, slug, error.name or "Error", detail)
        if status == 405 and error.response is None and allowed:
            response.headers["Allow"] = ", ".join([*allowed, "OPTIONS"])
        return response

    @app.errorhandler(MemoryError)
    def out_of_memory(error: MemoryError) -> Response:
        # raised where an allocation passed the process's bound (api/compute.py), or the
        # machine's memory when the app runs without one
        detail = memory_limit_detail(app.config.get("ARBITER_MAX_MEMORY_MB"))
        return problem(
            413, "memory-limit", "Memory limit exceeded", detail, [FieldError("", detail)]
        )

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        log.exception("unexpected error")
        return problem(
            500,
            "internal",
            "Internal error",
            "the server failed to handle this request; it has been logged",
        )
