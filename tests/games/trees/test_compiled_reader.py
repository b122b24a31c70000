"""The compiled twin of the node reader (``read_plain`` in games/trees/_reader.pyx) against the
node reader itself: the same tree, column by column, pointers included, for every plain tree;
and nothing for any other shape or any error, so the node reader answers with its pointer."""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.trees.parser as parser
from games.errors import ArbiterError, InvalidInputError, LimitExceededError
from games.limits import Limits
from games.trees.model import Tree
from games.trees.node_reader import TreeBuilder
from games.trees.parser import parse_tree, plain_tree
from tests.strategies import chance_trees, shorthand_trees

pytestmark = pytest.mark.skipif(
    parser.TWIN is None, reason="the compiled reader is not built or not wanted"
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
    "utility_size",
    "source_pointers",
    "_positions",
    "_array_nodes",
    "_base",
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


def python_tree(raw: Any, root: str, limits: Limits | None = None) -> Tree:
    """The tree the node reader (the Python reader) builds from ``raw``."""
    return TreeBuilder(root, limits or Limits(), "/tree").build_nested(raw)


def assert_same(mine: Tree, theirs: Tree) -> None:
    """Equal trees, column by column, with the same pointers; and the twin's columns are
    plain lists (of str ids, ranges, ints), bytearrays for the flags."""
    for name in COLUMNS:
        assert getattr(mine, name) == getattr(theirs, name), name
    for name in ("ids", "kinds", "children", "parents", "depths", "values", "evals", "moves"):
        assert type(getattr(mine, name)) is list, name
    assert type(mine.probabilities) is list and type(mine.players) is list
    assert type(mine._positions) is list
    assert type(mine._array_nodes) is type(mine._bare_leaves) is bytearray
    assert {type(name) for name in mine.ids} == {str}
    assert {type(kids) for kids in mine.children} == {range}
    assert mine.leaf_count == theirs.leaf_count
    assert mine.kind_set == theirs.kind_set
    for index in range(len(mine)):
        assert mine.pointer(index) == theirs.pointer(index)
        assert mine.value_pointer(index) == theirs.value_pointer(index)


def answer(raw: Any, root: str, twin: bool, limits: Limits | None = None) -> Any:
    """What :func:`parse_tree` gives, with or without the twin: the tree's columns, or the
    error's pointers and messages."""
    with pytest.MonkeyPatch.context() as patch:
        if not twin:
            patch.setattr(parser, "TWIN", None)
        try:
            tree = parse_tree(raw, root=root, limits=limits)
        except ArbiterError as error:
            return type(error), [(e.pointer, e.message) for e in error.errors]
        return [getattr(tree, name) for name in COLUMNS]


def test_the_set_up_built_the_compiled_reader() -> None:
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python readers were asked for")
    assert parser.TWIN is not None


@settings(max_examples=150, deadline=None)
@given(plain_trees() | chance_trees(), st.sampled_from(["max", "min"]))
def test_the_twin_builds_what_the_node_reader_builds(raw: Any, root: str) -> None:
    mine = plain_tree(raw, root, Limits(), "/tree")
    assert mine is not None
    assert_same(mine, python_tree(raw, root))


PLAIN_TREES: list[Any] = [
    [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
    [2, [-1, 5], [1, 3], 4],
    {"children": [{"value": 1}, {"children": [[2, 3], {"value": 4}]}, [5]]},
    [[[[[[1]]]]], 2],
    [1, 2**63, -(2**63) - 1, 10**300, -(10**300)],  # integers past 64 bits, within 1e300
    # chance nodes and stated kinds
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
def test_plain_trees_read_alike(raw: Any, root: str) -> None:
    mine = plain_tree(raw, root, Limits(), "/tree")
    assert mine is not None
    assert_same(mine, python_tree(raw, root))


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
        [1, {"children": []}],
        [1, {"children": 3}],
        [1, None],
        [1, 10**400],
        {"kind": "player", "children": [1]},
        {"kind": "leaf", "children": [1]},
        [{"kind": "max", "value": 1}],
        [{"kind": 3, "children": [1]}],
        {"p": "1", "children": [1]},
        [{"p": "1", "children": [1]}],  # p under a MAX node
        {"kind": "chance", "children": [{"p": "0.5", "value": 1}, 2]},  # one p missing
        {"kind": "chance", "children": [{"p": "0.5", "value": 1}, {"p": "0.6", "value": 2}]},
        {"kind": "chance", "children": [{"p": "x", "value": 1}]},
        {"kind": "chance", "children": [{"p": "1.5", "value": 1}]},
        {"kind": "chance", "children": [{"p": True, "value": 1}]},
        {"kind": "chance", "children": [{"p": [1], "value": 1}]},
        {"kind": "chance", "children": [{"p": None, "value": 1}]},
        {"kind": None, "children": [1]},
        [{"children": [1], "value": 2}],
        {"root": "a", "nodes": [{"id": "a", "value": 1}]},  # the flat form
    ],
)
def test_the_twin_declines_anything_else(raw: Any) -> None:
    assert plain_tree(raw, "max", Limits(), "/tree") is None
    # and the node reader answers, as it does without the twin
    assert answer(raw, "max", twin=True) == answer(raw, "max", twin=False)


def test_limits_are_left_to_the_node_reader_which_names_the_node() -> None:
    tree = [[1, 2], [3, 4]]
    for limits in (Limits(max_nodes=6), Limits(max_depth=1)):
        assert plain_tree(tree, "max", limits, "/tree") is None
        with pytest.raises(LimitExceededError):
            parse_tree(tree, limits=limits)
        assert answer(tree, "max", True, limits) == answer(tree, "max", False, limits)
    assert plain_tree(tree, "max", Limits(max_nodes=7, max_depth=2), "/tree") is not None


def test_an_error_keeps_its_pointer() -> None:
    with pytest.raises(InvalidInputError) as raised:
        parse_tree([[1, 2], [3, {"children": [4, "x"]}]])
    assert [error.pointer for error in raised.value.errors] == ["/tree/1/1/children/1"]


def test_the_twin_makes_the_default_ids() -> None:
    tree = plain_tree(
        [2, [-1, 5], [1, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]], "max", Limits(), "/t"
    )
    assert tree is not None
    expected = ["root", "root.0", "root.1", "root.2", "root.1.0", "root.1.1", "root.2.0"]
    expected += ["root.2.1"] + [f"root.2.1.{i}" for i in range(11)]
    assert tree.ids == expected
    assert tree.index_of("root.2.0") == 6


@settings(max_examples=60, deadline=None)
@given(
    shape=shorthand_trees(max_depth=4, max_branching=12),
    chain=st.integers(0, 40),
    wide=st.integers(0, 1200),
)
def test_ids_long_and_short_are_every_id_in_turn(shape: Any, chain: int, wide: int) -> None:
    # a chain of single children makes ids past the reader's first buffer; positions of
    # one to four digits
    for _ in range(chain):
        shape = [shape, 0] if chain % 2 else [shape]
    shape = [shape, list(range(wide or 1))]
    tree = plain_tree(shape, "max", Limits(), "/tree")
    assert tree is not None
    expected, level = [], [("root", shape)]  # the default ids, breadth first
    while level:
        expected += [name for name, _ in level]
        level = [
            (f"{name}.{k}", child)
            for name, node in level
            if isinstance(node, list)
            for k, child in enumerate(node)
        ]
    assert tree.ids == expected


def probability_forms(draw: st.DrawFn, weight: int, total: int) -> Any:
    """A probability ``weight / total`` in one of the forms the grammar reads."""
    form = draw(st.sampled_from(["ratio", "decimal", "number"]))
    if form == "ratio" or (form == "decimal" and 100 % total):
        return f"{weight}/{total}"
    if form == "decimal":
        return f"{weight * 100 // total / 100:.2f}"
    if weight in (0, total):
        return weight // total  # the integers 0 and 1
    return weight / total if total in (2, 4, 5, 8, 10) else f"{weight}/{total}"


@st.composite
def plain_chance_trees(draw: st.DrawFn) -> Any:
    """Plain trees mixing MAX, MIN and chance nodes, kinds stated or left to the turn,
    probabilities stated in every form (or none: uniform), nodes drawn as arrays/integers
    or as objects."""

    def node(depth: int, outcome: Any = None) -> Any:
        leaf = depth == 0 or draw(st.integers(0, 4)) == 0
        fields: dict[str, Any] = {} if outcome is None else {"p": outcome}
        as_object = outcome is not None or draw(st.booleans())
        if leaf:
            value = draw(st.integers(-5, 5))
            if not as_object:
                return value
            if draw(st.integers(0, 3)) == 0:
                fields["kind"] = "leaf"
            return {**fields, "value": value}
        kind = draw(st.sampled_from([None, None, "max", "min", "chance"]))
        count = draw(st.integers(1, 3))
        outcomes: list[Any] = [None] * count
        if kind == "chance" and draw(st.booleans()):
            weights = draw(
                st.lists(st.integers(0, 4), min_size=count, max_size=count).filter(
                    lambda w: sum(w) > 0
                )
            )
            outcomes = [probability_forms(draw, w, sum(weights)) for w in weights]
        kids = [node(depth - 1, chance) for chance in outcomes]
        if kind is None and not as_object:
            return kids
        if kind is not None:
            fields["kind"] = kind
        return {**fields, "children": kids}

    return node(draw(st.integers(1, 5)))


@settings(max_examples=400, deadline=None)
@given(plain_chance_trees(), st.sampled_from(["max", "min"]))
def test_the_twin_reads_chance_trees_as_the_node_reader_does(raw: Any, root: str) -> None:
    mine = plain_tree(raw, root, Limits(), "/tree")
    if mine is None:  # a leaf for a root, or probabilities that do not sum to 1
        if isinstance(raw, list) or (isinstance(raw, dict) and "children" in raw):
            with pytest.raises(InvalidInputError):
                python_tree(raw, root)
        return
    assert_same(mine, python_tree(raw, root))


def spoiled(draw: st.DrawFn, raw: Any) -> Any:
    """``raw`` with one object node given a wrong or unusual field."""
    objects: list[dict[str, Any]] = []
    stack = [raw]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            objects.append(node)
            stack.extend(node.get("children", []))
        elif isinstance(node, list):
            stack.extend(node)
    if not objects:
        return raw
    target = draw(st.sampled_from(objects))
    name = draw(st.sampled_from(["p", "kind", "value", "children", "id", "eval"]))
    target[name] = draw(
        st.sampled_from(
            [None, "0.5", "1/3", 1, 0, 2, -1, 0.25, True, "x", "chance", "leaf", "max", "player"]
            + [[], [1], {}, 10**400, "1/0", " 0.5 "]
        )
    )
    return raw


@settings(max_examples=400, deadline=None)
@given(st.data(), st.sampled_from(["max", "min"]))
def test_any_tree_the_twin_reads_the_node_reader_reads_alike(
    data: st.DataObject, root: str
) -> None:
    raw = spoiled(data.draw, data.draw(plain_chance_trees()))
    mine = plain_tree(raw, root, Limits(), "/tree")
    if mine is not None:
        assert_same(mine, python_tree(raw, root))
    # and the parser's answer, tree or error, is the one it gives without the twin
    assert answer(raw, root, twin=True) == answer(raw, root, twin=False)


def test_chance_trees_keep_their_stated_kinds_and_turns() -> None:
    # MAX root; its chance child passes MIN on (the turn it was given); a stated MAX below
    # hands MIN to its children; "1/4" and 0.75 are read exactly, and a silent chance node's
    # outcomes are equally likely
    raw = {
        "children": [
            {
                "kind": "chance",
                "children": [{"p": "1/4", "children": [1, 2]}, {"p": 0.75, "children": [[3]]}],
            },
            {"kind": "chance", "children": [4, {"kind": "max", "children": [[5], 6]}]},
        ]
    }
    tree = plain_tree(raw, "max", Limits(), "/tree")
    assert tree is not None
    assert tree.kinds == ["max", "chance", "chance", "min", "min", "leaf", "max"] + [
        "leaf",
        "leaf",
        "max",
        "min",
        "leaf",
        "leaf",
        "leaf",
    ]
    half = Fraction(1, 2)
    assert tree.probabilities[:7] == [None, None, None, Fraction(1, 4), Fraction(3, 4), half, half]
    assert tree.pointer(9) == "/tree/children/0/children/1/children/0"
