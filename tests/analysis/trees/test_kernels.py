"""The compiled tree-search loops (analysis/trees/_kernels.pyx) against the Python loops they
mirror: the same values, bounds, best children, evaluated leaves, cutoffs and counts, on random
trees with integer, fractional and huge values, at every depth cutoff and both conventions."""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analysis.trees.alpha_beta as alpha_beta_module
import analysis.trees.minimax as minimax_module
from analysis.trees.alpha_beta import AlphaBetaResult, BoundColumn, ScaledValues, alpha_beta
from analysis.trees.json_output import solution_json
from analysis.trees.minimax import MinimaxResult, minimax
from analysis.trees.solve import solve_tree
from games.errors import TimeLimitError
from games.limits import Limits, limited
from games.trees.model import IntColumn
from games.trees.parser import parse_tree
from tests.strategies import shorthand_trees, uniform_trees

# small integers make ties (and so the conventions) matter; fractions and integers beyond
# 2**62 take the kernels' exact path, alone or mixed with machine integers
VALUES = st.one_of(
    st.integers(-4, 4),
    st.fractions(min_value=-3, max_value=3, max_denominator=4),
    st.sampled_from([2**70, -(2**70), 2**62, -(2**62), 2**62 - 1]),
)


def with_evals(shorthand: Any) -> Any:
    """The tree in object form, every internal node with an eval (so any depth cutoff works)."""
    if not isinstance(shorthand, list):
        return {"value": str(shorthand) if isinstance(shorthand, Fraction) else shorthand}
    return {"eval": len(shorthand) - 2, "children": [with_evals(kid) for kid in shorthand]}


def run(module: Any, compiled: bool, search: Any, tree: Any, **options: Any) -> Any:
    """``search(tree, **options)`` with ``module``'s compiled loop on or off."""
    before = module.COMPILED
    module.COMPILED = compiled
    try:
        return search(tree, **options)
    finally:
        module.COMPILED = before


def searched(tree: Any, compiled: bool, **options: Any) -> AlphaBetaResult:
    return run(alpha_beta_module, compiled, alpha_beta, tree, **options)  # type: ignore[no-any-return]


def backed_up(tree: Any, compiled: bool, **options: Any) -> MinimaxResult:
    return run(minimax_module, compiled, minimax, tree, **options)  # type: ignore[no-any-return]


def test_the_set_up_built_the_compiled_loops() -> None:
    # the README set-up compiles them; a silent fallback would hide a broken build
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python loops were asked for")
    assert alpha_beta_module.COMPILED


@settings(max_examples=300, deadline=None)
@given(
    shape=shorthand_trees(max_depth=5, max_branching=4, values=VALUES),
    depth=st.none() | st.integers(0, 5),
    prune_on_equality=st.booleans(),
    root_min=st.booleans(),
)
def test_compiled_alpha_beta_is_the_python_search_step_for_step(
    shape: Any, depth: int | None, prune_on_equality: bool, root_min: bool
) -> None:
    tree = parse_tree(with_evals(shape), root="min" if root_min else "max")
    mine = searched(tree, True, depth=depth, prune_on_equality=prune_on_equality)
    theirs = searched(tree, False, depth=depth, prune_on_equality=prune_on_equality)
    assert mine.value == theirs.value and type(mine.value) is type(theirs.value)
    assert mine.values == theirs.values
    assert mine.bounds == theirs.bounds
    assert mine.best_child == theirs.best_child
    assert mine.evaluated_leaves == theirs.evaluated_leaves
    assert mine.cutoffs == theirs.cutoffs
    assert mine.pruned == theirs.pruned
    assert mine.pruned_leaves == theirs.pruned_leaves
    assert mine.stats == theirs.stats


@settings(max_examples=300, deadline=None)
@given(
    shape=shorthand_trees(max_depth=5, max_branching=4, values=VALUES),
    depth=st.none() | st.integers(0, 5),
    root_min=st.booleans(),
)
def test_compiled_minimax_is_the_python_back_up(
    shape: Any, depth: int | None, root_min: bool
) -> None:
    tree = parse_tree(with_evals(shape), root="min" if root_min else "max")
    mine = backed_up(tree, True, depth=depth)
    theirs = backed_up(tree, False, depth=depth)
    assert (mine.value, mine.values, mine.best_child) == (
        theirs.value,
        theirs.values,
        theirs.best_child,
    )
    assert (mine.best_moves, mine.principal_variation, mine.stats) == (
        theirs.best_moves,
        theirs.principal_variation,
        theirs.stats,
    )


def test_a_fraction_after_integers_switches_to_exact_comparison() -> None:
    # 1/2 is read after 0 and -1: the integer walk stops there and the exact one answers.
    # MIN of [0, 1/2] is 0; MIN of [-1] is -1; MAX of those is 0.
    tree = parse_tree([[0, "1/2"], [-1]])
    result = searched(tree, True)
    assert result.value == 0
    assert result.best_move == 1
    assert result.evaluated_leaves == [3, 4, 5]


@pytest.mark.skipif(not minimax_module.COMPILED, reason="not built")
def test_minimax_over_machine_integers_backs_up_columns_of_them() -> None:
    # AIMA figure 5.5 (MIN nodes 3, 2, 2; the root 3): every value a machine integer
    result = minimax(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    assert isinstance(result.values, IntColumn) and isinstance(result.best_child, IntColumn)
    assert result.values == [3, 3, 2, 2, 3, 12, 8, 2, 4, 6, 14, 5, 2]
    assert result.best_child == [1, 4, 7, 12] + [-1] * 9
    # a leaf of 2**62 (past the writers' machine integers) leaves the back-up to objects
    wide = minimax(parse_tree([[3, 2**62], [2]]))
    assert not isinstance(wide.values, IntColumn) and wide.values == [3, 3, 2, 3, 2**62, 2]
    from analysis.trees._kernels import words_bytes

    def spend(units: int) -> None:
        pass

    assert words_bytes(IntColumn("q", [-5, 0, 2**62 - 1]), spend) == b"[-5,0,4611686018427387903]"
    assert words_bytes(IntColumn("q", [1, -(2**62)]), spend) is None


@pytest.mark.skipif(not alpha_beta_module.COMPILED, reason="not built")
def test_alpha_beta_over_machine_integers_keeps_its_values_in_columns() -> None:
    # AIMA figure 5.5 with alpha-beta: MIN node 1 is 3 (exact); MIN node 2 stops at 2 <= 3
    # (an upper bound), its 4 and 6 never read; MIN node 3 reads 14, 5 and its last child 2
    # (nothing left to cut: exact)
    result = alpha_beta(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    assert isinstance(result.values, ScaledValues) and isinstance(result.bounds, BoundColumn)
    assert result.values == [3, 3, 2, 2, 3, 12, 8, 2, None, None, 14, 5, 2]
    assert [type(value) for value in result.values[:2]] == [int, int]
    assert result.bounds == ["exact", "exact", "upper"] + ["exact"] * 5 + [None] * 2 + ["exact"] * 3
    # a fraction, or an integer past 2**62, leaves the search to objects in lists
    for leaf in ("1/2", 2**62):
        wide = alpha_beta(parse_tree([[3, leaf], [2]]))
        assert type(wide.values) is list and type(wide.bounds) is list
        assert wide.values == searched(parse_tree([[3, leaf], [2]]), False).values


EXTREMES = [2**62 - 1, -(2**62 - 1), 2**53 + 1, -(2**53) - 1, 0, 7]


@pytest.mark.skipif(not alpha_beta_module.COMPILED, reason="not built")
@settings(max_examples=200, deadline=None)
@given(
    shape=shorthand_trees(max_depth=4, max_branching=4, values=st.sampled_from(EXTREMES)),
    prune_on_equality=st.booleans(),
    layout=st.sampled_from(["map", "columns"]),
)
def test_alpha_beta_columns_are_written_as_the_python_search_s_lists_are(
    shape: Any, prune_on_equality: bool, layout: str
) -> None:
    # the widest machine integers and those past a double's 53 bits, read from the columns
    # by the compiled writers, against the Python search's lists written by orjson
    tree = parse_tree(shape)
    with limited(Limits()):
        mine = solve_tree(tree, "alphabeta", prune_on_equality=prune_on_equality)
        before = alpha_beta_module.COMPILED
        alpha_beta_module.COMPILED = False
        try:
            theirs = solve_tree(tree, "alphabeta", prune_on_equality=prune_on_equality)
        finally:
            alpha_beta_module.COMPILED = before
        written = orjson.dumps(solution_json(mine, fragments=True, layout=layout))
        assert written == orjson.dumps(solution_json(theirs, layout=layout))


@pytest.mark.skipif(not minimax_module.COMPILED, reason="not built")
def test_a_node_map_writes_default_ids_from_their_parents_as_the_ids_are() -> None:
    # positions of one, two and three digits, four levels: each id is written from its
    # parent's, already in the answer, unless the ids were written out before (then copied)
    shape = [[[i, -i] for i in range(j % 13)] or j for j in range(120)]
    for blob_first in (False, True):
        tree = parse_tree(shape)
        if blob_first:
            tree.ids.encoded()
        with limited(Limits()):
            solution = solve_tree(tree, "minimax")
            written = orjson.dumps(solution_json(solution, fragments=True))
        answer = orjson.loads(written)
        assert written == orjson.dumps(solution_json(solution))
        assert list(answer["nodes"]) == list(tree.ids.all())
        assert "root.119" in answer["nodes"] and "root.116.11.1" in answer["nodes"]


@pytest.mark.skipif(not alpha_beta_module.COMPILED, reason="not built")
def test_value_columns_are_taken_only_as_the_kernels_make_them() -> None:
    from analysis.trees._kernels import alpha_beta_walk, node_map_bytes, present_columns_bytes

    def walk(ints: bool, numbers: Any, codes: Any) -> int:
        # MAX over leaves 1 and 2
        return alpha_beta_walk(
            [range(1, 3), range(0), range(0)],
            [None, 1, 2],
            ["max", "leaf", "leaf"],
            "max",
            False,
            None,
            None,
            IntColumn.filled(-1, 3),
            IntColumn(),
            [],
            [],
            ("exact", "lower", "upper"),
            lambda units: None,
            ints,
            "leaf",
            None,
            numbers,
            codes,
        )

    numbers, codes = IntColumn(), bytearray(3)
    assert walk(True, numbers, codes) == 1
    assert list(numbers) == [2, 1, 2] and codes == bytearray([1, 4 | 1, 4 | 1])
    with pytest.raises(ValueError, match="ints only"):
        walk(False, IntColumn(), bytearray(3))
    with pytest.raises(ValueError, match="bytearray"):
        walk(True, IntColumn(), bytes(3))
    with pytest.raises(ValueError, match="bytearray"):
        walk(True, IntColumn(), bytearray(2))
    with pytest.raises(TypeError):
        walk(True, [], bytearray(3))
    names = (None, "exact", "lower", "upper")
    kept = bytes(codes)

    def spend(units: int) -> None:
        pass

    assert (
        node_map_bytes(
            ["r", "a", "b"], numbers, None, "exact", None, orjson.dumps, spend, True, kept, names
        )
        == b'{"r":{"value":2,"bound":"exact"},"a":{"value":1,"bound":"exact"},'
        b'"b":{"value":2,"bound":"exact"}}'
    )
    assert present_columns_bytes(numbers, names, None, orjson.dumps, spend, bytes([0, 3, 2])) == (
        b"[[1,3]]",
        b"[1,2]",
        [],
        b'["upper","lower"]',
    )
    with pytest.raises(ValueError):  # codes with a list of values
        present_columns_bytes([1, 2, 3], names, None, orjson.dumps, spend, kept)
    with pytest.raises(ValueError):  # a code a node, no fewer
        present_columns_bytes(numbers, names, None, orjson.dumps, spend, kept[:2])
    with pytest.raises(ValueError):  # four bound names
        node_map_bytes(
            ["r", "a", "b"],
            numbers,
            None,
            "exact",
            None,
            orjson.dumps,
            spend,
            True,
            kept,
            names[1:],
        )
    with pytest.raises(ValueError):  # past the machine integers the columns hold
        present_columns_bytes(IntColumn("q", [2**62]), names, None, orjson.dumps, spend, b"\x01")


@pytest.mark.skipif(not minimax_module.COMPILED, reason="not built")
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-(2**62) + 1, 2**62 - 1) | st.integers(-120, 120), max_size=50),
    st.integers(0, 9000),
)
def test_written_machine_integers_are_what_orjson_writes(numbers: list[int], more: int) -> None:
    # short lists of any machine integers, then long ones that cross the writer's batches
    from analysis.trees._kernels import words_bytes

    def spend(units: int) -> None:
        pass

    for column in (numbers, [(i * 7919) % 2001 - 1000 for i in range(more)] + numbers):
        assert words_bytes(IntColumn("q", column), spend) == orjson.dumps(column)


def test_textbook_tree_gives_the_published_answer() -> None:
    # AIMA figure 5.5: value 3, the second MIN node stops after its first leaf (2)
    result = searched(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), True)
    assert result.value == 3
    assert [result.tree.ids[i] for i in result.pruned] == ["root.1.1", "root.1.2"]
    assert result.bounds[2] == "upper"


def test_the_compiled_loops_stop_at_the_deadline() -> None:
    # 335,923 nodes of equal leaves: strict pruning never cuts, so both visit them all, and a
    # microsecond has passed by their first reading of the clock
    tree = parse_tree([[[[[[[1] * 6] * 6] * 6] * 6] * 6] * 6] * 6)
    with limited(Limits(time_limit=1e-6)), pytest.raises(TimeLimitError):
        searched(tree, True, prune_on_equality=False)
    with limited(Limits(time_limit=1e-6)), pytest.raises(TimeLimitError):
        backed_up(tree, True)


# -- the JSON writers: the bytes orjson writes for the dicts and lists they stand for -----

NAMES = st.text(
    st.sampled_from(
        ["a", "Z", "7", ".", '"', "\\", "\n", "\x00", "\x1f", "\x7f", "é", "€", "😀", " "]
    ),
    min_size=1,
    max_size=4,
)


@st.composite
def named_trees(draw: st.DrawFn) -> Any:
    """Object-form trees whose ids need every kind of JSON escaping (or none), with
    fractional values."""
    shape = draw(shorthand_trees(max_depth=4, max_branching=3, values=VALUES))
    names = iter(draw(st.lists(NAMES, min_size=200, max_size=200, unique=True)))

    def build(node: Any) -> Any:
        if isinstance(node, list):
            return {"id": next(names), "children": [build(kid) for kid in node]}
        value = str(node) if isinstance(node, Fraction) else node
        return {"id": next(names), "value": value}

    return build(shape)


@settings(max_examples=200, deadline=None)
@given(
    raw=st.one_of(named_trees(), shorthand_trees(max_depth=5, max_branching=5)),
    algorithm=st.sampled_from(["minimax", "alphabeta", "expectimax"]),
    depth=st.none() | st.integers(0, 3),
)
def test_written_node_maps_are_what_orjson_writes(
    raw: Any, algorithm: str, depth: int | None
) -> None:
    tree = parse_tree(with_evals(raw) if depth is not None and isinstance(raw, list) else raw)
    if depth is not None and not isinstance(raw, list):
        depth = None  # named trees carry no evals
    solution = solve_tree(tree, algorithm, depth=depth)
    assert orjson.dumps(solution_json(solution, fragments=True)) == orjson.dumps(
        solution_json(solution)
    )


def test_written_ids_escape_what_json_escapes() -> None:
    tree = parse_tree(
        {"id": 'a"b', "children": [{"id": "c\\d", "value": 1}, {"id": "e\nf\x7f", "value": 2}]}
    )
    written = orjson.loads(orjson.dumps(solution_json(solve_tree(tree, "minimax"), fragments=True)))
    assert list(written["nodes"]) == ['a"b', "c\\d", "e\nf\x7f"]
    assert written["nodes"]["e\nf\x7f"] == {"value": 2, "bound": "exact"}


def scanned(shape: Any, root: str = "max") -> Any:
    """The tree of the request body ``{"tree": shape}`` as the endpoints scan it: its children a
    ``ChildRanges`` the compiled loops read as columns."""
    from games.trees.compiled_reader import scan_shorthand, scanned_shorthand_tree

    found = scan_shorthand(orjson.dumps({"tree": shape}), Limits())
    assert found is not None
    tree = scanned_shorthand_tree(found[0], root, "/tree")
    assert tree is not None and type(tree.children).__name__ == "ChildRanges"
    return tree


@pytest.mark.skipif(not minimax_module.COMPILED, reason="not built")
@settings(max_examples=300, deadline=None)
@given(
    shape=shorthand_trees(max_depth=5, max_branching=4, values=st.integers(-300, 300)),
    algorithm=st.sampled_from(["minimax", "alphabeta"]),
    prune_on_equality=st.booleans(),
    root=st.sampled_from(["max", "min"]),
    layout=st.sampled_from(["map", "columns"]),
    chain=st.integers(0, 16),
)
def test_a_scanned_tree_is_searched_and_written_as_the_parsed_tree_is(
    shape: Any, algorithm: str, prune_on_equality: bool, root: str, layout: str, chain: int
) -> None:
    # the compiled loops read a scanned tree's children from its columns; the parsed tree's
    # are a list of ranges (and the Python search, the loops' own twin, checks both). Below
    # a chain of single children, ids grow past the 32 bytes the writers copy at once.
    for _ in range(chain):
        shape = [shape]
    with limited(Limits()):
        mine, theirs = scanned(shape, root), parse_tree(shape, root=root)
        options: dict[str, Any] = {}
        if algorithm == "alphabeta":
            options["prune_on_equality"] = prune_on_equality
        answers = [
            orjson.dumps(
                solution_json(solve_tree(tree, algorithm, **options), fragments=True, layout=layout)
            )
            for tree in (mine, theirs)
        ]
        assert answers[0] == answers[1]
        before = alpha_beta_module.COMPILED, minimax_module.COMPILED
        alpha_beta_module.COMPILED = minimax_module.COMPILED = False
        try:  # the Python search, on the scanned tree's ranges read one by one
            python = solve_tree(mine, algorithm, **options)
        finally:
            alpha_beta_module.COMPILED, minimax_module.COMPILED = before
        assert answers[0] == orjson.dumps(solution_json(python, layout=layout))


@pytest.mark.skipif(not minimax_module.COMPILED, reason="not built")
@settings(max_examples=100, deadline=None)
@given(
    shape=st.integers(2, 4).flatmap(
        lambda branching: st.integers(2, 4).flatmap(
            lambda depth: uniform_trees(branching, depth, st.integers(-9, 9))
        )
    ),
    prune_on_equality=st.booleans(),
    layout=st.sampled_from(["map", "columns"]),
)
def test_a_scanned_uniform_tree_lists_its_pruned_leaves_as_the_parsed_tree_does(
    shape: Any, prune_on_equality: bool, layout: str
) -> None:
    # every leaf on the last level: the pruned leaves are read level by level, from the
    # scanned tree's columns or from the parsed tree's ranges
    with limited(Limits()):
        answers = [
            orjson.dumps(
                solution_json(
                    solve_tree(tree, "alphabeta", prune_on_equality=prune_on_equality),
                    fragments=True,
                    layout=layout,
                )
            )
            for tree in (scanned(shape), parse_tree(shape))
        ]
    assert answers[0] == answers[1]


@pytest.mark.skipif(not minimax_module.COMPILED, reason="not built")
def test_leaf_words_are_read_from_a_column_of_machine_integers_only() -> None:
    from analysis.trees._kernels import back_up_words

    # MAX over leaves 1 and 2 (the words, not the objects, are read: 5 is ignored)
    children, static, kinds = (
        [range(1, 3), range(0), range(0)],
        [None, 5, 5],
        ["max", "leaf", "leaf"],
    )
    backed = back_up_words(
        children, static, kinds, "max", lambda n: None, IntColumn("q", [0, 1, 2])
    )
    assert backed is not None and list(backed[0]) == [2, 1, 2] and list(backed[1]) == [2, -1, -1]
    with pytest.raises(TypeError):
        back_up_words(children, static, kinds, "max", lambda n: None, [0, 1, 2])
