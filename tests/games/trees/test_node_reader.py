"""The node reader, called directly: any tree, node by node, every error with its pointer."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.errors import InvalidInputError, LimitExceededError
from games.limits import Limits
from games.trees.model import LEAF, MAX, MIN, PLAYER
from games.trees.node_reader import TreeBuilder


def test_ids_moves_and_fractions_in_breadth_first_order() -> None:
    tree = TreeBuilder(MIN, Limits(), "/body").build_nested(
        {"id": "A", "children": [{"id": "B", "move": "left", "value": "-7/2"}, [1, 2]]}
    )
    assert tree.ids == ["A", "B", "A.1", "A.1.0", "A.1.1"]
    assert tree.kinds == [MIN, LEAF, MAX, LEAF, LEAF]
    assert tree.moves[1] == "left"
    assert tree.values[1] == Fraction(-7, 2)
    assert tree.pointer(4) == "/body/children/1/1"


def test_flat_form_pointers_name_the_node_in_the_list() -> None:
    tree = TreeBuilder(MAX, Limits(), "/tree").build_flat(
        {"root": "r", "nodes": [{"id": "x", "value": 1}, {"id": "r", "children": ["x"]}]}
    )
    assert tree.ids == ["r", "x"]
    assert [tree.pointer(i) for i in range(2)] == ["/tree/nodes/1", "/tree/nodes/0"]


def test_utility_lists_make_kindless_nodes_max_n_nodes_but_keep_stated_kinds() -> None:
    tree = TreeBuilder(MAX, Limits(), "/tree").build_nested(
        {"children": [{"kind": "min", "children": [{"children": [{"value": [1, 2]}]}]}]}
    )
    assert tree.kinds == [PLAYER, MIN, PLAYER, LEAF]


def test_bare_lists_are_leaves_only_in_a_max_n_reading() -> None:
    raw = [[1, 2], [3, 4]]
    max_n = TreeBuilder(PLAYER, Limits(), "/tree").build_nested(raw)
    assert (max_n.kinds, max_n.values[1:]) == ([PLAYER, LEAF, LEAF], [(1, 2), (3, 4)])
    assert max_n.value_pointer(2) == "/tree/1"
    two_player = TreeBuilder(MAX, Limits(), "/tree").build_nested(raw)
    assert two_player.kinds == [MAX, MIN, MIN, LEAF, LEAF, LEAF, LEAF]


def test_limits_point_at_the_node_that_breaks_them() -> None:
    with pytest.raises(InvalidInputError):
        TreeBuilder(MAX, Limits(), "/tree").build_nested({"children": [{"value": "x"}]})
    builder = TreeBuilder(MAX, Limits(max_nodes=3), "/tree")
    with pytest.raises(LimitExceededError, match="more than the limit of 3 nodes") as caught:
        builder.build_nested([1, [2, 3]])
    assert caught.value.errors[0].pointer == "/tree/1"
