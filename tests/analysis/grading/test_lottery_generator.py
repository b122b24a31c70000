"""Lottery problems: EMV, expected utility, certainty equivalent and risk premium, worked out
by hand in exact arithmetic."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.generator_settings import ProblemSettings
from analysis.grading.lottery_generator import FORMULAS
from analysis.grading.problem_generator import generate_problem
from tests.analysis.grading.full_marks import assert_full_marks


def _root(value: Fraction) -> Fraction:
    """The exact square root of a square of a fraction."""
    top, bottom = math.isqrt(value.numerator), math.isqrt(value.denominator)
    assert Fraction(top, bottom) ** 2 == value
    return Fraction(top, bottom)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**40), utility=st.sampled_from(["sqrt", "square"]))
def test_lottery_key_by_hand(seed: int, utility: str) -> None:
    made = generate_problem(ProblemSettings(type="lottery", seed=seed, utility=utility))
    assert made.problem["utility"] == FORMULAS[utility]
    pairs = [(Fraction(b["p"]), Fraction(b["x"])) for b in made.problem["lottery"]]
    assert sum(p for p, _ in pairs) == 1
    emv = sum((p * x for p, x in pairs), Fraction(0))
    if utility == "sqrt":
        eu = sum((p * _root(x) for p, x in pairs), Fraction(0))
        ce, attitude = eu**2, "risk_averse"
    else:
        eu = sum((p * x * x for p, x in pairs), Fraction(0))
        ce, attitude = _root(eu), "risk_seeking"
    answer = made.answer
    assert [Fraction(answer[n]) for n in ("emv", "expected_utility")] == [emv, eu]
    assert Fraction(answer["certainty_equivalent"]) == ce
    assert Fraction(answer["risk_premium"]) == emv - ce
    assert answer["attitude"] == attitude
    assert made.figure is not None and "<svg" in made.figure
    assert_full_marks(made)


def test_square_utility_by_hand() -> None:
    made = generate_problem(ProblemSettings(type="lottery", seed=2, utility="square"))
    (win, prize), (lose, nothing) = [(b["p"], b["x"]) for b in made.problem["lottery"]]
    # [p, X; 1 - p, 0] under x^2: E[U] = p X^2, CE = sqrt(p) X, exact for p a square
    assert nothing == 0 and Fraction(win) + Fraction(lose) == 1
    assert Fraction(made.answer["certainty_equivalent"]) == _root(Fraction(win)) * prize
