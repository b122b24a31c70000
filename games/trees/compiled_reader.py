"""The compiled reader of the plainest trees, where the set-up built it.

:mod:`games.trees._reader` (Cython, built from ``_reader.pyx``) reads a tree of shorthand
arrays and integers, or of bare ``{"children"}`` and ``{"value"}`` objects, into the columns
:func:`games.trees.level_reader.plain_tree` builds, node for node, several times faster. Any
other tree, and every error, is left to the level reader and the general walk (which also
answer alone where the extension was not built, or with ``ARBITER_PURE_PYTHON=1``).
"""

from __future__ import annotations

import os
from typing import Any, Final

from games.limits import Limits, current_deadline
from games.numbers import MAX_MAGNITUDE
from games.trees.grammar import HANDOVER, ID_SEPARATOR
from games.trees.level_reader import plain_columns_tree
from games.trees.model import LEAF, ROOT_ID, Tree

try:
    from games.trees._reader import read_plain
except ImportError:  # not built: the level reader answers
    read_plain = None  # type: ignore[assignment]

COMPILED: Final = read_plain is not None and os.environ.get("ARBITER_PURE_PYTHON") != "1"
"""Whether the compiled reader is there to use."""


def compiled_plain_tree(raw: Any, root: str, limits: Limits, base: str) -> Tree | None:
    """The tree ``raw`` read by the compiled reader, or None when it is not of the plainest
    shape (or is wrong, or passes a limit): the level reader then reads it."""
    if not COMPILED:
        return None
    columns = read_plain(
        raw,
        root,
        HANDOVER,
        LEAF,
        ROOT_ID,
        ID_SEPARATOR,
        limits.max_nodes,
        limits.max_depth,
        MAX_MAGNITUDE,
        current_deadline().spend,
    )
    if columns is None:
        return None
    ids, kinds, children, parents, depths, positions, values, arrays, bare, leaves = columns
    return plain_columns_tree(
        ids,
        kinds,
        children,
        parents,
        depths,
        positions,
        values,
        [None] * len(ids),
        arrays,
        bare,
        base,
        leaves,
    )
