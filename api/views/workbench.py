"""The web workbench: a page at ``/`` over the same API, served by the app (works offline)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from flask import Blueprint, Response
from werkzeug.exceptions import NotFound

from api.openapi.view_docs import operation

bp = Blueprint("workbench", __name__)

PAGES: Final = Path(__file__).resolve().parent.parent / "workbench"
MEDIA_TYPES: Final = {"app.js": "text/javascript", "style.css": "text/css"}
"""The files the page loads; nothing else in the folder is served."""
FILES: Final = {name: (PAGES / name).read_bytes() for name in ("index.html", *MEDIA_TYPES)}
"""The page's few small files, read once (the page must not depend on the working folder)."""


@bp.get("/")
@operation(
    summary="The web workbench: solve and draw game trees in a browser",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def workbench() -> Response:
    return Response(FILES["index.html"], mimetype="text/html")


@bp.get("/workbench/<name>")
@operation(
    summary="Static files of the workbench page",
    tag="workbench",
    response={"type": "string", "format": "binary"},
    media_type="application/octet-stream",
    errors=(),
    extra_responses={"404": {"description": "No such asset"}},
)
def workbench_asset(name: str) -> Response:
    if name not in MEDIA_TYPES:
        raise NotFound(f"no workbench file named {name!r}")
    return Response(FILES[name], mimetype=MEDIA_TYPES[name])
