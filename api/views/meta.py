"""Service endpoints: health, the OpenAPI document and the interactive docs page."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, send_from_directory
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import NotFound

from api.openapi.spec import VERSION, spec_yaml
from api.openapi.view_docs import operation
from api.responses import json_response

bp = Blueprint("meta", __name__)

_DOCS_ASSETS = frozenset(
    {
        "swagger-ui.css",
        "swagger-ui-bundle.js",
        "swagger-ui-standalone-preset.js",
        "favicon-32x32.png",
        "favicon-16x16.png",
    }
)
_DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Arbiter · API docs</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script type="module" src="/workbench/api-docs.js"></script>
</body>
</html>
"""

_HEALTH = {
    "type": "object",
    "required": ["status", "version"],
    "properties": {"status": {"type": "string", "enum": ["ok"]}, "version": {"type": "string"}},
}


@bp.get("/v1/health")
@operation(summary="Liveness check", tag="service", response=_HEALTH, errors=())
def health() -> Response:
    return json_response({"status": "ok", "version": VERSION})


@bp.get("/openapi.yaml")
@operation(
    summary="This API's OpenAPI document",
    tag="service",
    response={"type": "object", "description": "An OpenAPI 3.0 document."},
    media_type="application/yaml",
    errors=(),
)
def openapi_document() -> Response:
    cached = current_app.extensions.get("arbiter_spec")
    if cached is None:
        cached = current_app.extensions["arbiter_spec"] = spec_yaml(current_app)
    return Response(cached, mimetype="application/yaml")


@bp.get("/docs")
@operation(
    summary="Interactive API documentation (Swagger UI, served locally, works offline)",
    tag="service",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def docs() -> Response:
    return Response(_DOCS_PAGE, mimetype="text/html")


@bp.get("/docs/assets/<name>")
@operation(
    summary="Static files of the documentation page",
    tag="service",
    response={"type": "string", "format": "binary"},
    media_type="application/octet-stream",
    errors=(),
    extra_responses={"404": {"description": "No such asset"}},
)
def docs_asset(name: str) -> Response:
    if name not in _DOCS_ASSETS:
        raise NotFound(f"no documentation asset named {name!r}")
    return send_from_directory(str(swagger_ui_path), name, max_age=86400)
