"""Star1 (Ballard 1983): it prunes chance nodes given bounds on leaf values, and its value is
expectiminimax's.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.alpha_beta import UPPER
from analysis.trees.expectimax import expectimax
from analysis.trees.star1 import star1
from games.errors import InvalidInputError
from games.trees.parser import parse_tree
from tests.reference import assert_bounds_hold
from tests.strategies import chance_trees


def max_over_chance(*groups: list[int]) -> dict[str, Any]:
    return {"children": [{"kind": "chance", "children": list(group)} for group in groups]}


def test_star1_prunes_and_agrees() -> None:
    # After the first chance node (8), alpha = 8. In the second, 2 and 4 leave at most
    # (2 + 4 + 15) / 3 = 7 <= 8 even if the last leaf were the maximum 15: it is cut.
    tree = parse_tree(max_over_chance([3, 12, 9], [2, 4, 6], [15, 6, 0]))
    result = star1(tree, (0, 15))
    assert result.value == 8
    assert [tree.ids[i] for i in result.pruned] == ["root.1.2"]
    node = tree.index_of("root.1")
    assert (result.values[node], result.bounds[node]) == (7, UPPER)


def test_star1_refuses_values_outside_bounds() -> None:
    tree = parse_tree(max_over_chance([3, 12, 9], [2, 4, 16]))
    with pytest.raises(InvalidInputError) as caught:
        star1(tree, (0, 15))
    assert caught.value.errors[0].pointer == "/tree/children/1/children/2"
    with pytest.raises(InvalidInputError):
        star1(tree, (5, 1))


@settings(max_examples=300)
@given(chance_trees(), st.booleans())
def test_star1_equals_full_expectiminimax(raw: Any, equality: bool) -> None:
    tree = parse_tree(raw)
    truth = expectimax(tree).values
    pruned = star1(tree, (-5, 5), prune_on_equality=equality)
    assert pruned.value == truth[0]
    assert_bounds_hold(pruned.values, pruned.bounds, truth)


# Star1 never reports a bound that the full expectiminimax values contradict.
#
# A regression found by the property test: a chance node entered with alpha = U (here 5)
# gave its first outcome the empty window [5, 5]; under pruning on equality a MIN
# grandchild failed low at 5, and the MAX outcome above it took that upper bound for a
# cut, reporting "at least 5" for a node worth 0.
EMPTY_WINDOW_TREE = {
    "kind": "max",
    "children": [
        {"kind": "max", "children": [5, 0]},
        {
            "kind": "chance",
            "children": [
                {"kind": "max", "children": [{"kind": "min", "children": [5, 0]}, 0, 0]},
                0,
                0,
            ],
        },
    ],
}


def test_a_chance_node_that_cannot_beat_alpha_is_cut_before_its_outcomes() -> None:
    tree = parse_tree(EMPTY_WINDOW_TREE)
    truth = expectimax(tree).values
    for equality in (True, False):
        result = star1(tree, (-5, 5), prune_on_equality=equality)
        assert result.value == truth[0] == 5
        assert_bounds_hold(result.values, result.bounds, truth)
    # by hand: after root.0 = 5 = U, the chance node can at best tie, so (pruning on
    # equality) none of its outcomes is searched and its value is "at most 5"
    cut = star1(tree, (-5, 5), prune_on_equality=True)
    chance = tree.index_of("root.1")
    assert (cut.values[chance], cut.bounds[chance]) == (5, "upper")
    assert [tree.ids[i] for i in cut.pruned] == ["root.1.0", "root.1.1", "root.1.2"]
    assert cut.cutoffs[-1].after == chance  # the window alone proved the cut
