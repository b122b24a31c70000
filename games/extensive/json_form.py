"""The JSON form of a game with information sets: :func:`read_json_form`, :func:`write_json_form`.

A game is an object with the players and the root node; a node is one of three objects,
told apart by the field holding its branches (``docs/extensive.md`` has the whole form and
Kuhn poker written in it)::

    {"players": ["Alice", "Bob"], "title": "...", "comment": "...",
     "root": {"chance": [["H", "1/2", {...}], ["T", "1/2", {...}]]}}

    decision:  {"player": 0, "infoset": "A:J", "actions": [["check", {...}], ["bet", {...}]]}
    chance:    {"chance": [[label, probability, {...}], ...]}
    terminal:  {"payoffs": [1, -1]}

Branches are ordered lists, ``[label, child]`` at a decision node and
``[label, probability, child]`` at a chance node, so the order of the actions is the order
written. ``player`` counts from 0. Nodes with the same ``player`` and ``infoset`` form one
information set (names are per player) and must offer the same actions in the same order;
a decision node without ``infoset`` is a set of its own, named after the node (its
``name``, else ``node k`` for the k-th node in prefix order, the root being node 0). Every
node may carry a ``name``. Numbers are exact: a JSON integer, a JSON decimal read as
written (``0.1`` is 1/10), or a string ``"-7/2"`` or ``"0.25"``; a chance node's
probabilities must sum to exactly 1.

The reader walks the document with an explicit stack (no recursion, however deep the
input), in prefix order into :class:`~games.extensive.model.Builder`; every error carries
the JSON pointer of the offending field (``/root/actions/1/1/payoffs/0``); the node count
and the depth are bounded by :class:`~games.limits.Limits`, and the work is spent on the
deadline of the computation in progress.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from games.errors import InvalidInputError, LimitExceededError, join_pointer
from games.extensive.model import (
    CHANCE,
    TERMINAL,
    Builder,
    ExtensiveGame,
    ImperfectRecallError,
)
from games.formats.efg_text import probabilities_text
from games.limits import Limits, active_limits, check_exact_size, current_deadline
from games.numbers import Exact, describe_json, exact_text, is_json_exact, normalize
from games.trees.exact_sums import exact_sum, short_text
from games.trees.grammar import read_number

__all__ = ["read_json_form", "write_json_form"]

GAME_FIELDS: Final = frozenset({"players", "root", "title", "comment"})
DECISION_FIELDS: Final = frozenset({"name", "player", "infoset", "actions"})
CHANCE_FIELDS: Final = frozenset({"name", "chance"})
TERMINAL_FIELDS: Final = frozenset({"name", "payoffs"})
_KINDS: Final = (
    ("actions", DECISION_FIELDS),
    ("chance", CHANCE_FIELDS),
    ("payoffs", TERMINAL_FIELDS),
)


class _Walk:
    """Where each node read so far sits in the document, for pointers built on demand (a
    deep node's pointer is long, so none is built unless an error needs it)."""

    def __init__(self, base: str):
        self.base = base
        self.parents: list[int] = []
        self.steps: list[tuple[str | int, ...]] = []

    def pointer(self, parent: int, step: tuple[str | int, ...], *more: str | int) -> str:
        tokens: list[str | int] = [*step, *more]
        node = parent
        while node >= 0:
            tokens[:0] = self.steps[node]
            node = self.parents[node]
        return join_pointer(self.base, *tokens)

    def at(self, node: int, *more: str | int) -> str:
        return self.pointer(self.parents[node], self.steps[node], *more)


def read_json_form(
    raw: object, *, limits: Limits | None = None, pointer: str = ""
) -> ExtensiveGame:
    """Read the JSON form of a game with information sets (decoded JSON: dicts and lists).

    Parameters
    ----------
    raw
        The game object.
    limits
        Bounds on the node count and the depth (default: the active limits).
    pointer
        JSON pointer of ``raw`` in the request, prefixed to every error's pointer.

    Raises
    ------
    InvalidInputError
        A field is missing, unknown or malformed; probabilities do not sum to exactly 1;
        an information set's nodes offer different actions; the game lacks perfect recall
        (:class:`~games.extensive.model.ImperfectRecallError`, pointing at the node that
        breaks it). The pointer names the field.
    LimitExceededError
        More nodes or a greater depth than ``limits`` allow, or an exact number too large.
    """
    limits = limits or active_limits()
    if not isinstance(raw, dict):
        raise InvalidInputError(
            f'a game is an object with "players" and "root", got {describe_json(raw)}',
            pointer,
        )
    unknown = sorted(str(key) for key in raw.keys() - GAME_FIELDS)
    if unknown:
        raise InvalidInputError(
            f"unknown field {unknown[0]!r} in a game (expected {_listed(GAME_FIELDS)})",
            join_pointer(pointer, unknown[0]),
        )
    players = raw.get("players")
    if (
        not isinstance(players, list)
        or len(players) < 2
        or not all(isinstance(name, str) for name in players)
    ):
        raise InvalidInputError(
            '"players" is an array of two or more player names', join_pointer(pointer, "players")
        )
    texts = [_text(raw, key, pointer) for key in ("title", "comment")]
    if "root" not in raw:
        raise InvalidInputError('a game needs a "root" node', join_pointer(pointer, "root"))
    builder = Builder(players, pointer)
    reader = _Reader(builder, len(players), limits, pointer)
    reader.read(raw["root"])
    try:
        return builder.build(texts[0], texts[1])
    except ImperfectRecallError as error:
        walk = reader.walk
        raise ImperfectRecallError(
            f"{error.message} (the first at {walk.at(error.first)})",
            walk.at(error.node),
            error.infoset,
            error.first,
            error.node,
        ) from None


def _text(raw: dict[str, Any], key: str, pointer: str) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise InvalidInputError(
            f'"{key}" is a string, got {describe_json(value)}', join_pointer(pointer, key)
        )
    return value


class _Reader:
    """One iterative walk of the nodes in prefix order, into the builder."""

    def __init__(self, builder: Builder, players: int, limits: Limits, base: str):
        self.builder = builder
        self.players = players
        self.limits = limits
        self.walk = _Walk(base)
        self.cache: dict[str, Exact] = {}
        self.spend = current_deadline().spend

    def read(self, root: object) -> None:
        walk = self.walk
        limits = self.limits
        # entries: (node object, parent, steps from the parent, depth); children are pushed
        # last first, so they come off the stack in order: prefix order
        stack: list[tuple[object, int, tuple[str | int, ...], int]] = [(root, -1, ("root",), 0)]
        count = 0
        while stack:
            raw, parent, step, depth = stack.pop()
            if depth > limits.max_depth:
                raise LimitExceededError(
                    f"the game is deeper than the limit of {limits.max_depth} plies",
                    walk.pointer(parent, step),
                )
            node = count
            count += 1
            walk.parents.append(parent)
            walk.steps.append(step)
            branches = self.node(node, raw)
            self.spend(1 + len(branches))
            if count + len(stack) + len(branches) > limits.max_nodes:
                raise LimitExceededError(
                    f"the game has more than the limit of {limits.max_nodes} nodes",
                    walk.at(node),
                )
            for field, position, slot, child in reversed(branches):
                stack.append((child, node, (field, position, slot), depth + 1))

    def node(self, node: int, raw: object) -> list[tuple[str, int, int, object]]:
        """Add ``raw`` to the builder; return its branches (field, position, slot, child)."""
        at = self.walk.at
        if not isinstance(raw, dict):
            raise InvalidInputError(
                'a node is an object with "actions", "chance" or "payoffs", got '
                f"{describe_json(raw)}",
                at(node),
            )
        kinds = [(key, fields) for key, fields in _KINDS if key in raw]
        if len(kinds) != 1:
            shown = " and ".join(f'"{key}"' for key, _ in kinds)
            raise InvalidInputError(
                'a node has exactly one of "actions" (a decision), "chance" or "payoffs" '
                f"(a terminal node){', not ' + shown if shown else ''}",
                at(node),
            )
        key, fields = kinds[0]
        unknown = sorted(str(field) for field in raw.keys() - fields)
        if unknown:
            raise InvalidInputError(
                f"unknown field {unknown[0]!r} in a {'decision' if key == 'actions' else key} "
                f"node (expected {_listed(fields)})",
                at(node, unknown[0]),
            )
        name = raw.get("name", "")
        if not isinstance(name, str):
            raise InvalidInputError(
                f'"name" is a string, got {describe_json(name)}', at(node, "name")
            )
        if key == "payoffs":
            self.terminal(node, raw["payoffs"], name)
            return []
        if key == "chance":
            return self.chance(node, raw["chance"], name)
        return self.decision(node, raw, name)

    def decision(
        self, node: int, raw: dict[str, Any], name: str
    ) -> list[tuple[str, int, int, object]]:
        at = self.walk.at
        player = raw.get("player")
        if type(player) is not int or not 0 <= player < self.players:
            raise InvalidInputError(
                f'"player" is the mover\'s number from 0 to {self.players - 1}, got '
                f"{player if type(player) is int else describe_json(player)}",
                at(node, "player"),
            )
        infoset = raw.get("infoset")
        if infoset is not None and not isinstance(infoset, str):
            raise InvalidInputError(
                f'"infoset" is a string, got {describe_json(infoset)}', at(node, "infoset")
            )
        labels, rows = self.branches(node, raw["actions"], "actions", 2)
        key: object = ("set", infoset) if infoset is not None else ("node", node)
        # (not its pointer, whose length grows with the depth)
        shown = infoset if infoset is not None else name or f"node {node}"
        try:
            self.builder.decision(player, key, labels, name, infoset_name=shown)
        except InvalidInputError as error:
            raise InvalidInputError(error.message, at(node, "actions")) from None
        return [("actions", k, 1, row[0]) for k, row in enumerate(rows)]

    def chance(self, node: int, raw: object, name: str) -> list[tuple[str, int, int, object]]:
        at = self.walk.at
        labels, rows = self.branches(node, raw, "chance", 3)
        probabilities: list[Exact] = []
        for position, row in enumerate(rows):
            where = at(node, "chance", position, 1)
            value = self.number(row[0], where)
            if not 0 <= value <= 1:
                raise InvalidInputError(
                    f"a probability lies in [0, 1], got {short_text(value)}", where
                )
            probabilities.append(value)

        def refuse(total: Exact) -> None:
            check_exact_size(total, at(node, "chance"), "sum of the probabilities")

        total = exact_sum(probabilities, refuse=refuse)
        if total != 1:
            raise InvalidInputError(
                f"the probabilities {probabilities_text(probabilities, total)}",
                at(node, "chance"),
            )
        self.builder.chance(
            [(label, Fraction(p)) for label, p in zip(labels, probabilities, strict=True)], name
        )
        return [("chance", k, 2, row[1]) for k, row in enumerate(rows)]

    def terminal(self, node: int, raw: object, name: str) -> None:
        at = self.walk.at
        if not isinstance(raw, list) or len(raw) != self.players:
            raise InvalidInputError(
                f'"payoffs" is an array of {self.players} numbers, one per player, got '
                f"{_described(raw)}",
                at(node, "payoffs"),
            )
        paid = [Fraction(self.number(value, at(node, "payoffs", k))) for k, value in enumerate(raw)]
        self.builder.terminal(paid, name)

    def branches(
        self, node: int, raw: object, field: str, width: int
    ) -> tuple[list[str], list[list[Any]]]:
        """The labels of an ``actions`` or ``chance`` array and the rest of each entry."""
        at = self.walk.at
        shape = "[label, child]" if width == 2 else "[label, probability, child]"
        if not isinstance(raw, list) or not raw:
            raise InvalidInputError(
                f'"{field}" is a non-empty array of {shape} entries, got {_described(raw)}',
                at(node, field),
            )
        labels: list[str] = []
        rest: list[list[Any]] = []
        seen: dict[str, int] = {}
        for position, entry in enumerate(raw):
            if not isinstance(entry, list) or len(entry) != width:
                raise InvalidInputError(
                    f"an entry of {field!r} is an array {shape}, got {_described(entry)}",
                    at(node, field, position),
                )
            label = entry[0]
            if not isinstance(label, str):
                raise InvalidInputError(
                    f"a label is a string, got {describe_json(label)}",
                    at(node, field, position, 0),
                )
            if label in seen:
                raise InvalidInputError(
                    f"the label {label!r} is also the label of entry {seen[label]}",
                    at(node, field, position, 0),
                )
            seen[label] = position
            labels.append(label)
            rest.append(entry[1:])
        return labels, rest

    def number(self, raw: object, where: str) -> Exact:
        try:
            return read_number(raw, self.cache, self.spend)
        except InvalidInputError as error:
            raise InvalidInputError(error.message, where) from None


def _described(raw: object) -> str:
    if isinstance(raw, list):
        return f"an array of {len(raw)}"
    return describe_json(raw)


def _listed(fields: frozenset[str]) -> str:
    return ", ".join(f'"{field}"' for field in sorted(fields))


def write_json_form(game: ExtensiveGame) -> dict[str, Any]:
    """``game`` in the JSON form: :func:`read_json_form` reads it back to an equal game
    (names included, where a player's information sets have distinct names; repeats get
    ``" #2"``, ``" #3"`` appended).

    Numbers are JSON integers where they are integers within 64 bits, else exact strings
    (``"1/3"``). The result is built without recursion; an encoder may still refuse to
    nest it very deeply (orjson stops at 255 levels, three per ply).
    """
    spend = current_deadline().spend
    names = _infoset_names(game)
    objects: list[dict[str, Any]] = []
    for node in game.nodes:
        spend(1 + len(node.actions))
        shaped: dict[str, Any] = {"name": node.name} if node.name else {}
        if node.player == TERMINAL:
            shaped["payoffs"] = [_number(value) for value in node.payoffs]
        elif node.player == CHANCE:
            shaped["chance"] = [
                [label, _number(p)]
                for label, p in zip(node.actions, node.probabilities, strict=True)
            ]
        else:
            shaped["player"] = node.player
            shaped["infoset"] = names[node.infoset]
            shaped["actions"] = [[label] for label in node.actions]
        objects.append(shaped)
    for node, shaped in zip(game.nodes, objects, strict=True):
        branches = shaped.get("actions") or shaped.get("chance") or ()
        for entry, child in zip(branches, node.children, strict=True):
            entry.append(objects[child])
    document: dict[str, Any] = {"players": list(game.players)}
    if game.title:
        document["title"] = game.title
    if game.comment:
        document["comment"] = game.comment
    document["root"] = objects[0]
    return document


def _infoset_names(game: ExtensiveGame) -> list[str]:
    names: list[str] = []
    taken: set[tuple[int, str]] = set()
    for infoset in game.infosets:
        name = infoset.name
        repeat = 1
        while (infoset.player, name) in taken:
            repeat += 1
            name = f"{infoset.name} #{repeat}"
        taken.add((infoset.player, name))
        names.append(name)
    return names


def _number(value: Fraction | int) -> int | str:
    exact = normalize(Fraction(value))
    if is_json_exact(exact):
        return int(exact)
    text = exact_text(exact)
    assert text is not None  # the model's numbers are bounded when read
    return text
