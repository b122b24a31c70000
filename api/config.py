"""Default settings of the Arbiter app; each may be overridden by an ``ARBITER_*``
environment variable or by the ``config`` mapping given to ``create_app``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from games.limits import Limits

DEFAULTS: dict[str, Any] = {
    # Largest request body in bytes (over it is a 413, chunked uploads included). A worker
    # needs up to about 30 times the body while it parses and answers (docs/limits.md).
    "MAX_CONTENT_LENGTH": 32 * 1024 * 1024,
    # Most nodes in a posted tree.
    "ARBITER_MAX_NODES": 2_000_000,
    # Deepest tree, in plies (the flat form allows trees far deeper than JSON nesting).
    "ARBITER_MAX_DEPTH": 1_000_000,
    # Seconds one computation may run.
    "ARBITER_TIME_LIMIT": 60.0,
    # Largest tree for which a step-by-step trace is produced.
    "ARBITER_MAX_TRACE_NODES": 100_000,
    # Most decimal digits of the numerator or denominator of an exact number computed
    # on the way to an answer (probability sums and products, backed-up values, utilities).
    "ARBITER_MAX_EXACT_DIGITS": 1000,
    # Most answers one batch-grading request may carry.
    "ARBITER_MAX_BATCH_ANSWERS": 10_000,
    # Largest time budget (seconds) a /v1/games request may give the engine; kept below
    # ARBITER_TIME_LIMIT so the engine answers before the request is stopped.
    "ARBITER_MAX_GAME_TIME_LIMIT": 30.0,
    # Deepest search or unfolded tree, in plies, a /v1/games request may ask for.
    "ARBITER_MAX_GAME_DEPTH": 64,
    # Most nodes of a tree unfolded by /v1/games/tree (its answer is the whole tree).
    "ARBITER_MAX_GAME_TREE_NODES": 100_000,
    # Megabytes a request's computation may add to its process (the address space it maps
    # past what it starts with); past it the request answers 413 memory-limit.
    "ARBITER_MAX_MEMORY_MB": 1024,
    # Computations running at once, each in a process of its own (0: two per core plus
    # four, fewer if the machine's memory cannot hold that many at ARBITER_MAX_MEMORY_MB).
    "ARBITER_WORKERS": 0,
    # Computations one client (one address) may run at once, and have waiting besides
    # (0: a quarter of ARBITER_WORKERS, at least one).
    "ARBITER_CLIENT_SHARE": 0,
    # Requests that may wait for a free computation slot (0: eight per slot), and the
    # seconds one may wait; past either, 503 overloaded with Retry-After.
    "ARBITER_QUEUE": 0,
    "ARBITER_QUEUE_TIMEOUT": 10.0,
    # Seconds a connection may stay silent (no byte received or sent) before it is closed.
    "ARBITER_CHANNEL_TIMEOUT": 30,
    # Most connections open at once (idle and slow ones included).
    "ARBITER_CONNECTION_LIMIT": 1000,
    # The address of a reverse proxy in front of the server, whose X-Forwarded-For header
    # is then trusted to name the client (empty: none; each address is its own client).
    "ARBITER_TRUSTED_PROXY": "",
    # Origins allowed to call the API from a browser (comma-separated; "*" for any).
    # Empty: no CORS headers, so browsers only allow same-origin calls.
    "ARBITER_CORS_ORIGINS": "",
}

_TYPES = {
    "MAX_CONTENT_LENGTH": int,
    "ARBITER_MAX_NODES": int,
    "ARBITER_MAX_DEPTH": int,
    "ARBITER_TIME_LIMIT": float,
    "ARBITER_MAX_TRACE_NODES": int,
    "ARBITER_MAX_EXACT_DIGITS": int,
    "ARBITER_MAX_BATCH_ANSWERS": int,
    "ARBITER_MAX_GAME_TIME_LIMIT": float,
    "ARBITER_MAX_GAME_DEPTH": int,
    "ARBITER_MAX_GAME_TREE_NODES": int,
    "ARBITER_CORS_ORIGINS": str,
    "ARBITER_MAX_MEMORY_MB": int,
    "ARBITER_WORKERS": int,
    "ARBITER_CLIENT_SHARE": int,
    "ARBITER_QUEUE": int,
    "ARBITER_QUEUE_TIMEOUT": float,
    "ARBITER_CHANNEL_TIMEOUT": int,
    "ARBITER_CONNECTION_LIMIT": int,
    "ARBITER_TRUSTED_PROXY": str,
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


def limits_from(config: Mapping[str, Any]) -> Limits:
    """The core's :class:`~games.limits.Limits` under these settings."""
    return Limits(
        max_nodes=config["ARBITER_MAX_NODES"],
        max_depth=config["ARBITER_MAX_DEPTH"],
        time_limit=config["ARBITER_TIME_LIMIT"],
        max_exact_digits=config["ARBITER_MAX_EXACT_DIGITS"],
    )
