"""Shared hypothesis strategies (as Axelrod's tests/property.py), one section per area:
game trees, normal-form games, lotteries and utilities.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from utility.lottery import Lottery, from_pairs

# -- game trees -------------------------------------------------------------------------


def shorthand_trees(
    max_depth: int = 4, max_branching: int = 4, values: st.SearchStrategy[int] | None = None
) -> st.SearchStrategy[Any]:
    """Nested-array trees with at least one child per internal node, uneven depths allowed.

    Small value ranges make ties (and so the pruning conventions) matter.
    """
    leaf = values if values is not None else st.integers(-5, 5)
    return st.recursive(
        leaf,
        lambda inner: st.lists(inner, min_size=1, max_size=max_branching),
        max_leaves=max_branching**max_depth,
    ).filter(lambda tree: isinstance(tree, list))


def uniform_trees(
    branching: int, depth: int, values: st.SearchStrategy[int]
) -> st.SearchStrategy[Any]:
    """Complete trees of the given branching and depth."""
    strategy: st.SearchStrategy[Any] = values
    for _ in range(depth):
        strategy = st.lists(strategy, min_size=branching, max_size=branching)
    return strategy


@st.composite
def chance_trees(
    draw: st.DrawFn, max_depth: int = 4, max_branching: int = 3, low: int = -5, high: int = 5
) -> Any:
    """Node-object trees mixing MAX, MIN and chance nodes in any order.

    Chance outcomes get exact probabilities from random integer weights (as "p/q"
    strings, zero weights included), or none at all (uniform).
    """

    def node(depth: int) -> Any:
        if depth == 0 or (depth < max_depth and draw(st.integers(0, 4)) == 0):
            return draw(st.integers(low, high))
        kind = draw(st.sampled_from(["max", "min", "chance"]))
        kids = [node(depth - 1) for _ in range(draw(st.integers(1, max_branching)))]
        if kind == "chance" and draw(st.booleans()):
            weights = draw(
                st.lists(st.integers(0, 4), min_size=len(kids), max_size=len(kids)).filter(
                    lambda w: sum(w) > 0
                )
            )
            total = sum(weights)
            kids = [
                {"p": f"{w}/{total}", **(kid if isinstance(kid, dict) else {"value": kid})}
                if not isinstance(kid, list)
                else {"p": f"{w}/{total}", "children": kid}
                for kid, w in zip(kids, weights, strict=True)
            ]
        return {"kind": kind, "children": kids}

    return node(max_depth)


@st.composite
def multiplayer_trees(
    draw: st.DrawFn, players: int = 3, max_depth: int = 4, max_branching: int = 3, high: int = 4
) -> Any:
    """Player-node trees over utility tuples in [0, high], players taking turns by default."""

    def node(depth: int) -> Any:
        if depth == 0 or (depth < max_depth and draw(st.integers(0, 4)) == 0):
            payoffs = draw(st.lists(st.integers(0, high), min_size=players, max_size=players))
            return {"value": payoffs}
        kids = [node(depth - 1) for _ in range(draw(st.integers(1, max_branching)))]
        return {"kind": "player", "children": kids}

    return node(max_depth)


# -- normal-form games (small integer payoff matrices) ----------------------------------


@st.composite
def matrices(
    draw: st.DrawFn, rows: int | None = None, cols: int | None = None, low: int = -5, high: int = 5
) -> list[list[int]]:
    """A ``rows x cols`` integer matrix; a small range makes ties (degenerate games) common."""
    m = rows if rows is not None else draw(st.integers(1, 4))
    n = cols if cols is not None else draw(st.integers(1, 4))
    entries = st.integers(low, high)
    return [[draw(entries) for _ in range(n)] for _ in range(m)]


@st.composite
def bimatrices(
    draw: st.DrawFn, low: int = -5, high: int = 5
) -> tuple[list[list[int]], list[list[int]]]:
    """Two payoff matrices of one shape, for a two-player game."""
    m = draw(st.integers(1, 4))
    n = draw(st.integers(1, 4))
    return draw(matrices(m, n, low, high)), draw(matrices(m, n, low, high))


# -- lotteries and utilities ------------------------------------------------------------


@st.composite
def lotteries(
    draw: st.DrawFn, min_outcome: int = 0, max_outcome: int = 10_000, max_size: int = 6
) -> Lottery:
    """A simple lottery with integer outcomes and exact rational probabilities."""
    outcomes = draw(
        st.lists(st.integers(min_outcome, max_outcome), min_size=1, max_size=max_size, unique=True)
    )
    weights = draw(st.lists(st.integers(1, 20), min_size=len(outcomes), max_size=len(outcomes)))
    total = sum(weights)
    return from_pairs({o: Fraction(w, total) for o, w in zip(outcomes, weights, strict=True)})


CONCAVE = ["sqrt(x)", "log(x + 1)", "1 - exp(-x/1000)", "x^0.3", "x - x^2/40000"]
