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
