"""Star1 (Ballard 1983): it prunes chance nodes given bounds on leaf values, and its value is
expectiminimax's.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.expectimax import CHANCE_KERNELS, common_scale, expectimax
from analysis.trees.horizon import horizon
from analysis.trees.minimax import EXACT, UPPER
from analysis.trees.star1 import _compiled, star1
from analysis.trees.trace_text import explain
from games.errors import InvalidInputError, LimitExceededError
from games.limits import current_deadline
from games.trees.parser import parse_tree
from tests.reference import assert_bounds_hold
from tests.strategies import chance_trees


def max_over_chance(*groups: list[int]) -> dict[str, Any]:
    return {"children": [{"kind": "chance", "children": list(group)} for group in groups]}


def test_star1_prunes_and_agrees() -> None:
    # After the first chance node (8), alpha = 8. In the second, 2 and 4 leave at most
    # (2 + 4 + 15) / 3 = 7 <= 8 even if the last leaf were the maximum 15: it is cut.
    tree = parse_tree(max_over_chance([3, 12, 9], [2, 4, 6], [15, 6, 0]))
    result = star1(tree, (0, 15))
    assert result.value == 8
    assert [tree.ids[i] for i in result.pruned] == ["root.1.2"]
    node = tree.index_of("root.1")
    assert (result.values[node], result.bounds[node]) == (7, UPPER)


def test_star1_refuses_values_outside_bounds() -> None:
    tree = parse_tree(max_over_chance([3, 12, 9], [2, 4, 16]))
    with pytest.raises(InvalidInputError) as caught:
        star1(tree, (0, 15))
    assert caught.value.errors[0].pointer == "/tree/children/1/children/2"
    with pytest.raises(InvalidInputError):
        star1(tree, (5, 1))


@settings(max_examples=300, deadline=None)
@given(chance_trees(), st.booleans())
def test_star1_equals_full_expectiminimax(raw: Any, equality: bool) -> None:
    tree = parse_tree(raw)
    truth = expectimax(tree).values
    pruned = star1(tree, (-5, 5), prune_on_equality=equality)
    assert pruned.value == truth[0]
    assert_bounds_hold(pruned.values, pruned.bounds, truth)


# Star1 never reports a bound that the full expectiminimax values contradict.
#
# A regression found by the property test: a chance node entered with alpha = U (here 5)
# gave its first outcome the empty window [5, 5]; under pruning on equality a MIN
# grandchild failed low at 5, and the MAX outcome above it took that upper bound for a
# cut, reporting "at least 5" for a node worth 0.
EMPTY_WINDOW_TREE = {
    "kind": "max",
    "children": [
        {"kind": "max", "children": [5, 0]},
        {
            "kind": "chance",
            "children": [
                {"kind": "max", "children": [{"kind": "min", "children": [5, 0]}, 0, 0]},
                0,
                0,
            ],
        },
    ],
}


def test_a_chance_node_that_cannot_beat_alpha_is_cut_before_its_outcomes() -> None:
    tree = parse_tree(EMPTY_WINDOW_TREE)
    truth = expectimax(tree).values
    for equality in (True, False):
        result = star1(tree, (-5, 5), prune_on_equality=equality)
        assert result.value == truth[0] == 5
        assert_bounds_hold(result.values, result.bounds, truth)
    # by hand: after root.0 = 5 = U, the chance node can at best tie, so (pruning on
    # equality) none of its outcomes is searched and its value is "at most 5"
    cut = star1(tree, (-5, 5), prune_on_equality=True)
    chance = tree.index_of("root.1")
    assert (cut.values[chance], cut.bounds[chance]) == (5, "upper")
    assert [tree.ids[i] for i in cut.pruned] == ["root.1.0", "root.1.1", "root.1.2"]
    assert cut.cutoffs[-1].after == chance  # the window alone proved the cut


def test_star1_trace_matches_a_hand_trace_of_the_chance_cut() -> None:
    # Bounds [0, 15], outcomes 1/3 each. root.0 = (3 + 12 + 9) / 3 = 8 raises alpha to 8.
    # In root.1 the first outcome is searched with A = (8 - 0 - 15 * 2/3) / (1/3) = -6
    # (clipped to lo = 0); after 2, A = (8 - 2/3 - 15 * 1/3) / (1/3) = 7, and 4 <= 7: the
    # sum 2/3 + 4/3 = 2 plus 15 * 1/3 for the last outcome is at most 7 <= 8, a cut.
    tree = parse_tree(max_over_chance([3, 12, 9], [2, 4, 6], [15, 6, 0]))
    result = star1(tree, (0, 15), trace=True)
    assert result.trace is not None
    inf = float("inf")
    lines = [(e.event, tree.ids[e.node], e.alpha, e.beta, e.value) for e in result.trace]
    third = Fraction(1, 3)
    assert lines[:8] == [
        ("enter", "root", -inf, inf, None),
        ("enter", "root.0", -inf, inf, None),
        ("evaluate", "root.0.0", 0, 15, 3),
        ("update", "root.0", -inf, inf, 1),
        ("evaluate", "root.0.1", 0, 15, 12),
        ("update", "root.0", -inf, inf, 5),
        ("evaluate", "root.0.2", 0, 15, 9),
        ("update", "root.0", -inf, inf, 8),
    ]
    start = lines.index(("enter", "root.1", 8, inf, None))
    assert lines[start : start + 7] == [
        ("enter", "root.1", 8, inf, None),
        ("evaluate", "root.1.0", 0, 15, 2),
        ("update", "root.1", 8, inf, 2 * third),
        ("evaluate", "root.1.1", 7, 15, 4),
        ("update", "root.1", 8, inf, 2),
        ("cutoff", "root.1", 8, inf, 7),
        ("return", "root.1", 8, inf, 7),
    ]
    cut = result.trace[start + 5]
    assert (cut.bound, [tree.ids[i] for i in cut.cut]) == (UPPER, ["root.1.2"])
    assert explain(tree, cut, True, (0, 15)) == (
        "chance at root.1: even if its remaining outcomes are all worth hi = 15, it is worth "
        "at most 7 <= alpha = 8, so they cannot lift it past alpha and are pruned (root.1.2)."
    )
    assert explain(tree, result.trace[start + 4], True, (0, 15)) == (
        "chance at root.1 takes root.1.1 (p = 1/3) into account: the sum of p * v is 2 with "
        "1/3 of the probability unseen, so root.1 is worth between 2 and 7 "
        "(alpha = 8, beta = inf)."
    )
    # root.2 = (15 + 6 + 0) / 3 = 7 is searched to the end: its last outcome cannot cut
    assert lines[-3:] == [
        ("return", "root.2", 8, inf, 7),
        ("update", "root", 8, inf, 8),
        ("return", "root", 8, inf, 8),
    ]


def test_star1_cut_on_equality_only_under_the_aima_convention() -> None:
    # root.0 = (6 + 4) / 2 = 5; in root.1, after 0 the node is at most 0 + 10 / 2 = 5 = alpha
    tree = parse_tree(
        {
            "children": [
                {"kind": "chance", "children": [6, 4]},
                {"kind": "chance", "children": [0, 9]},
            ]
        }
    )
    loose = star1(tree, (0, 10), trace=True)
    strict = star1(tree, (0, 10), prune_on_equality=False, trace=True)
    assert loose.trace is not None and strict.trace is not None
    [cut] = [e for e in loose.trace if e.event == "cutoff"]
    assert explain(tree, cut, True, (0, 10)).startswith(
        "chance at root.1: even if its remaining outcomes are all worth hi = 10, it is worth "
        "at most 5 <= alpha = 5,"
    )
    assert [e for e in strict.trace if e.event == "cutoff"] == []
    assert strict.value == loose.value == 5


def test_star1_trace_is_refused_for_large_trees() -> None:
    tree = parse_tree(max_over_chance([3, 12, 9], [2, 4, 6]))
    with pytest.raises(LimitExceededError) as caught:
        star1(tree, (0, 15), trace=True, max_trace_nodes=5)
    assert caught.value.errors[0].parameter == "trace"


@settings(max_examples=200)
@given(chance_trees(), st.booleans())
def test_every_chance_cut_in_the_trace_is_true_as_explained(raw: Any, equality: bool) -> None:
    # The sentence says "at most v <= alpha" (or "at least v >= beta"): the comparison holds
    # for the numbers shown, and the node's true value respects the bound.
    tree = parse_tree(raw)
    truth = expectimax(tree).values
    result = star1(tree, (-5, 5), prune_on_equality=equality, trace=True)
    assert result.trace is not None
    for event in result.trace:
        if event.event != "cutoff" or tree.kinds[event.node] != "chance":
            continue
        value, exact = event.value, truth[event.node]
        assert value is not None and exact is not None
        if event.bound == UPPER:
            assert (value <= event.alpha if equality else value < event.alpha) and exact <= value
        else:
            assert (value >= event.beta if equality else value > event.beta) and exact >= value


def fraction_star1(tree: Any, bounds: Any, **options: Any) -> Any:
    """Star1 by the textbook search in fractions, whether or not the kernel is built."""
    return star1(tree, bounds, compiled=False, **options)


def on_common_scale(tree: Any, seen: Any, low: Any, high: Any, equality: bool) -> Any:
    """Star1 by the compiled search on the common scale, or None where it does not apply."""
    return _compiled(tree, seen, low, high, equality, current_deadline())


def same_search(one: Any, other: Any) -> None:
    for field in ("value", "values", "bounds", "best_child", "pruned", "evaluated_leaves"):
        assert getattr(one, field) == getattr(other, field), field
    assert one.cutoffs == other.cutoffs
    assert one.stats == other.stats


def test_the_set_up_built_the_compiled_star1_loop() -> None:
    # the README set-up compiles it; a silent fallback would hide a broken build
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python searches were asked for")
    assert CHANCE_KERNELS is not None


KERNEL = pytest.mark.skipif(CHANCE_KERNELS is None, reason="the kernel is not built")


@KERNEL
@settings(max_examples=300, deadline=None)
@given(chance_trees(max_depth=5), st.booleans(), st.booleans(), st.integers(0, 5) | st.none())
def test_star1_in_integers_mirrors_the_fraction_search(
    raw: Any, equality: bool, reverse: bool, depth: int | None
) -> None:
    # the kernel against the textbook search, on random trees with depth cutoffs (evals 0),
    # children searched in either order, both conventions
    tree = parse_tree(raw)
    tree = tree.replace(evals=[0 if kids else None for kids in tree.children])
    if reverse:
        tree = tree.reversed_children()
    seen = horizon(tree, depth)
    search = on_common_scale(tree, seen, -5, 5, equality)
    if search is None:
        # only where no chance node is searched (integer leaves and bounds here), or the
        # numbers may outgrow 64 bits: a common scale Q ** K past 2 ** 40, windows dividing
        # by probabilities on top of it
        scale = common_scale(tree, seen)
        assert scale is None or (5 * scale.scale * scale.common).bit_length() > 40
        return
    same_search(search, fraction_star1(tree, (-5, 5), depth=depth, prune_on_equality=equality))


DECIMAL_TREE: Any = {
    "children": [
        {"kind": "chance", "children": [{"p": "0.35", "value": 10}, {"p": "0.65", "value": -4}]},
        {"kind": "chance", "children": [{"p": "0.5", "value": -10}, {"p": "0.5", "value": 1}]},
    ]
}


@KERNEL
def test_star1_in_integers_on_decimal_probabilities() -> None:
    # Probabilities 0.35/0.65 and 0.5/0.5 (Q = 20), bounds -10 and 10 (on the scale of Q);
    # the first chance node is worth 0.35 * 10 + 0.65 * (-4) = 9/10, which becomes alpha.
    tree = parse_tree(DECIMAL_TREE)
    seen = horizon(tree, None)
    search = on_common_scale(tree, seen, -10, 10, True)
    assert search is not None
    same_search(search, fraction_star1(tree, (-10, 10)))
    # -10 on the first outcome leaves at most 0.5 * (-10) + 0.5 * 10 = 0 <= 9/10: cut
    assert search.value == Fraction(9, 10)
    assert [tree.ids[i] for i in search.pruned] == ["root.1.1"]
    # a bound off the scale of Q (1/3) leaves the search to fractions
    assert on_common_scale(tree, seen, Fraction(-31, 3), 10, True) is None


@KERNEL
def test_the_compiled_search_gives_values_bounds_and_cuts() -> None:
    # The tree above: the first chance node is worth 9/10 exactly; the second is cut after
    # its first outcome, at most 0.5 * (-10) + 0.5 * 10 = 0 (an upper bound), and its
    # second outcome (node 6) is never valued.
    tree = parse_tree(DECIMAL_TREE)
    result = on_common_scale(tree, horizon(tree, None), -10, 10, True)
    nine_tenths = Fraction(9, 10)
    assert result.values == [nine_tenths, nine_tenths, 0, 10, -4, -10, None]
    assert result.bounds == [EXACT, EXACT, UPPER, EXACT, EXACT, EXACT, None]
    assert type(result.values[2]) is int
    (cutoff,) = result.cutoffs
    assert (cutoff.node, cutoff.alpha, cutoff.value, cutoff.after, cutoff.cut) == (
        2,
        nine_tenths,
        0,
        5,
        (6,),
    )
    assert result.pruned == [6] and result.evaluated_leaves == [3, 4, 5]


@pytest.mark.parametrize(
    "compiled", [False, pytest.param(True, marks=KERNEL)], ids=["textbook", "kernel"]
)
def test_a_certain_outcome_keeps_the_windows_exact(compiled: bool) -> None:
    # MAX over the leaf 2 and a chance node A whose one outcome (p = 1) is a chance node B
    # over 1, 0, 0 (a third each); bounds -5 and 5. After the 2, A is searched with
    # alpha = 2 and its outcome with A_1 = (2 - 0 - 5 * 0) / 1 = 2. In B, after 1 and 0,
    # A_2 = (2 - 1/3 - 5 * 1/3) / (1/3) = 0 exactly: the second 0 equals it, so B is cut
    # there only when equality prunes (B then at most 1/3 + 5/3 = 2). Once p = 1 made the
    # window a float (2 / 1 = 2.0), A_2 came out 1e-15 and B was cut either way.
    tree = parse_tree(
        {
            "children": [
                2,
                {"kind": "chance", "children": [{"kind": "chance", "children": [1, 0, 0]}]},
            ]
        }
    )
    b = tree.index_of("root.1.0")
    for equality, value, pruned in ((False, Fraction(1, 3), []), (True, 2, ["root.1.0.2"])):
        seen = horizon(tree, None)
        if compiled:
            search = on_common_scale(tree, seen, -5, 5, equality)
        else:
            search = fraction_star1(tree, (-5, 5), prune_on_equality=equality)
        assert search is not None
        assert search.value == 2
        assert search.values[b] == value
        assert [tree.ids[i] for i in search.pruned] == pruned
        assert all(type(cut.alpha) is not float or cut.alpha < 0 for cut in search.cutoffs)


def test_the_fraction_search_gives_integral_window_ends_as_integers() -> None:
    # the third cutoff's alpha is lo = -30 reached through a window A_i (a Fraction): the
    # integer searches give the int -30, and so must the fraction search (an answer writes
    # an int as a plain number, a Fraction with its exact string)
    raw = {
        "kind": "min",
        "children": [
            {"kind": "chance", "children": [0, -18]},
            {
                "kind": "max",
                "children": [
                    {
                        "kind": "max",
                        "children": [
                            {
                                "kind": "chance",
                                "children": [
                                    0,
                                    {"kind": "max", "children": [0]},
                                    {
                                        "kind": "chance",
                                        "children": [
                                            {"p": "3/7", "value": 0},
                                            {"p": "4/7", "value": 0},
                                        ],
                                    },
                                ],
                            },
                            0,
                        ],
                    }
                ],
            },
            {
                "kind": "chance",
                "children": [
                    {
                        "kind": "chance",
                        "children": [
                            {
                                "kind": "chance",
                                "children": [
                                    {"p": "4/10", "kind": "chance", "children": [7]},
                                    {"p": "2/10", "value": 1},
                                    {"p": "4/10", "value": 0},
                                ],
                            }
                        ],
                    }
                ],
            },
        ],
    }
    tree = parse_tree(raw)
    search = fraction_star1(tree, (-30, 30))
    assert len(search.cutoffs) == 3
    ends = [end for cutoff in search.cutoffs for end in (cutoff.alpha, cutoff.beta)]
    assert ends[4] == -30 and type(ends[4]) is int
    assert not any(type(end) is Fraction and end.denominator == 1 for end in ends)
