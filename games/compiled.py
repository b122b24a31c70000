"""Which compiled kernels run: the one place ``ARBITER_PURE_PYTHON`` is read.

Each algorithm with a compiled kernel (a Cython module the set-up builds, optional: a
machine without a C compiler goes without) has a Python implementation that gives the
same answers. :func:`kernel` returns the compiled module, or None where it was not built
or ``ARBITER_PURE_PYTHON=1`` asks for the Python code (CI runs the search tests so too).

>>> kernel("no.such.module") is None
True
"""

from __future__ import annotations

import os
from importlib import import_module
from types import ModuleType
from typing import Final

PURE_PYTHON: Final = os.environ.get("ARBITER_PURE_PYTHON") == "1"
"""Whether the Python implementations run everywhere, compiled kernels or not."""


def kernel(name: str) -> ModuleType | None:
    """The compiled module ``name`` (e.g. ``"analysis.trees._kernels"``), or None when it
    is not built or :data:`PURE_PYTHON` is set."""
    if PURE_PYTHON:
        return None
    try:
        return import_module(name)
    except ImportError:
        return None
