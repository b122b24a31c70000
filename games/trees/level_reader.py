"""Read a *plain* game tree a whole level at a time.

Large generated trees are plain: shorthand arrays of integers, or objects with only
``children``, an integer ``value``, ``kind`` and ``p``. Such a tree is read by list
operations over each level that mostly run in C, several times faster than a walk
node by node. Anything else, and any error, is left to
:mod:`games.trees.node_reader`, which reports errors precisely; both apply the rules
of :mod:`games.trees.grammar` and number the nodes the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, chain, islice, repeat
from operator import add
from typing import Any, Final

from games.limits import Deadline, Limits, current_deadline
from games.numbers import Exact
from games.trees.grammar import (
    HANDOVER,
    ID_SEPARATOR,
    INTERNAL_KINDS,
    level_probabilities,
    settle_chance,
    within_magnitude,
)
from games.trees.model import CHANCE, LEAF, PLAYER, ROOT_ID, Nones, Tree, Utility, node_pointer


def plain_tree(raw: Any, root: str, limits: Limits, base: str = "/tree") -> Tree | None:
    """Build a *plain* tree a whole level at a time, or return None.

    A tree is plain when every internal node is a non-empty array or an object
    with ``children`` and at most ``kind`` (max, min or chance) and ``p``, and
    every leaf an integer or an object with an integer ``value`` and at most
    ``kind: "leaf"`` and ``p``: the usual shape of large generated trees. Each
    level is then handled by list operations that mostly run in C. Anything else
    (ids, moves, evals, players, fractional values, any error) returns None and
    the general walk reads the tree instead, reporting errors precisely. Both
    number the nodes the same way.
    """
    if not _plain_internal(raw):
        return None
    deadline = current_deadline()
    # Each level is handled by a dozen whole-list passes; the level's width is spent
    # before the first and between the costly ones, so a level of a million nodes
    # reads the clock several times.
    spend = deadline.spend
    ids = [ROOT_ID]
    kinds: list[str] = []
    values: list[Utility | None] = []
    children: list[range] = []
    parents = [-1]
    depths = [0]
    positions = [0]
    array_nodes = bytearray()
    bare_leaves = bytearray()
    probabilities: list[Exact | None] = []
    chance_nodes: list[int] = []
    numbers: dict[str, Exact] = {}
    level: list[Any] = [raw]
    # The kind each node of the level takes if it states none: one kind for the whole
    # level (the usual case: no stated kinds, no chance nodes) or one per node.
    turns: str | list[str] = root
    # what the level's parents were, to check that only chance outcomes state p
    parent_kinds: list[str] = []
    parent_counts: list[int] = []
    depth = 0
    leaves = 0
    while True:
        width = len(level)
        spend(width)
        shapes = list(map(type, level))
        classified = _classify_level(level, shapes)
        if classified is None:
            return None
        spend(width)
        subs, scores, stated, chances = classified
        if not within_magnitude(scores):
            return None  # the general walk refuses the integer with its pointer
        if stated is None and type(turns) is str:
            internal = scores.count(None)
            if internal == width:
                level_kinds = [turns] * width
            elif internal == 0:
                level_kinds = [LEAF] * width
            else:
                level_kinds = [turns if score is None else LEAF for score in scores]
        elif stated is None:
            level_kinds = [
                turn if score is None else LEAF for turn, score in zip(turns, scores, strict=True)
            ]
        else:
            if type(turns) is str:
                turns = [turns] * width
            level_kinds = [
                (kind or turn) if score is None else LEAF
                for kind, turn, score in zip(stated, turns, scores, strict=True)
            ]
            if not all(
                kind is None or kind == LEAF
                if score is not None
                else kind is None or kind in _PLAIN_INTERNAL_KINDS
                for kind, score in zip(stated, scores, strict=True)
            ):
                return None
        if chances is None:
            probabilities.extend(repeat(None, len(level)))
        else:
            above: list[str | None] = list(
                chain.from_iterable(map(repeat, parent_kinds, parent_counts))
            )
            read = _plain_probabilities(chances, above or [None], numbers, deadline)
            if read is None:
                return None
            probabilities.extend(read)
        spend(width)
        start = len(kinds)
        kinds.extend(level_kinds)
        if CHANCE in level_kinds:
            chance_nodes.extend(start + i for i, kind in enumerate(level_kinds) if kind == CHANCE)
        values.extend(scores)
        shape_set = set(shapes)
        if len(shape_set) == 1:  # one shape for the whole level: flags in one go
            array_nodes.extend((b"\x01" if list in shape_set else b"\x00") * width)
            bare_leaves.extend((b"\x01" if int in shape_set else b"\x00") * width)
        else:
            array_nodes.extend(bytes([shape is list for shape in shapes]))
            bare_leaves.extend(bytes([shape is int for shape in shapes]))
        if level_kinds[0] != LEAF and LEAF not in level_kinds:
            counts = list(map(len, subs))
        else:
            counts = [0 if sub is None else len(sub) for sub in subs]
        leaves += counts.count(0)
        spend(width)
        total = len(ids)
        ends = list(accumulate(counts, initial=total))
        _extend(children, map(range, ends[:-1], ends[1:]), spend)
        added = ends[-1] - total
        if not added:
            break
        if ends[-1] > limits.max_nodes or depth + 1 > limits.max_depth:
            return None  # the general walk raises the limit error with its pointer
        spend(added)
        first = total - len(level)
        slots = [str(slot) for slot in range(max(counts))]
        prefixes = [ids[first + i] + ID_SEPARATOR for i, count in enumerate(counts) if count]
        sizes = list(filter(None, counts))
        _extend(
            ids,
            map(
                add,
                chain.from_iterable(map(repeat, prefixes, sizes)),
                chain.from_iterable(map(slots.__getitem__, map(slice, sizes))),
            ),
            spend,
        )
        _extend(parents, chain.from_iterable(map(repeat, range(first, total), counts)), spend)
        _extend(positions, chain.from_iterable(map(range, counts)), spend)
        depths.extend(repeat(depth + 1, added))
        spend(added)
        # below MAX comes MIN and below MIN comes MAX; chance passes its turn on
        if type(turns) is str and stated is None and CHANCE not in level_kinds:
            turns = HANDOVER[turns]
        else:
            per_node: list[str] = turns if isinstance(turns, list) else [turns] * width
            handed: list[str] = [
                HANDOVER.get(kind, turn) for kind, turn in zip(level_kinds, per_node, strict=True)
            ]
            turns = list(chain.from_iterable(map(repeat, handed, counts)))
            spend(added)
        parent_kinds, parent_counts = level_kinds, counts
        level = list(chain.from_iterable(filter(None, subs)))
        depth += 1
    if chance_nodes and not chance_settles(
        children, probabilities, chance_nodes, ids, base, parents, positions, array_nodes
    ):
        return None
    return plain_columns_tree(
        ids,
        kinds,
        children,
        parents,
        depths,
        positions,
        values,
        probabilities,
        array_nodes,
        bare_leaves,
        base,
        leaves,
    )


def chance_settles(
    children: list[range],
    probabilities: list[Exact | None],
    chance_nodes: list[int],
    ids: Sequence[str],
    base: str,
    parents: Sequence[int],
    positions: Sequence[int],
    array_nodes: bytearray,
) -> bool:
    """Whether the chance nodes of a plain tree settle (:func:`settle_chance`: silent outcomes
    made uniform, stated ones summing to 1). A plain reader that finds they do not leaves the
    tree to the node reader, which reports the problem with its pointer."""

    def pointer(index: int) -> str:
        return node_pointer(base, parents, positions, array_nodes, index)

    return settle_chance(children, probabilities, chance_nodes, ids, pointer) is None


def plain_columns_tree(
    ids: Sequence[str],
    kinds: list[str],
    children: list[range],
    parents: Sequence[int],
    depths: Sequence[int],
    positions: Sequence[int],
    values: list[Utility | None],
    probabilities: list[Exact | None],
    array_nodes: bytearray,
    bare_leaves: bytearray,
    base: str,
    leaves: int,
) -> Tree:
    """The tree of a plain tree's columns (no evals, moves or players), its leaf count
    (counted while reading) kept as a free cache."""
    count = len(ids)
    tree = Tree(
        ids=ids,
        kinds=kinds,
        children=children,
        parents=parents,
        depths=depths,
        values=values,
        evals=Nones(count),
        moves=Nones(count),
        probabilities=probabilities,
        players=Nones(count),
        _positions=positions,
        _array_nodes=array_nodes,
        _base=base,
        _bare_leaves=bare_leaves,
    )
    object.__setattr__(tree, "_leaf_count", leaves)
    return tree


_PLAIN_KEYS: Final = frozenset({"children", "value", "kind", "p"})
_PLAIN_INTERNAL_KINDS: Final = INTERNAL_KINDS - {PLAYER}
"""Max^n nodes need ``player`` or tuple utilities, which a plain tree does not have."""

Level = tuple[list[Any], list[Any], list[Any] | None, list[Any] | None]


def _classify_level(level: list[Any], shapes: list[type]) -> Level | None:
    """One level of a plain tree: children lists, leaf values, stated kinds and
    stated probabilities (None when no node of the level states any), or None.

    A level that is all arrays, all integers, all ``{"children"}`` objects or
    all ``{"value"}`` objects (the usual case) is checked by whole-list
    operations; any other level node by node.
    """
    width = len(level)
    kinds = set(shapes)
    if kinds == {list}:
        if all(level):  # every array non-empty
            return level, [None] * width, None, None
        return None
    if kinds == {int}:
        return [None] * width, level, None, None
    if kinds == {dict} and set(map(len, level)) == {1}:
        subs = list(map(dict.get, level, repeat("children")))
        scores = list(map(dict.get, level, repeat("value")))
        sub_kinds = set(map(type, subs))
        if sub_kinds == {list} and all(subs):
            return subs, scores, None, None
        if sub_kinds == {type(None)} and set(map(type, scores)) == {int}:
            return subs, scores, None, None
    if kinds == {dict}:
        uniform = _uniform_objects(level)
        if uniform is not None:
            return uniform
    if dict in kinds and not all(
        _PLAIN_KEYS.issuperset(node)
        for node, shape in zip(level, shapes, strict=True)
        if shape is dict
    ):
        return None
    subs = [
        node if shape is list else node.get("children") if shape is dict else None
        for node, shape in zip(level, shapes, strict=True)
    ]
    scores = [
        node if shape is int else node.get("value") if shape is dict else None
        for node, shape in zip(level, shapes, strict=True)
    ]
    stated = [
        node.get("kind") if shape is dict else None
        for node, shape in zip(level, shapes, strict=True)
    ]
    chances = [
        node.get("p") if shape is dict else None for node, shape in zip(level, shapes, strict=True)
    ]
    # an object must hold exactly the fields read (no nulls), and be a leaf or a subtree
    if not all(
        (
            shape is not dict
            or len(node)
            == (sub is not None) + (score is not None) + (kind is not None) + (chance is not None)
        )
        and (
            (type(sub) is list and len(sub) > 0)
            if score is None
            else (sub is None and type(score) is int)
        )
        and (kind is None or type(kind) is str)
        for node, shape, sub, score, kind, chance in zip(
            level, shapes, subs, scores, stated, chances, strict=True
        )
    ):
        return None
    return (
        subs,
        scores,
        stated if any(kind is not None for kind in stated) else None,
        chances if any(chance is not None for chance in chances) else None,
    )


def _uniform_objects(level: list[dict[str, Any]]) -> Level | None:
    """A level of objects that all have the same number of fields, every one of them
    among children, value, kind and p and none null (the shape of generated chance
    trees), checked with whole-list operations; None for anything else."""
    lengths = set(map(len, level))
    if len(lengths) != 1:
        return None
    width = len(level)
    subs = list(map(dict.get, level, repeat("children")))
    scores = list(map(dict.get, level, repeat("value")))
    stated = list(map(dict.get, level, repeat("kind")))
    chances = list(map(dict.get, level, repeat("p")))
    missing = [subs.count(None), scores.count(None), stated.count(None), chances.count(None)]
    # every field read and none null, and each node a subtree or a leaf, never both
    if 4 * width - sum(missing) != lengths.pop() * width or missing[0] + missing[1] != width:
        return None
    if not set(map(type, subs)) <= {list, type(None)} or not all(
        sub for sub in subs if sub is not None
    ):
        return None
    if not set(map(type, scores)) <= {int, type(None)}:
        return None
    if not set(map(type, stated)) <= {str, type(None)}:
        return None
    return (
        subs,
        scores,
        None if missing[2] == width else stated,
        None if missing[3] == width else chances,
    )


def _plain_probabilities(
    chances: list[Any], above: list[str | None], numbers: dict[str, Exact], deadline: Deadline
) -> list[Exact | None] | None:
    """Stated probabilities of one level, each distinct one read and checked once
    (:func:`games.trees.grammar.level_probabilities`); None when one is malformed, out of
    [0, 1] or under a node that is not a chance node."""
    return level_probabilities(chances, above, numbers, deadline.spend)


_CHUNK: Final = 32_768
"""Items one whole-list step of :func:`plain_tree` adds between two spends."""


def _extend(target: list[Any], items: Iterator[Any], spend: Callable[[int], None]) -> None:
    """``target.extend(items)`` a chunk at a time (each chunk in C), spending on each."""
    while True:
        size = len(target)
        target.extend(islice(items, _CHUNK))
        added = len(target) - size
        spend(added)
        if added < _CHUNK:
            return


def _plain_internal(node: Any) -> bool:
    if type(node) is list:
        return len(node) > 0
    if type(node) is dict and "p" not in node and _PLAIN_KEYS.issuperset(node):
        kids = node.get("children")
        return type(kids) is list and len(kids) > 0
    return False
