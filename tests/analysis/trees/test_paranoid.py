"""The paranoid reduction (Sturtevant and Korf 2000) of a three-player tree, worked by hand.

Player 0 moves at the root, player 1 at ``root.0`` and ``root.1``::

    root (0) -- root.0 (1) -- (3, 1, 2)  (4, 3, 0)
             `- root.1 (1) -- (2, 5, 1)  (6, 2, 1)

max^n: player 1 takes (4,3,0) (3 > 1) and (2,5,1) (5 > 2); player 0 takes 4 over 2.
Paranoid for player 0: root MAX, both player-1 nodes MIN over first components:
min(3, 4) = 3 and min(2, 6) = 2, so 3 (what player 0 can guarantee; max^n promised 4).
Alpha-beta prunes (6, 2, 1): after 2 <= 3 player 0 never goes to ``root.1``.
Paranoid for player 1: root MIN, player-1 nodes MAX over second components:
max(1, 3) = 3, max(5, 2) = 5, min = 3. For player 2: every node MIN, min(2, 0, 1, 1) = 0.
"""

from __future__ import annotations

from typing import Any

import pytest

from analysis.trees.paranoid import paranoid_tree
from analysis.trees.solve import solve_tree
from games.errors import InvalidInputError
from games.trees.model import CHANCE, LEAF, MAX, MIN
from games.trees.parser import parse_tree

THREE_PLAYERS = {
    "player": 0,
    "children": [
        {"player": 1, "children": [{"value": [3, 1, 2]}, {"value": [4, 3, 0]}]},
        {"player": 1, "children": [{"value": [2, 5, 1]}, {"value": [6, 2, 1]}]},
    ],
}


@pytest.mark.parametrize(
    ("player", "kinds", "leaves"),
    [
        (0, [MAX, MIN, MIN], [3, 4, 2, 6]),
        (1, [MIN, MAX, MAX], [1, 3, 5, 2]),
        (2, [MIN, MIN, MIN], [2, 0, 1, 1]),
    ],
)
def test_player_nodes_become_max_or_min_over_one_component(
    player: int, kinds: list[str], leaves: list[int]
) -> None:
    reduced = paranoid_tree(parse_tree(THREE_PLAYERS), player)
    assert reduced.ids[:3] == ["root", "root.0", "root.1"]
    assert reduced.kinds == [*kinds, LEAF, LEAF, LEAF, LEAF]
    assert reduced.values[3:] == leaves
    assert reduced.utility_size == 0


@pytest.mark.parametrize(("player", "value"), [(0, 3), (1, 3), (2, 0)])
def test_reduced_tree_values_by_hand(player: int, value: int) -> None:
    reduced = paranoid_tree(parse_tree(THREE_PLAYERS), player)
    assert solve_tree(reduced, "minimax").value == value
    assert solve_tree(reduced, "alphabeta").value == value


def test_alpha_beta_prunes_the_reduction_where_max_n_cannot() -> None:
    reduced = solve_tree(paranoid_tree(parse_tree(THREE_PLAYERS), 0), "alphabeta")
    assert reduced.best_move == "root.0"
    assert reduced.pruned_leaves == ("root.1.1",)
    assert solve_tree(parse_tree(THREE_PLAYERS), "maxn").pruned_leaves == ()


def test_chance_nodes_are_kept_and_averaged() -> None:
    # player 0 chooses between a fair coin over (4,0) and (0,4), and (1,3). Paranoid for
    # player 1: the root is MIN over player 1's utility: min((0 + 4)/2, 3) = 2.
    raw: Any = {
        "player": 0,
        "children": [
            {"kind": "chance", "children": [{"value": [4, 0]}, {"value": [0, 4]}]},
            {"value": [1, 3]},
        ],
    }
    reduced = paranoid_tree(parse_tree(raw), 1)
    assert reduced.kinds[:2] == [MIN, CHANCE]
    assert solve_tree(reduced).value == 2
    nested = solve_tree(parse_tree(raw), paranoid=1).paranoid
    assert nested is not None and nested.algorithm == "expectimax" and nested.value == 2


def test_players_taking_turns_by_default_are_reduced_by_turn() -> None:
    # no "player" fields: the root is player 0's, its children player 1's
    raw = {
        "kind": "player",
        "children": [
            {"kind": "player", "children": [{"value": [1, 9]}, {"value": [5, 2]}]},
            {"value": [2, 2]},
        ],
    }
    reduced = paranoid_tree(parse_tree(raw), 0)
    assert reduced.kinds[:2] == [MAX, MIN]
    assert solve_tree(reduced).value == 2  # max(min(1, 5), 2)


def test_a_player_out_of_range_is_refused_naming_the_parameter() -> None:
    with pytest.raises(InvalidInputError) as caught:
        paranoid_tree(parse_tree(THREE_PLAYERS), 3)
    assert caught.value.errors[0].parameter == "player"
    assert "between 0 and 2" in str(caught.value)


def test_a_two_player_zero_sum_tree_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        paranoid_tree(parse_tree([[1, 2], [3, 4]]), 0)
