"""Parsing posted trees: the three forms, default ids and kinds, and every validation error."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from games.errors import InvalidInputError, LimitExceededError
from games.limits import Limits
from games.trees.model import LEAF, MAX, MIN
from games.trees.parser import parse_tree


def test_shorthand_alternates_and_names_by_path() -> None:
    tree = parse_tree([2, [-1, 5], [1, 3], 4])
    # numbered breadth-first: level by level, left to right
    assert tree.ids == [
        "root",
        "root.0",
        "root.1",
        "root.2",
        "root.3",
        "root.1.0",
        "root.1.1",
        "root.2.0",
        "root.2.1",
    ]
    assert tree.kinds == [MAX, LEAF, MIN, MIN, LEAF, LEAF, LEAF, LEAF, LEAF]
    assert tree.depths == [0, 1, 1, 1, 1, 2, 2, 2, 2]
    assert tree.children[0] == range(1, 5) and tree.children[2] == range(5, 7)
    assert [tree.ids[i] for i in tree.leaves()] == [
        "root.0",
        "root.1.0",
        "root.1.1",
        "root.2.0",
        "root.2.1",
        "root.3",
    ]
    assert [tree.values[i] for i in tree.leaves()] == [2, -1, 5, 1, 3, 4]


def test_root_min_flips_every_level() -> None:
    tree = parse_tree([[1, 2], [3]], root="min")
    assert tree.kinds[:2] == [MIN, MAX]


def test_full_form_with_ids_kinds_moves_and_exact_values() -> None:
    tree = parse_tree(
        {
            "id": "A",
            "children": [
                {
                    "id": "B",
                    "move": "left",
                    "kind": "max",
                    "children": [{"value": "-7/2"}, {"value": 0.1}],
                },
                {"move": "right", "children": [[1, 2]]},
            ],
        }
    )
    assert tree.ids == ["A", "B", "A.1", "B.0", "B.1", "A.1.0", "A.1.0.0", "A.1.0.1"]
    # B states max under a MAX root; its children default to the opposite of B.
    assert tree.kinds == [MAX, MAX, MIN, LEAF, LEAF, MAX, LEAF, LEAF]
    assert tree.values[3] == Fraction(-7, 2)
    assert tree.values[4] == Fraction(1, 10)
    assert tree.moves[1] == "left" and tree.moves[2] == "right"


def test_flat_form_matches_nested_form() -> None:
    flat = parse_tree(
        {
            "root": "A",
            "nodes": [
                {"id": "C", "children": ["C1", "C2"]},
                {"id": "A", "children": ["B", "C"]},
                {"id": "B", "value": 3},
                {"id": "C1", "value": "1/2"},
                {"id": "C2", "value": 4},
            ],
        }
    )
    assert flat.ids == ["A", "B", "C", "C1", "C2"]
    assert flat.kinds == [MAX, LEAF, MIN, LEAF, LEAF]
    assert flat.values[3] == Fraction(1, 2)
    assert flat.pointer(2) == "/tree/nodes/0"


def test_decimal_strings_and_numbers_are_exact() -> None:
    tree = parse_tree(["0.1", 0.2, "1e-3", "-2.50", "3/6"])
    assert tree.values[1:] == [
        Fraction(1, 10),
        Fraction(1, 5),
        Fraction(1, 1000),
        Fraction(-5, 2),
        Fraction(1, 2),
    ]


BAD_TREES: list[tuple[str, Any, str, str]] = [
    ("missing leaf value", {"children": [{"id": "a"}]}, "/tree/children/0/value", "needs a value"),
    ("NaN string", [1, "NaN"], "/tree/1", "finite"),
    ("Infinity value", {"children": [{"value": "-Infinity"}]}, "/tree/children/0/value", "finite"),
    ("not a number", [1, "abc"], "/tree/1", "not a number"),
    ("boolean value", [1, True], "/tree/1", "boolean"),
    ("null leaf", [1, None], "/tree/1", "null"),
    ("zero denominator", [1, "1/0"], "/tree/1", "zero denominator"),
    ("huge exponent", [1, "1e999999"], "/tree/1", "exponent"),
    ("huge magnitude", [1, "-2e300"], "/tree/1", "magnitude"),
    (
        "duplicate ids",
        {"children": [{"id": "x", "value": 1}, {"id": "x", "value": 2}]},
        "/tree/children/1/id",
        "duplicate id 'x'",
    ),
    (
        "id collides with a default id",
        {"children": [{"id": "root.1", "value": 1}, 2]},
        "/tree/children/0/id",
        "duplicate id 'root.1'",
    ),
    (
        "leaf with kind max",
        {"children": [{"kind": "max", "value": 1}]},
        "/tree/children/0/kind",
        "needs children",
    ),
    (
        "leaf kind with children",
        {"kind": "leaf", "children": [1]},
        "/tree/kind",
        "cannot have children",
    ),
    ("unknown kind", {"kind": "chancy", "children": [1]}, "/tree/kind", "unknown kind"),
    ("kind not a string", {"kind": {"a": 1}, "children": [1]}, "/tree/kind", "unknown kind"),
    (
        "leaf kind not a string",
        {"children": [{"kind": [1], "value": 1}]},
        "/tree/children/0/kind",
        "unknown kind",
    ),
    (
        "internal node without children",
        {"children": [{"kind": "min", "children": []}]},
        "/tree/children/0/children",
        "at least one child",
    ),
    ("empty array", [[1], []], "/tree/1", "empty array"),
    ("unknown field", {"children": [1], "colour": "red"}, "/tree/colour", "unknown field"),
    ("children not a list", {"children": {"a": 1}}, "/tree/children", "must be an array"),
    ("id not a string", {"id": 7, "children": [1]}, "/tree/id", "non-empty string"),
    ("move not a string", {"move": 1, "children": [1]}, "/tree/move", "must be a string"),
    ("value on internal node", {"value": 1, "children": [1]}, "/tree/value", "eval"),
    (
        "eval on a leaf",
        {"children": [{"value": 1, "eval": 2}]},
        "/tree/children/0/eval",
        "internal node",
    ),
    ("string tree", "abc", "/tree", "a tree is"),
    ("deep pointer", [[1, [2, {"value": "x"}]]], "/tree/0/1/1/value", "not a number"),
]


BAD_FLAT: list[tuple[str, Any, str, str]] = [
    (
        "child listed twice",
        {"root": "A", "nodes": [{"id": "A", "children": ["B", "B"]}, {"id": "B", "value": 1}]},
        "/tree/nodes/0/children/1",
        "listed twice",
    ),
    (
        "two parents",
        {
            "root": "A",
            "nodes": [
                {"id": "A", "children": ["B", "C"]},
                {"id": "B", "children": ["D"]},
                {"id": "C", "children": ["D"]},
                {"id": "D", "value": 1},
            ],
        },
        "/tree/nodes/2/children/0",
        "exactly one parent",
    ),
    (
        "cycle through the root",
        {"root": "A", "nodes": [{"id": "A", "children": ["B"]}, {"id": "B", "children": ["A"]}]},
        "/tree/nodes/1/children",
        "cycle",
    ),
    (
        "cycle off the root",
        {
            "root": "A",
            "nodes": [
                {"id": "A", "children": ["B"]},
                {"id": "B", "value": 1},
                {"id": "C", "children": ["D"]},
                {"id": "D", "children": ["C"]},
            ],
        },
        "/tree/nodes/2",
        "cycle",
    ),
    (
        "unreachable node",
        {
            "root": "A",
            "nodes": [
                {"id": "A", "children": ["B"]},
                {"id": "B", "value": 1},
                {"id": "Z", "value": 2},
            ],
        },
        "/tree/nodes/2",
        "not reachable",
    ),
    (
        "unknown child id",
        {"root": "A", "nodes": [{"id": "A", "children": ["Q"]}]},
        "/tree/nodes/0/children/0",
        "unknown node id 'Q'",
    ),
    (
        "unknown root",
        {"root": "R", "nodes": [{"id": "A", "value": 1}]},
        "/tree/root",
        "unknown root id",
    ),
    ("missing id", {"root": "A", "nodes": [{"value": 1}]}, "/tree/nodes/0/id", "needs"),
    (
        "duplicate id",
        {"root": "A", "nodes": [{"id": "A", "value": 1}, {"id": "A", "value": 2}]},
        "/tree/nodes/1/id",
        "duplicate id",
    ),
    (
        "nested objects in flat children",
        {"root": "A", "nodes": [{"id": "A", "children": [{"value": 1}]}]},
        "/tree/nodes/0/children/0",
        "node ids",
    ),
    (
        "unknown field",
        {"root": "A", "nodes": [{"id": "A", "value": 1}], "extra": 1},
        "/tree/extra",
        "unknown field",
    ),
    (
        "missing value",
        {"root": "A", "nodes": [{"id": "A", "children": ["B"]}, {"id": "B"}]},
        "/tree/nodes/1/value",
        "needs a value",
    ),
]


def test_node_limit() -> None:
    with pytest.raises(LimitExceededError, match="more than the limit of 5 nodes"):
        parse_tree([[1, 2], [3, 4]], limits=Limits(max_nodes=5))
    assert len(parse_tree([[1, 2], [3, 4]], limits=Limits(max_nodes=7))) == 7


def test_depth_limit() -> None:
    with pytest.raises(LimitExceededError, match="deeper than the limit of 2 plies"):
        parse_tree([[[1]]], limits=Limits(max_depth=2))
    nodes = [{"id": str(i), "children": [str(i + 1)]} for i in range(10)] + [
        {"id": "10", "value": 0}
    ]
    with pytest.raises(LimitExceededError):
        parse_tree({"root": "0", "nodes": nodes}, limits=Limits(max_depth=9))


def test_bad_root_option() -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_tree([1], root="chance")
    assert caught.value.errors[0].pointer == "/root"


def test_chance_nodes_read_probabilities_exactly() -> None:
    tree = parse_tree(
        {
            "children": [
                {
                    "kind": "chance",
                    "children": [
                        {"p": 0.1, "value": 1},
                        {"p": "0.2", "value": 2},
                        {"p": 0.7, "value": 3},
                    ],
                },
                {"kind": "chance", "children": [5, 6, 7]},
            ]
        }
    )
    # decimals are read as written, so 0.1 + 0.2 + 0.7 is exactly 1
    assert tree.probabilities[3:6] == [Fraction(1, 10), Fraction(1, 5), Fraction(7, 10)]
    # no p at all: equally likely
    assert tree.probabilities[6:9] == [Fraction(1, 3)] * 3
    # chance nodes pass on the turn: MAX, chance, then MIN by default
    nested = parse_tree({"children": [{"kind": "chance", "children": [[1, 2]]}]})
    assert nested.kinds[:3] == [MAX, "chance", MIN]


def test_player_nodes_and_utility_lists() -> None:
    tree = parse_tree(
        {
            "player": 0,
            "children": [
                {"player": 1, "children": [{"value": [1, 2, 3]}, {"value": ["1/2", 0, 0]}]},
                {"value": [0, 0, 1]},
            ],
        }
    )
    assert tree.kinds[:2] == ["player", "player"]
    assert tree.players[:2] == [0, 1]
    assert tree.utility_size == 3
    assert tree.values[3] == (1, 2, 3)


BAD_CHANCE: list[tuple[str, Any, str, str]] = [
    (
        "sum above 1",
        {"kind": "chance", "children": [{"p": 0.5, "value": 1}, {"p": 0.6, "value": 2}]},
        "/tree/children",
        "sum to 11/10",
    ),
    (
        "negative",
        {"kind": "chance", "children": [{"p": -0.5, "value": 1}, {"p": 1.5, "value": 2}]},
        "/tree/children/0/p",
        "[0, 1]",
    ),
    (
        "mixed given and missing",
        {"kind": "chance", "children": [{"p": 1, "value": 1}, {"value": 2}]},
        "/tree/children/1/p",
        "none does",
    ),
    (
        "p under a max node",
        {"children": [{"p": 1, "value": 1}]},
        "/tree/children/0/p",
        "is a max node",
    ),
    ("p on the root", {"p": 1, "children": [1]}, "/tree/p", "root"),
    (
        "player on a leaf",
        {"children": [{"player": 1, "value": 1}]},
        "/tree/children/0/player",
        "not leaves",
    ),
    (
        "player on a max node",
        {"kind": "max", "player": 1, "children": [1]},
        "/tree/player",
        "max^n",
    ),
    ("negative player", {"player": -1, "children": [1]}, "/tree/player", "0-based"),
    (
        "utility lists of two lengths",
        {"player": 0, "children": [{"value": [1, 2]}, {"value": [1, 2, 3]}]},
        "/tree/children/1/value",
        "list of 2 numbers",
    ),
    (
        "list and number mixed",
        {"player": 0, "children": [{"value": [1, 2]}, 3]},
        "/tree/children/1",
        "a single number",
    ),
    (
        "empty utility list",
        {"player": 0, "children": [{"value": []}]},
        "/tree/children/0/value",
        "one number per player",
    ),
]


BAD_INPUT = BAD_TREES + BAD_FLAT + BAD_CHANCE


@pytest.mark.parametrize(
    ("name", "raw", "pointer", "message"), BAD_INPUT, ids=[case[0] for case in BAD_INPUT]
)
def test_bad_input_is_refused_with_a_pointer(
    name: str, raw: Any, pointer: str, message: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_tree(raw)
    [error] = caught.value.errors
    assert error.pointer == pointer
    assert message in error.message
