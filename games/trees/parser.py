"""Parse and validate posted game trees (nested, shorthand and flat forms).

Three input forms are accepted and may be mixed where it makes sense:

* **Nested objects**: ``{"id": "A", "kind": "max", "children": [...]}`` with
  leaves ``{"id": "A1", "value": 3}``.
* **Shorthand**: nested arrays of numbers, ``[[3, 12, 8], [2, 4, 6]]``; an
  array is an internal node, a number (or numeric string) a leaf. A node
  object's ``children`` may use the shorthand too.
* **Flat**: ``{"root": "A", "nodes": [{"id": "A", "children": ["B", "C"]}, ...]}``
  where ``children`` lists ids; for trees deeper than JSON parsers nest.

Nodes without ``kind`` alternate from their parent (the root takes the
request's root kind); in a tree whose utilities are lists (max^n) they are max^n
nodes. Nodes without ``id`` are named ``<parent id>.<position>`` with the root
called ``root``. The walk is iterative, so depth is bounded by the configured
limit, not by Python's stack.

This module chooses the reader: plain trees are read a level at a time by
:mod:`games.trees.level_reader`, anything else node by node by
:mod:`games.trees.node_reader`; both follow :mod:`games.trees.grammar`.

Every pass over the input spends on the deadline of the computation in progress
(``games.limits.current_deadline``) in proportion to the work it does, and the
exact sum of a chance node's probabilities is bounded by ``Limits.max_exact_digits``
as it is added up, so no input shape keeps the parser busy past the time limit.
"""

from __future__ import annotations

from typing import Any

from games.errors import InvalidInputError
from games.limits import Limits
from games.numbers import describe_json
from games.trees.compiled_reader import compiled_plain_tree
from games.trees.grammar import ROOT_KINDS
from games.trees.level_reader import plain_tree
from games.trees.model import MAX, PLAYER, Tree
from games.trees.node_reader import TreeBuilder


def parse_tree(
    raw: Any,
    *,
    root: str = MAX,
    limits: Limits | None = None,
    pointer: str = "/tree",
) -> Tree:
    """Build a :class:`Tree` from its JSON form.

    Parameters
    ----------
    raw
        The decoded JSON: a node object, a shorthand array, or a flat-form object.
    root
        Kind of the root when the input does not state it: ``"max"`` or ``"min"``, or
        ``"player"`` to read a max^n tree: nodes without ``kind`` are then max^n nodes
        and, in the shorthand, an array of numbers is a leaf's utility list.
    limits
        Node-count and depth limits; defaults to :class:`Limits()`.
    pointer
        JSON pointer of ``raw`` in the request, prefixed to error pointers.

    Raises
    ------
    InvalidInputError
        On any structural or value error, with a pointer to the field.
    LimitExceededError
        When the tree has more nodes or levels than ``limits`` allow.
    ExactSizeError
        When the exact sum of a chance node's probabilities needs more digits than
        ``Limits.max_exact_digits``.
    TimeLimitError
        When the deadline of the computation in progress passes.
    """
    if root not in ROOT_KINDS:
        raise InvalidInputError(f'root must be "max" or "min", got {root!r}', "/root")
    limits = limits or Limits()
    if isinstance(raw, dict) and ("nodes" in raw or "root" in raw):
        return TreeBuilder(root, limits, pointer).build_flat(raw)
    if not isinstance(raw, (dict, list)):
        raise InvalidInputError(
            f'a tree is a node object, a nested array or a flat {{"root", "nodes"}} '
            f"object, got {describe_json(raw)}",
            pointer,
        )
    if root != PLAYER:  # a plain tree has no utility lists
        plain = compiled_plain_tree(raw, root, limits, pointer) or plain_tree(
            raw, root, limits, pointer
        )
        if plain is not None:
            return plain
    return TreeBuilder(root, limits, pointer).build_nested(raw)
