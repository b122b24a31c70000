"""Pause Python's cyclic garbage collector while a request is handled.

The app pauses it around each whole request (``api.create_app``), so it is switched back on
once the view's objects are freed: switched on while they still live, its first collection
would scan everything the request built, most of the time of a small request.

Parsing a million-node tree allocates millions of containers; each allocation
burst triggers collections that rescan every live object, which costs more
than the parsing itself. Reference counting frees what a request builds (answers
are trees of dicts and lists); the few cycles it may leave (a traceback, a symbolic
computation's caches) are collected once the collector is back on.

The collector is process-wide, so pauses are counted: with several requests in
threads, it is switched back on when the last paused request ends (and only if
it was on when the first began), never while another one still runs, and never
left off when requests end out of order or with an error (a request stopped by its
deadline leaves a traceback cycle, collected once the collector is back on).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from threading import Lock

_lock = Lock()
_paused = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    global _paused, _was_enabled
    with _lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()
