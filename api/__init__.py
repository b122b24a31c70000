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

    from api import matrices, meta, trees
    from api import lotteries, preferences, utility_functions

    app.register_blueprint(meta.bp)
    app.register_blueprint(trees.bp)
    app.register_blueprint(matrices.bp)
    app.register_blueprint(lotteries.bp)
    app.register_blueprint(utility_functions.bp)
    app.register_blueprint(preferences.bp)
    from api import tree_formats

    app.register_blueprint(tree_formats.bp)
    from api import grading

    app.register_blueprint(grading.bp)
    return app
