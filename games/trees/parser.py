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

One reader reads every form: :class:`games.trees.node_reader.TreeBuilder`, node by node,
with an error and its pointer for whatever is wrong. A plain tree (shorthand arrays and
integers, objects with only ``children``, an integer ``value``, ``kind`` and ``p``: the
shape of large generated trees) is read by its compiled twin, ``read_plain`` in
``games/trees/_reader.pyx``, where the set-up built it: the same tree, several times faster.
The twin declines anything else and every error, and the node reader then answers.

Every pass over the input spends on the deadline of the computation in progress
(``games.limits.current_deadline``) in proportion to the work it does, and the
exact sum of a chance node's probabilities is bounded by ``Limits.max_exact_digits``
as it is added up, so no input shape keeps the parser busy past the time limit.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from games.compiled import kernel
from games.errors import InvalidInputError
from games.limits import Limits, current_deadline
from games.numbers import Exact, describe_json
from games.trees.grammar import ROOT_KINDS, read_probability, settle_chance
from games.trees.model import MAX, PLAYER, Tree, node_pointer
from games.trees.node_reader import TreeBuilder

TWIN: Final = kernel("games.trees._reader")
"""The compiled twin of the node reader for plain trees; None where it was not built or
``ARBITER_PURE_PYTHON=1`` asks for the Python reader alone."""


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
    if TWIN is not None and root != PLAYER:  # (a plain tree has no utility lists)
        plain = plain_tree(raw, root, limits, pointer)
        if plain is not None:
            return plain
    return TreeBuilder(root, limits, pointer).build_nested(raw)


def plain_tree(raw: Any, root: str, limits: Limits, base: str) -> Tree | None:
    """The tree the compiled twin reads from ``raw``, or None: it is not a plain tree, or
    something is wrong with it (the node reader then says what). ``root`` is MAX or MIN."""
    if TWIN is None:
        return None
    spend = current_deadline().spend
    numbers: dict[str, Exact] = {}
    columns = TWIN.read_plain(
        raw,
        root,
        limits.max_nodes,
        limits.max_depth,
        partial(read_probability, cache=numbers, spend=spend),
        spend,
    )
    if columns is None:
        return None
    (ids, kinds, children, parents, depths, positions, values) = columns[:7]
    probabilities, chance_nodes, array_nodes, bare_leaves = columns[7:]
    size = len(ids)
    # the columns a plain tree leaves empty share one list of Nones (a tree is never changed;
    # the probabilities of chance nodes that state none are settled below, in a list of their own)
    nothing: list[Any] = [None] * size
    if probabilities is None:
        probabilities = [None] * size if chance_nodes else nothing

    def pointer(index: int) -> str:
        return node_pointer(base, parents, positions, array_nodes, index)

    if chance_nodes and settle_chance(children, probabilities, chance_nodes, ids, pointer):
        return None  # stated probabilities that do not sum to 1: the node reader says so
    return Tree(
        ids=ids,
        kinds=kinds,
        children=children,
        parents=parents,
        depths=depths,
        values=values,
        evals=nothing,
        moves=nothing,
        probabilities=probabilities,
        players=nothing,
        _positions=positions,
        _array_nodes=array_nodes if 1 in array_nodes else bytearray(),
        _base=base,
        _bare_leaves=bare_leaves,
    )
