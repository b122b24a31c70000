"""Grading answers on games with information sets: Kuhn poker's value and equilibrium
strategies (Kuhn 1950), graded by what a strategy guarantees, with exploitabilities derived
by hand; a general-sum profile graded by NashConv; feedback below full gives nothing away.

Kuhn poker: cards J < Q < K, ante 1, bet 1; player 1's value is -1/18. Player 2's
equilibrium strategy is unique: with J never call a bet and bet 1/3 after a check; with Q
call a bet 1/3 and never bet after a check; with K always call and always bet. Player 1's
equilibrium strategies form a family in alpha in [0, 1/3]: bet J with alpha, K with
3 alpha; check Q and call a bet with Q with alpha + 1/3; fold J to a bet, call with K.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest

from analysis.grading.class_report import grades_csv, gradescope_results, prairielearn_results
from analysis.grading.extensive_generator import (
    MAX_PROBABILITY_DENOMINATOR,
    MAX_VALUE_DENOMINATOR,
)
from analysis.grading.extensive_problems import ExtensiveGrader
from analysis.grading.feedback import FEEDBACK_LEVELS
from analysis.grading.json_output import grade_json
from analysis.grading.problem_generator import ProblemSettings, generate_problem
from analysis.grading.registry import grade_answer, grade_one, make_grader
from analysis.grading.results import Grade, GradedItem
from analysis.grading.rubric import parse_rubric
from games.errors import InvalidInputError
from games.extensive.efg import write_efg
from games.extensive.json_form import write_json_form
from games.extensive.poker import kuhn_poker
from tests.analysis.grading.full_marks import assert_full_marks

KUHN = write_json_form(kuhn_poker())
PROBLEM_2 = {"type": "extensive", "game": KUHN, "player": "Player 2"}
PROBLEM_1 = {"type": "extensive", "efg": write_efg(kuhn_poker())}

PLAYER_2 = {
    "J, check": {"check": "2/3", "bet": "1/3"},
    "J, bet": {"fold": 1, "call": 0},
    "Q, check": {"check": 1},
    "Q, bet": {"fold": "2/3", "call": "1/3"},
    "K, check": {"bet": 1},
    "K, bet": {"call": 1},
}


def player_1(alpha: str) -> dict[str, Any]:
    a = Fraction(alpha)
    strategy: dict[str, Any] = {
        "J": {"check": str(1 - a), "bet": str(a)},
        "J, check, bet": {"fold": 1},
        "Q": {"check": 1},
        "Q, check, bet": {"fold": str(1 - a - Fraction(1, 3)), "call": str(a + Fraction(1, 3))},
        "K": {"check": str(1 - 3 * a), "bet": str(3 * a)},
    }
    if a < Fraction(1, 3):
        # with alpha = 1/3 player 1 always bets a king: the set after check, bet is never
        # reached and may be left out
        strategy["K, check, bet"] = {"call": 1}
    return strategy


def field(grade: Grade, name: str) -> GradedItem:
    (found,) = [item for item in grade.items if item.field == name]
    return found


def test_the_value_exactly() -> None:
    grade = grade_answer(PROBLEM_2, {"value": "-1/18"})
    value = grade.items[0]
    assert value.correct and value.expected_exact == "-1/18"


def test_a_rounded_value_follows_the_tolerance() -> None:
    # -0.0555 is not -1/18 (-0.05555...): refused exactly, right within 0.001
    exact = grade_answer(PROBLEM_2, {"value": -0.0555})
    assert not exact.items[0].correct and exact.items[0].score == 0
    loose = grade_answer(
        PROBLEM_2, {"value": -0.0555}, {"tolerance": {"mode": "absolute", "amount": 0.001}}
    )
    assert loose.items[0].correct


def test_player_2_s_unique_equilibrium_strategy() -> None:
    grade = grade_answer(PROBLEM_2, {"value": "-1/18", "strategy": PLAYER_2})
    assert (grade.score, grade.max_score) == (3, 3)
    assert grade.diagnosis == []


@pytest.mark.parametrize("alpha", ["0", "1/3", "1/6"])
def test_player_1_s_family_of_equilibrium_strategies(alpha: str) -> None:
    grade = grade_answer(PROBLEM_1, {"strategy": player_1(alpha)})
    assert field(grade, "strategy").correct, field(grade, "strategy").feedback


def test_a_strategy_that_never_bluffs_is_exploited_by_a_ninth() -> None:
    # Player 2 never bets a jack after a check. Player 1's best response, card by card
    # (each opponent card 1/2): J: bet -> (Q calls 1/3: 1/3 * -2 + 2/3 * 1 = 0, K calls:
    # -2) = -1, check -> -1. Q: check -> (J checks: +1; K bets and Q folds: -1) = 0, bet ->
    # (+1, -2) = -1/2. K: bet -> (J folds: +1; Q: 1/3 * 2 + 2/3 * 1 = 4/3) = 7/6, check
    # -> +1. Player 1 gets (-1 + 0 + 7/6) / 3 = 1/18, so player 2 is held to -1/18
    # instead of +1/18: a gap of 1/9.
    # Uniform play by player 2 (1/2 everywhere): J bets (-1/2), Q bets (+1/2), K 3/2,
    # so player 1 gets 1/2 and the uniform gap is 1/18 + 1/2 = 5/9. Credit: half the
    # points times 1 - (1/9) / (5/9) = 4/5: 2/5 of 2 points.
    never = {**PLAYER_2, "J, check": {"check": 1}}
    grade = grade_answer(PROBLEM_2, {"strategy": never})
    item = field(grade, "strategy")
    assert not item.correct and item.score == pytest.approx(0.8)
    assert "holds Player 2 to -1/18, not the value 1/18" in item.feedback
    assert "gains 1/9" in item.feedback
    (found,) = grade.diagnosis
    assert found.code == "exploitable_strategy"
    # the best response folds a queen facing a bet, which equilibrium play calls
    assert "'Q, check, bet'" in found.message
    assert "1/9" not in found.hint and "1/18" not in found.hint


def test_sums_other_than_one_and_missing_sets_are_named() -> None:
    broken = {**PLAYER_2, "Q, bet": {"fold": "1/2", "call": "1/3"}}
    del broken["K, bet"]
    grade = grade_answer(PROBLEM_2, {"strategy": broken})
    item = field(grade, "strategy")
    assert not item.correct
    assert item.wrong == ["Q, bet"] and item.missing == ["K, bet"]
    codes = [d.code for d in grade.diagnosis]
    assert codes[:2] == ["not_a_distribution", "missing_infoset"]
    assert "'Q, bet' (5/6)" in grade.diagnosis[0].hint
    # repaired (Q calls 2/5, K calls 1/2) it is still exploitable: at most half the points
    assert 0 <= item.score < 1


def test_a_set_the_strategy_never_reaches_may_be_left_out() -> None:
    strategy = player_1("1/3")
    assert "K, check, bet" not in strategy
    item = field(grade_answer(PROBLEM_1, {"strategy": strategy}), "strategy")
    assert item.correct and item.missing == []


@pytest.mark.parametrize(
    ("strategy", "pointer"),
    [
        ({"A": {"bet": 1}}, "/answer/strategy/A"),
        ({"J": {"raise": 1}}, "/answer/strategy/J/raise"),
        ({"J": {"bet": "3/2"}}, "/answer/strategy/J/bet"),
        ({"J": [1]}, "/answer/strategy/J"),
        ([1, 0], "/answer/strategy"),
    ],
)
def test_unreadable_strategies_name_the_entry(strategy: Any, pointer: str) -> None:
    grade = grade_answer(PROBLEM_1, {"value": "-1/18", "strategy": strategy})
    assert grade.score == 1  # the value is graded all the same
    assert [e.pointer for e in grade.errors] == [pointer]


def test_an_unanswered_template_scores_nothing() -> None:
    template = {"value": None, "strategy": dict.fromkeys(PLAYER_2)}
    grade = grade_answer(PROBLEM_2, template)
    assert grade.score == 0 and grade.errors == []


def test_the_other_player_s_value_is_named() -> None:
    grade = grade_answer(PROBLEM_2, {"value": "1/18"})
    assert [d.code for d in grade.diagnosis] == ["value_of_other_player"]


def test_problem_errors_point_into_the_problem() -> None:
    with pytest.raises(InvalidInputError) as error:
        make_grader({**PROBLEM_2, "player": "Player 3"})
    assert error.value.errors[0].pointer == "/problem/player"
    with pytest.raises(InvalidInputError) as error:
        make_grader({**PROBLEM_2, "efg": PROBLEM_1["efg"]})
    assert error.value.errors[0].pointer == "/problem/game"


# Battle of the sexes moved in turn, the second player not seeing the first's choice:
# pure equilibria (opera, opera) and (fight, fight); a mixed one, 2/3 and 1/3 each
# (first: opera 2/3; second: opera 1/3). Payoffs (2, 1), (0, 0), (0, 0), (1, 2).
def _bos() -> dict[str, Any]:
    def second(first: str) -> dict[str, Any]:
        pays = {"opera": [[2, 1], [0, 0]], "fight": [[0, 0], [1, 2]]}[first]
        return {
            "player": 1,
            "infoset": "choose",
            "actions": [["opera", {"payoffs": pays[0]}], ["fight", {"payoffs": pays[1]}]],
        }

    root = {
        "player": 0,
        "infoset": "choose",
        "actions": [["opera", second("opera")], ["fight", second("fight")]],
    }
    return {"type": "extensive", "game": {"players": ["Her", "Him"], "root": root}}


BOS = _bos()


@pytest.mark.parametrize(
    ("her", "him"),
    [({"opera": 1}, {"opera": 1}), ({"fight": 1}, {"fight": 1}), (["2/3", "1/3"], ["1/3", "2/3"])],
)
def test_general_sum_profiles_are_graded_by_nash_conv(her: Any, him: Any) -> None:
    profile = {"Her": {"choose": her}, "Him": {"choose": him}}
    grade = grade_answer(BOS, {"profile": profile})
    assert grade.items[0].correct, grade.items[0].feedback


def test_a_profile_with_a_profitable_deviation() -> None:
    # (opera, fight) pays 0 to both; each gains by switching: her 1, him 1. NashConv 2;
    # uniform play pays 3/4 each and each best response 1, NashConv 1/2, so no credit.
    profile = {"Her": {"choose": {"opera": 1}}, "Him": {"choose": {"fight": 1}}}
    grade = grade_answer(BOS, {"profile": profile})
    item = grade.items[0]
    assert item.score == 0 and "NashConv 2" in item.feedback
    assert [d.code for d in grade.diagnosis] == ["profitable_deviation"] * 2


def test_a_general_sum_game_asks_no_value() -> None:
    assert make_grader(BOS).fields == ("profile",)
    with pytest.raises(InvalidInputError) as error:
        make_grader({**BOS, "questions": ["value"]})
    assert error.value.errors[0].pointer == "/problem/questions/0"


# -- feedback levels ------------------------------------------------------------------

UNIFORM_2 = {
    "J, check": {"check": "1/2", "bet": "1/2"},
    "J, bet": {"fold": "1/2", "call": "1/2"},
    "Q, check": {"check": "1/2", "bet": "1/2"},
    "Q, bet": {"fold": "1/2", "call": "1/2"},
    "K, check": {"check": "1/2", "bet": "1/2"},
    "K, bet": {"fold": "1/2", "call": "1/2"},
}
KEY_NUMBERS = re.compile(r"1/18|0\.0555|1/3|2/3|0\.333|0\.666|5/9|0\.55|1/9|0\.111|11/18|0\.6111")
"""The key's value and probabilities, and what the uniform strategy's gap (5/9 by the
derivation above; 1/2 + 1/18 = 5/9 so player 2 is held to -1/2, which the student's own
strategy gives) would give away with it."""


@pytest.mark.parametrize("level", FEEDBACK_LEVELS)
def test_feedback_below_full_gives_nothing_away(level: str) -> None:
    grade = grade_one(
        make_grader(PROBLEM_2), {"value": "1/7", "strategy": UNIFORM_2}, parse_rubric(None)
    )
    assert grade.score == 0
    text = json.dumps(grade_json(grade, level))
    if level == "full":
        assert KEY_NUMBERS.search(text)
    else:
        assert not KEY_NUMBERS.search(text), text


# -- generated problems ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("depth", "branching"), [(2, (2, 2)), (3, (2, 3))])
def test_generated_problems_are_deterministic_and_their_key_scores_full_marks(
    seed: int, depth: int, branching: tuple[int, int]
) -> None:
    settings = ProblemSettings(type="extensive", seed=seed, depth=depth, branching=branching)
    made = generate_problem(settings, figure=False)
    assert made == generate_problem(settings, figure=False)
    assert_full_marks(made)
    grader = make_grader(made.problem)
    assert isinstance(grader, ExtensiveGrader)
    assert grader.value != 0 and grader.value.denominator <= MAX_VALUE_DENOMINATOR
    # a good exercise: small denominators, and both players mix somewhere
    rows = grader.key_rows()
    assert all(p.denominator <= MAX_PROBABILITY_DENOMINATOR for row in rows for p in row)
    mixing = {grader.game.infosets[h].player for h, row in enumerate(rows) if max(row) < 1}
    assert mixing == {0, 1}
    # the untouched template scores nothing
    template = {"value": None, "strategy": dict.fromkeys(made.answer["strategy"])}
    assert grade_answer(made.problem, template).score == 0


def test_a_generated_problem_solved_by_hand() -> None:
    # docs/grading.md's example. Deal 1/2 each. With the low card L dominates R (13 > 1,
    # 18 > 0). After R only the high card is possible, so player 2 plays l (5 < 16). The
    # high card mixes L with x, making player 2 indifferent after L: 13 + 15x = 18 + 3x,
    # x = 5/12; player 2 mixes l with y, making the high card indifferent: 15y + 3(1 - y)
    # = 5, y = 1/6. Value: 1/2 (13/6 + 18 * 5/6) + 1/2 * 5 = 133/12.
    made = generate_problem(
        ProblemSettings(type="extensive", seed=3, depth=2, branching=(2, 2)), figure=False
    )
    assert "| low | L, l | 13 |" in made.statement and "| high | R, r | 16 |" in made.statement
    assert made.problem["player"] == "Player 2"
    assert made.answer == {
        "value": "133/12",
        "strategy": {"after L": {"l": "1/6", "r": "5/6"}, "after R": {"l": 1, "r": 0}},
    }


@pytest.mark.parametrize(
    ("changes", "parameter"),
    [({"depth": 4}, "depth"), ({"branching": (2, 4)}, "branching"), ({"values": (0, 1)}, "values")],
)
def test_settings_no_draw_can_meet_are_refused(changes: dict[str, Any], parameter: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        generate_problem(ProblemSettings(type="extensive", seed=1, **changes))
    assert error.value.errors[0].parameter == parameter


def test_a_zero_sum_profile_is_graded_by_nash_conv_too() -> None:
    problem = {**PROBLEM_2, "questions": ["profile"]}
    right = {"Player 1": player_1("1/3"), "Player 2": PLAYER_2}
    assert field(grade_answer(problem, {"profile": right}), "profile").correct
    # player 2 never bluffing a jack: player 1 with alpha = 1/3 calls a bet with a queen
    # 2/3 of the time, though only a king bets now; folding gains, so NashConv > 0
    wrong = {"Player 1": player_1("1/3"), "Player 2": {**PLAYER_2, "J, check": {"check": 1}}}
    grade = grade_answer(problem, {"profile": wrong})
    assert not field(grade, "profile").correct
    assert "profitable_deviation" in [d.code for d in grade.diagnosis]


@pytest.mark.parametrize("level", ["score", "fields", "hints"])
def test_no_writer_gives_the_key_away_below_full(level: str) -> None:
    grade = grade_one(
        make_grader(PROBLEM_2), {"value": "1/7", "strategy": UNIFORM_2}, parse_rubric(None)
    )
    asked = {"value": 1.0, "strategy": 2.0}
    for text in (
        json.dumps(gradescope_results(grade, asked, level)),
        json.dumps(prairielearn_results(grade, asked, level)),
        grades_csv({"ada": grade}),
    ):
        assert not KEY_NUMBERS.search(text), text
