"""The compiled reader of plain trees (games/trees/_reader.pyx) against the level reader and the
general walk it stands in for: the same tree, node for node, pointers included; and nothing
for any other shape, so errors keep their pointers."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.trees.compiled_reader as compiled_reader
from games.errors import InvalidInputError, LimitExceededError
from games.limits import Limits
from games.trees.compiled_reader import compiled_plain_tree
from games.trees.level_reader import plain_tree
from games.trees.model import Tree
from games.trees.node_reader import TreeBuilder
from games.trees.parser import parse_tree
from tests.strategies import shorthand_trees

pytestmark = pytest.mark.skipif(
    not compiled_reader.COMPILED, reason="the compiled reader is not built or not wanted"
)

COLUMNS = (
    "ids",
    "kinds",
    "children",
    "parents",
    "depths",
    "values",
    "evals",
    "moves",
    "probabilities",
    "players",
    "_positions",
    "_array_nodes",
    "_bare_leaves",
)


def mixed(draw: st.DrawFn, shorthand: Any) -> Any:
    """The same tree with each node drawn as an array/integer or as a bare object."""
    as_object = draw(st.booleans())
    if isinstance(shorthand, list):
        kids = [mixed(draw, kid) for kid in shorthand]
        return {"children": kids} if as_object else kids
    return {"value": shorthand} if as_object else shorthand


@st.composite
def plain_trees(draw: st.DrawFn) -> Any:
    return mixed(draw, draw(shorthand_trees(max_depth=5, max_branching=5)))


def assert_same(mine: Tree, theirs: Tree, columns: tuple[str, ...] = COLUMNS) -> None:
    for name in columns:
        assert list(getattr(mine, name)) == list(getattr(theirs, name)), name
        assert getattr(mine, name) == getattr(theirs, name), name
    assert mine.leaf_count == theirs.leaf_count
    for index in range(len(mine)):
        assert mine.pointer(index) == theirs.pointer(index)
        assert mine.value_pointer(index) == theirs.value_pointer(index)
        assert mine.ids[index] == theirs.ids[index]


def test_the_set_up_built_the_compiled_reader() -> None:
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python readers were asked for")
    assert compiled_reader.COMPILED


@settings(max_examples=300, deadline=None)
@given(plain_trees(), st.sampled_from(["max", "min"]))
def test_compiled_reader_builds_what_the_level_reader_and_the_walk_build(
    raw: Any, root: str
) -> None:
    mine = compiled_plain_tree(raw, root, Limits(), "/tree")
    assert mine is not None
    level = plain_tree(raw, root, Limits(), "/tree")
    assert level is not None
    assert_same(mine, level)
    # the walk keeps no shape flags of its own: only what they give (the pointers) is compared
    assert_same(mine, TreeBuilder(root, Limits(), "/tree").build_nested(raw), COLUMNS[:10])


@pytest.mark.parametrize(
    "raw",
    [
        7,
        {"value": 7},
        [1, 2.5],
        [1, "3"],
        [[1], []],
        [1, True],
        {"id": "a", "children": [1]},
        [1, {"value": 1, "move": "m"}],
        {"children": [{"value": 1.0}]},
        {"kind": "min", "children": [1]},
        [{"kind": "chance", "children": [1, 2]}],
        [1, {"children": []}],
        [1, {"children": 3}],
        [1, None],
        [1, 10**400],
    ],
)
def test_compiled_reader_declines_anything_else(raw: Any) -> None:
    assert compiled_plain_tree(raw, "max", Limits(), "/tree") is None


def test_limits_are_left_to_the_walk_which_names_the_node() -> None:
    with pytest.raises(LimitExceededError):
        parse_tree([[1, 2], [3, 4]], limits=Limits(max_nodes=6))
    assert compiled_plain_tree([[1, 2], [3, 4]], "max", Limits(max_nodes=6), "/tree") is None
    assert compiled_plain_tree([[1, 2], [3, 4]], "max", Limits(max_depth=1), "/tree") is None
    assert compiled_plain_tree([[1, 2], [3, 4]], "max", Limits(max_nodes=7), "/tree") is not None


def test_an_error_keeps_its_pointer() -> None:
    with pytest.raises(InvalidInputError) as raised:
        parse_tree([[1, 2], [3, {"children": [4, "x"]}]])
    assert [error.pointer for error in raised.value.errors] == ["/tree/1/1/children/1"]


def test_default_ids_act_as_the_list_of_ids() -> None:
    tree = compiled_plain_tree(
        [2, [-1, 5], [1, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]], "max", Limits(), "/t"
    )
    assert tree is not None
    ids = tree.ids
    expected = ["root", "root.0", "root.1", "root.2", "root.1.0", "root.1.1", "root.2.0"]
    expected += ["root.2.1"] + [f"root.2.1.{i}" for i in range(11)]
    assert len(ids) == len(expected)
    assert [ids[i] for i in range(len(ids))] == expected  # made one at a time
    assert ids[-1] == "root.2.1.10" and ids[1:3] == ["root.0", "root.1"]
    assert ids == expected and expected == ids and list(ids) == expected
    assert ids.index("root.2.1.10") == len(expected) - 1 and "root.2.1.3" in ids
    assert tree.index_of("root.2.0") == 6
    blob, offsets = ids.encoded()
    assert blob == "".join(expected).encode()
    assert list(offsets) == [0, *__import__("itertools").accumulate(map(len, expected))]
    with pytest.raises(IndexError):
        ids[len(expected)]
