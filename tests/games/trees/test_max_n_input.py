"""Max^n trees as users write them: players defaulted as docs/trees.md says, and bare
utility lists in the shorthand read with ``root="player"`` (what /v1/trees/maxn does)."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.trees.max_n import maxn, movers
from analysis.trees.minimax import minimax
from games.errors import InvalidInputError
from games.trees.model import CHANCE, LEAF, MAX, PLAYER
from games.trees.parser import parse_tree

BARE = [[[1, 2, 3], [6, 1, 2]], [[2, 5, 0], [6, 1, 1]]]


def test_nodes_without_player_take_the_next_player() -> None:
    tree = parse_tree(
        {
            "children": [
                {"children": [{"value": [1, 2, 3]}, {"children": [{"value": [0, 0, 1]}]}]},
                {"value": [3, 0, 0]},
            ]
        }
    )
    assert tree.kinds == [PLAYER, PLAYER, LEAF, LEAF, PLAYER, LEAF]
    assert tree.players == [None] * 6  # not stated: the search fills them in
    # the root is player 0, then 1, then 2: the next after the parent's, modulo 3
    assert movers(tree) == [0, 1, None, None, 2, None]


def test_the_default_holds_in_the_flat_form_and_below_a_stated_player() -> None:
    flat = parse_tree(
        {
            "root": "a",
            "nodes": [
                {"id": "a", "player": 1, "children": ["b", "c"]},
                {"id": "b", "children": ["d"]},
                {"id": "c", "value": [1, 0]},
                {"id": "d", "value": [0, 1]},
            ],
        }
    )
    assert flat.kinds == [PLAYER, PLAYER, LEAF, LEAF]
    assert movers(flat) == [1, 0, None, None]


def test_a_chance_node_passes_the_turn_through() -> None:
    tree = parse_tree(
        {"children": [{"kind": "chance", "children": [{"children": [{"value": [1, 2, 3]}]}]}]}
    )
    assert tree.kinds == [PLAYER, CHANCE, PLAYER, LEAF]
    # root 0; the chance node's own turn is 1, and its outcome moves as player 1
    assert movers(tree)[2] == 1


def test_a_stated_max_node_stays_and_is_refused_at_its_kind() -> None:
    tree = parse_tree({"children": [{"kind": "max", "children": [{"value": [1, 2]}]}]})
    assert tree.kinds[:2] == [PLAYER, MAX]
    with pytest.raises(InvalidInputError) as caught:
        maxn(tree)
    assert caught.value.errors[0].pointer == "/tree/children/0/kind"


def test_a_player_node_refused_by_minimax_points_at_its_player() -> None:
    tree = parse_tree({"player": 0, "children": [1, 2]})
    with pytest.raises(InvalidInputError) as caught:
        minimax(tree)
    assert caught.value.errors[0].pointer == "/tree/player"


def test_bare_utility_lists_are_leaves_in_a_max_n_reading() -> None:
    tree = parse_tree(BARE, root=PLAYER)
    assert tree.kinds == [PLAYER] * 3 + [LEAF] * 4
    assert tree.values[3:] == [(1, 2, 3), (6, 1, 2), (2, 5, 0), (6, 1, 1)]
    assert tree.utility_size == 3
    assert tree.value_pointer(tree.index_of("root.1.0")) == "/tree/1/0"
    # player 1 takes (1, 2, 3) and (2, 5, 0); player 0 then (2, 5, 0), worked by hand
    result = maxn(tree)
    assert result.value == (2, 5, 0)


def test_bare_lists_are_nodes_in_a_two_player_reading() -> None:
    tree = parse_tree(BARE)
    assert tree.leaf_count == 12
    assert tree.utility_size == 0
    # MAX over MIN over MAX: min(max(1,2,3), max(6,1,2)) = 3, min(5, 6) = 5, max = 5
    assert minimax(tree).value == 5


def test_bare_lists_mix_with_objects_and_chance_nodes() -> None:
    tree = parse_tree(
        {"children": [{"kind": "chance", "children": [[1, "1/2"], {"value": [0, 1]}]}, [2, 2]]},
        root=PLAYER,
    )
    assert tree.kinds == [PLAYER, CHANCE, LEAF, LEAF, LEAF]
    assert tree.values[2] == (2, 2)
    assert maxn(tree).value == (2, 2)  # the chance node is worth (1/2, 3/4): 1/2 < 2


@pytest.mark.parametrize(
    ("raw", "pointer", "message"),
    [
        ([[1, 2], 3], "/tree/1", "a single number, but the one at /tree/0 is a list of 2"),
        ([[1, 2], [1, 2, 3]], "/tree/1", "a list of 3 numbers"),
        ([[1, "x"]], "/tree/0/1", ""),
        ([[1, 2], []], "/tree/1", "empty array"),
        ({"children": [[1, 2], {"value": 3}]}, "/tree/children/1/value", "single number"),
    ],
)
def test_bad_bare_lists_are_refused_where_they_are(raw: Any, pointer: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_tree(raw, root=PLAYER)
    [error] = caught.value.errors
    assert error.pointer == pointer
    assert message in error.message
