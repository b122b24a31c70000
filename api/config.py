"""Default settings of the Arbiter app; each may be overridden by an ``ARBITER_*``
environment variable or by the ``config`` mapping given to ``create_app``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

DEFAULTS: dict[str, Any] = {
    # Largest request body in bytes (Flask enforces it; over it is a 413).
    "MAX_CONTENT_LENGTH": 256 * 1024 * 1024,
    # Most nodes in a posted tree.
    "ARBITER_MAX_NODES": 2_000_000,
    # Deepest tree, in plies (the flat form allows trees far deeper than JSON nesting).
    "ARBITER_MAX_DEPTH": 1_000_000,
    # Seconds one computation may run.
    "ARBITER_TIME_LIMIT": 60.0,
    # Largest tree for which a step-by-step trace is produced.
    "ARBITER_MAX_TRACE_NODES": 100_000,
}

_TYPES = {
    "MAX_CONTENT_LENGTH": int,
    "ARBITER_MAX_NODES": int,
    "ARBITER_MAX_DEPTH": int,
    "ARBITER_TIME_LIMIT": float,
    "ARBITER_MAX_TRACE_NODES": int,
}


def settings(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults, then environment variables, then ``config``."""
    merged = dict(DEFAULTS)
    for name, cast in _TYPES.items():
        env_name = name if name.startswith("ARBITER_") else f"ARBITER_{name}"
        if env_name in os.environ:
            merged[name] = cast(os.environ[env_name])
    if config:
        merged.update(config)
    return merged
