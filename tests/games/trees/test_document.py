"""``tree_document``: a :class:`Tree` written back in the JSON form ``parse_tree`` reads.

Numbers are written in the request form: an integer within 64 bits as itself, anything
else (a fraction, 2**70) as its exact string, so reading the document back gives the same
tree, probabilities included.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from games.trees.document import NESTING_LIMIT, exact_json, tree_document, unique_id
from games.trees.model import Tree
from games.trees.parser import parse_tree

DICE = {
    "id": "top",
    "kind": "max",
    "children": [
        {
            "id": "dice",
            "kind": "chance",
            "move": "roll",
            "children": [
                {"id": "a", "p": "1/3", "value": 3},
                {"id": "b", "p": "2/3", "value": "-7/2"},
            ],
        },
        {"id": "c", "value": 2**70},
    ],
}
"""A max node over a chance node (1/3 of 3, 2/3 of -7/2) and a leaf worth 2**70."""

MAXN = {
    "player": 0,
    "children": [
        {"kind": "chance", "children": [{"value": [1, 2]}, {"value": [2, "1/3"]}]},
        {"value": [1, 1], "move": "stop"},
    ],
}
"""A max^n tree: player 0 chooses between a fair coin and the utilities (1, 1)."""


def same_tree(first: Tree, second: Tree) -> None:
    assert first.ids == second.ids
    assert first.kinds == second.kinds
    assert [list(kids) for kids in first.children] == [list(kids) for kids in second.children]
    assert first.values == second.values
    assert first.probabilities == second.probabilities
    assert first.moves == second.moves
    assert first.players == second.players
    assert first.evals == second.evals


def test_a_chance_tree_written_literally() -> None:
    document = tree_document(parse_tree(DICE))
    # the chance node comes back as it was written, its probabilities exact strings
    assert document["children"][0] == DICE["children"][0]
    # past 64 bits: the digits, which JSON encoders cannot refuse
    assert document["children"][1] == {"id": "c", "value": "1180591620717411303424"}
    assert {k: v for k, v in document.items() if k != "children"} == {"id": "top", "kind": "max"}


def test_a_chance_tree_round_trips_exactly() -> None:
    tree = parse_tree(DICE)
    again = parse_tree(json.loads(json.dumps(tree_document(tree))))
    same_tree(tree, again)
    assert again.probabilities[again.ids.index("a")] == Fraction(1, 3)
    assert again.probabilities[again.ids.index("b")] == Fraction(2, 3)
    assert again.values[again.ids.index("b")] == Fraction(-7, 2)
    assert again.values[again.ids.index("c")] == 2**70


def test_a_maxn_tree_round_trips_with_its_utility_lists() -> None:
    tree = parse_tree(MAXN, root="player")
    document = tree_document(tree)
    # default ids; the unstated uniform probabilities are written out as 1/2
    assert document["kind"] == "player" and document["player"] == 0
    coin = document["children"][0]
    assert [(c["id"], c["p"], c["value"]) for c in coin["children"]] == [
        ("root.0.0", "1/2", [1, 2]),
        ("root.0.1", "1/2", [2, "1/3"]),
    ]
    assert document["children"][1] == {"id": "root.1", "move": "stop", "value": [1, 1]}
    again = parse_tree(json.loads(json.dumps(document)), root="player")
    same_tree(tree, again)
    assert again.values[again.ids.index("root.0.1")] == (2, Fraction(1, 3))


def test_the_flat_form_lists_children_by_id() -> None:
    tree = parse_tree(
        {"kind": "min", "children": [[1, 2], {"kind": "max", "eval": 5, "children": [4]}]}
    )
    document = tree_document(tree, flat=True)
    assert document == {
        "root": "root",
        "nodes": [
            {"id": "root", "kind": "min", "children": ["root.0", "root.1"]},
            {"id": "root.0", "kind": "max", "children": ["root.0.0", "root.0.1"]},
            {"id": "root.1", "kind": "max", "eval": 5, "children": ["root.1.0"]},
            {"id": "root.0.0", "value": 1},
            {"id": "root.0.1", "value": 2},
            {"id": "root.1.0", "value": 4},
        ],
    }
    same_tree(tree, parse_tree(document))


def chain(plies: int) -> dict[str, Any]:
    """A path of ``plies`` max nodes down to a leaf worth 7, in the flat form."""
    nodes: list[dict[str, Any]] = [
        {"id": f"n{i}", "kind": "max", "children": [f"n{i + 1}"]} for i in range(plies)
    ]
    nodes.append({"id": f"n{plies}", "value": 7})
    return {"root": "n0", "nodes": nodes}


def test_deep_trees_are_written_flat_by_default() -> None:
    shallow = tree_document(parse_tree(chain(NESTING_LIMIT)))
    assert shallow["id"] == "n0" and "nodes" not in shallow
    deep = tree_document(parse_tree(chain(NESTING_LIMIT + 1)))
    assert deep["root"] == "n0" and len(deep["nodes"]) == NESTING_LIMIT + 2
    assert deep["nodes"][-1] == {"id": f"n{NESTING_LIMIT + 1}", "value": 7}


def test_exact_json_of_numbers() -> None:
    assert exact_json(-(2**63)) == -(2**63)  # the last integer JSON holds exactly
    assert exact_json(2**63) == "9223372036854775808"
    assert exact_json(Fraction(-7, 2)) == "-7/2"


def test_unique_ids_count_repeats() -> None:
    used: dict[str, int] = {}
    names = [unique_id(name, used) for name in ["a", "a", "b", "a", "a#4", "a"]]
    # "a#4" is taken by hand, so the fourth "a" skips it
    assert names == ["a", "a#2", "b", "a#3", "a#4", "a#5"]
