"""max^n (Luckhardt and Irani 1986), shallow pruning (Korf 1991) and tie-breaking."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.trees.max_n import maxn
from analysis.trees.minimax import minimax
from analysis.trees.solve import solve_tree
from analysis.trees.trace_text import explain_maxn
from games.trees.parser import parse_tree
from tests.strategies import multiplayer_trees, shorthand_trees


def player(who: int, *kids: Any) -> dict[str, Any]:
    return {"player": who, "children": list(kids)}


def leaf(*payoffs: int) -> dict[str, Any]:
    return {"value": list(payoffs)}


TIED = player(0, player(1, leaf(1, 2, 3), leaf(4, 2, 1)), player(1, leaf(2, 5, 0), leaf(6, 1, 1)))


def zero_sum(raw: Any) -> Any:
    if isinstance(raw, list):
        return {"kind": "player", "children": [zero_sum(kid) for kid in raw]}
    return {"value": [raw, -raw]}


def test_ties_decide_the_value() -> None:
    # Player 1 at root.0 sees 2 in both (1,2,3) and (4,2,1): a tie between different tuples.
    # Leftmost: root.0 = (1,2,3); root.1 = (2,5,0) (5 > 1); player 0 compares 1 with 2 and
    # takes root.1 = (2,5,0). Rightmost: root.0 = (4,2,1), and player 0 takes 4 over 2.
    tree = parse_tree(TIED)
    left = maxn(tree)
    assert left.value == (2, 5, 0)
    assert [tree.ids[i] for i in left.principal_variation] == ["root.1", "root.1.0"]
    assert [tree.ids[i] for i in left.ties] == ["root.0"]
    right = maxn(tree, tie_break="rightmost")
    assert right.value == (4, 2, 1)
    assert [tree.ids[i] for i in right.ties] == ["root.0"]


def test_default_players_take_turns() -> None:
    tree = parse_tree(
        {
            "kind": "player",
            "children": [
                {"kind": "player", "children": [{"kind": "player", "children": [leaf(1, 0, 0)]}]}
            ],
        }
    )
    assert maxn(tree).movers[:3] == [0, 1, 2]


def test_shallow_pruning_korf() -> None:
    # Utilities sum to at most 10. Player 0 gets 5 from root.0 = (5,4,1). At root.1, player 1
    # already has 8 from (1,8,1), so player 0 can get at most 10 - 8 = 2 <= 5 there:
    # (9,0,1) is never examined (it would not change player 1's choice anyway).
    tree = parse_tree(
        player(0, player(1, leaf(6, 3, 1), leaf(5, 4, 1)), player(1, leaf(1, 8, 1), leaf(9, 0, 1)))
    )
    pruned = maxn(tree, max_sum=10)
    assert pruned.value == (5, 4, 1)
    assert [tree.ids[i] for i in pruned.pruned] == ["root.1.1"]
    assert maxn(tree).pruned == []


def test_expected_tuples_at_chance_nodes() -> None:
    tree = parse_tree(
        player(
            0,
            {
                "kind": "chance",
                "children": [{"p": "1/4", "value": [4, 0]}, {"p": "3/4", "value": [0, 8]}],
            },
            leaf(1, 1),
        )
    )
    # chance: (1/4*4 + 3/4*0, 1/4*0 + 3/4*8) = (1, 6); player 0 ties 1 = 1: leftmost keeps it
    result = maxn(tree)
    assert result.value == (1, 6)
    assert [tree.ids[i] for i in result.ties] == ["root"]


@settings(max_examples=200)
@given(shorthand_trees())
def test_two_player_zero_sum_tuples_match_minimax(raw: Any) -> None:
    expected = minimax(parse_tree(raw))
    tree = parse_tree(zero_sum(raw))
    result = maxn(tree)
    assert result.value == (expected.value, -expected.value)
    assert result.principal_variation == expected.principal_variation
    reduced = solve_tree(tree, paranoid=0).paranoid
    assert reduced is not None and reduced.value == expected.value


@settings(max_examples=200)
@given(multiplayer_trees(), st.sampled_from(["leftmost", "rightmost"]))
def test_shallow_pruning_never_changes_the_root_value(raw: Any, tie_break: str) -> None:
    tree = parse_tree(raw)
    full = maxn(tree, tie_break=tie_break)
    pruned = maxn(tree, tie_break=tie_break, max_sum=12)
    assert pruned.value == full.value
    assert pruned.principal_variation == full.principal_variation
    assert set(pruned.pruned_leaves) | {
        i for i, v in enumerate(pruned.values) if v is not None and not tree.children[i]
    } == set(tree.leaves())


def test_depth_cutoff_with_utility_list_evals() -> None:
    tree = parse_tree(
        player(
            0,
            {"player": 1, "eval": [2, 2], "children": [leaf(9, 0)]},
            {"player": 1, "eval": [3, 1], "children": [leaf(0, 9)]},
        )
    )
    assert maxn(tree, depth=1).value == (3, 1)
    assert maxn(tree).value == (9, 0)


# Korf's shallow pruning, three players, utilities summing to 10: player 0 holds 4 from
# root.0 (player 1 takes (4, 3, 3)); at root.1 player 1 is assured 7 by its first move, so
# player 0 can get at most 10 - 7 = 3 < 4 there, and root.1's other moves are skipped.
KORF = player(
    0,
    player(1, leaf(4, 3, 3), leaf(1, 2, 7)),
    player(1, leaf(2, 7, 1), leaf(6, 2, 2), leaf(5, 1, 4)),
)


def test_shallow_pruning_trace_matches_korfs_argument() -> None:
    tree = parse_tree(KORF, root="player")
    result = maxn(tree, max_sum=10, trace=True)
    assert result.trace is not None
    lines = [(e.event, tree.ids[e.node], e.value, e.player) for e in result.trace]
    assert lines == [
        ("enter", "root", None, 0),
        ("enter", "root.0", None, 1),
        ("evaluate", "root.0.0", (4, 3, 3), None),
        ("update", "root.0", (4, 3, 3), 1),
        ("evaluate", "root.0.1", (1, 2, 7), None),
        ("update", "root.0", (4, 3, 3), 1),
        ("return", "root.0", (4, 3, 3), 1),
        ("update", "root", (4, 3, 3), 0),
        ("enter", "root.1", None, 1),
        ("evaluate", "root.1.0", (2, 7, 1), None),
        ("update", "root.1", (2, 7, 1), 1),
        ("cutoff", "root.1", (2, 7, 1), 1),
        ("return", "root.1", (2, 7, 1), 1),
        ("update", "root", (4, 3, 3), 0),
        ("return", "root", (4, 3, 3), 0),
    ]
    cut = result.trace[11]
    assert cut.held == (4, 3, 3)
    assert [tree.ids[i] for i in cut.cut] == ["root.1.1", "root.1.2"]
    assert explain_maxn(result, cut) == (
        "player 1 already has 7 at root.1; with max_sum 10 player 0 can get at most 3 there, "
        "<= the 4 it already holds at root, so root.1's remaining children are pruned "
        "(root.1.1, root.1.2)."
    )


def test_shallow_cut_on_a_tie_only_when_ties_go_left() -> None:
    # player 0 holds 3; at root.1 player 1 is assured 7, leaving at most 10 - 7 = 3 = 3:
    # leftmost keeps root.0 on the tie (a cut); rightmost searches on, player 1 keeps
    # (3, 7, 0) (7 > 6) and player 0 takes it on the tie 3 = 3
    tree = parse_tree(
        player(0, player(1, leaf(3, 4, 3)), player(1, leaf(3, 7, 0), leaf(0, 6, 4))),
        root="player",
    )
    left = maxn(tree, max_sum=10, trace=True)
    right = maxn(tree, max_sum=10, tie_break="rightmost", trace=True)
    assert left.trace is not None and right.trace is not None
    [cut] = [e for e in left.trace if e.event == "cutoff"]
    assert "can get at most 3 there, <= the 3 it already holds at root" in explain_maxn(left, cut)
    assert [e for e in right.trace if e.event == "cutoff"] == []
    assert (left.value, right.value) == ((3, 4, 3), (3, 7, 0))


@settings(max_examples=200)
@given(multiplayer_trees(), st.sampled_from(["leftmost", "rightmost"]))
def test_every_shallow_cut_in_the_trace_is_true_as_explained(raw: Any, tie_break: str) -> None:
    # "player j already has v_j; player i can get at most max_sum - v_j <= (or <) what it
    # holds": the inequality holds for the numbers the trace carries
    tree = parse_tree(raw)
    result = maxn(tree, tie_break=tie_break, max_sum=12, trace=True)
    assert result.trace is not None
    for event in result.trace:
        if event.event != "cutoff":
            continue
        assert event.value is not None and event.held is not None and event.player is not None
        above = result.movers[tree.parents[event.node]]
        assert above is not None
        ceiling, held = 12 - event.value[event.player], event.held[above]
        assert ceiling <= held if tie_break == "leftmost" else ceiling < held
    assert [e.node for e in result.trace if e.event == "cutoff"] == result.cut_nodes
