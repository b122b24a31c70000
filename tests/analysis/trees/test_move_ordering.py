"""Move ordering: leaves alpha-beta reads in the posted, best-first and worst-first orders,
against Knuth and Moore's minimal tree size ``b^ceil(d/2) + b^floor(d/2) - 1`` (1975).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.trees.move_ordering import minimal_tree_size, move_ordering
from games.trees.parser import parse_tree
from tests.reference import alpha_beta_leaves
from tests.strategies import uniform_trees

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def test_move_ordering_on_aima_tree() -> None:
    # Best-first: B (3, 8, 12 all read), then C and D each stop at 2: 5 leaves,
    # which is the Knuth-Moore bound 3^1 + 3^1 - 1. Worst-first reads all 9.
    report = move_ordering(parse_tree(AIMA))
    assert (report.given, report.best_first, report.worst_first) == (7, 5, 9)
    assert report.uniform and (report.branching, report.depth) == (3, 2)
    assert report.minimal_tree == 5


@pytest.mark.parametrize(("b", "d", "expected"), [(2, 1, 2), (3, 2, 5), (2, 3, 5), (10, 4, 199)])
def test_knuth_moore_formula(b: int, d: int, expected: int) -> None:
    assert minimal_tree_size(b, d) == expected


@given(st.integers(2, 4), st.integers(1, 4), st.data())
def test_best_first_order_reaches_knuth_moore_bound(
    branching: int, depth: int, data: st.DataObject
) -> None:
    leaves = branching**depth
    values = data.draw(st.permutations(range(leaves)))
    iterator = iter(values)
    raw = data.draw(uniform_trees(branching, depth, st.just(0)))

    def fill(node: Any) -> Any:
        return [fill(child) for child in node] if isinstance(node, list) else next(iterator)

    report = move_ordering(parse_tree(fill(raw)))
    assert report.minimal_tree == minimal_tree_size(branching, depth)
    assert report.best_first == report.minimal_tree
    # best-first reaches the minimal tree, which no order goes below; worst-first need not be
    # the most an order can cost (see the test below)
    assert report.best_first <= report.given <= leaves
    assert report.best_first <= report.worst_first <= leaves


def test_worst_first_is_not_always_the_costliest_order() -> None:
    # Found by hypothesis: this binary tree of depth 4 reads 15 leaves as posted, but 14
    # worst-first (MAX children by increasing, MIN by decreasing minimax value). Counted
    # independently by the reference search on the posted and the reordered nested lists.
    posted = [[[[0, 1], [7, 14]], [[4, 2], [6, 8]]], [[[9, 10], [11, 12]], [[5, 13], [15, 3]]]]
    reordered = [[[[10, 9], [12, 11]], [[15, 3], [13, 5]]], [[[1, 0], [14, 7]], [[4, 2], [8, 6]]]]
    assert len(alpha_beta_leaves(posted, True)[1]) == 15
    assert len(alpha_beta_leaves(reordered, True)[1]) == 14
    report = move_ordering(parse_tree(posted))
    assert (report.given, report.best_first, report.worst_first) == (15, 7, 14)
