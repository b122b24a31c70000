"""Alpha-beta: published answers, bounds, cutoffs, traces, depth cutoffs, deep trees,
and properties against minimax and an independent textbook oracle (``tests/reference.py``).
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.alpha_beta import Cutoff, alpha_beta
from analysis.trees.minimax import EXACT, LOWER, UPPER, minimax
from games.errors import InvalidInputError, LimitExceededError
from games.trees.parser import parse_tree
from tests.reference import alpha_beta_leaves, assert_bounds_hold, leaf_names, minimax_value
from tests.strategies import shorthand_trees

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


DEPTH_TREE = {
    "children": [
        {"id": "B", "eval": 5, "children": [1, 2]},
        {"id": "C", "eval": 7, "children": [8, 9]},
    ]
}


CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "golden" / "trees.json").read_text()
)


def shuffled(tree: Any, rng: random.Random) -> Any:
    if not isinstance(tree, list):
        return tree
    children = [shuffled(child, rng) for child in tree]
    rng.shuffle(children)
    return children


def test_aima_bounds_and_cutoff() -> None:
    tree = parse_tree(AIMA)
    result = alpha_beta(tree)
    by_id = {
        tree.ids[i]: (result.values[i], result.bounds[i])
        for i in range(len(tree))
        if result.values[i] is not None
    }
    # C stops at C1 = 2 <= alpha = 3: its true value (2) is at most 2.
    assert by_id["root.1"] == (2, UPPER)
    # D reads all three leaves: exact.
    assert by_id["root.2"] == (2, EXACT)
    assert by_id["root"] == (3, EXACT)
    assert "root.1.1" not in by_id
    [cut] = result.cutoffs
    assert tree.ids[cut.node] == "root.1"
    assert (cut.alpha, cut.beta, cut.value) == (3, float("inf"), 2)
    assert [tree.ids[i] for i in cut.cut] == ["root.1.1", "root.1.2"]
    assert result.stats.evaluated == 7
    assert result.stats.leaves == 9
    assert result.stats.cutoffs == 1
    assert result.stats.visited == 11


def test_lower_bound_from_max_cutoff() -> None:
    tree = parse_tree([[[3, 5], [6, 9]], [[1, 2], [0, -1]]])
    result = alpha_beta(tree)
    node = tree.index_of("root.0.1")
    # MAX node C1 stops at 6 >= beta = 5: its value 9 is at least 6.
    assert (result.values[node], result.bounds[node]) == (6, LOWER)


def test_trace_reads_like_a_hand_trace() -> None:
    tree = parse_tree([[10], [10, 0]])
    result = alpha_beta(tree, trace=True)
    assert result.trace is not None
    lines = [(e.event, tree.ids[e.node], e.alpha, e.beta, e.value) for e in result.trace]
    inf = float("inf")
    assert lines == [
        ("enter", "root", -inf, inf, None),
        ("enter", "root.0", -inf, inf, None),
        ("evaluate", "root.0.0", -inf, inf, 10),
        ("update", "root.0", -inf, 10, 10),
        ("return", "root.0", -inf, 10, 10),
        ("update", "root", 10, inf, 10),
        ("enter", "root.1", 10, inf, None),
        ("evaluate", "root.1.0", 10, inf, 10),
        ("update", "root.1", 10, inf, 10),
        ("cutoff", "root.1", 10, inf, 10),
        ("return", "root.1", 10, inf, 10),
        ("update", "root", 10, inf, 10),
        ("return", "root", 10, inf, 10),
    ]


def test_trace_refused_for_huge_trees() -> None:
    tree = parse_tree([[1, 2], [3, 4]])
    with pytest.raises(LimitExceededError) as caught:
        alpha_beta(tree, trace=True, max_trace_nodes=3)
    assert caught.value.errors[0].parameter == "trace"


def test_exact_fractions_flow_through() -> None:
    tree = parse_tree([["-7/2", "0.1"], ["1/3", 2]])
    result = alpha_beta(tree)
    assert result.value == Fraction(1, 3)
    assert minimax(tree).value == Fraction(1, 3)


def test_depth_cutoff_scores_frontier_by_eval() -> None:
    tree = parse_tree(DEPTH_TREE)
    shallow = minimax(tree, depth=1)
    assert shallow.value == 7
    assert [tree.ids[i] for i in shallow.best_moves] == ["C"]
    assert shallow.values[tree.index_of("C.0")] is None
    deep = minimax(tree, depth=None)
    assert deep.value == 8
    cut = alpha_beta(tree, depth=1)
    assert cut.value == 7
    assert [tree.ids[i] for i in cut.evaluated_leaves] == ["B", "C"]
    assert cut.stats.leaves == 2


def test_depth_cutoff_without_eval_names_the_node() -> None:
    tree = parse_tree(
        {"children": [{"id": "B", "children": [1, 2]}, {"id": "C", "eval": 1, "children": [3]}]}
    )
    with pytest.raises(InvalidInputError) as caught:
        minimax(tree, depth=1)
    assert "'B'" in str(caught.value)
    assert caught.value.errors[0].pointer == "/tree/children/0/eval"


def test_depth_zero_scores_root() -> None:
    tree = parse_tree({"eval": "5/2", "children": [1, 2]})
    assert minimax(tree, depth=0).value == Fraction(5, 2)
    result = alpha_beta(tree, depth=0)
    assert result.value == Fraction(5, 2)
    assert result.best_move == -1


def test_flat_chain_of_100000_plies_solves() -> None:
    count = 100_000
    nodes = [{"id": f"n{i}", "children": [f"n{i + 1}"]} for i in range(count - 1)]
    nodes.append({"id": f"n{count - 1}", "value": 42})
    tree = parse_tree({"root": "n0", "nodes": nodes})
    assert tree.max_depth() == count - 1
    assert minimax(tree).value == 42
    result = alpha_beta(tree)
    assert result.value == 42
    assert len(result.principal_variation) == count - 1


@pytest.mark.parametrize("convention", ["equality", "strict"])
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_alpha_beta_matches_published_answer(case: dict[str, Any], convention: str) -> None:
    tree = parse_tree(case["tree"], root=case["root"])
    result = alpha_beta(tree, prune_on_equality=convention == "equality")
    assert result.value == case["value"]
    assert tree.ids[result.best_move] == case["best_moves"][0]
    assert [tree.ids[i] for i in result.principal_variation] == case["principal_variation"]
    assert [tree.values[i] for i in result.pruned_leaves] == case["pruned_leaf_values"][convention]
    assert [tree.ids[i] for i in result.pruned] == case["pruned"][convention]


@settings(max_examples=300)
@given(shorthand_trees(), st.sampled_from(["max", "min"]), st.booleans())
def test_alpha_beta_value_is_minimax_value(raw: Any, root: str, equality: bool) -> None:
    tree = parse_tree(raw, root=root)
    expected = minimax_value(raw, maximizing=root == "max")
    assert minimax(tree).value == expected
    assert alpha_beta(tree, prune_on_equality=equality).value == expected


@given(shorthand_trees(), st.booleans(), st.randoms(use_true_random=False))
def test_any_child_order_gives_the_same_value(raw: Any, equality: bool, rng: random.Random) -> None:
    reordered = shuffled(raw, rng)
    assert alpha_beta(parse_tree(reordered), prune_on_equality=equality).value == minimax_value(raw)


@settings(max_examples=300)
@given(shorthand_trees(), st.sampled_from(["max", "min"]), st.booleans())
def test_evaluation_order_matches_textbook_oracle(raw: Any, root: str, equality: bool) -> None:
    tree = parse_tree(raw, root=root)
    result = alpha_beta(tree, prune_on_equality=equality)
    value, seen = alpha_beta_leaves(raw, equality, maximizing=root == "max")
    assert result.value == value
    assert [tree.ids[i] for i in result.evaluated_leaves] == seen


@given(shorthand_trees(), st.booleans())
def test_pruned_and_evaluated_leaves_partition_the_leaves(raw: Any, equality: bool) -> None:
    tree = parse_tree(raw)
    result = alpha_beta(tree, prune_on_equality=equality)
    evaluated = [tree.ids[i] for i in result.evaluated_leaves]
    pruned = [tree.ids[i] for i in result.pruned_leaves]
    assert not set(evaluated) & set(pruned)
    assert sorted(evaluated + pruned) == sorted(leaf_names(raw))
    # pruned_leaves are listed left to right
    order = {name: i for i, name in enumerate(leaf_names(raw))}
    assert pruned == sorted(pruned, key=order.__getitem__)


@given(shorthand_trees())
def test_pruning_on_equality_never_reads_more_leaves(raw: Any) -> None:
    tree = parse_tree(raw)
    loose = alpha_beta(tree, prune_on_equality=True)
    strict = alpha_beta(tree, prune_on_equality=False)
    assert len(loose.evaluated_leaves) <= len(strict.evaluated_leaves)


@settings(max_examples=300)
@given(shorthand_trees(), st.sampled_from(["max", "min"]), st.booleans())
def test_reported_bounds_hold(raw: Any, root: str, equality: bool) -> None:
    tree = parse_tree(raw, root=root)
    truth = minimax(tree).values
    result = alpha_beta(tree, prune_on_equality=equality)
    assert_bounds_hold(result.values, result.bounds, truth)
    # the root's best move is optimal, and the principal variation runs on exact values
    assert truth[result.best_move] == truth[0]
    assert all(result.bounds[i] == EXACT for i in result.principal_variation)


def test_the_aima_tree_is_cut_once_at_its_second_min_node() -> None:
    found = alpha_beta(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])).cutoffs
    assert found == [Cutoff(node=2, alpha=3, beta=math.inf, value=2, after=7, cut=(8, 9))]


def test_best_children_name_the_child_that_set_each_value() -> None:
    assert alpha_beta(parse_tree([[1, 2], [3]])).best_child == [2, 3, 5, -1, -1, -1]
