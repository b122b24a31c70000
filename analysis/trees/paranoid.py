"""The paranoid reduction of a multiplayer tree (Sturtevant and Korf 2000).

One player assumes every other player is out to minimise its utility: the
tree becomes a two-player zero-sum tree (that player's nodes MAX, everyone
else's MIN, chance nodes kept) over that player's component of each utility
tuple, and alpha-beta (or Star1-free expectiminimax when there is chance)
solves it, pruning far more than max^n can.
"""

from __future__ import annotations

from typing import cast

from analysis.trees.max_n import MAXN_HINT, MAXN_KINDS, movers
from games.errors import InvalidInputError
from games.limits import current_deadline
from games.numbers import Exact
from games.trees.model import MAX, MIN, PLAYER, Tree, Utility


def paranoid_tree(tree: Tree, player: int) -> Tree:
    """The two-player tree in which ``player`` maximises its utility and the rest minimise it."""
    tree.require(kinds=MAXN_KINDS, tuples=True, endpoint=MAXN_HINT)
    if not 0 <= player < tree.utility_size:
        raise InvalidInputError(
            f"paranoid player must be between 0 and {tree.utility_size - 1}, got {player}",
            parameter="player",
        )
    turn = movers(tree)
    # each list is built in one pass that runs mostly in C; the clock is read between them
    clock = current_deadline()
    kinds = [
        kind if kind != PLAYER else (MAX if turn[index] == player else MIN)
        for index, kind in enumerate(tree.kinds)
    ]
    clock.check()

    def mine(value: Utility | None) -> Exact | None:
        return None if value is None else cast(tuple[Exact, ...], value)[player]

    values: list[Utility | None] = [mine(v) for v in tree.values]
    clock.check()
    evals: list[Utility | None] = [mine(v) for v in tree.evals]
    clock.check()
    return tree.replace(
        kinds=kinds, values=values, evals=evals, players=[None] * len(tree), utility_size=0
    )
