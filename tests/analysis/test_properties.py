"""Property tests: alpha-beta against minimax and against an independent textbook oracle."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.alpha_beta import EXACT, alpha_beta
from analysis.trees.backup import back_up
from analysis.trees.horizon import horizon
from analysis.trees.minimax import _levels_numpy, minimax
from analysis.trees.move_ordering import minimal_tree_size, move_ordering
from games.trees.parser import parse_tree
from tests.reference import alpha_beta_leaves, assert_bounds_hold, leaf_names, minimax_value
from tests.strategies import shorthand_trees, uniform_trees


def shuffled(tree: Any, rng: random.Random) -> Any:
    if not isinstance(tree, list):
        return tree
    children = [shuffled(child, rng) for child in tree]
    rng.shuffle(children)
    return children


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


@given(st.integers(2, 4), st.integers(1, 4), st.data())
def test_best_first_order_reaches_knuth_moore_bound(
    branching: int, depth: int, data: st.DataObject
) -> None:
    leaves = branching**depth
    values = data.draw(st.permutations(range(leaves)))
    iterator = iter(values)
    raw = data.draw(uniform_trees(branching, depth, st.just(0)))

    def fill(node: Any) -> Any:
        return [fill(child) for child in node] if isinstance(node, list) else next(iterator)

    report = move_ordering(parse_tree(fill(raw)))
    assert report.minimal_tree == minimal_tree_size(branching, depth)
    assert report.best_first == report.minimal_tree
    assert report.best_first <= report.given <= report.worst_first <= leaves


@given(shorthand_trees(max_depth=5), st.sampled_from(["max", "min"]))
def test_numpy_levels_agree_with_the_exact_loop(raw: Any, root: str) -> None:
    tree = parse_tree(raw, root=root)
    seen = horizon(tree, None)
    assert _levels_numpy(tree, seen, len(tree), smallest=0) == back_up(tree, seen, None)
