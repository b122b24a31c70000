"""Write a :class:`Tree` back out in Arbiter's JSON tree form.

Importers (Gambit ``.efg``, CS188 graph tests) build a tree and hand it to the
caller in the same JSON form ``games.trees.parser.parse_tree`` reads, so the
answer can be posted straight to any tree endpoint. Shallow trees are written
nested (easy to read); deep ones in the flat form, since JSON encoders and
parsers refuse nesting beyond a few hundred levels.
"""

from __future__ import annotations

from typing import Any, Final

from games.errors import ExactSizeError
from games.limits import current_deadline
from games.numbers import Exact, exact_text, is_json_exact
from games.trees.model import CHANCE, LEAF, Tree, Utility

NESTING_LIMIT: Final = 100
"""Deepest tree (in plies) written in the nested form; deeper ones are written flat."""


def exact_json(value: Exact) -> int | str:
    """An integer within 64 bits as itself; any other number (a fraction, a larger
    integer) as its exact string, ``"p/q"`` or the digits, which every tree endpoint
    reads back exactly (JSON encoders refuse integers past 64 bits).

    :raises ExactSizeError: the number is too long to write (never for numbers read
        from a tree, which are capped at 1e300, nor for sums bounded as they grow).
    """
    if type(value) is int and is_json_exact(value):
        return value
    text = exact_text(value)
    if text is None:
        raise ExactSizeError("a number of the tree is too large to write exactly", "")
    return text


def utility_json(value: Utility) -> int | str | list[int | str]:
    """A number, or a list of numbers (max^n), in exact JSON form."""
    if isinstance(value, tuple):
        return [exact_json(item) for item in value]
    return exact_json(value)


def node_object(tree: Tree, index: int) -> dict[str, Any]:
    """The fields of node ``index`` (without children) as a node object."""
    node: dict[str, Any] = {"id": tree.ids[index]}
    kind = tree.kinds[index]
    if kind != LEAF:
        node["kind"] = kind
    move = tree.moves[index]
    if move is not None:
        node["move"] = move
    parent = tree.parents[index]
    chance = tree.probabilities[index]
    if parent >= 0 and tree.kinds[parent] == CHANCE and chance is not None:
        node["p"] = exact_json(chance)
    player = tree.players[index]
    if player is not None:
        node["player"] = player
    value = tree.values[index]
    if value is not None:
        node["value"] = utility_json(value)
    static = tree.evals[index]
    if static is not None:
        node["eval"] = utility_json(static)
    return node


def tree_document(tree: Tree, *, flat: bool | None = None) -> dict[str, Any]:
    """The tree as a nested node object, or as ``{"root", "nodes"}`` when deep.

    Parameters
    ----------
    flat
        Force the flat (``True``) or nested (``False``) form; by default the
        nested form is used up to :data:`NESTING_LIMIT` plies.
    """
    if flat is None:
        flat = tree.max_depth() > NESTING_LIMIT
    spend = current_deadline().spend

    def write(index: int) -> dict[str, Any]:
        spend(4 + tree.utility_size)
        return node_object(tree, index)

    objects = list(map(write, range(len(tree))))
    ids = tree.ids
    if flat:
        for index, kids in enumerate(tree.children):
            if kids:
                spend(len(kids))
                objects[index]["children"] = [ids[kid] for kid in kids]
        return {"root": ids[0], "nodes": objects}
    for index, kids in enumerate(tree.children):
        if kids:
            spend(len(kids))
            objects[index]["children"] = [objects[kid] for kid in kids]
    return objects[0]


def unique_id(name: str, used: dict[str, int]) -> str:
    """``name``, or ``name#2``, ``name#3``... when taken; records the result in ``used``.

    Importers name nodes after things that repeat (Gambit node names, CS188
    states reached along several paths), while tree ids must be unique.
    """
    if name not in used:
        used[name] = 1
        return name
    count = used[name]
    while True:
        count += 1
        candidate = f"{name}#{count}"
        if candidate not in used:
            used[name] = count
            used[candidate] = 1
            return candidate
