"""The compiled reader of plain trees, where the set-up built it.

:mod:`games.trees._reader` (Cython, built from ``_reader.pyx``) reads a tree of shorthand
arrays and integers, or of objects whose only fields are ``children``, an integer ``value``,
``kind`` and ``p`` (expectiminimax trees included), into the columns
:func:`games.trees.level_reader.plain_tree` builds, node for node, several times faster. Any
other tree, and every error, is left to the level reader and the general walk (which also
answer alone where the extension was not built, or with ``ARBITER_PURE_PYTHON=1``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import Any, Final

from games.limits import Limits, current_deadline
from games.numbers import MAX_MAGNITUDE, Exact
from games.trees.exact_sums import bounded_lcm
from games.trees.grammar import HANDOVER, ID_SEPARATOR, read_probability
from games.trees.level_reader import chance_settles, plain_columns_tree
from games.trees.model import (
    CHANCE,
    LEAF,
    MAX,
    MIN,
    ROOT_ID,
    ChanceWeights,
    Tree,
)

try:
    from games.trees._reader import ChildRanges, ScannedShorthand, read_plain, scan_body
except ImportError:  # not built: the level reader answers
    read_plain = scan_body = None  # type: ignore[assignment]
    ScannedShorthand = ChildRanges = None  # type: ignore[assignment,misc]

COMPILED: Final = read_plain is not None and os.environ.get("ARBITER_PURE_PYTHON") != "1"
"""Whether the compiled reader is there to use."""


def scan_shorthand(body: bytes, limits: Limits) -> tuple[ScannedShorthand | None, int, int] | None:
    """``(tree, start, end)`` when ``body`` is a JSON object whose ``tree`` is a plain tree
    (nested arrays of integers, and objects whose one member is ``children`` or ``value``)
    within ``limits``, read straight from the bytes
    (``body[start:end]`` is its text; see :func:`games.trees._reader.scan_body`); else None,
    and the body is decoded as usual. A plain tree of more nodes than ``limits`` allow gives
    ``(None, start, end)``: its text was read to the end, but no more than the limit kept."""
    if not COMPILED:
        return None
    return scan_body(body, limits.max_nodes, limits.max_depth, current_deadline().spend)


def walkable(children: Sequence[Any]) -> Any:
    """``children`` as the compiled loops take them: a list, or a :class:`ChildRanges` as it
    is (they read its columns); any other sequence listed."""
    if type(children) is list or (ChildRanges is not None and type(children) is ChildRanges):
        return children
    return list(children)


KIND_NAMES: Final = (MAX, MIN, CHANCE, LEAF)
"""The kinds a plain node may have, in the order of the compiled reader's codes."""


def compiled_plain_tree(raw: Any, root: str, limits: Limits, base: str) -> Tree | None:
    """The tree ``raw`` read by the compiled reader, or None when it is not of the plain
    shape (or is wrong, or passes a limit): the level reader then reads it."""
    if not COMPILED:
        return None
    deadline = current_deadline()
    numbers: dict[str, Exact] = {}
    columns = read_plain(
        raw,
        root,
        KIND_NAMES,
        HANDOVER,
        ROOT_ID,
        ID_SEPARATOR,
        limits.max_nodes,
        limits.max_depth,
        MAX_MAGNITUDE,
        partial(read_probability, cache=numbers, spend=deadline.spend),
        common_weights,
        deadline.spend,
    )
    if columns is None:
        return None
    return _tree_of(columns, base)


def scanned_shorthand_tree(scanned: ScannedShorthand, root: str, base: str) -> Tree | None:
    """The tree a :func:`games.trees._reader.scan_body` scan read from a request's bytes,
    its internal nodes' kinds following ``root``; None where ``root`` is not MAX or MIN."""
    columns = scanned.columns(root, KIND_NAMES, HANDOVER, ROOT_ID, ID_SEPARATOR)
    tree = None if columns is None else _tree_of(columns, base)
    if tree is not None:
        object.__setattr__(tree, "_leaf_words", scanned.value)
    return tree


def _tree_of(columns: Any, base: str) -> Tree | None:
    """The tree of the compiled reader's columns (None: its chance nodes do not settle)."""
    (
        ids,
        kinds,
        children,
        parents,
        depths,
        positions,
        values,
        probabilities,
        chance_nodes,
        arrays,
        bare,
        leaves,
        weights,
        leaf_range,
        kind_set,
    ) = columns
    if probabilities is None:
        probabilities = [None] * len(ids)
    if (
        chance_nodes
        and weights is None
        and not chance_settles(
            children, probabilities, chance_nodes, ids, base, parents, positions, arrays
        )
    ):
        return None
    tree = plain_columns_tree(
        ids,
        kinds,
        children,
        parents,
        depths,
        positions,
        values,
        probabilities,
        arrays,
        bare,
        base,
        leaves,
    )
    if weights is not None:  # every chance node's probabilities sum to 1: kept for searches
        object.__setattr__(tree, "_chance_weights", ChanceWeights(*weights))
    object.__setattr__(tree, "_leaf_range", leaf_range)
    object.__setattr__(tree, "_kind_set", kind_set)
    return tree


WEIGHT_BITS: Final = 62
"""Largest common denominator the compiled reader puts a tree's probabilities over."""


def common_weights(numbers: list[Exact]) -> tuple[int, list[int]] | None:
    """``(Q, shares)``: the least common multiple of the denominators of ``numbers`` and
    each of them times it; None when one is not an integer or a fraction, or ``Q`` passes
    ``WEIGHT_BITS``."""
    current_deadline().spend(1 + len(numbers))
    if not set(map(type, numbers)) <= {int, Fraction}:
        return None
    common = bounded_lcm((number.denominator for number in numbers), WEIGHT_BITS)
    if common is None:
        return None
    return common, [number.numerator * (common // number.denominator) for number in numbers]
