"""What the compiled searches of old still import from here; the reader's compiled twin is
``read_plain`` in ``games/trees/_reader.pyx``, chosen by :mod:`games.trees.parser`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def walkable(children: Sequence[Any]) -> list[Any]:
    """``children`` as the compiled loops take them: a list (any other sequence listed)."""
    return children if type(children) is list else list(children)
