"""Grading preference answers, against relations derived by hand.

CYCLE: A > B, B > C, C > A. Every pair is ranked (orderability holds), the strict
cycle breaks transitivity, no lottery is named so the other axioms hold vacuously,
and no utility has u(A) > u(B) > u(C) > u(A).

FAIR: A > B > C and B ~ L = [1/2, A; 1/2, C]. Every axiom holds; a utility fits exactly
when u(A) > u(B) > u(C) and u(B) = (u(A) + u(C)) / 2, e.g. (10, 6, 2) or (1, 1/2, 0).
"""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.preference_problems import PreferenceGrader
from analysis.grading.registry import make_grader
from analysis.grading.rubric import parse_rubric
from games.errors import InvalidInputError

CYCLE = {
    "type": "preferences",
    "prizes": ["A", "B", "C"],
    "preferences": [["A", ">", "B"], ["B", ">", "C"], ["C", ">", "A"]],
}
FAIR = {
    "type": "preferences",
    "prizes": ["A", "B", "C"],
    "lotteries": {"L": [{"p": "1/2", "x": "A"}, {"p": "1/2", "x": "C"}]},
    "preferences": [["A", ">", "B"], ["B", ">", "C"], ["B", "~", "L"]],
}
ALL_HOLD = {
    "orderability": True,
    "transitivity": True,
    "continuity": True,
    "substitutability": True,
    "monotonicity": True,
    "decomposability": True,
}


def asking(problem: dict[str, Any], *fields: str) -> dict[str, Any]:
    """``problem`` asking only ``fields``."""
    return {**problem, "questions": list(fields)}


def test_cycle_full_marks() -> None:
    answer = {"axioms": {**ALL_HOLD, "transitivity": {"holds": False}}, "utility": None}
    grade = make_grader(CYCLE).grade(answer)
    assert grade.score == grade.max_score == 8


def test_cycle_transitivity_wrong_names_the_cycle() -> None:
    grade = make_grader(asking(CYCLE, "axioms")).grade({"axioms": ALL_HOLD})
    (item,) = grade.items
    assert item.score == 5  # 5 of 6 axioms right, 1 point each
    assert item.wrong == ["transitivity"]
    assert "transitivity fails: the cycle A > B > C > A" in item.feedback


def test_per_axiom_credit_counts_unanswered_axioms() -> None:
    grade = make_grader(CYCLE).grade({"axioms": {"transitivity": False, "orderability": True}})
    assert grade.score == 2
    assert grade.items[0].missing == [
        "continuity",
        "substitutability",
        "monotonicity",
        "decomposability",
    ]


def test_cycle_has_no_utility() -> None:
    grade = make_grader(asking(CYCLE, "utility")).grade({"utility": {"A": 3, "B": 2, "C": 1}})
    (item,) = grade.items
    # A > B and B > C are reproduced, C > A is not
    assert item.score == pytest.approx(2 * 2 / 3)
    assert item.wrong == ["2"]
    assert "C > A" in item.feedback


@pytest.mark.parametrize(
    "utility",
    [{"A": 10, "B": 6, "C": 2}, {"A": 1, "B": "1/2", "C": 0}, {"A": -1, "B": -2.5, "C": -4}],
)
def test_any_representing_utility_accepted(utility: dict[str, Any]) -> None:
    grade = make_grader(FAIR).grade({"utility": utility, "axioms": ALL_HOLD})
    assert grade.score == grade.max_score == 8


def test_utility_breaking_the_indifference() -> None:
    grade = make_grader(asking(FAIR, "utility")).grade({"utility": {"A": 3, "B": 2, "C": 0}})
    (item,) = grade.items
    assert item.score == pytest.approx(4 / 3)
    assert item.wrong == ["2"]
    assert "EU(B) = 2 and EU(L) = 3/2" in item.feedback


def test_null_utility_when_one_exists_scores_zero() -> None:
    grade = make_grader(asking(FAIR, "utility")).grade({"utility": None})
    assert grade.score == 0
    assert grade.items[0].expected == {"A": 1, "B": 0.5, "C": 0}
    assert grade.items[0].expected_exact == {"A": "1", "B": "1/2", "C": "0"}


def test_missing_prize_costs() -> None:
    grade = make_grader(asking(FAIR, "utility")).grade({"utility": {"A": 10, "B": 6}})
    assert grade.items[0].missing == ["C"]
    assert grade.items[0].score == pytest.approx(2 / 3)  # only A > B can be checked


def test_required_axioms_scored_when_absent() -> None:
    grade = make_grader(FAIR).grade({}, parse_rubric({"points": {"axioms": 6}}))
    # the problem asks both fields: axioms 6 points, utility 2
    assert (grade.score, grade.max_score) == (0, 8)
    assert [item.feedback for item in grade.items] == ["not answered", "not answered"]


@pytest.mark.parametrize(
    ("problem", "answer", "pointer"),
    [
        (CYCLE, {"axioms": {"fairness": True}}, "/answer/axioms/fairness"),
        (CYCLE, {"axioms": {"transitivity": {"holds": "no"}}}, "/answer/axioms/transitivity/holds"),
        (CYCLE, {"axioms": {"transitivity": 0}}, "/answer/axioms/transitivity"),
        (CYCLE, {"utility": {"Z": 1}}, "/answer/utility/Z"),
        (CYCLE, {"utility": {"A": "x"}}, "/answer/utility/A"),
        (CYCLE, {"utility": [1, 2, 3]}, "/answer/utility"),
        (CYCLE, {"value": 1}, "/answer/value"),
        ({**CYCLE, "preferences": [["A", ">", "Q"]]}, {}, "/problem/preferences/0/2"),
    ],
)
def test_malformed_with_pointer(problem: dict[str, Any], answer: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        make_grader(problem).grade(answer)
    assert caught.value.errors[0].pointer == pointer


def test_preference_grader_directly() -> None:
    # A > B > C > A: no expected utility reproduces a strict cycle, so null is right
    (item,) = PreferenceGrader(asking(CYCLE, "utility")).grade({"utility": None}).items
    assert (item.score, item.expected) == (2, None)
    assert item.feedback == "correct: no expected utility reproduces these statements"
