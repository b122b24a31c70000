"""The level reader: plain trees read a level at a time, exactly as the node reader reads them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.limits import Limits
from games.trees.level_reader import plain_tree
from games.trees.node_reader import TreeBuilder
from tests.strategies import chance_trees

PLAIN_TREES: list[Any] = [
    [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
    [2, [-1, 5], [1, 3], 4],
    {"children": [{"value": 1}, {"children": [[2, 3], {"value": 4}]}, [5]]},
    [[[[[[1]]]]], 2],
    # chance nodes and stated kinds are read a level at a time too
    {
        "children": [
            {
                "kind": "chance",
                "children": [
                    {"p": "0.25", "children": [1, 2]},
                    {"p": 0.75, "kind": "max", "children": [3, [4, 5]]},
                ],
            },
            {"kind": "chance", "children": [6, {"value": 7}, [8]]},
            {"kind": "min", "children": [{"kind": "leaf", "value": 9}]},
        ]
    },
]


@pytest.mark.parametrize("raw", PLAIN_TREES)
@pytest.mark.parametrize("root", ["max", "min"])
def test_plain_fast_path_builds_what_the_general_walk_builds(raw: Any, root: str) -> None:
    fast = plain_tree(raw, root, Limits())
    assert fast is not None
    general = TreeBuilder(root, Limits(), "/tree").build_nested(raw)
    for name in (
        "ids",
        "kinds",
        "children",
        "parents",
        "depths",
        "values",
        "evals",
        "moves",
        "probabilities",
        "_bare_leaves",
    ):
        assert getattr(fast, name) == getattr(general, name), name
    assert fast.leaf_count == general.leaf_count == len(general.leaves())
    for index in range(len(fast)):
        assert fast.pointer(index) == general.pointer(index)


@pytest.mark.parametrize(
    "raw",
    [
        [1, 2.5],
        [1, "3"],
        [[1], []],
        {"id": "a", "children": [1]},
        [1, {"value": 1, "move": "m"}],
        [1, True],
        {"children": [{"value": 1.0}]},
    ],
)
def test_plain_fast_path_declines_anything_else(raw: Any) -> None:
    assert plain_tree(raw, "max", Limits()) is None


@given(chance_trees(), st.sampled_from(["max", "min"]))
def test_level_reader_agrees_with_the_walk_on_random_chance_trees(raw: Any, root: str) -> None:
    fast = plain_tree(raw, root, Limits())
    assert fast is not None
    general = TreeBuilder(root, Limits(), "/tree").build_nested(raw)
    for name in ("ids", "kinds", "children", "depths", "values", "probabilities"):
        assert getattr(fast, name) == getattr(general, name), name
