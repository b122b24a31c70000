"""``solve_tree``, the one entry point: what ``auto`` runs, options routed or refused, node ids.

AIMA 4th ed. Figure 5.2 (``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``), worked by hand: the MIN
nodes are worth 3, 2 and 2, so MAX takes ``root.0`` for 3. Alpha-beta reads ``root.1.0`` = 2,
already no better than the 3 in hand, and never reads ``root.1.1`` and ``root.1.2``; ``root.1``
is then only known to be at most 2 (an upper bound).
"""

from __future__ import annotations

import doctest
from typing import Any

import pytest

import analysis.trees.solve
from analysis.trees.solve import ALGORITHMS, auto_algorithm, solve_tree
from games.errors import InvalidInputError
from games.trees.parser import parse_tree

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
# MAX over two fair coins: (3 + 5)/2 = 4 and (1 + 2)/2 = 3/2, so the value is 4.
# Star1 with leaves in [0, 5]: after root.1.0 = 1 the coin is worth at most
# 1/2 * 1 + 1/2 * 5 = 3 < 4, so root.1.1 is never read.
COINS = {
    "children": [{"kind": "chance", "children": [3, 5]}, {"kind": "chance", "children": [1, 2]}]
}
THREE_PLAYERS = {
    "player": 0,
    "children": [
        {"player": 1, "children": [{"value": [3, 1, 2]}, {"value": [4, 3, 0]}]},
        {"player": 1, "children": [{"value": [2, 5, 1]}, {"value": [6, 2, 1]}]},
    ],
}


def test_the_module_doctest_runs() -> None:
    failed, attempted = doctest.testmod(analysis.trees.solve)
    assert attempted > 0 and failed == 0


def test_alpha_beta_names_nodes_by_id_on_aima_figure_5_2() -> None:
    solution = solve_tree(parse_tree(AIMA), "alphabeta")
    assert solution.algorithm == "alphabeta"
    assert solution.value == 3
    assert solution.best_move == "root.0"
    assert solution.best_moves == ("root.0",)
    assert solution.principal_variation == ("root.0", "root.0.0")
    assert solution.pruned_leaves == ("root.1.1", "root.1.2")
    assert solution.pruned == ("root.1.1", "root.1.2")
    assert solution.bounds["root.1"] == "upper"
    assert solution.values["root.1"] == 2
    assert "root.1.1" not in solution.values
    assert solution.parameters == {"depth": None, "prune_on_equality": True, "trace": False}


def test_minimax_values_every_node_and_prunes_nothing() -> None:
    solution = solve_tree(parse_tree(AIMA), "minimax")
    assert solution.values == {
        "root": 3,
        "root.0": 3,
        "root.1": 2,
        "root.2": 2,
        "root.0.0": 3,
        "root.0.1": 12,
        "root.0.2": 8,
        "root.1.0": 2,
        "root.1.1": 4,
        "root.1.2": 6,
        "root.2.0": 14,
        "root.2.1": 5,
        "root.2.2": 2,
    }
    assert solution.pruned_leaves == () and solution.bounds == {}


def test_best_moves_lists_every_optimal_child() -> None:
    # MIN nodes worth 1, 1 and 0: MAX is indifferent between the first two
    solution = solve_tree(parse_tree([[1], [1], [0]]))
    assert solution.best_move == "root.0"
    assert solution.best_moves == ("root.0", "root.1")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(AIMA, "minimax"), (COINS, "expectimax"), (THREE_PLAYERS, "maxn")],
    ids=["numbers", "chance", "utility-tuples"],
)
def test_auto_picks_the_search_from_the_tree(raw: Any, expected: str) -> None:
    tree = parse_tree(raw)
    assert auto_algorithm(tree) == expected
    assert solve_tree(tree).algorithm == expected
    assert solve_tree(tree, "auto").algorithm == expected


def test_auto_values_match_the_hand_derivations() -> None:
    assert solve_tree(parse_tree(AIMA)).value == 3
    assert solve_tree(parse_tree(COINS)).value == 4
    # player 1 takes (4,3,0) over (3,1,2) and (2,5,1) over (6,2,1); player 0 takes 4 over 2
    assert solve_tree(parse_tree(THREE_PLAYERS)).value == (4, 3, 0)


def test_expectimax_with_bounds_runs_star1_with_the_same_value() -> None:
    tree = parse_tree(COINS)
    full = solve_tree(tree, "expectimax")
    pruning = solve_tree(tree, "expectimax", bounds=(0, 5))
    assert full.algorithm == "expectimax" and pruning.algorithm == "star1"
    assert full.value == pruning.value == 4
    assert full.pruned_leaves == ()
    assert pruning.pruned_leaves == ("root.1.1",)
    assert pruning.values["root.1"] == 3  # the bound 1/2 * 1 + 1/2 * 5, not the value 3/2
    assert pruning.parameters["bounds"] == (0, 5)


def test_star1_without_bounds_is_refused_naming_bounds() -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve_tree(parse_tree(COINS), "star1")
    assert caught.value.errors[0].parameter == "bounds"


@pytest.mark.parametrize(
    ("raw", "algorithm", "options", "parameter"),
    [
        (AIMA, "minimax", {"bounds": (0, 20)}, "bounds"),
        (AIMA, "alphabeta", {"max_sum": 10}, "max_sum"),
        (AIMA, "minimax", {"tie_break": "rightmost"}, "tie_break"),
        (AIMA, "minimax", {"move_ordering": True}, "move_ordering"),
        (THREE_PLAYERS, "maxn", {"move_ordering": True}, "move_ordering"),
        (AIMA, "alphabeta", {"paranoid": 0}, "paranoid"),
        (COINS, "auto", {"move_ordering": True}, "move_ordering"),
        (AIMA, "negamax", {}, "algorithm"),
        (THREE_PLAYERS, "maxn", {"paranoid": 3}, "paranoid"),
    ],
)
def test_options_a_search_would_ignore_are_refused_naming_the_parameter(
    raw: Any, algorithm: str, options: dict[str, Any], parameter: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve_tree(parse_tree(raw), algorithm, **options)
    assert caught.value.errors[0].parameter == parameter
    assert parameter in str(caught.value)


def test_every_algorithm_name_is_accepted_where_it_fits() -> None:
    trees = {"minimax": AIMA, "alphabeta": AIMA, "expectimax": COINS, "maxn": THREE_PLAYERS}
    for name in ALGORITHMS:
        raw = trees.get(name, COINS if name == "star1" else AIMA)
        options: dict[str, Any] = {"bounds": (0, 5)} if name == "star1" else {}
        assert solve_tree(parse_tree(raw), name, **options).algorithm != "auto"


def test_move_ordering_report_on_aima_figure_5_2() -> None:
    # best-first reaches Knuth and Moore's minimal tree 3^1 + 3^1 - 1 = 5 leaves;
    # worst-first reads all 9; the posted order reads 7
    report = solve_tree(parse_tree(AIMA), "alphabeta", move_ordering=True).move_ordering
    assert report is not None
    assert (report.given, report.best_first, report.worst_first) == (7, 5, 9)
    assert report.minimal_tree == 5


def test_paranoid_option_solves_the_reduction_beside_max_n() -> None:
    # the reduction for player 0 is worked in test_paranoid.py: value 3, root.1.1 pruned
    solution = solve_tree(parse_tree(THREE_PLAYERS), "maxn", paranoid=0)
    assert solution.value == (4, 3, 0)
    assert solution.parameters["paranoid"] == 0
    reduced = solution.paranoid
    assert reduced is not None
    assert reduced.algorithm == "alphabeta"
    assert (reduced.value, reduced.best_move, reduced.pruned_leaves) == (3, "root.0", ("root.1.1",))


def test_depth_cutoff_reaches_the_search() -> None:
    # at depth 1 the MIN nodes are scored by their evals, 5 and 7
    tree = parse_tree(
        {"children": [{"eval": 5, "children": [1, 2]}, {"eval": 7, "children": [8, 9]}]}
    )
    assert solve_tree(tree, depth=1).value == 7
    assert solve_tree(tree).value == 8
    assert solve_tree(tree, "alphabeta", depth=1).parameters["depth"] == 1
