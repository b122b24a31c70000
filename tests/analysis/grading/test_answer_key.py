"""Answer keys of tree problems, derived by hand.

AIMA Fig. 5.2 ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``: minimax values root.0 3, root.1 2,
root.2 2, root 3 via root.0; alpha-beta (left to right, pruning on equality) prunes
root.1.1 and root.1.2 after root.1.0 = 2 <= alpha = 3.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.grading.answer_key import correct_key, leaves_under, parse_problem
from games.errors import InvalidInputError

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def names(problem_ids: list[str], indices: list[int] | None) -> list[str]:
    return [problem_ids[i] for i in indices or []]


def test_alpha_beta_key() -> None:
    problem = parse_problem({"type": "alphabeta", "tree": AIMA})
    key, traced = correct_key(problem)
    ids = problem.tree.ids
    assert key.value == 3 and ids[key.best_move] == "root.0"
    assert {ids[n]: v for n, v in key.nodes.items()} == {
        "root": 3,
        "root.0": 3,
        "root.1": 2,
        "root.2": 2,
    }
    assert names(ids, key.pruned_leaves) == ["root.1.1", "root.1.2"]
    assert names(ids, key.evaluated_leaves) == [
        "root.0.0",
        "root.0.1",
        "root.0.2",
        "root.1.0",
        "root.2.0",
        "root.2.1",
        "root.2.2",
    ]
    assert names(ids, key.principal_variation) == ["root.0", "root.0.0"]
    assert traced is not None and traced.trace is not None  # for the diagnosis


def test_minimax_key_has_no_search_fields() -> None:
    problem = parse_problem({"type": "minimax", "tree": AIMA, "root": "min"})
    key, traced = correct_key(problem)
    # MIN root over MAX nodes 12, 6, 14: 6 via root.1
    assert key.value == 6 and problem.tree.ids[key.best_move] == "root.1"
    assert key.pruned_leaves is None and key.evaluated_leaves is None and traced is None


def test_expectimax_key_is_exact() -> None:
    tree = {
        "children": [
            {"kind": "chance", "children": [{"p": "1/3", "value": 3}, {"p": "2/3", "value": 0}]},
            {"kind": "chance", "children": [{"p": "1/2", "value": 1}, {"p": "1/2", "value": 2}]},
        ]
    }
    problem = parse_problem({"type": "expectimax", "tree": tree})
    key, _ = correct_key(problem)
    # 1/3 * 3 = 1 against 1/2 * 1 + 1/2 * 2 = 3/2: the second chance node
    assert key.value == Fraction(3, 2) and problem.tree.ids[key.best_move] == "root.1"
    assert key.nodes[problem.tree.index_of("root.0")] == 1


def test_leaves_under() -> None:
    problem = parse_problem({"type": "minimax", "tree": AIMA})
    tree = problem.tree
    tops = [tree.index_of("root.1"), tree.index_of("root.2.0")]
    found = leaves_under(tree, tops, tree.children)
    assert names(tree.ids, found) == ["root.1.0", "root.1.1", "root.1.2", "root.2.0"]


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ({"type": "chess", "tree": AIMA}, "/problem/type"),
        ({"type": "minimax"}, "/problem/tree"),
        ({"type": "minimax", "tree": AIMA, "colour": 1}, "/problem/colour"),
    ],
)
def test_malformed_problems_point_at_the_field(raw: object, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        parse_problem(raw)
    assert error.value.errors[0].pointer == pointer
