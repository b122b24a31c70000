"""The explicit game tree: an immutable, array-backed model.

Nodes are numbered breadth-first: the root is 0, every level follows the one
above it, and within a level nodes run left to right. So a parent's index is
below its children's, a node's children are a contiguous ``range`` of indices,
and each level is a contiguous block that holds the children of the level
above in order. Per-node attributes live in parallel lists, which keeps a
million-node tree compact and lets algorithms walk it with plain loops (or
numpy, level by level) instead of recursion.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate, chain, repeat
from typing import Any, Final

from games.errors import InvalidInputError, join_pointer
from games.limits import current_deadline
from games.numbers import Exact, normalize

MAX: Final = "max"
MIN: Final = "min"
LEAF: Final = "leaf"
CHANCE: Final = "chance"
PLAYER: Final = "player"

DECISION_KINDS: Final = frozenset({MAX, MIN})
OPPONENT: Final = {MAX: MIN, MIN: MAX}
"""The other side of a two-player zero-sum game."""

TWO_PLAYER_HINT: Final = (
    "minimax and alpha-beta take MAX and MIN nodes with numeric utilities; solve chance nodes "
    "with /v1/trees/expectimax and utility lists with /v1/trees/maxn"
)

Utility = Exact | tuple[Exact, ...]
"""A leaf value or eval: one number, or one number per player (max^n)."""

ROOT_ID: Final = "root"
"""Default id of the root. A node without an id is named after its parent:
``<parent id>.<child position, from 0>``, e.g. ``root.2.0``."""


def node_pointer(
    base: str,
    parents: Sequence[int],
    positions: Sequence[int],
    array_nodes: bytearray,
    index: int,
) -> str:
    """JSON pointer of a nested-form node: ``/children/k`` steps below an object,
    ``/k`` steps below a shorthand array (``array_nodes`` flags those)."""
    steps: list[str] = []
    node = index
    while node > 0:
        parent = parents[node]
        if array_nodes and array_nodes[parent]:
            steps.append(f"/{positions[node]}")
        else:
            steps.append(f"/children/{positions[node]}")
        node = parent
    return base + "".join(reversed(steps))


def leaves_below_all(
    tree: Tree, tops: Sequence[int], children: Sequence[Sequence[int]]
) -> list[int]:
    """Leaves (static nodes, under ``children``) of the subtrees under ``tops``, in order."""
    below = tree.leaves_below
    spend = current_deadline().spend

    def leaves_of(top: int) -> Sequence[int]:
        spend(1)
        return below(top, children) if children[top] else (top,)

    return list(chain.from_iterable(map(leaves_of, tops)))


@dataclass(frozen=True, slots=True, eq=False)
class Tree:
    """A game tree in breadth-first arrays.

    The tree is immutable; it keeps a few caches (leaf count, kinds present, the
    index of each id) that it works out on first use. Derive a changed tree with
    :meth:`subtree`, :meth:`reversed_children`, :meth:`with_uniform_chance`,
    :meth:`with_max_min_swapped` or, for other changes, :meth:`replace`: each starts
    with fresh caches (the caches are not constructor fields, so no copy carries them).

    Columns are lists, whichever reader built the tree.

    Attributes
    ----------
    ids
        Node ids, given or defaulted (see :data:`ROOT_ID`); unique.
    kinds
        ``"max"``, ``"min"``, ``"chance"``, ``"player"`` (a max^n node) or ``"leaf"``.
    children
        Child indices per node, left to right: a ``range`` (empty for a leaf).
    parents
        Parent index per node, ``-1`` for the root (index 0).
    depths
        Plies from the root.
    values
        Leaf utility (a number, or a tuple with one per player), ``None`` for
        internal nodes.
    evals
        Static evaluation of internal nodes, ``None`` where not given.
    moves
        Label of the edge into the node, ``None`` where not given.
    probabilities
        For each outcome of a chance node, its exact probability (stated, or
        uniform when none of its siblings states one); ``None`` elsewhere.
    players
        The player (0-based) to move at a max^n node, where given.
    utility_size
        0 when utilities are numbers; n when each is a list of n (max^n).
    """

    ids: Sequence[str]
    kinds: list[str]
    children: Sequence[range]
    parents: Sequence[int]
    depths: Sequence[int]
    values: list[Utility | None]
    evals: Sequence[Utility | None]
    moves: Sequence[str | None]
    probabilities: list[Exact | None]
    players: Sequence[int | None]
    utility_size: int = 0
    source_pointers: list[str] | None = None
    """JSON pointer of each node's object in the input, when cheap to keep (flat form)."""
    _positions: Sequence[int] = field(default_factory=list, repr=False)
    _array_nodes: bytearray = field(default_factory=bytearray, repr=False)
    _base: str = ""
    # caches, worked out on first use; not constructor fields, so that no copy (not even
    # a stray dataclasses.replace) can carry stale ones over
    _leaf_count: int = field(default=-1, init=False, repr=False, compare=False)
    _kind_set: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    _bare_leaves: bytearray = field(default_factory=bytearray, repr=False)
    """1 for a leaf written as a bare number (its pointer is the value itself)."""
    _index: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def root_kind(self) -> str:
        return self.kinds[0]

    def index_of(self, node_id: str) -> int:
        """Index of the node with id ``node_id``; ``KeyError`` if there is none."""
        if not self._index:
            self._index.update((name, i) for i, name in enumerate(self.ids))
        return self._index[node_id]

    def preorder(self, top: int = 0, children: Sequence[Sequence[int]] | None = None) -> list[int]:
        """Indices of the subtree under ``top`` in preorder (parents first, left to right)."""
        if children is None:
            children = self.children
        spend = current_deadline().spend
        order: list[int] = []
        stack = [top]
        while stack:
            node = stack.pop()
            order.append(node)
            kids = children[node]
            if kids:
                stack.extend(reversed(kids))
                spend(len(kids))
        return order

    def leaves(self) -> list[int]:
        """Indices of the leaves, left to right."""
        return list(self.leaves_below(0))

    def leaves_below(
        self, top: int, children: Sequence[Sequence[int]] | None = None
    ) -> Sequence[int]:
        """Leaves of the subtree under ``top``, left to right.

        ``children`` replaces the tree's own (a depth-limited search passes its
        cut-off view). With the tree's ascending ranges, each level of a subtree is
        a contiguous block of indices, so when all its leaves lie on one level they
        are that level's block, found in a few steps per level; otherwise (leaves on
        several levels, children reordered) the subtree is walked.
        """
        kids = self.children if children is None else children
        spend = current_deadline().spend
        low, high = top, top + 1
        while True:
            # a level is sliced and tested in C: far cheaper than a step per node
            spend(1 + (high - low) // 64)
            block = kids[low:high]
            if all(block):
                if getattr(block[0], "step", 0) != 1 or getattr(block[-1], "step", 0) != 1:
                    break  # children reordered (say, reversed): walk the subtree instead
                low, high = block[0][0], block[-1][-1] + 1
            elif not any(block):
                return range(low, high)
            else:
                break
        return [i for i in self.preorder(top, kids) if not kids[i]]

    def pointer(self, index: int) -> str:
        """JSON pointer of node ``index`` in the request it was parsed from."""
        if self.source_pointers is not None:
            return self.source_pointers[index]
        return node_pointer(self._base, self.parents, self._positions, self._array_nodes, index)

    def value_pointer(self, index: int) -> str:
        """JSON pointer of a leaf's value: the node itself for a bare number."""
        if self._bare_leaves and self._bare_leaves[index]:
            return self.pointer(index)
        return self.field_pointer(index, "value")

    def field_pointer(self, index: int, name: str) -> str:
        """JSON pointer of field ``name`` of node ``index``."""
        return join_pointer(self.pointer(index), name)

    def require(self, *, kinds: frozenset[str], tuples: bool, endpoint: str) -> None:
        """Refuse a tree the caller's algorithm cannot solve, pointing at the first misfit.

        ``kinds`` are the internal node kinds allowed; ``tuples`` whether
        utilities are lists (max^n) rather than numbers.
        """
        if bool(self.utility_size) != tuples:
            first = next(i for i, kids in enumerate(self.children) if not kids)
            shape = "numbers" if tuples is False else "lists with one number per player"
            raise InvalidInputError(
                f"utilities here must be {shape}; this tree's are not: {endpoint}",
                self.value_pointer(first),
            )
        present = self.kind_set
        for kind in (MAX, MIN, CHANCE, PLAYER):
            if kind not in kinds and kind in present:
                index = self.kinds.index(kind)
                # a max^n node may say so by its player alone: point at a field it has
                stated = "player" if self.players[index] is not None else "kind"
                raise InvalidInputError(
                    f"node {self.ids[index]!r} is a {kind} node, which this algorithm does "
                    f"not take: {endpoint}",
                    self.field_pointer(index, stated),
                )

    def max_depth(self) -> int:
        """Depth of the deepest node: the last one, in level order."""
        return self.depths[-1]

    def leaves_on_last_level(self) -> bool:
        """Whether every leaf lies on the last level (as in a uniform tree): then the leaves
        below any node are one block of the last level. Nodes there are all leaves, so it is
        so when the leaves are as many as that level's nodes."""
        depths = self.depths
        return self.leaf_count == len(depths) - bisect_left(depths, depths[-1])

    @property
    def kind_set(self) -> frozenset[str]:
        """The node kinds that occur in the tree (worked out once)."""
        if not self._kind_set:
            object.__setattr__(self, "_kind_set", frozenset(self.kinds))
        return self._kind_set

    @property
    def leaf_count(self) -> int:
        """Number of leaves (an empty range equals any other, so ``count`` runs in C)."""
        if self._leaf_count < 0:
            object.__setattr__(self, "_leaf_count", self.children.count(range(0)))
        return self._leaf_count

    # -- derivations: each returns a new tree whose caches start afresh --------

    def replace(self, **changes: Any) -> Tree:
        """A copy with the fields in ``changes`` replaced and every cache reset.

        The caller keeps the fields consistent with each other (one entry per node,
        children ranges within the tree); the named derivations below do so.
        """
        return dataclasses.replace(self, **changes)

    def with_max_min_swapped(self) -> Tree:
        """The same tree with every MAX node a MIN node and the reverse (the root
        player mistaken); chance and max^n nodes unchanged."""
        current_deadline().spend(len(self) // 64)
        return self.replace(kinds=[OPPONENT.get(kind, kind) for kind in self.kinds])

    def with_uniform_chance(self) -> Tree:
        """The same tree with the outcomes of every chance node equally likely."""
        probabilities = list(self.probabilities)
        if CHANCE in self.kind_set:
            spend = current_deadline().spend
            for node, kind in enumerate(self.kinds):
                if kind == CHANCE:
                    kids = self.children[node]
                    spend(len(kids))
                    share = normalize(Fraction(1, len(kids)))
                    for kid in kids:
                        probabilities[kid] = share
        return self.replace(probabilities=probabilities)

    def reversed_children(self) -> Tree:
        """The same nodes, numbered as before, with every node's children in reverse
        order (searched right to left). Their ranges then step down, which
        :meth:`preorder` and :meth:`leaves_below` follow; reversing twice gives the
        original order back."""
        current_deadline().spend(len(self) // 16)
        return self.replace(children=[kids[::-1] for kids in self.children])

    def subtree(self, top: int) -> Tree:
        """The subtree under node ``top`` as a tree of its own, numbered breadth-first.

        Nodes keep their ids, kinds, values, evals, moves, players and chance
        probabilities (the new root, being no outcome, has neither move nor ``p``), and
        their pointers into the request the tree was parsed from; depths count from
        ``top``. Node ``i`` of the subtree is node ``tree.index_of(sub.ids[i])`` here.
        """
        spend = current_deadline().spend
        children = self.children
        order = [top]
        new_children: list[range] = []
        level = [top]
        while level:
            spend(1 + len(level))
            kids = list(map(children.__getitem__, level))
            ends = list(accumulate(map(len, kids), initial=len(order)))
            new_children.extend(map(range, ends[:-1], ends[1:]))
            level = list(chain.from_iterable(kids))
            order.extend(level)
        spend(len(order))

        def picked(column: Sequence[Any]) -> list[Any]:
            spend(len(order) // 16)
            return [column[i] for i in order]

        parents = [-1, *chain.from_iterable(map(repeat, range(len(order)), map(len, new_children)))]
        offset = self.depths[top]
        probabilities = picked(self.probabilities)
        moves = picked(self.moves)
        probabilities[0] = moves[0] = None  # the new root is no outcome of a move
        source_pointers = self.source_pointers
        if source_pointers is not None:
            source_pointers = picked(source_pointers)
        positions = picked(self._positions) if self._positions else []
        array_nodes = bytearray(picked(self._array_nodes)) if self._array_nodes else bytearray()
        bare_leaves = bytearray(picked(self._bare_leaves)) if self._bare_leaves else bytearray()
        return Tree(
            ids=picked(self.ids),
            kinds=picked(self.kinds),
            children=new_children,
            parents=parents,
            depths=[depth - offset for depth in picked(self.depths)],
            values=picked(self.values),
            evals=picked(self.evals),
            moves=moves,
            probabilities=probabilities,
            players=picked(self.players),
            utility_size=self.utility_size,
            source_pointers=source_pointers,
            _positions=positions,
            _array_nodes=array_nodes,
            # the new root's pointer is top's, and the pointers below it go on from there
            _base=self._base if source_pointers is not None else self.pointer(top),
            _bare_leaves=bare_leaves,
        )
