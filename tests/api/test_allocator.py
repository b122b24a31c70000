"""The allocator setting (api/allocator.py): large blocks come from the heap and freed ones
stay there for the next request, as glibc's own accounting (mallinfo2) shows."""

from __future__ import annotations

import ctypes
import platform

import pytest

from api import create_app
from api.allocator import keep_freed_memory

GLIBC = platform.libc_ver()[0] == "glibc"


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def mallinfo() -> MallInfo2:
    call = ctypes.CDLL(None).mallinfo2
    call.restype = MallInfo2
    return call()  # type: ignore[no-any-return]


@pytest.mark.skipif(not GLIBC, reason="the setting is glibc's")
def test_a_large_block_comes_from_the_heap_and_stays_there_once_freed() -> None:
    assert keep_freed_memory(256)
    mapped = mallinfo().hblkhd
    block = bytearray(20 * 1024 * 1024)  # over glibc's default 128 KB mmap threshold
    # not a mapping of its own (hblkhd counts the bytes in such mappings)
    assert mallinfo().hblkhd == mapped
    del block
    # freed, its 20 MB are kept as free heap rather than trimmed off
    assert mallinfo().fordblks >= 20 * 1024 * 1024


def test_zero_turns_it_off_and_the_app_takes_the_setting() -> None:
    assert not keep_freed_memory(0)
    app = create_app({"ARBITER_KEEP_FREED_MB": 64})
    assert app.config["ARBITER_KEEP_FREED_MB"] == 64
