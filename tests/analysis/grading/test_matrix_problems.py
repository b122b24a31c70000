"""Grading pure Nash equilibria of matrix problems (hand-checked games)."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.grading.matrix_problems import MatrixGrader
from analysis.grading.registry import make_grader
from games.errors import InvalidInputError

# Battle of the sexes: pure equilibria (Opera, Opera) and (Fight, Fight).
BATTLE = {
    "type": "matrix",
    "A": [[2, 0], [0, 1]],
    "B": [[1, 0], [0, 2]],
    "labels": [["Opera", "Fight"], ["Opera", "Fight"]],
}


@pytest.mark.parametrize(
    "listed",
    [[[0, 0], [1, 1]], [["Fight", "Fight"], ["Opera", "Opera"]], [[1, "Fight"], [0, 0]]],
)
def test_equilibria_in_any_order_and_form(listed: Any) -> None:
    grade = make_grader({**BATTLE, "questions": ["pure_equilibria"]}).grade(
        {"pure_equilibria": listed}
    )
    assert grade.score == grade.max_score == 2


def test_partial_credit_is_f1() -> None:
    grade = make_grader(BATTLE).grade({"pure_equilibria": [[0, 0]]})
    # one of two equilibria: 2 * 1 / (2 + 1) of 2 points
    assert grade.score == pytest.approx(4 / 3)
    assert grade.items[0].missing == ["(Fight, Fight)"]


def test_one_sided_best_response_diagnosed() -> None:
    # Row: R1 dominates R2 (1 > 0, 3 > 2). Column against R1: C1 (1 > 0). Only (R1, C1).
    # At (R1, C2) the row player best-responds but the column player (player 1) does not.
    game = {"type": "matrix", "A": [[1, 3], [0, 2]], "B": [[1, 0], [0, 2]]}
    grade = make_grader(game).grade({"pure_equilibria": [[0, 0], [0, 1]]})
    assert grade.items[0].extra == ["(R1, C2)"]
    (diagnosis,) = grade.diagnosis
    assert diagnosis.code == "one_sided_best_response"
    assert "player 1 gains by deviating" in diagnosis.message


@pytest.mark.parametrize(
    ("answer", "pointer"),
    [
        ({"pure_equilibria": [[0, 2]]}, "/answer/pure_equilibria/0/1"),
        ({"pure_equilibria": [["Ballet", 0]]}, "/answer/pure_equilibria/0/0"),
        ({"pure_equilibria": [[0]]}, "/answer/pure_equilibria/0"),
        ({"equilibria": [[1, 0]]}, "/answer/equilibria/0"),
        ({"mixed": []}, "/answer/mixed"),
    ],
)
def test_malformed_matrix_answers(answer: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        make_grader(BATTLE).grade(answer)
    assert error.value.errors[0].pointer == pointer


def test_matrix_grader_directly() -> None:
    # battle of the sexes: (Opera, Opera) and (Fight, Fight); one of two listed, none
    # extra: 2 * 1 / 3 of 2 points
    game = {k: v for k, v in BATTLE.items() if k != "type"}
    grader = MatrixGrader(game, None, ["pure_equilibria"])
    (item,) = grader.grade({"pure_equilibria": [["Opera", "Opera"]]}).items
    assert item.score == 2 * 2 / 3
    assert (item.expected, item.expected_exact) == ([[0, 0], [1, 1]], None)
    assert item.missing == ["(Fight, Fight)"]
