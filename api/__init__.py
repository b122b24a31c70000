"""Arbiter's REST API: a Flask app factory.

Run with ``gunicorn 'api:create_app()'`` (see the README); the core packages
``games``, ``analysis`` and ``utility`` never import this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from api.config import settings
from api.problems import register_error_handlers


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Arbiter app; ``config`` overrides defaults and ``ARBITER_*`` variables."""
    app = Flask(__name__, static_folder=None)
    app.config.update(settings(config))
    register_error_handlers(app)

    from api import (
        grading,
        lotteries,
        matrices,
        meta,
        preferences,
        tree_formats,
        trees,
        utility_functions,
    )

    for module in (
        meta,
        trees,
        tree_formats,
        matrices,
        lotteries,
        utility_functions,
        preferences,
        grading,
    ):
        app.register_blueprint(module.bp)
    return app
