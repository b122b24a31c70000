"""Allais-style problems: choosing B and D (or A and C) is consistent with expected utility,
mixing them is not (Allais, 1953); the witness explains the consistent choices."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.consistency_generator import HUNDREDTHS
from analysis.grading.generator_settings import ProblemSettings
from analysis.grading.problem_generator import generate_problem
from tests.analysis.grading.full_marks import assert_full_marks


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), consistent=st.booleans())
def test_allais_key(seed: int, consistent: bool) -> None:
    made = generate_problem(
        ProblemSettings(type="eu-consistency", seed=seed, consistent=consistent)
    )
    problem, answer = made.problem, made.answer
    preferred = {left if relation == ">" else right for left, relation, right in problem["choices"]}
    assert (preferred in ({"B", "D"}, {"A", "C"})) == consistent == answer["consistent"]
    for lottery in problem["lotteries"].values():
        assert all((Fraction(b["p"]) * HUNDREDTHS).denominator == 1 for b in lottery)
    if consistent:
        utility = {Fraction(x): Fraction(u) for x, u in answer["witness"].items()}
        assert sorted(utility.values()) == [utility[x] for x in sorted(utility)]  # increasing

        def eu(name: str) -> Fraction:
            branches = problem["lotteries"][name]
            return sum(
                (Fraction(b["p"]) * utility[Fraction(b["x"])] for b in branches), Fraction(0)
            )

        for left, _, right in problem["choices"]:
            assert eu(left) > eu(right)
    else:
        assert answer["witness"] is None
    assert_full_marks(made)
