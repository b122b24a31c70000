"""Grading lottery answers. [1000 w.p. 1/2, 0 w.p. 1/2] with U = sqrt(x), by hand:
EMV 500, E[U] = sqrt(1000)/2 = 5 sqrt(10) = 15.811..., CE = 15.811...^2 = 250,
risk premium 500 - 250 = 250, risk averse (concave U)."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.lottery_problems import LotteryGrader
from analysis.grading.registry import make_grader
from games.errors import InvalidInputError

SQRT = {
    "type": "lottery",
    "lottery": [{"p": "1/2", "x": 1000}, {"p": 0.5, "x": 0}],
    "utility": "sqrt(x)",
}
# [2 w.p. 1/2, 0 w.p. 1/2], U = log(x + 1): E[U] = log(3)/2, CE = sqrt(3) - 1 = 0.73205...
LOG = {
    "type": "lottery",
    "lottery": [{"p": "1/2", "x": 2}, {"p": "1/2", "x": 0}],
    "utility": "log(x+1)",
}


def test_full_marks() -> None:
    answer = {
        "emv": 500,
        "expected_utility": 15.81,
        "certainty_equivalent": "250",
        "risk_premium": 250.0,
        "attitude": "risk_averse",
    }
    grade = make_grader(SQRT).grade(answer)
    assert grade.score == grade.max_score == 5
    assert grade.diagnosis == []


@pytest.mark.parametrize(
    ("written", "right"),
    [("0.732", True), (0.73, True), ("0.7", True), ("0.74", False), (1, False), ("0.7321", True)],
)
def test_irrational_values_accepted_when_correctly_rounded(written: Any, right: bool) -> None:
    grade = make_grader({**LOG, "questions": ["certainty_equivalent"]}).grade(
        {"certainty_equivalent": written}
    )
    assert grade.items[0].correct is right


def test_integers_must_be_exact() -> None:
    assert make_grader(SQRT).grade({"expected_utility": 16}).score == 0


def test_tolerance_rubric() -> None:
    from analysis.grading.rubric import parse_rubric

    rubric = parse_rubric({"tolerance": {"mode": "absolute", "amount": 1}})
    assert make_grader(SQRT).grade({"expected_utility": 16}, rubric).score == 1


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        ({"certainty_equivalent": 500}, "emv_as_certainty_equivalent"),
        ({"certainty_equivalent": "15.81"}, "utility_not_inverted"),
        ({"risk_premium": -250}, "risk_premium_sign"),
    ],
)
def test_lottery_mistakes_diagnosed(answer: Any, code: str) -> None:
    grade = make_grader(SQRT).grade(answer)
    assert grade.score == 0
    assert [d.code for d in grade.diagnosis] == [code]


@pytest.mark.parametrize(
    ("answer", "pointer"),
    [
        ({"attitude": "averse"}, "/answer/attitude"),
        ({"emv": [500]}, "/answer/emv"),
        ({"ce": 250}, "/answer/ce"),
    ],
)
def test_malformed_lottery_answers(answer: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        make_grader(SQRT).grade(answer)
    assert error.value.errors[0].pointer == pointer


def test_bad_problem_points_into_problem() -> None:
    with pytest.raises(InvalidInputError) as error:
        make_grader({**SQRT, "lottery": [{"p": 2, "x": 1}]}).grade({})
    assert error.value.errors[0].pointer.startswith("/problem/lottery")


def test_lottery_grader_writes_exact_values_beside_numbers() -> None:
    # [1 w.p. 1/3, 0 w.p. 2/3] with the default linear utility: EMV = CE = 1/3
    grader = LotteryGrader(
        {
            "type": "lottery",
            "lottery": [{"p": "1/3", "x": 1}, {"p": "2/3", "x": 0}],
            "questions": ["emv", "certainty_equivalent"],
        }
    )
    emv, ce = grader.grade({"emv": "1/3", "certainty_equivalent": 0.3}).items
    assert emv.correct and (emv.expected, emv.expected_exact) == (1 / 3, "1/3")
    # 0.3 is 1/3 correctly rounded to the one decimal written: |0.3 - 1/3| <= 0.05
    assert ce.correct
    # sqrt(3) - 1 is irrational: a JSON number only
    (log_ce,) = (
        LotteryGrader({**LOG, "questions": ["certainty_equivalent"]})
        .grade({"certainty_equivalent": 0.732})
        .items
    )
    assert log_ce.correct and log_ce.expected_exact is None
    assert log_ce.expected == pytest.approx(3**0.5 - 1)
