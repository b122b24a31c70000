"""Read any game tree node by node, in the nested, shorthand or flat form.

One iterative breadth-first walk reads the tree and checks each node as it is
dequeued, so every error names the field at fault and depth is bounded by the
configured limit, not by Python's stack. It applies the rules of
:mod:`games.trees.grammar`. This is the one reader of trees; a plain tree is read by its
compiled twin (``read_plain`` in ``games/trees/_reader.pyx``) where that was built, into the
same tree (see :mod:`games.trees.parser`).
"""

from __future__ import annotations

from typing import Any

from games.errors import InvalidInputError, join_pointer
from games.limits import Limits, current_deadline
from games.numbers import MAX_MAGNITUDE, Exact, describe_json
from games.trees.exact_sums import sum_text
from games.trees.grammar import (
    EMPTY,
    FLAT_FIELDS,
    HANDOVER,
    INTERNAL_KINDS,
    KIND_NAMES,
    NODE_FIELDS,
    default_id,
    probability_problem,
    read_number,
    settle_chance,
    too_deep,
    too_many_nodes,
)
from games.trees.model import CHANCE, LEAF, PLAYER, ROOT_ID, Tree, Utility, node_pointer


class TreeBuilder:
    """One iterative breadth-first walk that fills the Tree's parallel lists.

    ``root`` is the kind of a root that states none: ``"max"``, ``"min"`` or ``"player"``
    (a max^n tree, whose shorthand arrays of numbers are utility lists).
    """

    def __init__(self, root: str, limits: Limits, base: str):
        self.root = root
        self.limits = limits
        self.base = base
        self.ids: list[str] = []
        self.kinds: list[str] = []
        self.children: list[Any] = []
        self.parents: list[int] = []
        self.depths: list[int] = []
        self.values: list[Utility | None] = []
        self.evals: list[Utility | None] = []
        self.moves: list[str | None] = []
        self.probabilities: list[Exact | None] = []
        self.players: list[int | None] = []
        self.chance_nodes: list[int] = []
        self.stated_decisions: list[int] = []
        """MAX and MIN nodes that state their kind (the others may become max^n nodes)."""
        self.utility_size: int | None = None
        self.size_source = 0
        self.positions: list[int] = []
        self.array_nodes = bytearray()
        self.given_ids = bytearray()
        self.bare_leaves = bytearray()
        self.number_cache: dict[str, Exact] = {}
        self.spend = current_deadline().spend
        self.any_given = False
        self.any_array = False
        self.source_pointers: list[str] | None = None
        # Flat form only: node objects by position and child positions per position.
        self.flat_nodes: list[dict[str, Any]] = []
        self.flat_children: list[list[int] | None] = []

    # -- pointers -------------------------------------------------------------

    def pointer(self, index: int) -> str:
        if self.source_pointers is not None:
            return self.source_pointers[index]
        return node_pointer(self.base, self.parents, self.positions, self.array_nodes, index)

    def fail(self, index: int, field: str | None, message: str) -> InvalidInputError:
        where = self.pointer(index)
        if field is not None:
            where = join_pointer(where, field)
        return InvalidInputError(message, where)

    # -- entry points ---------------------------------------------------------

    def build_nested(self, raw: dict[str, Any] | list[Any]) -> Tree:
        self.walk(raw, -1, flat=False)
        return self.finish()

    def build_flat(self, raw: dict[str, Any]) -> Tree:
        base = self.base
        unknown = sorted(raw.keys() - FLAT_FIELDS)
        if unknown:
            raise InvalidInputError(
                f'unknown field {unknown[0]!r} in a flat tree (expected "root" and "nodes")',
                join_pointer(base, unknown[0]),
            )
        nodes = raw.get("nodes")
        root_id = raw.get("root")
        if not isinstance(nodes, list) or not nodes:
            raise InvalidInputError(
                '"nodes" must be a non-empty array of node objects', join_pointer(base, "nodes")
            )
        if not isinstance(root_id, str):
            raise InvalidInputError(
                f'"root" must be the id of the root node, got {describe_json(root_id)}',
                join_pointer(base, "root"),
            )
        if len(nodes) > self.limits.max_nodes:
            raise too_many_nodes(self.limits, join_pointer(base, "nodes"))
        spend = current_deadline().spend
        by_id: dict[str, int] = {}
        for position, node in enumerate(nodes):
            spend(1)
            where = f"{base}/nodes/{position}"
            if not isinstance(node, dict):
                raise InvalidInputError(
                    f"a flat-form node is an object, got {describe_json(node)}", where
                )
            node_id = node.get("id")
            if not isinstance(node_id, str) or not node_id:
                raise InvalidInputError(
                    'every node of a flat tree needs a non-empty string "id"',
                    where + "/id",
                )
            if node_id in by_id:
                raise InvalidInputError(
                    f"duplicate id {node_id!r} (first used at {base}/nodes/{by_id[node_id]})",
                    where + "/id",
                )
            by_id[node_id] = position
        parent_of = [-1] * len(nodes)
        flat_children: list[list[int] | None] = [None] * len(nodes)
        for position, node in enumerate(nodes):
            kids = node.get("children")
            if kids is None:
                continue
            spend(1 + len(kids) if isinstance(kids, list) else 1)
            where = f"{base}/nodes/{position}/children"
            if not isinstance(kids, list):
                raise InvalidInputError(
                    f"children must be an array of node ids, got {describe_json(kids)}", where
                )
            resolved: list[int] = []
            for slot, child_id in enumerate(kids):
                if not isinstance(child_id, str):
                    raise InvalidInputError(
                        "in the flat form, children lists node ids (strings), got "
                        f"{describe_json(child_id)}",
                        f"{where}/{slot}",
                    )
                child = by_id.get(child_id)
                if child is None:
                    raise InvalidInputError(f"unknown node id {child_id!r}", f"{where}/{slot}")
                earlier = parent_of[child]
                if earlier == position:
                    raise InvalidInputError(
                        f"child {child_id!r} is listed twice", f"{where}/{slot}"
                    )
                if earlier != -1:
                    raise InvalidInputError(
                        f"node {child_id!r} is already a child of "
                        f"{nodes[earlier]['id']!r}; a tree node has exactly one parent",
                        f"{where}/{slot}",
                    )
                parent_of[child] = position
                resolved.append(child)
            flat_children[position] = resolved
        root_position = by_id.get(root_id)
        if root_position is None:
            raise InvalidInputError(f"unknown root id {root_id!r}", join_pointer(base, "root"))
        if parent_of[root_position] != -1:
            raise InvalidInputError(
                f"the root {root_id!r} is a child of {nodes[parent_of[root_position]]['id']!r}, "
                "which makes a cycle",
                f"{base}/nodes/{parent_of[root_position]}/children",
            )
        self.flat_nodes = nodes
        self.flat_children = flat_children
        self.source_pointers = []
        self.walk(nodes[root_position], root_position, flat=True)
        if len(self.ids) < len(nodes):
            self.raise_unreachable(nodes, parent_of, by_id)
        return self.finish()

    def raise_unreachable(
        self, nodes: list[dict[str, Any]], parent_of: list[int], by_id: dict[str, int]
    ) -> None:
        spend = current_deadline().spend
        spend(len(self.ids))
        reached = {by_id[name] for name in self.ids}
        for position in range(len(nodes)):
            if position in reached:
                continue
            # Each node has at most one parent, so following parents either ends at a
            # node with none (a second root) or comes back round (a cycle).
            seen = {position}
            step = parent_of[position]
            while step != -1 and step not in seen:
                spend(1)
                seen.add(step)
                step = parent_of[step]
            where = f"{self.base}/nodes/{position}"
            if step != -1:
                raise InvalidInputError(
                    f"node {nodes[position]['id']!r} lies on a cycle of children", where
                )
            raise InvalidInputError(
                f"node {nodes[position]['id']!r} is not reachable from the root", where
            )

    # -- the walk -------------------------------------------------------------

    def walk(self, top: Any, top_source: int, *, flat: bool) -> None:
        """Number the nodes breadth-first, validating each one as it is dequeued."""
        limits = self.limits
        max_nodes = limits.max_nodes
        max_depth = limits.max_depth
        ids = self.ids
        kinds = self.kinds
        children = self.children
        parents = self.parents
        depths = self.depths
        values = self.values
        evals = self.evals
        moves = self.moves
        probabilities = self.probabilities
        players = self.players
        positions = self.positions
        array_nodes = self.array_nodes
        given_ids = self.given_ids
        bare_leaves = self.bare_leaves
        source_pointers = self.source_pointers
        flat_nodes = self.flat_nodes
        flat_children = self.flat_children
        base = self.base
        node_fields = NODE_FIELDS
        handover = HANDOVER
        utility_lists = self.root == PLAYER
        spend = current_deadline().spend
        # queue entries: (raw node, parent index, position among siblings, default kind, source)
        queue: list[tuple[Any, int, int, str, int] | None] = [(top, -1, 0, self.root, top_source)]
        enqueue = queue.append
        head = 0
        while head < len(queue):
            entry = queue[head]
            queue[head] = None  # let the raw node go as soon as it is read
            assert entry is not None
            node, parent, position, turn, source = entry
            index = head
            head += 1
            spend(1)
            parents.append(parent)
            positions.append(position)
            if parent >= 0:
                depth = depths[parent] + 1
                if depth > max_depth:
                    raise too_deep(limits, self.pointer(parent))
            else:
                depth = 0
            depths.append(depth)
            if flat:
                source_pointers.append(f"{base}/nodes/{source}")  # type: ignore[union-attr]
            kind_of = type(node)
            if kind_of is dict:
                array_nodes.append(0)
                bare_leaves.append(0)
                if not node.keys() <= node_fields:
                    unknown = sorted(node.keys() - node_fields)[0]
                    raise self.fail(
                        index,
                        unknown,
                        f"unknown field {unknown!r}; a node has "
                        "id, kind, value, eval, move, p, player and children",
                    )
                node_id = node.get("id")
                if node_id is None:
                    if flat:
                        raise self.fail(index, "id", "every flat-form node needs an id")
                    node_id = default_id(ids[parent], position) if parent >= 0 else ROOT_ID
                    given_ids.append(0)
                elif type(node_id) is not str or not node_id:
                    raise self.fail(index, "id", "id must be a non-empty string")
                else:
                    given_ids.append(1)
                    self.any_given = True
                ids.append(node_id)
                move = node.get("move")
                if move is not None and type(move) is not str:
                    raise self.fail(
                        index, "move", f"move must be a string, got {describe_json(move)}"
                    )
                moves.append(move)
                chance = node.get("p")
                probabilities.append(
                    None if chance is None else self.read_probability(chance, index, parent)
                )
                player = node.get("player")
                if player is not None and (type(player) is not int or player < 0):
                    raise self.fail(index, "player", "player must be a 0-based integer")
                players.append(player)
                kind = node.get("kind")
                kids = node.get("children")
                if kids is None:
                    self.read_leaf(node, index, kind)
                    children.append(EMPTY)
                    continue
                if flat:
                    kids = flat_children[source]
                elif type(kids) is not list:
                    raise self.fail(
                        index,
                        "children",
                        f"children must be an array, got {describe_json(kids)}",
                    )
                if not kids:
                    raise self.fail(
                        index,
                        "children",
                        "an internal node needs at least one child; omit children for a leaf",
                    )
                if kind is None:
                    kind = turn if player is None else PLAYER
                elif type(kind) is not str or kind not in INTERNAL_KINDS:
                    raise self.bad_internal_kind(index, kind)
                elif kind in handover:
                    self.stated_decisions.append(index)
                if player is not None and kind != PLAYER:
                    raise self.fail(
                        index,
                        "player",
                        f"player marks a max^n node (kind 'player'), not a {kind} node",
                    )
                if kind == CHANCE:
                    self.chance_nodes.append(index)
                if "value" in node:
                    raise self.fail(
                        index,
                        "value",
                        "value is a leaf's utility; give an internal node's static "
                        "evaluation as eval",
                    )
                static = node.get("eval")
                evals.append(None if static is None else self.read_utility(static, index, "eval"))
                values.append(None)
                kinds.append(kind)
            elif kind_of is list:
                if flat:
                    raise self.fail(index, None, "a flat-form node is an object")
                self.any_array = True
                given_ids.append(0)
                ids.append(default_id(ids[parent], position) if parent >= 0 else ROOT_ID)
                moves.append(None)
                probabilities.append(None)
                players.append(None)
                evals.append(None)
                if not node:
                    array_nodes.append(1)
                    bare_leaves.append(0)
                    raise self.fail(
                        index,
                        None,
                        "an empty array is not a tree node; a subtree needs at least one child",
                    )
                if utility_lists and not any(type(item) in (list, dict) for item in node):
                    # a max^n leaf written as its bare utility list
                    array_nodes.append(0)
                    bare_leaves.append(1)
                    values.append(self.bare_utility(node, index))
                    kinds.append(LEAF)
                    children.append(EMPTY)
                    continue
                array_nodes.append(1)
                bare_leaves.append(0)
                kids = node
                kind = turn
                values.append(None)
                kinds.append(kind)
            else:
                array_nodes.append(0)
                given_ids.append(0)
                bare_leaves.append(1)
                ids.append(default_id(ids[parent], position) if parent >= 0 else ROOT_ID)
                moves.append(None)
                probabilities.append(None)
                players.append(None)
                if self.utility_size != 0:
                    self.check_size(0, index, None)
                # (read_number's first case, inline: most leaves are small integers)
                if kind_of is int and -MAX_MAGNITUDE <= node <= MAX_MAGNITUDE:
                    values.append(node)
                else:
                    values.append(self.number(node, index, None))
                evals.append(None)
                kinds.append(LEAF)
                children.append(EMPTY)
                continue
            # an internal node: its children take the next free indices, in order
            first = len(queue)
            if first + len(kids) > max_nodes:
                raise too_many_nodes(limits, self.pointer(index))
            children.append(range(first, first + len(kids)))
            next_turn = handover.get(kind, turn)
            if flat:
                for slot, child in enumerate(kids):
                    enqueue((flat_nodes[child], index, slot, next_turn, child))
            else:
                for slot, child in enumerate(kids):
                    enqueue((child, index, slot, next_turn, -1))

    def read_leaf(self, node: dict[str, Any], index: int, kind: object) -> None:
        if kind is not None and kind != LEAF:
            if type(kind) is str and kind in INTERNAL_KINDS:
                raise self.fail(
                    index,
                    "kind",
                    f"a node of kind {kind!r} needs children; a node without children is a leaf",
                )
            raise self.bad_kind(index, kind)
        if "eval" in node:
            raise self.fail(
                index,
                "eval",
                "eval is the static evaluation of an internal node; a leaf's utility is its value",
            )
        if "value" not in node:
            raise self.fail(index, "value", "a leaf needs a value (its utility)")
        if "player" in node:
            raise self.fail(index, "player", "player belongs on internal max^n nodes, not leaves")
        raw = node["value"]
        # (read_number's first case, inline: most leaves are small integers)
        self.values.append(
            raw
            if type(raw) is int
            and self.utility_size == 0
            and -MAX_MAGNITUDE <= raw <= MAX_MAGNITUDE
            else self.read_utility(raw, index, "value")
        )
        self.evals.append(None)
        self.kinds.append(LEAF)

    def read_utility(self, raw: Any, index: int, field: str) -> Utility:
        """A number, or a list of numbers (one utility per player, for max^n)."""
        if type(raw) is not list:
            value = self.number(raw, index, field)
            self.check_size(0, index, field)
            return value
        if not raw:
            raise self.fail(index, field, "a utility list needs one number per player")
        current_deadline().spend(len(raw))
        utilities = tuple(
            self.number(item, index, f"{field}/{slot}") for slot, item in enumerate(raw)
        )
        self.check_size(len(utilities), index, field)
        return utilities

    def number(self, raw: Any, index: int, field: str | None) -> Exact:
        """An exact number; the pointer is only worked out when the input is bad.

        Numeric strings repeat a lot in large trees (probabilities such as "0.25"),
        so each distinct string is parsed once.
        """
        try:
            return read_number(raw, self.number_cache, self.spend)
        except InvalidInputError as error:
            where = self.pointer(index) if field is None else f"{self.pointer(index)}/{field}"
            raise InvalidInputError(error.message, where) from None

    def bare_utility(self, raw: list[Any], index: int) -> Utility:
        """A max^n leaf written as a bare list of numbers: its utility list."""
        self.spend(len(raw))
        utilities = tuple(self.number(item, index, str(slot)) for slot, item in enumerate(raw))
        self.check_size(len(utilities), index, None)
        return utilities

    def settle_max_n(self) -> None:
        """In a tree whose utilities are lists, a MAX or MIN node that does not state its
        kind is a max^n node: its player defaults to the next after its parent's."""
        self.spend(len(self.kinds))
        stated = {index: self.kinds[index] for index in self.stated_decisions}
        self.kinds[:] = [PLAYER if kind in HANDOVER else kind for kind in self.kinds]
        for index, kind in stated.items():
            self.kinds[index] = kind

    def check_size(self, size: int, index: int, field: str | None) -> None:
        """Every utility in a tree is a number, or every one a list of the same length."""
        if self.utility_size is None:
            self.utility_size = size
            self.size_source = index
        elif size != self.utility_size:

            def shape(n: int) -> str:
                return "a single number" if n == 0 else f"a list of {n} numbers"

            raise self.fail(
                index,
                field,
                f"utilities must all have one shape: this is {shape(size)}, but the one at "
                f"{self.pointer(self.size_source)} is {shape(self.utility_size)}",
            )

    def read_probability(self, raw: Any, index: int, parent: int) -> Exact:
        if parent < 0:
            raise self.fail(index, "p", "the root is not the outcome of a chance node")
        if self.kinds[parent] != CHANCE:
            raise self.fail(
                index,
                "p",
                f"p is the probability of a chance outcome, but the parent "
                f"{self.ids[parent]!r} is a {self.kinds[parent]} node",
            )
        chance = self.number(raw, index, "p")
        problem = probability_problem(chance)
        if problem is not None:
            raise self.fail(index, "p", problem)
        return chance

    def check_chance_nodes(self) -> None:
        """Fill in uniform probabilities; make sure stated ones sum to exactly 1."""
        problem = settle_chance(
            self.children, self.probabilities, self.chance_nodes, self.ids, self.pointer
        )
        if problem is None:
            return
        index, node, total = problem
        if total is None:
            raise self.fail(
                index,
                "p",
                f"either every outcome of chance node {self.ids[node]!r} states p or none "
                "does (then they are equally likely)",
            )
        raise self.fail(
            node,
            "children",
            f"the probabilities of the outcomes of chance node {self.ids[node]!r} sum to "
            f"{sum_text(total)}, not 1",
        )

    def bad_internal_kind(self, index: int, kind: object) -> InvalidInputError:
        if kind == LEAF:
            return self.fail(index, "kind", "a node of kind 'leaf' cannot have children")
        return self.bad_kind(index, kind)

    def bad_kind(self, index: int, kind: object) -> InvalidInputError:
        return self.fail(
            index,
            "kind",
            f"unknown kind {kind!r}; expected one of {', '.join(KIND_NAMES)}",
        )

    def finish(self) -> Tree:
        if self.any_given:
            self.check_unique_ids()
        self.check_chance_nodes()
        if self.utility_size:
            self.settle_max_n()
        return Tree(
            ids=self.ids,
            kinds=self.kinds,
            children=self.children,
            parents=self.parents,
            depths=self.depths,
            values=self.values,
            evals=self.evals,
            moves=self.moves,
            probabilities=self.probabilities,
            players=self.players,
            utility_size=self.utility_size or 0,
            source_pointers=self.source_pointers,
            _positions=self.positions,
            _array_nodes=self.array_nodes if self.any_array else bytearray(),
            _base=self.base,
            _bare_leaves=self.bare_leaves,
        )

    def check_unique_ids(self) -> None:
        seen: dict[str, int] = {}
        spend = self.spend
        for index, node_id in enumerate(self.ids):
            spend(1)
            first = seen.setdefault(node_id, index)
            if first == index:
                continue
            # Blame a given id, not a generated one.
            culprit, other = (index, first) if self.given_ids[index] else (first, index)
            detail = "" if self.given_ids[other] else " (the default id of that node)"
            raise self.fail(
                culprit,
                "id",
                f"duplicate id {node_id!r}: also the id of the node at "
                f"{self.pointer(other)}{detail}",
            )
