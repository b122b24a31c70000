"""The columns layout of tree answers (analysis/trees/json_output.py): the same answer as the
documented map layout, with nodes named by breadth-first index and long lists as runs."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.json_output import COLUMNS, runs, solution_json
from analysis.trees.solve import solve_tree
from games.trees.model import Tree
from games.trees.parser import parse_tree
from tests.analysis.trees.test_kernels import VALUES, with_evals
from tests.strategies import shorthand_trees

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def expanded(found: list[list[int]]) -> list[int]:
    return [index for start, stop in found for index in range(start, stop)]


def test_runs_are_maximal_stretches_in_the_order_given() -> None:
    assert runs([]) == []
    assert runs([4]) == [[4, 5]]
    assert runs([5, 6, 7, 2]) == [[5, 8], [2, 3]]
    # a stretch that starts again below is a new run; a repeated index too
    assert runs([1, 2, 3, 5, 6, 9, 8, 9, 10]) == [[1, 4], [5, 7], [9, 10], [8, 11]]
    assert runs([3, 3]) == [[3, 4], [3, 4]]


def test_textbook_tree_in_columns() -> None:
    # AIMA Fig. 5.5: nodes 0 (root), 1-3 (MIN nodes), 4-12 (leaves, left to right); the second
    # MIN node is cut after its first leaf (2 <= alpha = 3), so its leaves 8 and 9 are pruned
    answer = solution_json(solve_tree(parse_tree(AIMA), "alphabeta"), layout=COLUMNS)
    assert answer["value"] == 3
    assert answer["best_move"] == 1
    assert answer["principal_variation"] == [1, 4]
    assert answer["columns"] == {
        "node": [[0, 8], [10, 13]],
        "value": [3, 3, 2, 2, 3, 12, 8, 2, 14, 5, 2],
        "bound": ["exact"] * 2 + ["upper"] + ["exact"] * 8,
    }
    assert answer["pruned"] == [[8, 10]]
    assert answer["pruned_leaves"] == [[8, 10]]
    assert answer["evaluated_leaves"] == [[4, 8], [10, 13]]
    assert answer["cutoffs"] == [
        {"node": 2, "alpha": 3, "beta": "inf", "value": 2, "after": 7, "cut": [8, 9]}
    ]
    assert "nodes" not in answer


def test_inexact_values_get_the_whole_column_as_exact_strings() -> None:
    answer = solution_json(solve_tree(parse_tree([["1/3", 2], [5]]), "minimax"), layout=COLUMNS)
    assert answer["columns"]["node"] == [[0, 6]]
    # MAX over MIN(1/3, 2) and MIN(5): nodes 0-2 are worth 5, 1/3, 5; leaves 3-5 1/3, 2, 5
    assert answer["columns"]["value"] == [5, pytest.approx(1 / 3), 5, pytest.approx(1 / 3), 2, 5]
    # docs/numbers.md: a list with any inexact entry has every entry as its exact string
    assert answer["columns"]["value_exact"] == ["5", "1/3", "5", "1/3", "2", "5"]
    assert answer["value"] == 5
    assert answer["best_moves"] == [2]


def as_map(answer: dict[str, Any], tree: Tree) -> dict[str, Any]:
    """A columns answer rewritten in the map layout, from the documented rules alone."""
    ids = tree.ids
    out = dict(answer)
    columns = out.pop("columns")
    nodes = expanded(columns["node"])
    out["nodes"] = {}
    for position, index in enumerate(nodes):
        entry: dict[str, Any] = {"value": columns["value"][position]}
        if "value_exact" in columns and not isinstance(columns["value"][position], int):
            entry["value_exact"] = columns["value_exact"][position]
        entry["bound"] = columns["bound"][position] if "bound" in columns else "exact"
        out["nodes"][ids[index]] = entry
    for name in ("best_move",):
        out[name] = None if out[name] is None else ids[out[name]]
    for name in ("principal_variation", "best_moves"):
        if name in out:
            out[name] = [ids[index] for index in out[name]]
    for name in ("pruned", "pruned_leaves", "evaluated_leaves"):
        if name in out:
            out[name] = [ids[index] for index in expanded(out[name])]
    for cutoff in out.get("cutoffs", []):
        cutoff["node"], cutoff["after"] = ids[cutoff["node"]], ids[cutoff["after"]]
        cutoff["cut"] = [ids[index] for index in cutoff["cut"]]
    return out


@settings(max_examples=250, deadline=None)
@given(
    raw=shorthand_trees(max_depth=5, max_branching=4, values=VALUES),
    algorithm=st.sampled_from(["minimax", "alphabeta"]),
    depth=st.none() | st.integers(0, 3),
    prune_on_equality=st.booleans(),
    reverse=st.booleans(),
)
def test_the_columns_answer_is_the_map_answer_by_index(
    raw: Any, algorithm: str, depth: int | None, prune_on_equality: bool, reverse: bool
) -> None:
    if not isinstance(raw, list):
        raw = [raw]
    tree = parse_tree(with_evals(raw))
    if reverse:  # children searched right to left: pruned leaves are walked, not sliced
        tree = tree.reversed_children()
    options: dict[str, Any] = {"depth": depth}
    if algorithm == "alphabeta":
        options["prune_on_equality"] = prune_on_equality
    solution = solve_tree(tree, algorithm, **options)
    written = orjson.dumps(solution_json(solution, layout=COLUMNS))
    mapped = orjson.loads(orjson.dumps(solution_json(solution)))
    assert as_map(orjson.loads(written), tree) == mapped


def test_runs_of_a_pruned_subtree_with_leaves_at_several_depths_are_walked() -> None:
    # root.1 is cut with a subtree whose leaves lie at depths 2 and 3: its leaves, left to
    # right, are 7 (depth 2), then 9 and 10 (depth 3)
    tree = parse_tree([[5], [[1, [2, 3]], 0], [4]])
    solution = solve_tree(tree, "alphabeta")
    answer = orjson.loads(orjson.dumps(solution_json(solution, layout=COLUMNS)))
    assert [tree.ids[i] for i in expanded(answer["pruned_leaves"])] == [
        tree.ids[i]
        for i in solution.search.pruned_leaves  # type: ignore[union-attr]
    ]


@st.composite
def uniform_trees(draw: st.DrawFn) -> Any:
    """Shorthand trees whose leaves all lie on the last level (any branching per node)."""
    depth = draw(st.integers(1, 4))

    def build(level: int) -> Any:
        if level == depth:
            return draw(st.integers(-5, 5))
        return [build(level + 1) for _ in range(draw(st.integers(1, 3)))]

    return build(0)


@settings(max_examples=200, deadline=None)
@given(raw=uniform_trees(), prune_on_equality=st.booleans(), reverse=st.booleans())
def test_pruned_leaves_of_a_tree_with_every_leaf_on_its_last_level(
    raw: Any, prune_on_equality: bool, reverse: bool
) -> None:
    tree = parse_tree(raw)
    if reverse:
        tree = tree.reversed_children()
    assert tree.leaves_on_last_level()
    solution = solve_tree(tree, "alphabeta", prune_on_equality=prune_on_equality)
    search = solution.search
    for layout in ("map", COLUMNS):
        written = orjson.loads(orjson.dumps(solution_json(solution, layout=layout)))
        # the leaves below each pruned subtree, walked node by node (Tree.leaves_below_all)
        expected = list(search.pruned_leaves)  # type: ignore[union-attr]
        if layout == COLUMNS:
            assert written["pruned_leaves"] == runs(expected)
        else:
            assert written["pruned_leaves"] == [tree.ids[i] for i in expected]


def test_leaves_on_the_last_level() -> None:
    assert parse_tree([[1, 2], [3]]).leaves_on_last_level()
    assert not parse_tree([[1, 2], 3]).leaves_on_last_level()
    assert parse_tree([1, 2]).leaves_on_last_level()
