"""The explicit game tree: an immutable, array-backed model.

Nodes are numbered in preorder (a parent before its children, children left to
right), so index order is left-to-right order and every subtree is a
contiguous range of indices. Per-node attributes live in parallel lists, which
keeps a million-node tree compact and lets algorithms walk it with plain loops
instead of recursion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from games.errors import join_pointer
from games.numbers import Exact

MAX: Final = "max"
MIN: Final = "min"
LEAF: Final = "leaf"
CHANCE: Final = "chance"
PLAYER: Final = "player"

DECISION_KINDS: Final = frozenset({MAX, MIN})
NODE_KINDS: Final = (MAX, MIN, LEAF)

ROOT_ID: Final = "root"
"""Default id of the root. A node without an id is named after its parent:
``<parent id>.<child position, from 0>``, e.g. ``root.2.0``."""


@dataclass(frozen=True, slots=True, eq=False)
class Tree:
    """A game tree in preorder arrays.

    Attributes
    ----------
    ids
        Node ids, given or defaulted (see :data:`ROOT_ID`); unique.
    kinds
        ``"max"``, ``"min"`` or ``"leaf"`` per node.
    children
        Child indices per node, left to right (an empty tuple for a leaf).
    parents
        Parent index per node, ``-1`` for the root (index 0).
    depths
        Plies from the root.
    values
        Leaf utility, ``None`` for internal nodes.
    evals
        Static evaluation of internal nodes, ``None`` where not given.
    moves
        Label of the edge into the node, ``None`` where not given.
    """

    ids: list[str]
    kinds: list[str]
    children: list[tuple[int, ...]]
    parents: list[int]
    depths: list[int]
    values: list[Exact | None]
    evals: list[Exact | None]
    moves: list[str | None]
    source_pointers: list[str] | None = None
    """JSON pointer of each node's object in the input, when cheap to keep (flat form)."""
    _positions: list[int] = field(default_factory=list, repr=False)
    _array_nodes: bytearray = field(default_factory=bytearray, repr=False)
    _base: str = ""
    _index: dict[str, int] = field(default_factory=dict, repr=False)

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

    def is_leaf(self, index: int) -> bool:
        return not self.children[index]

    def leaves(self) -> list[int]:
        """Indices of the leaves, left to right."""
        return [i for i, kids in enumerate(self.children) if not kids]

    def subtree_end(self, index: int) -> int:
        """One past the last index of the subtree rooted at ``index``."""
        end = index
        while self.children[end]:
            end = self.children[end][-1]
        return end + 1

    def pointer(self, index: int) -> str:
        """JSON pointer of node ``index`` in the request it was parsed from."""
        if self.source_pointers is not None:
            return self.source_pointers[index]
        steps: list[str] = []
        node = index
        while node > 0:
            parent = self.parents[node]
            position = self._positions[node]
            if self._array_nodes and self._array_nodes[parent]:
                steps.append(f"/{position}")
            else:
                steps.append(f"/children/{position}")
            node = parent
        return self._base + "".join(reversed(steps))

    def field_pointer(self, index: int, name: str) -> str:
        """JSON pointer of field ``name`` of node ``index``."""
        return join_pointer(self.pointer(index), name)

    def max_depth(self) -> int:
        return max(self.depths)
