"""Keep memory freed by one request for the next, instead of handing it back to the kernel.

A million-node tree request builds and frees about a hundred megabytes of arrays (the tree's
columns, the search's per-node results, the answer). glibc's ``malloc`` returns large freed
blocks to the kernel (``munmap``, or trimming the heap) and the next request gets fresh pages,
each zeroed by the kernel on first touch: measured, half the time of reading a large tree went
to those page faults. Two ``mallopt`` settings keep the blocks in the process instead: blocks up
to 32 MB (glibc's ceiling for this setting) come from the heap rather than their own mappings,
and up to ``megabytes`` of free heap is kept rather than trimmed. The cost is that a worker
keeps that much memory after a large request (``ARBITER_KEEP_FREED_MB``; 0 turns this off).

Only glibc has these settings; elsewhere (musl, macOS) nothing changes.
"""

from __future__ import annotations

import ctypes
import platform
from typing import Final

M_TRIM_THRESHOLD: Final = -1
M_MMAP_THRESHOLD: Final = -3
LARGEST_HEAP_BLOCK: Final = 32 * 1024 * 1024
"""glibc's ceiling for ``M_MMAP_THRESHOLD`` on 64-bit machines (``HEAP_MAX_SIZE / 2``)."""


def keep_freed_memory(megabytes: int) -> bool:
    """Ask glibc to serve blocks up to 32 MB from the heap and to keep up to ``megabytes`` of
    free heap; True if it took both settings (False: not glibc, or ``megabytes`` is 0)."""
    if megabytes <= 0 or platform.libc_ver()[0] != "glibc":
        return False
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    keep = min(megabytes, 2047) * 1024 * 1024  # a C int
    return bool(mallopt(M_MMAP_THRESHOLD, LARGEST_HEAP_BLOCK) and mallopt(M_TRIM_THRESHOLD, keep))
