"""The problem generator: the same settings draw the same tree, and it meets them."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.problem_generator import ProblemSettings, generate_problem
from games.errors import InvalidInputError
from tests.analysis.grading.full_marks import assert_full_marks
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


KINDS = [
    ProblemSettings(type=name)
    for name in ("minimax", "alphabeta", "expectimax", "maxn", "lottery", "preferences")
] + [
    ProblemSettings(type="eu-consistency"),
    *[ProblemSettings(type="matrix", matrix=kind) for kind in ("pure", "mixed", "dominance")],
]


@settings(max_examples=25, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    seed=st.integers(0, 2**63 - 1),
    student=st.none() | st.text(min_size=1, max_size=12),
)
def test_same_seed_same_problem_and_full_marks(
    kind: ProblemSettings, seed: int, student: str | None
) -> None:
    chosen = dataclasses.replace(kind, seed=seed, student=student)
    first, again = generate_problem(chosen), generate_problem(chosen)
    assert first == again  # figure bytes included
    assert (first.seed, first.student) == (seed, student)
    assert_full_marks(first)


def test_without_a_seed_each_call_draws_its_own() -> None:
    made = [generate_problem(ProblemSettings(type="minimax", depth=4)) for _ in range(4)]
    assert len({m.seed for m in made}) == 4
    again = generate_problem(ProblemSettings(type="minimax", depth=4, seed=made[0].seed))
    assert again == made[0]


def test_grading_needs_no_figure() -> None:
    chosen = ProblemSettings(type="lottery", seed=9)
    drawn, bare = generate_problem(chosen), generate_problem(chosen, figure=False)
    assert bare.figure is None and drawn.figure is not None
    assert (bare.problem, bare.answer) == (drawn.problem, drawn.answer)


@pytest.mark.parametrize(
    ("changes", "parameter"),
    [
        ({"type": "poker"}, "type"),
        ({"seed": -1}, "seed"),
        ({"student": ""}, "student"),
        ({"matrix": "zero-sum", "type": "matrix"}, "matrix"),
        ({"utility": "log", "type": "lottery"}, "utility"),
        ({"type": "lottery", "min_pruned_leaves": 1}, "min_pruned_leaves"),
        ({"root": "chance"}, "root"),
        ({"type": "maxn", "players": 1}, "players"),
    ],
)
def test_settings_out_of_range_name_their_parameter(
    changes: dict[str, Any], parameter: str
) -> None:
    with pytest.raises(InvalidInputError) as error:
        generate_problem(dataclasses.replace(ProblemSettings(), **changes))
    assert error.value.errors[0].parameter == parameter
