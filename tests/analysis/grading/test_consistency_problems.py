"""Grading EU-consistency answers on AIMA's Allais setup (4th ed., 16.3.4).

A = [0.8, $4000; 0.2, $0], B = [1.0, $3000], C = [0.2, $4000; 0.8, $0],
D = [0.25, $3000; 0.75, $0]. With u(0) = 0: B > A means u(3000) > 0.8 u(4000), and
C > D means 0.2 u(4000) > 0.25 u(3000), i.e. 0.8 u(4000) > u(3000): no utility does
both. B > A with D > C asks u(3000) > 0.8 u(4000) twice: u = (0, 1, 1) for
($0, $3000, $4000) works (EU(B) = 1 > EU(A) = 4/5, EU(D) = 1/4 > EU(C) = 1/5).
"""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.consistency_problems import ConsistencyGrader
from analysis.grading.registry import make_grader
from analysis.grading.rubric import parse_rubric
from games.errors import InvalidInputError

LOTTERIES = {
    "A": [{"p": "0.8", "x": 4000}, {"p": "0.2", "x": 0}],
    "B": [{"p": 1, "x": 3000}],
    "C": [{"p": "0.2", "x": 4000}, {"p": "0.8", "x": 0}],
    "D": [{"p": "0.25", "x": 3000}, {"p": "0.75", "x": 0}],
}
ALLAIS = {
    "type": "eu-consistency",
    "lotteries": LOTTERIES,
    "choices": [["B", ">", "A"], ["C", ">", "D"]],
}
COHERENT = {**ALLAIS, "choices": [["B", ">", "A"], ["D", ">", "C"]]}
WITNESS = {**COHERENT, "questions": ["witness"]}


def test_allais_inconsistent_full_marks() -> None:
    grade = make_grader(ALLAIS).grade({"consistent": False, "witness": None})
    assert grade.score == grade.max_score == 3
    assert grade.diagnosis == []


def test_allais_called_consistent_is_diagnosed() -> None:
    grade = make_grader(ALLAIS).grade({"consistent": True})
    assert grade.score == 0
    (found,) = grade.diagnosis
    assert found.code == "missed_eu_violation"
    assert "Allais" in found.message and "U(" in found.message


@pytest.mark.parametrize(
    "witness",
    [
        {"0": 0, "3000": 1, "4000": 1},
        {"0": 0, "3000": "9/10", "4000": 1},
        {"0": 5, "3000": 100, "4000": 110},  # u(3000) - 5 = 95 > 0.8 * 105 = 84
    ],
)
def test_any_witness_that_explains_the_choices(witness: dict[str, Any]) -> None:
    grade = make_grader(COHERENT).grade({"consistent": True, "witness": witness})
    assert grade.score == grade.max_score == 3


def test_witness_breaking_a_choice() -> None:
    # u = (0, 1/2, 1): EU(B) = 1/2 < EU(A) = 4/5, EU(D) = 1/8 < EU(C) = 1/5
    grade = make_grader(WITNESS).grade({"witness": {"0": 0, "3000": "1/2", "4000": 1}})
    (item,) = grade.items
    assert item.score == 0
    assert item.wrong == ["0", "1"]
    assert "EU(B) = 1/2 and EU(A) = 4/5" in item.feedback


def test_witness_with_one_choice_right_gets_half() -> None:
    # u = (0, 1, 5/4): EU(B) = 1 = EU(A) = 4/5 * 5/4 meets B >= A, and
    # EU(D) = 1/4 = EU(C) = 1/5 * 5/4 breaks the strict D > C
    problem = {**WITNESS, "choices": [["B", ">=", "A"], ["D", ">", "C"]]}
    grade = make_grader(problem).grade({"witness": {"0": 0, "3000": 1, "4000": "5/4"}})
    assert grade.items[0].score == 1
    assert grade.items[0].wrong == ["1"]


def test_coherent_called_inconsistent() -> None:
    grade = make_grader(COHERENT).grade({"consistent": False, "witness": None})
    assert grade.score == 0
    assert [d.code for d in grade.diagnosis] == ["spurious_eu_violation"]


def test_increasing_witness_required() -> None:
    problem = {**WITNESS, "increasing": True}
    grade = make_grader(problem).grade({"witness": {"0": 0, "3000": 1, "4000": 1}})
    # both choices hold, but u(3000) = u(4000) is not increasing: 2 of 3 constraints
    assert grade.items[0].score == pytest.approx(2 * 2 / 3)
    assert "increase" in grade.items[0].feedback


def test_required_fields_scored_when_absent() -> None:
    grade = make_grader(ALLAIS).grade({}, parse_rubric({"points": {"consistent": 1}}))
    # the problem asks both fields: consistent 1 point, witness 2
    assert (grade.score, grade.max_score) == (0, 3)
    assert [item.feedback for item in grade.items] == ["not answered", "not answered"]


@pytest.mark.parametrize(
    ("problem", "answer", "pointer"),
    [
        (ALLAIS, {"consistent": "no"}, "/answer/consistent"),
        (ALLAIS, {"witness": {"5": 1}}, "/answer/witness/5"),
        (ALLAIS, {"witness": {"dollars": 1}}, "/answer/witness/dollars"),
        (ALLAIS, {"witness": {"0": [1]}}, "/answer/witness/0"),
        (ALLAIS, {"witness": [0, 1]}, "/answer/witness"),
        (ALLAIS, {"verdict": True}, "/answer/verdict"),
        ({**ALLAIS, "choices": [["B", ">", "E"]]}, {}, "/problem/choices/0/2"),
        ({**ALLAIS, "lotteries": {"A": [{"p": 2, "x": 1}]}}, {}, "/problem/lotteries/A"),
    ],
)
def test_malformed_with_pointer(problem: dict[str, Any], answer: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        make_grader(problem).grade(answer)
    assert caught.value.errors[0].pointer.startswith(pointer)


def test_consistency_grader_directly() -> None:
    # u = (0, 1, 1): EU(B) = 1 > EU(A) = 4/5 and EU(D) = 1/4 > EU(C) = 1/5
    grader = ConsistencyGrader(WITNESS)
    (item,) = grader.grade({"witness": {"0": 0, "3000": 1, "4000": 1}}).items
    assert (item.score, item.max_score, item.wrong) == (2, 2, [])
    # both choices ask u(3000) > 0.8 u(4000): u = (0, 1, 2) breaks both (EU(A) = 8/5 > 1,
    # EU(C) = 2/5 > 1/4), so neither is met
    (item,) = grader.grade({"witness": {"0": 0, "3000": 1, "4000": 2}}).items
    assert (item.score, item.wrong) == (0, ["0", "1"])
