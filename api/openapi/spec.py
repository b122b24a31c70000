"""Build the OpenAPI document from the app's routes and marshmallow schemas.

``python -m api.openapi > openapi.yaml`` regenerates the committed contract.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask
from marshmallow import fields

from api.openapi.components import COMPONENTS, PROBLEM
from api.openapi.view_docs import Operation

VERSION = "0.1.0"
_ERROR_TITLES = {
    400: "Malformed JSON or an empty body",
    413: (
        "A limit was exceeded: body size, JSON nesting, node count, depth, time, memory or "
        "trace size"
    ),
    415: "The body is not application/json",
    422: "The input is invalid; errors[] points at each offending field",
}
_DESCRIPTION = (
    "Exact game-tree search, game analysis and expected-utility checks. Numbers are "
    'given as JSON numbers or exact strings ("-7/2", "0.1"). Every number in an answer '
    "follows one rule: field `x` is a JSON number (an integer within 64 bits as itself, "
    "anything else as the nearest double) and `x_exact` holds the exact value as a string "
    '("7/2", the digits of a big integer, "5*sqrt(10)") exactly when that JSON number is not '
    "the value itself; a list or map of numbers has one `x_exact` of the same shape, with "
    "every entry as a string, when any entry is inexact. Values computed in floating point "
    "have no `x_exact`. See the ExactCompanion component and docs/numbers.md. Errors are "
    "RFC 9457 problem details with a JSON pointer per offending field."
)


_REFUSALS = {
    429: (
        "This client already has as many computations running and waiting as one client may "
        "(ARBITER_CLIENT_SHARE); retry after the seconds Retry-After gives"
    ),
    503: (
        "Every computation slot is taken and the queue is full or its wait ran out; retry "
        "after the seconds Retry-After gives"
    ),
}
"""What the production server answers a computation it does not admit (docs/limits.md)."""


def _raw_field_schema(_converter: Any, field: fields.Field[Any], **_: Any) -> dict[str, Any]:
    """Let a field state its own JSON schema in ``metadata["openapi"]``."""
    schema = field.metadata.get("openapi")
    return dict(schema) if schema else {}


def _path(rule: str) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def _operation(op: Operation, rule_arguments: set[str]) -> dict[str, Any]:
    doc: dict[str, Any] = {"summary": op.summary, "operationId": None}
    if op.description:
        doc["description"] = op.description
    if op.tag:
        doc["tags"] = [op.tag]
    if rule_arguments:
        doc["parameters"] = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in sorted(rule_arguments)
        ]
    if op.request is not None:
        content: dict[str, Any] = {"schema": op.request}
        if op.example is not None:
            content["example"] = op.example
        doc["requestBody"] = {"required": True, "content": {"application/json": content}}
    ok: dict[str, Any] = {"description": op.response_description}
    if op.response is not None:
        ok["content"] = {op.media_type: {"schema": op.response}}
    responses: dict[str, Any] = {"200": ok}
    responses.update(op.extra_responses)
    for status in op.errors:
        responses[str(status)] = {
            "description": _ERROR_TITLES[status],
            "content": {
                "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            },
        }
    if op.request is not None:
        for status, description in _REFUSALS.items():
            responses[str(status)] = {
                "description": description,
                "headers": {
                    "Retry-After": {
                        "description": "Seconds to wait before trying again",
                        "schema": {"type": "integer", "minimum": 1},
                    }
                },
                "content": {
                    "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
                },
            }
    doc["responses"] = responses
    return doc


def build_spec(app: Flask) -> APISpec:
    """The OpenAPI 3.0 document of ``app``; fails if a route is undocumented."""
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Arbiter",
        version=VERSION,
        openapi_version="3.0.3",
        plugins=[plugin],
        info={"description": _DESCRIPTION},
    )
    plugin.converter.add_attribute_function(_raw_field_schema)  # type: ignore[union-attr]
    spec.components.schema("Problem", PROBLEM)
    for name, schema in COMPONENTS.items():
        spec.components.schema(name, schema)
    paths: dict[str, dict[str, Any]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        view = app.view_functions[rule.endpoint]
        op = getattr(view, "openapi_operation", None)
        if op is None:
            raise RuntimeError(f"route {rule.rule} ({rule.endpoint}) has no OpenAPI operation")
        methods = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
        for method in methods:
            doc = _operation(op, set(rule.arguments))
            doc["operationId"] = f"{method.lower()}_{rule.endpoint.replace('.', '_')}"
            paths.setdefault(_path(rule.rule), {})[method.lower()] = doc
    for path in sorted(paths):
        spec.path(path=path, operations=paths[path])
    return spec


class _PlainDumper(yaml.SafeDumper):
    """Writes repeated sub-schemas out in full instead of as YAML anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def spec_yaml(app: Flask) -> str:
    document = build_spec(app).to_dict()
    ordered = {"openapi": document.pop("openapi"), **document}
    return yaml.dump(ordered, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, width=100)
