"""Alpha-beta details: bounds, cutoffs, traces, depth cutoffs, move ordering, deep trees."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.trees.alpha_beta import EXACT, LOWER, UPPER, alpha_beta
from analysis.trees.minimax import minimax
from analysis.trees.move_ordering import minimal_tree_size, move_ordering
from games.errors import InvalidInputError, LimitExceededError
from games.trees.parser import parse_tree

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


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


DEPTH_TREE = {
    "children": [
        {"id": "B", "eval": 5, "children": [1, 2]},
        {"id": "C", "eval": 7, "children": [8, 9]},
    ]
}


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


def test_move_ordering_on_aima_tree() -> None:
    # Best-first: B (3, 8, 12 all read), then C and D each stop at 2: 5 leaves,
    # which is the Knuth-Moore bound 3^1 + 3^1 - 1. Worst-first reads all 9.
    report = move_ordering(parse_tree(AIMA))
    assert (report.given, report.best_first, report.worst_first) == (7, 5, 9)
    assert report.uniform and (report.branching, report.depth) == (3, 2)
    assert report.minimal_tree == 5


@pytest.mark.parametrize(("b", "d", "expected"), [(2, 1, 2), (3, 2, 5), (2, 3, 5), (10, 4, 199)])
def test_knuth_moore_formula(b: int, d: int, expected: int) -> None:
    assert minimal_tree_size(b, d) == expected


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
