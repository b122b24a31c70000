"""Expectiminimax: published examples, exact values and properties."""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.expectimax import CHANCE_KERNELS, common_scale, expectimax
from analysis.trees.horizon import horizon
from analysis.trees.minimax import minimax
from analysis.trees.star1 import star1
from analysis.trees.trace_text import explain
from games.trees.parser import parse_tree
from tests.strategies import chance_trees, shorthand_trees


def max_over_chance(*groups: list[int]) -> dict[str, Any]:
    return {"children": [{"kind": "chance", "children": list(group)} for group in groups]}


def test_aima_style_max_over_three_chance_nodes() -> None:
    # Each chance node is uniform over its three leaves:
    # (3 + 12 + 9) / 3 = 8, (2 + 4 + 6) / 3 = 4, (15 + 6 + 0) / 3 = 7, so MAX takes 8.
    tree = parse_tree(max_over_chance([3, 12, 9], [2, 4, 6], [15, 6, 0]))
    result = expectimax(tree)
    assert [result.values[i] for i in tree.children[0]] == [8, 4, 7]
    assert result.value == 8
    assert [tree.ids[i] for i in result.best_moves] == ["root.0"]


def test_exact_thirds() -> None:
    # (3 + 12 + 8) / 3 = 23/3 exactly, not 7.666...
    tree = parse_tree(max_over_chance([3, 12, 8], [2, 4, 6], [14, 5, 2]))
    result = expectimax(tree)
    assert result.values[1] == Fraction(23, 3)
    assert result.value == Fraction(23, 3)


def test_decimal_probabilities_are_exact() -> None:
    # 0.1 * 10 + 0.2 * 20 + 0.7 * 30 = 1 + 4 + 21 = 26 exactly
    tree = parse_tree(
        {
            "kind": "chance",
            "children": [{"p": 0.1, "value": 10}, {"p": 0.2, "value": 20}, {"p": 0.7, "value": 30}],
        }
    )
    assert expectimax(tree).value == 26


def test_expectiminimax_layers() -> None:
    # MAX over chance over MIN: chance A = 1/2 min(4, 8) + 1/2 min(2, 9) = 3,
    # chance B = 1/4 min(10, 0) + 3/4 min(5, 6) = 15/4, so MAX picks B = 15/4.
    tree = parse_tree(
        {
            "children": [
                {"id": "A", "kind": "chance", "children": [[4, 8], [2, 9]]},
                {
                    "id": "B",
                    "kind": "chance",
                    "children": [
                        {"p": "1/4", "children": [10, 0]},
                        {"p": "3/4", "children": [5, 6]},
                    ],
                },
            ]
        }
    )
    result = expectimax(tree)
    assert tree.kinds[tree.index_of("A.0")] == "min"
    assert result.values[tree.index_of("A")] == 3
    assert result.value == Fraction(15, 4)
    assert tree.ids[result.best_child[0]] == "B"
    # the principal variation follows the most likely outcome of B
    assert [tree.ids[i] for i in result.principal_variation] == ["B", "B.1", "B.1.0"]


@settings(max_examples=200)
@given(shorthand_trees(), st.sampled_from(["max", "min"]))
def test_expectimax_without_chance_is_minimax(raw: Any, root: str) -> None:
    tree = parse_tree(raw, root=root)
    assert expectimax(tree).value == minimax(tree).value


@given(chance_trees(), st.integers(1, 5), st.integers(-3, 3))
def test_expectimax_is_invariant_under_positive_affine_maps(
    raw: Any, scale: int, shift: int
) -> None:
    def mapped(node: Any) -> Any:
        if isinstance(node, int):
            return node * scale + shift
        if isinstance(node, list):
            return [mapped(kid) for kid in node]
        return {
            key: mapped(value) if key in ("children", "value") else value
            for key, value in node.items()
        }

    before = expectimax(parse_tree(raw))
    after = expectimax(parse_tree(mapped(raw)))
    assert after.value == before.value * scale + shift
    assert after.best_moves == before.best_moves


def test_depth_cutoff_uses_evals_under_chance() -> None:
    # At depth 1 the chance nodes are frontier nodes scored by eval: max(5, 6) = 6.
    # Searched fully: A = (1 + 3) / 2 = 2, B = 1/4 * 8 + 3/4 * 0 = 2; both 2, leftmost is A.
    tree = parse_tree(
        {
            "children": [
                {"id": "A", "kind": "chance", "eval": 5, "children": [1, 3]},
                {
                    "id": "B",
                    "kind": "chance",
                    "eval": 6,
                    "children": [{"p": "1/4", "value": 8}, {"p": "3/4", "value": 0}],
                },
            ]
        }
    )
    shallow = expectimax(tree, depth=1)
    assert shallow.value == 6 and tree.ids[shallow.best_child[0]] == "B"
    full = expectimax(tree)
    assert full.value == 2 and [tree.ids[i] for i in full.best_moves] == ["A", "B"]
    assert star1(tree, (0, 8), depth=1).value == 6


def test_expectimax_trace_values_each_node_as_a_hand_trace_does() -> None:
    # MAX over a fair coin between 2 and 4 (worth 1, then 1 + 2 = 3) and a leaf 3
    tree = parse_tree({"kind": "max", "children": [{"kind": "chance", "children": [2, 4]}, 3]})
    result = expectimax(tree, trace=True)
    assert result.trace is not None
    lines = [(e.event, tree.ids[e.node], e.value) for e in result.trace]
    assert lines == [
        ("enter", "root", None),
        ("enter", "root.0", None),
        ("evaluate", "root.0.0", 2),
        ("update", "root.0", 1),
        ("evaluate", "root.0.1", 4),
        ("update", "root.0", 3),
        ("return", "root.0", 3),
        ("update", "root", 3),
        ("evaluate", "root.1", 3),
        ("update", "root", 3),
        ("return", "root", 3),
    ]
    said = [explain(tree, event, True, windowed=False) for event in result.trace]
    assert said[3] == (
        "chance at root.0 takes root.0.0 (p = 1/2) into account: the sum of p * v is 1 so far, "
        "with 1/2 of the probability still unseen."
    )
    assert said[5] == (
        "chance at root.0 takes root.0.1 (p = 1/2) into account: the sum of p * v is 3, every "
        "outcome seen, so root.0 is worth 3."
    )
    assert said[9] == "MAX at root takes root.1 into account: the best so far is 3."
    assert said[10] == "root returns 3: the value of the tree."


def test_expectimax_trace_sums_exact_thirds() -> None:
    tree = parse_tree({"kind": "chance", "children": [3, 4, "1/3"]})
    result = expectimax(tree, trace=True)
    assert result.trace is not None
    updates = [e.value for e in result.trace if e.event == "update"]
    assert updates == [1, Fraction(7, 3), Fraction(22, 9)]
    assert result.value == Fraction(22, 9)


@settings(max_examples=200)
@given(chance_trees())
def test_expectimax_trace_visits_every_node_once_with_its_value(raw: Any) -> None:
    tree = parse_tree(raw)
    result = expectimax(tree, trace=True)
    assert result.trace is not None
    shown = [e for e in result.trace if e.event in ("return", "evaluate")]
    assert sorted(e.node for e in shown) == list(range(len(tree)))
    assert all(e.value == result.values[e.node] for e in shown)
    # each internal node's last update is its value
    last = {e.node: e.value for e in result.trace if e.event == "update"}
    assert last == {i: result.values[i] for i in range(len(tree)) if tree.children[i]}


def test_integer_back_up_values_decimal_probabilities_exactly() -> None:
    # chance node a: 0.35 * 10 + 0.65 * (-4) = 3.5 - 2.6 = 9/10; b: 0.5 * 2 + 0.5 * 1 = 3/2.
    # The common denominator is 20 (0.35 = 7/20, 0.65 = 13/20, 0.5 = 10/20) and one level
    # holds chance nodes, so values are scaled by 20: a is 18 / 20, b is 30 / 20.
    tree = parse_tree(
        {
            "children": [
                {
                    "kind": "chance",
                    "children": [{"p": "0.35", "value": 10}, {"p": "0.65", "value": -4}],
                },
                {
                    "kind": "chance",
                    "children": [{"p": "0.5", "value": 2}, {"p": "0.5", "value": 1}],
                },
            ]
        }
    )
    scale = common_scale(tree, horizon(tree, None))
    assert scale is not None
    assert (scale.common, scale.scale) == (20, 20)
    result = expectimax(tree)
    assert [result.values[i] for i in tree.children[0]] == [Fraction(9, 10), Fraction(3, 2)]
    assert result.value == Fraction(3, 2)
    assert result.best_child[tree.index_of("root.0")] == tree.index_of("root.0.1")


def test_fractional_leaves_take_the_fraction_back_up() -> None:
    # (1/3 + 2) / 2 = 7/6 beats (1 + 1) / 2 = 1
    tree = parse_tree({"children": [{"kind": "chance", "children": ["1/3", 2]}, [1, 1]]})
    assert common_scale(tree, horizon(tree, None)) is None
    assert expectimax(tree).value == Fraction(7, 6)


@settings(max_examples=300)
@given(chance_trees(max_depth=5, low=-20, high=20), st.booleans(), st.integers(0, 5) | st.none())
def test_the_kernel_values_every_node_as_the_textbook_search_does(
    raw: Any, reverse: bool, depth: Any
) -> None:
    # evals at every internal node, so any depth cutoff can score its frontier
    tree = parse_tree(raw)
    tree = tree.replace(evals=[7 if kids else None for kids in tree.children])
    if reverse:
        tree = tree.reversed_children()
    kernel = expectimax(tree, depth=depth)
    textbook = expectimax(tree, depth=depth, compiled=False)
    assert kernel == textbook


def test_the_set_up_built_the_compiled_back_up() -> None:
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python searches were asked for")
    assert CHANCE_KERNELS is not None


def test_compiled_back_up_hands_large_numbers_to_the_python_loop() -> None:
    # 2 ** 61 times the scale 4 passes 62 bits: the Python loop answers, exactly
    big = 2**61
    tree = parse_tree(
        {"kind": "chance", "children": [{"p": "1/4", "value": big}, {"p": "3/4", "value": 1}]}
    )
    result = expectimax(tree)
    assert result.value == Fraction(big + 3, 4)
    assert result.values == [Fraction(big + 3, 4), big, 1]


def chance_chain(levels: int) -> dict[str, Any]:
    """Chance nodes in a chain: each has a leaf 1 (p 1/3) and the next node (p 2/3)."""
    node: dict[str, Any] = {"value": 0}
    for _ in range(levels):
        node = {"kind": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", **node}]}
    return node


def test_a_long_chain_of_chance_nodes_is_backed_up_in_fractions() -> None:
    # scale 3 ** levels: 3 ** 20 times Q = 3 has 33 bits, within the kernel's 62 bits;
    # 3 ** 700 has 1,110. The chain's value is 1 - (2/3) ** levels either way (the leaf 1
    # unless every step goes on, to the 0 at the end).
    for levels, integers in ((20, True), (700, False)):
        tree = parse_tree(chance_chain(levels))
        assert (common_scale(tree, horizon(tree, None)) is not None) is integers
        assert expectimax(tree).value == 1 - Fraction(2, 3) ** levels
