"""Star1 never reports a bound that the full expectiminimax values contradict.

A regression found by the property test: a chance node entered with alpha = U (here 5)
gave its first outcome the empty window [5, 5]; under pruning on equality a MIN
grandchild failed low at 5, and the MAX outcome above it took that upper bound for a
cut, reporting "at least 5" for a node worth 0.
"""

from __future__ import annotations

from analysis.trees.expectimax import expectimax
from analysis.trees.star1 import star1
from games.trees.parser import parse_tree
from tests.reference import assert_bounds_hold

TREE = {
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
    tree = parse_tree(TREE)
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
