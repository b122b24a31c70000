"""The counters every search reports, counted by hand.

AIMA Figure 5.2 has 13 nodes and 9 leaves. Minimax enters all 13 and evaluates all 9;
alpha-beta skips ``root.1.1`` and ``root.1.2`` (one cutoff, at ``root.1``): 11 entered,
7 evaluated. With a depth cutoff of 1 the two MIN nodes below the root are scored by
their evals: 2 static nodes, 3 entered.
"""

from __future__ import annotations

import dataclasses

import pytest

from analysis.trees.search_stats import SearchStats
from analysis.trees.solve import solve_tree
from games.trees.parser import parse_tree

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.mark.parametrize(
    ("algorithm", "expected"),
    [
        ("minimax", SearchStats(nodes=13, leaves=9, visited=13, evaluated=9, cutoffs=0)),
        ("alphabeta", SearchStats(nodes=13, leaves=9, visited=11, evaluated=7, cutoffs=1)),
    ],
)
def test_counts_on_aima_figure_5_2(algorithm: str, expected: SearchStats) -> None:
    assert solve_tree(parse_tree(AIMA), algorithm).stats == expected


def test_internal_nodes_at_the_cutoff_count_as_static() -> None:
    tree = parse_tree(
        {"children": [{"eval": 5, "children": [1, 2]}, {"eval": 7, "children": [8, 9]}]}
    )
    expected = SearchStats(nodes=7, leaves=2, visited=3, evaluated=2, cutoffs=0)
    assert solve_tree(tree, "minimax", depth=1).stats == expected
    assert solve_tree(tree, "alphabeta", depth=1).stats == expected


def test_star1_counts_its_cutoff() -> None:
    # MAX over two fair coins, leaves in [0, 5]: root.1.1 is never read (see test_solve.py)
    tree = parse_tree(
        {
            "children": [
                {"kind": "chance", "children": [3, 5]},
                {"kind": "chance", "children": [1, 2]},
            ]
        }
    )
    assert solve_tree(tree, "expectimax").stats == SearchStats(7, 4, 7, 4, 0)
    assert solve_tree(tree, "star1", bounds=(0, 5)).stats == SearchStats(7, 4, 6, 3, 1)


def test_stats_are_frozen() -> None:
    stats = SearchStats(nodes=1, leaves=1, visited=1, evaluated=1, cutoffs=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.cutoffs = 2  # type: ignore[misc]
