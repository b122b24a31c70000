"""The compiled kernels (analysis/trees/_kernels.pyx) against the textbook searches they make
step for step: the same values, bounds, best children, evaluated leaves, cutoffs and counts,
on random trees with integer, fractional and huge values, at every depth cutoff, children
in either order, both conventions. (The textbook searches themselves are held to the
independent oracles of tests/reference.py in test_minimax.py and test_alpha_beta.py.)"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.alpha_beta import alpha_beta
from analysis.trees.minimax import KERNELS, minimax
from games.errors import TimeLimitError
from games.limits import Limits, limited
from games.trees.parser import parse_tree
from tests.strategies import shorthand_trees

# small integers make ties (and so the conventions) matter; fractions and integers beyond
# 2**62 are compared exactly, alone or mixed with small integers
VALUES = st.one_of(
    st.integers(-4, 4),
    st.fractions(min_value=-3, max_value=3, max_denominator=4),
    st.sampled_from([2**70, -(2**70), 2**62, -(2**62), 2**62 - 1]),
)

KERNEL = pytest.mark.skipif(KERNELS is None, reason="the kernels are not built")


def with_evals(shorthand: Any) -> Any:
    """The tree in object form, every internal node with an eval (so any depth cutoff works)."""
    if not isinstance(shorthand, list):
        return {"value": str(shorthand) if isinstance(shorthand, Fraction) else shorthand}
    return {"eval": len(shorthand) - 2, "children": [with_evals(kid) for kid in shorthand]}


def test_the_set_up_built_the_kernels() -> None:
    # the README set-up compiles them; a silent fallback would hide a broken build
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python searches were asked for")
    assert KERNELS is not None


@KERNEL
@settings(max_examples=300, deadline=None)
@given(
    shape=shorthand_trees(max_depth=5, max_branching=4, values=VALUES),
    depth=st.none() | st.integers(0, 5),
    prune_on_equality=st.booleans(),
    root_min=st.booleans(),
    reverse=st.booleans(),
)
def test_the_alpha_beta_kernel_is_the_textbook_search_step_for_step(
    shape: Any, depth: int | None, prune_on_equality: bool, root_min: bool, reverse: bool
) -> None:
    tree = parse_tree(with_evals(shape), root="min" if root_min else "max")
    if reverse:
        tree = tree.reversed_children()
    mine = alpha_beta(tree, depth=depth, prune_on_equality=prune_on_equality)
    theirs = alpha_beta(tree, depth=depth, prune_on_equality=prune_on_equality, compiled=False)
    assert mine.value == theirs.value and type(mine.value) is type(theirs.value)
    assert mine.values == theirs.values
    assert mine.bounds == theirs.bounds
    assert mine.best_child == theirs.best_child
    assert mine.evaluated_leaves == theirs.evaluated_leaves
    assert mine.cutoffs == theirs.cutoffs
    assert mine.pruned == theirs.pruned
    assert mine.pruned_leaves == theirs.pruned_leaves
    assert mine.stats == theirs.stats


@KERNEL
@settings(max_examples=300, deadline=None)
@given(
    shape=shorthand_trees(max_depth=5, max_branching=4, values=VALUES),
    depth=st.none() | st.integers(0, 5),
    root_min=st.booleans(),
)
def test_the_minimax_kernel_is_the_textbook_search(
    shape: Any, depth: int | None, root_min: bool
) -> None:
    tree = parse_tree(with_evals(shape), root="min" if root_min else "max")
    assert minimax(tree, depth=depth) == minimax(tree, depth=depth, compiled=False)


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "textbook"])
def test_the_textbook_tree_gives_the_published_answer(compiled: bool) -> None:
    # AIMA figure 5.5: value 3, the second MIN node stops after its first leaf (2)
    result = alpha_beta(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), compiled=compiled)
    assert result.value == 3
    assert [result.tree.ids[i] for i in result.pruned] == ["root.1.1", "root.1.2"]
    assert result.bounds[2] == "upper"


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "textbook"])
def test_the_searches_stop_at_the_deadline(compiled: bool) -> None:
    # 335,923 nodes of equal leaves: strict pruning never cuts, so both visit them all, and a
    # microsecond has passed by their first reading of the clock
    tree = parse_tree([[[[[[[1] * 6] * 6] * 6] * 6] * 6] * 6] * 6)
    with limited(Limits(time_limit=1e-6)), pytest.raises(TimeLimitError):
        alpha_beta(tree, prune_on_equality=False, compiled=compiled)
    with limited(Limits(time_limit=1e-6)), pytest.raises(TimeLimitError):
        minimax(tree, compiled=compiled)
