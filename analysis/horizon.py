"""The part of a tree a depth-limited search sees.

With ``depth=None`` the whole tree is searched and only leaves are scored.
With ``depth=d`` (plies), an internal node at depth ``d`` is a frontier node:
its children are not searched and its static evaluation ``eval`` stands in for
its value (H-minimax, AIMA section 5.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.errors import InvalidInputError
from games.numbers import Exact
from games.tree import Tree


@dataclass(frozen=True, slots=True)
class Horizon:
    """Children and static values as the search sees them.

    Attributes
    ----------
    children
        Per node, the children searched below it (empty at leaves and frontier nodes).
    static
        Per node, the value used when the search stops there (leaf value or eval).
    depth
        The cutoff in plies, or ``None`` for a full search.
    """

    children: Sequence[Sequence[int]]
    static: Sequence[Exact | None]
    depth: int | None

    def within(self, tree: Tree, index: int) -> bool:
        return self.depth is None or tree.depths[index] <= self.depth


def horizon(tree: Tree, depth: int | None) -> Horizon:
    """Cut ``tree`` at ``depth`` plies.

    Raises
    ------
    InvalidInputError
        If ``depth`` is negative, or a frontier node has no ``eval``; the
        message names the node and the pointer is its ``eval`` field.
    """
    if depth is None or depth >= tree.max_depth():
        if depth is not None and depth < 0:
            raise InvalidInputError(f"depth must be >= 0, got {depth}", "/depth")
        return Horizon(tree.children, tree.values, None if depth is None else depth)
    if depth < 0:
        raise InvalidInputError(f"depth must be >= 0, got {depth}", "/depth")
    children: list[Sequence[int]] = list(tree.children)
    static: list[Exact | None] = list(tree.values)
    empty: tuple[int, ...] = ()
    depths = tree.depths
    evals = tree.evals
    for index, kids in enumerate(tree.children):
        if kids and depths[index] == depth:
            score = evals[index]
            if score is None:
                raise InvalidInputError(
                    f"node {tree.ids[index]!r} is at the depth cutoff ({depth} plies) but has "
                    "no eval (static evaluation) to score it",
                    tree.field_pointer(index, "eval"),
                )
            children[index] = empty
            static[index] = score
    return Horizon(children, static, depth)
