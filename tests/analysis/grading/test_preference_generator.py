"""Preference problems: a consistent draw's utility reproduces every statement and every
axiom holds; an inconsistent one has a cycle through a strict preference."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.generator_settings import ProblemSettings
from analysis.grading.preference_generator import LOTTERY_NAMES
from analysis.grading.problem_generator import generate_problem
from tests.analysis.grading.full_marks import assert_full_marks


def _worth(name: str, problem: dict[str, Any], utility: dict[str, int]) -> Fraction:
    if name in utility:
        return Fraction(utility[name])
    return sum(
        (Fraction(b["p"]) * utility[b["x"]] for b in problem["lotteries"][name]), Fraction(0)
    )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), consistent=st.booleans())
def test_preference_key(seed: int, consistent: bool) -> None:
    made = generate_problem(ProblemSettings(type="preferences", seed=seed, consistent=consistent))
    problem, answer = made.problem, made.answer
    assert set(problem["lotteries"]) == set(LOTTERY_NAMES)
    if consistent:
        utility = answer["utility"]
        for left, relation, right in problem["preferences"]:
            a, b = _worth(left, problem, utility), _worth(right, problem, utility)
            assert a > b if relation == ">" else a == b
        assert all(answer["axioms"].values())
    else:
        assert answer["utility"] is None
        assert answer["axioms"]["transitivity"] is False
    assert_full_marks(made)
