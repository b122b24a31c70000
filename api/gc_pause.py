"""Pause Python's cyclic garbage collector while one large request is handled.

Parsing a million-node tree allocates millions of containers; each allocation
burst triggers collections that rescan every live object, which costs more
than the parsing itself. Nothing built while handling a request forms a
reference cycle (results are trees of dicts and lists), so reference counting
frees it all; the collector is switched back on when the request ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
