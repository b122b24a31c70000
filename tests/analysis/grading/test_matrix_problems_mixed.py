"""Grading mixed equilibria of matrix problems.

Battle of the sexes, A = [[2, 0], [0, 1]], B = [[1, 0], [0, 2]], by hand: besides the
pure (Opera, Opera) and (Fight, Fight), the row player mixes x = (2/3, 1/3) so that
the column player is indifferent (1 * x0 = 2 * x1), and the column player mixes
y = (1/3, 2/3) so that the row player is indifferent (2 * y0 = 1 * y1). Mixing to make
oneself indifferent instead gives row (1/3, 2/3), col (2/3, 1/3).
"""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.registry import grade_batch, make_grader
from analysis.grading.rubric import Rubric, parse_rubric
from games.errors import InvalidInputError, LimitExceededError

BATTLE = {"type": "matrix", "A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}
MIXED = {"row": ["2/3", "1/3"], "col": ["1/3", "2/3"]}
OPERA = {"row": [1, 0], "col": [1, 0]}
FIGHT = {"row": [0, 1], "col": [0, 1]}
ASK_MIXED = {**BATTLE, "questions": ["equilibria"]}


def test_expected_equilibria() -> None:
    (item,) = make_grader(ASK_MIXED).grade({"equilibria": []}).items
    # numbers are JSON numbers; the exact probabilities are beside them
    assert item.expected == [
        {"row": [0, 1], "col": [0, 1]},
        {"row": [2 / 3, 1 / 3], "col": [1 / 3, 2 / 3]},
        {"row": [1, 0], "col": [1, 0]},
    ]
    assert item.expected_exact == [
        {"row": ["0", "1"], "col": ["0", "1"]},
        {"row": ["2/3", "1/3"], "col": ["1/3", "2/3"]},
        {"row": ["1", "0"], "col": ["1", "0"]},
    ]


@pytest.mark.parametrize(
    "listed",
    [
        [MIXED, OPERA, FIGHT],
        [FIGHT, OPERA, {"row": ["4/6", "1/3"], "col": ["2/6", "2/3"]}],
        [OPERA, {"row": [1, 0.0], "col": ["1", 0]}, FIGHT, MIXED],  # repeats count once
    ],
)
def test_any_order_and_exact_form(listed: Any) -> None:
    grade = make_grader(ASK_MIXED).grade({"equilibria": listed})
    assert grade.score == grade.max_score == 2


def test_partial_credit_is_f1() -> None:
    grade = make_grader(ASK_MIXED).grade({"equilibria": [MIXED]})
    # one of three: 2 * 1 / (3 + 1) of 2 points
    assert grade.score == pytest.approx(1)
    assert grade.items[0].missing == ["row (0, 1), col (0, 1)", "row (1, 0), col (1, 0)"]


def test_decimals_need_a_tolerance() -> None:
    rounded = [{"row": [0.667, 0.333], "col": [0.333, 0.667]}]
    exact = make_grader(ASK_MIXED).grade({"equilibria": rounded})
    assert exact.score == 0
    assert exact.items[0].extra == ["row (667/1000, 333/1000), col (333/1000, 667/1000)"]
    loose = parse_rubric({"tolerance": {"mode": "absolute", "amount": 0.001}})
    assert make_grader(ASK_MIXED).grade({"equilibria": rounded}, loose).score == 1


def test_own_indifference_diagnosed() -> None:
    swapped = {"row": ["1/3", "2/3"], "col": ["2/3", "1/3"]}
    grade = make_grader(ASK_MIXED).grade({"equilibria": [OPERA, FIGHT, swapped]})
    # 2 of 3 right, 1 extra: 2 * 2 / (3 + 3) of 2 points
    assert grade.score == pytest.approx(4 / 3)
    assert [d.code for d in grade.diagnosis] == ["own_indifference"]


def test_matching_pennies_unique_mixed() -> None:
    pennies = {"type": "matrix", "A": [[1, -1], [-1, 1]], "B": [[-1, 1], [1, -1]]}
    half = {"row": ["1/2", "1/2"], "col": [0.5, 0.5]}
    assert make_grader(pennies).grade({"equilibria": [half]}).score == 2


@pytest.mark.parametrize(
    ("answer", "pointer"),
    [
        ({"equilibria": {"row": [1, 0]}}, "/answer/equilibria"),
        ({"equilibria": [[1, 0]]}, "/answer/equilibria/0"),
        ({"equilibria": [{"row": [1, 0]}]}, "/answer/equilibria/0"),
        ({"equilibria": [{"row": [1], "col": [1, 0]}]}, "/answer/equilibria/0/row"),
        ({"equilibria": [{"row": [1, 0], "col": [1, "x"]}]}, "/answer/equilibria/0/col/1"),
        ({"equilibria": [{"row": [2, -1], "col": [1, 0]}]}, "/answer/equilibria/0/row/0"),
    ],
)
def test_malformed_with_pointer(answer: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        make_grader(ASK_MIXED).grade(answer)
    assert caught.value.errors[0].pointer == pointer


def test_three_player_games_refused() -> None:
    game = {"type": "matrix", "payoffs": [[[[1, 1, 1], [0, 0, 0]], [[0, 0, 0], [1, 1, 1]]]] * 2}
    with pytest.raises(InvalidInputError) as caught:
        make_grader(game).grade({"equilibria": []})
    assert caught.value.errors[0].pointer == "/answer/equilibria"


def test_batch_keeps_problem_errors_fatal() -> None:
    # 16 strategies each: beyond full enumeration, a problem limit, not one student's fault
    big = {"type": "matrix", "A": [[0] * 16] * 16, "B": [[0] * 16] * 16}
    with pytest.raises(LimitExceededError) as caught:
        grade_batch(make_grader(big), {"ada": {"equilibria": []}}, Rubric())
    assert caught.value.errors[0].pointer.startswith("/problem")
    grades = grade_batch(make_grader(ASK_MIXED), {"ada": {"equilibria": 1}}, Rubric()).results
    # the field cannot be read: it scores 0 with its own error, the answer is still graded
    assert grades["ada"].error is None
    ((item,),) = [grades["ada"].items]
    assert item.error is not None and item.error.pointer == "/answers/ada/equilibria"
    assert [e.pointer for e in grades["ada"].errors] == ["/answers/ada/equilibria"]
