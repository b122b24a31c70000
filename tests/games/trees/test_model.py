"""The tree model's derivations: subtree, reversed children, uniform chance, MAX/MIN swapped.

Each derived tree is checked against the tree parsed from the JSON it stands for (written
out by hand), with its caches primed on the original first, so a cache carried over would
show: the searches on both must agree, and so must the leaf count, the kinds present and
the index of every id.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings

from analysis.trees.expectimax import expectimax
from analysis.trees.minimax import minimax
from games.trees.model import CHANCE, LEAF, MAX, MIN, Tree
from games.trees.parser import parse_tree
from tests.strategies import chance_trees

COLUMNS = ("ids", "kinds", "children", "parents", "depths", "values", "evals", "probabilities")


def primed(tree: Tree) -> Tree:
    """Fill every cache of ``tree``, so that a derivation that copied one would be caught."""
    assert tree.leaf_count >= 0
    assert tree.kind_set
    tree.index_of(tree.ids[-1])
    return tree


def assert_same_tree(derived: Tree, parsed: Tree) -> None:
    for name in COLUMNS:
        assert getattr(derived, name) == getattr(parsed, name), name
    assert derived.leaf_count == parsed.leaf_count
    assert derived.kind_set == parsed.kind_set
    for index, name in enumerate(parsed.ids):
        assert derived.index_of(name) == index


def by_id(tree: Tree, values: list[Any]) -> dict[str, Any]:
    return {name: value for name, value in zip(tree.ids, values, strict=True)}


CHANCE_TREE: dict[str, Any] = {
    "children": [
        {
            "kind": "chance",
            "children": [
                {"p": "1/3", "move": "low", "children": [1, 2]},
                {"p": "2/3", "value": 6},
            ],
        },
        {"children": [4, 5]},
    ]
}


def test_subtree_keeps_exact_probabilities_moves_and_ids() -> None:
    tree = primed(parse_tree(CHANCE_TREE))
    sub = tree.subtree(tree.index_of("root.0"))
    # by hand: the chance node over a MIN node (1/3) and a leaf (2/3); chance passes MIN on
    expected = parse_tree(
        {
            "id": "root.0",
            "kind": "chance",
            "children": [
                {
                    "id": "root.0.0",
                    "kind": "min",
                    "p": "1/3",
                    "move": "low",
                    "children": [
                        {"id": "root.0.0.0", "value": 1},
                        {"id": "root.0.0.1", "value": 2},
                    ],
                },
                {"id": "root.0.1", "p": "2/3", "value": 6},
            ],
        }
    )
    assert_same_tree(sub, expected)
    assert sub.probabilities[1:3] == [Fraction(1, 3), Fraction(2, 3)]
    assert sub.moves == ["low" if name == "root.0.0" else None for name in sub.ids]
    # 1/3 * min(1, 2) + 2/3 * 6 = 13/3
    assert expectimax(sub).value == expectimax(expected).value == Fraction(13, 3)


def test_subtree_of_a_subtree_and_of_a_leaf() -> None:
    tree = primed(parse_tree([[1, [2, 3]], [4, 5]]))
    inner = tree.subtree(tree.index_of("root.0")).subtree(2)
    assert inner.ids == ["root.0.1", "root.0.1.0", "root.0.1.1"]
    assert inner.kinds == [MAX, LEAF, LEAF]  # MAX, MIN, then MAX at depth 2
    assert inner.depths == [0, 1, 1]
    leaf = tree.subtree(tree.index_of("root.1.1"))
    assert (leaf.ids, leaf.kinds, leaf.values, leaf.leaf_count) == (["root.1.1"], [LEAF], [5], 1)


def test_subtree_minimax_matches_the_parsed_subtree() -> None:
    tree = primed(parse_tree([[3, [12, 8]], [[2, 4], 6], [14, 5, 2]]))
    top = tree.index_of("root.1")
    sub = tree.subtree(top)
    # the same subtree written out by hand: a MIN node over a MAX node and a leaf
    expected = parse_tree(
        {
            "id": "root.1",
            "kind": "min",
            "children": [
                {
                    "id": "root.1.0",
                    "children": [
                        {"id": "root.1.0.0", "value": 2},
                        {"id": "root.1.0.1", "value": 4},
                    ],
                },
                {"id": "root.1.1", "value": 6},
            ],
        }
    )
    assert_same_tree(sub, expected)
    result, reference = minimax(sub), minimax(expected)
    assert result.value == reference.value == 4  # min(max(2, 4), 6)
    assert by_id(sub, result.values) == by_id(expected, reference.values)
    # and the subtree's values are the whole tree's values below ``top``
    whole = by_id(tree, minimax(tree).values)
    assert all(whole[name] == value for name, value in by_id(sub, result.values).items())


def test_subtree_pointers_point_into_the_original_request() -> None:
    tree = parse_tree({"children": [[1, {"children": [2, {"value": "3/2"}]}], 4]})
    sub = tree.subtree(tree.index_of("root.0"))
    assert sub.pointer(0) == "/tree/children/0"
    assert sub.pointer(sub.index_of("root.0.1")) == "/tree/children/0/1"
    assert sub.value_pointer(sub.index_of("root.0.0")) == "/tree/children/0/0"
    assert sub.value_pointer(sub.index_of("root.0.1.1")) == "/tree/children/0/1/children/1/value"
    flat = parse_tree(
        {
            "root": "a",
            "nodes": [
                {"id": "b", "children": ["c"]},
                {"id": "a", "children": ["b", "d"]},
                {"id": "c", "value": 1},
                {"id": "d", "value": 2},
            ],
        }
    )
    part = flat.subtree(flat.index_of("b"))
    assert [part.pointer(i) for i in range(len(part))] == ["/tree/nodes/0", "/tree/nodes/2"]


def test_reversing_twice_is_the_identity() -> None:
    tree = primed(parse_tree(CHANCE_TREE))
    twice = tree.reversed_children().reversed_children()
    assert_same_tree(twice, tree)
    assert [twice.pointer(i) for i in range(len(tree))] == [
        tree.pointer(i) for i in range(len(tree))
    ]


def test_reversed_children_search_right_to_left() -> None:
    tree = primed(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    mirrored = tree.reversed_children()
    # the same nodes under the same numbers, children listed right to left
    assert mirrored.ids == tree.ids
    assert mirrored.leaf_count == tree.leaf_count == 9
    assert [mirrored.values[i] for i in mirrored.leaves()] == [2, 5, 14, 6, 4, 2, 8, 12, 3]
    assert mirrored.index_of("root.2.0") == tree.index_of("root.2.0")
    # the mirror image written out by hand is solved the same way, node for node
    written = parse_tree([[2, 5, 14], [6, 4, 2], [8, 12, 3]])
    result, reference = minimax(mirrored), minimax(written)
    assert result.value == reference.value == 3
    assert [result.values[i] for i in mirrored.preorder()] == [
        reference.values[i] for i in written.preorder()
    ]


def test_uniform_chance_gives_equal_exact_probabilities() -> None:
    tree = primed(parse_tree(CHANCE_TREE))
    uniform = tree.with_uniform_chance()
    assert tree.probabilities[3:5] == [Fraction(1, 3), Fraction(2, 3)]  # untouched
    written = parse_tree(
        {
            "children": [
                {"kind": "chance", "children": [{"move": "low", "children": [1, 2]}, 6]},
                {"children": [4, 5]},
            ]
        }
    )
    assert_same_tree(uniform, written)
    assert uniform.probabilities[3:5] == [Fraction(1, 2), Fraction(1, 2)]
    # max(1/2 * min(1, 2) + 1/2 * 6, min(4, 5)) = max(7/2, 4) = 4; with 1/3, 2/3: 13/3
    assert expectimax(uniform).value == expectimax(written).value == 4
    assert expectimax(tree).value == Fraction(13, 3)


def test_max_min_swapped_refreshes_the_kinds_present() -> None:
    tree = primed(parse_tree([1, 2, 3]))
    assert tree.kind_set == {MAX, LEAF}
    swapped = tree.with_max_min_swapped()
    assert swapped.kind_set == {MIN, LEAF}
    assert_same_tree(swapped, parse_tree([1, 2, 3], root="min"))
    assert minimax(tree).value == 3
    assert minimax(swapped).value == 1
    chance = primed(parse_tree(CHANCE_TREE)).with_max_min_swapped()
    # MAX root, chance, MIN; below the chance node a MIN node: each decision kind swapped
    assert chance.kinds[:4] == [MIN, CHANCE, MAX, MAX]


def test_replace_starts_with_fresh_caches() -> None:
    tree = primed(parse_tree([[1, 2], 3]))
    renamed = tree.replace(ids=["r", "a", "b", "c", "d"])
    assert renamed.index_of("c") == 3
    assert tree.index_of("root.0.0") == 3
    assert renamed.kind_set == tree.kind_set


def test_leaves_below_follows_reordered_children() -> None:
    tree = parse_tree([[1, 2], [3, [4, 5]], [6, 7]])
    reversed_children = [kids[::-1] for kids in tree.children]
    order = [tree.values[i] for i in tree.leaves_below(0, reversed_children)]
    assert order == [7, 6, 5, 4, 3, 2, 1]
    assert [tree.values[i] for i in tree.leaves_below(2)] == [3, 4, 5]
    uniform = parse_tree([[1, 2], [3, 4]])
    assert [
        uniform.values[i] for i in uniform.leaves_below(0, [k[::-1] for k in uniform.children])
    ] == [4, 3, 2, 1]


def without_probabilities(raw: Any) -> Any:
    """``raw`` with every stated ``p`` dropped (its chance nodes then uniform)."""
    if isinstance(raw, list):
        return [without_probabilities(kid) for kid in raw]
    if isinstance(raw, dict):
        return {name: without_probabilities(field) for name, field in raw.items() if name != "p"}
    return raw


@settings(max_examples=60)
@given(chance_trees())
def test_derivations_agree_with_the_search_on_random_trees(raw: Any) -> None:
    tree = primed(parse_tree(raw))
    whole = expectimax(tree)
    # a node's subtree is worth what the node is worth in the whole tree
    for top, kids in enumerate(tree.children):
        if kids:
            assert expectimax(tree.subtree(top)).value == whole.values[top]
    # the order of children changes no value
    mirrored = tree.reversed_children()
    assert expectimax(mirrored).values == whole.values
    assert_same_tree(mirrored.reversed_children(), tree)
    # uniform chance is the tree written without any p
    uniform = tree.with_uniform_chance()
    assert_same_tree(uniform, parse_tree(without_probabilities(raw)))


def test_no_copy_carries_stale_caches() -> None:
    # the caches are not constructor fields: even a plain dataclasses.replace starts afresh
    tree = parse_tree({"kind": "max", "children": [1, {"kind": "min", "children": [2, 3]}]})
    assert tree.kind_set == {"max", "min", "leaf"} and tree.leaf_count == 3
    assert tree.index_of("root.1") == 2
    renamed = dataclasses.replace(
        tree, ids=["a", "b", "c", "d", "e"], kinds=["min", "leaf", "max", "leaf", "leaf"]
    )
    assert renamed.kind_set == {"min", "max", "leaf"}
    assert renamed.index_of("c") == 2
    with pytest.raises(ValueError):
        dataclasses.replace(tree, _kind_set=frozenset())


def test_a_plain_tree_states_no_evals_moves_or_players() -> None:
    tree = parse_tree([[1, 2], 3])
    assert tree.evals == tree.moves == tree.players == [None] * 5
