"""Arbiter's REST API: a Flask app factory.

Run with ``gunicorn 'api:create_app()'`` (see the README); the core packages
``games``, ``analysis`` and ``utility`` never import this one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, Response
from flask_cors import CORS

from api.config import limits_from, settings
from api.problems import register_error_handlers
from api.views import (
    extensive,
    games,
    grading,
    lotteries,
    matrices,
    meta,
    preferences,
    tree_formats,
    trees,
    utility_functions,
    workbench,
)
from games.figures import load_matplotlib
from games.limits import limited


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Arbiter app; ``config`` overrides defaults and ``ARBITER_*`` variables."""
    app = Flask(__name__, static_folder=None)
    app.config.update(settings(config))
    register_error_handlers(app)
    _run_under_limits(app)
    _set_headers(app)
    load_matplotlib()  # here, not inside the first plotting request's deadline

    for module in (
        meta,
        trees,
        tree_formats,
        matrices,
        lotteries,
        utility_functions,
        preferences,
        grading,
        games,
        extensive,
        workbench,
    ):
        app.register_blueprint(module.bp)
    return app


def _run_under_limits(app: Flask) -> None:
    """Give every request one deadline, from its first byte read to its last computed.

    Everything the request starts (parsing, solving, grading, writing the answer) finds
    it through :func:`games.limits.current_deadline`.
    """
    inner = app.wsgi_app

    def wsgi_app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        with limited(limits_from(app.config)):
            return inner(environ, start_response)

    app.wsgi_app = wsgi_app  # type: ignore[method-assign]


def _set_headers(app: Flask) -> None:
    """On every answer ``nosniff``, a Content-Security-Policy and no framing; CORS only for
    the origins ``ARBITER_CORS_ORIGINS`` lists.

    The policy lets a page load and run only the app's own scripts and style sheets (no
    inline script or style: text a page shows can never run), images also from ``data:``
    and ``blob:`` URLs (Swagger UI's icons, a drawing exported as PNG), no plugins, and
    no page of the app inside another site's frame.
    """
    policy = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
    )
    origins = [o.strip() for o in str(app.config["ARBITER_CORS_ORIGINS"]).split(",") if o.strip()]
    if origins:
        CORS(app, origins="*" if origins == ["*"] else origins)

    @app.after_request
    def protect(response: Response) -> Response:
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = policy
        response.headers["X-Frame-Options"] = "DENY"
        return response
