"""Per-view API documentation, gathered into ``openapi.yaml`` by ``api.openapi.spec``.

A view declares what it takes and returns with :func:`operation`; the spec is
built from the app's own URL map, so a route without documentation cannot be
published and the committed ``openapi.yaml`` cannot silently drift (a test
regenerates it and compares).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from marshmallow import Schema

View = TypeVar("View", bound=Callable[..., Any])


@dataclass(frozen=True)
class Operation:
    summary: str
    description: str = ""
    tag: str = ""
    request: type[Schema] | None = None
    response: type[Schema] | dict[str, Any] | None = None
    response_description: str = "OK"
    media_type: str = "application/json"
    errors: Sequence[int] = (400, 413, 415, 422)
    extra_responses: dict[str, Any] = field(default_factory=dict)
    example: dict[str, Any] | None = None


def operation(**kwargs: Any) -> Callable[[View], View]:
    """Attach an :class:`Operation` to a view function."""

    def attach(view: View) -> View:
        view.openapi_operation = Operation(**kwargs)  # type: ignore[attr-defined]
        return view

    return attach
