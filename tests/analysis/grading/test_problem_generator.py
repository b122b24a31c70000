"""The problem generator: the same settings draw the same tree, and it meets them."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.problem_generator import ProblemSettings, generate_problem
from games.errors import InvalidInputError
from tests.reference import alpha_beta_leaves, leaf_names, minimax_value


def test_generator_is_deterministic_and_meets_constraints() -> None:
    settings = ProblemSettings(
        depth=3, branching=(2, 3), seed=5, min_pruned_leaves=4, no_ties=True, unique_best_move=True
    )
    first, again = generate_problem(settings), generate_problem(settings)
    assert first == again
    tree = first.problem["tree"]
    _, evaluated = alpha_beta_leaves(tree, True)
    assert len(leaf_names(tree)) - len(evaluated) >= 4

    def distinct(node: Any, maximizing: bool) -> bool:
        if not isinstance(node, list):
            return True
        values = [minimax_value(kid, not maximizing) for kid in node]
        return len(set(values)) == len(values) and all(
            distinct(kid, not maximizing) for kid in node
        )

    assert distinct(tree, True)


def test_minimax_problem_and_its_key() -> None:
    # depth 1 with one value: every leaf is 4, so the root is 4 whatever the draw
    made = generate_problem(ProblemSettings(type="minimax", depth=1, values=(4, 4), seed=1))
    assert made.problem["type"] == "minimax"
    assert made.answer["value"] == 4
    assert made.attempts == 1


def test_impossible_settings_refused_before_drawing() -> None:
    # a minimax problem prunes nothing, so asking for pruned leaves can never be met
    with pytest.raises(InvalidInputError) as error:
        generate_problem(ProblemSettings(type="minimax", min_pruned_leaves=1))
    assert error.value.errors[0].parameter == "min_pruned_leaves"
