"""A problem states what it asks: default questions per type, "not answered", one maximum,
fields answered but not asked ignored.

AIMA Fig. 5.2 ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``: value 3 by root.0, alpha-beta prunes
root.1.1 and root.1.2. By default an alpha-beta problem asks value (1 point), best move (1)
and pruned leaves (2): 4 points for every student.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from analysis.grading.class_report import grades_csv, summarize
from analysis.grading.questions import NOT_ANSWERED, default_questions, parse_questions
from analysis.grading.registry import grade_batch, make_grader
from analysis.grading.rubric import Rubric, parse_rubric
from games.errors import InvalidInputError

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}
RIGHT = {"value": 3, "best_move": "root.0", "pruned_leaves": ["root.1.1", "root.1.2"]}


def test_value_alone_is_not_full_marks() -> None:
    # the case: {"value": 15}-style answers used to score 1 / 1
    grade = make_grader(AIMA).grade({"value": 3})
    assert (grade.score, grade.max_score) == (1, 4)
    feedback = {item.field: item.feedback for item in grade.items}
    assert feedback == {
        "value": "correct",
        "best_move": NOT_ANSWERED,
        "pruned_leaves": NOT_ANSWERED,
    }


def test_an_empty_list_not_given_is_not_answered() -> None:
    # nothing is pruned under depth 1 at a MAX root: [] is right, leaving it out is not
    tree = {"children": [{"eval": 5, "children": [3, 1]}, {"eval": 9, "children": [2, 4]}]}
    grader = make_grader({"type": "alphabeta", "tree": tree, "depth": 1})
    assert grader.grade({"value": 9, "best_move": "root.1", "pruned_leaves": []}).score == 4
    assert grader.grade({"value": 9, "best_move": "root.1"}).score == 2


def test_fields_answered_but_not_asked_are_ignored() -> None:
    # nodes is not asked: even a wrong (or unreadable) value there is not read
    answer = {**RIGHT, "nodes": {"root": 99, "root.0": "junk"}, "principal_variation": []}
    grade = make_grader(AIMA).grade(answer)
    assert (grade.score, grade.max_score) == (4, 4)
    assert grade.ignored == ["nodes", "principal_variation"]
    # a plain {id: value} map is the nodes field: not asked here
    assert make_grader(AIMA).grade({"root": 3}).ignored == ["nodes"]
    # unknown field names are still refused (a typo is not an ignored answer)
    with pytest.raises(InvalidInputError) as caught:
        make_grader(AIMA).grade({"best_mvoe": "root.0"})
    assert caught.value.errors[0].pointer == "/answer/best_mvoe"


def test_questions_with_points_and_the_rubric_over_them() -> None:
    problem = {**AIMA, "questions": {"value": 2, "nodes": "3/2"}}
    grade = make_grader(problem).grade({"value": 3, "nodes": {"root": 3}})
    # value 2 of 2; nodes: 1 of the 4 internal values the search backs up, 1/4 of 3/2
    assert (grade.score, grade.max_score) == (2 + 3 / 8, 3.5)
    # points the rubric states win; its required fields are asked too
    rubric = parse_rubric({"points": {"value": 5, "best_move": 1}})
    grade = make_grader(problem).grade({"value": 3}, rubric)
    assert [item.field for item in grade.items] == ["value", "best_move", "nodes"]
    assert (grade.score, grade.max_score) == (5, 5 + 1 + 1.5)


def test_batch_has_one_maximum_and_the_csv_too() -> None:
    answers = {"ada": RIGHT, "bob": {"value": 3}, "cy": {"value": "x"}}
    graded = grade_batch(make_grader(AIMA), answers, Rubric())
    assert {s: g.max_score for s, g in graded.results.items()} == {"ada": 4, "bob": 4, "cy": 4}
    summary = summarize(graded.results)
    assert (summary.max_score, summary.full_marks, summary.mean) == (4, 1, (4 + 1 + 0) / 3)
    rows = grades_csv(graded.results).splitlines()
    assert rows[0] == "student,score,max_score,status,value,best_move,pruned_leaves,diagnosis,error"
    assert [row.split(",")[2] for row in rows[1:]] == ["4", "4", "4"]


@pytest.mark.parametrize(
    ("kind", "detail", "asked"),
    [
        ("minimax", {}, ("value", "best_move", "nodes")),
        ("alphabeta", {}, ("value", "best_move", "pruned_leaves")),
        ("maxn", {"max_sum": 10}, ("value", "best_move", "nodes", "pruned_leaves")),
        ("matrix", {"players": 2}, ("pure_equilibria", "equilibria")),
        ("matrix", {"players": 3}, ("pure_equilibria",)),
        (
            "lottery",
            {},
            ("emv", "expected_utility", "certainty_equivalent", "risk_premium", "attitude"),
        ),
        ("preferences", {}, ("axioms", "utility")),
        ("eu-consistency", {}, ("consistent", "witness")),
    ],
)
def test_default_questions(kind: str, detail: dict[str, Any], asked: tuple[str, ...]) -> None:
    assert default_questions(kind, detail) == asked


def test_defaults_per_type_through_the_graders() -> None:
    lottery = make_grader({"type": "lottery", "lottery": [{"p": 1, "x": 4}], "utility": "x"})
    assert lottery.maximum() == 5
    minimax = make_grader({**AIMA, "type": "minimax"})
    assert minimax.maximum() == 1 + 1 + 4
    # a chance root has no move to ask
    chance = {"kind": "chance", "children": [{"p": "1/2", "value": 1}, {"p": "1/2", "value": 3}]}
    assert make_grader({"type": "expectimax", "tree": chance}).maximum() == 1 + 4


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ("value", "/problem/questions"),
        ([], "/problem/questions"),
        (["value", "pruned"], "/problem/questions/1"),
        ({"value": -1}, "/problem/questions/value"),
        ({"value": "x"}, "/problem/questions/value"),
        (["value", "value"], "/problem/questions"),
    ],
)
def test_bad_questions_refused_with_a_pointer(raw: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_questions(raw, ("value", "best_move"), ("value",))
    assert caught.value.errors[0].pointer == pointer


def test_questions_a_problem_cannot_ask() -> None:
    # a minimax search prunes nothing
    with pytest.raises(InvalidInputError) as caught:
        make_grader({**AIMA, "type": "minimax", "questions": ["pruned_leaves"]})
    assert caught.value.errors[0].pointer == "/problem/questions/0"
    parsed = parse_questions({"value": "1/2"}, ("value",), ())
    assert parsed.points == {"value": Fraction(1, 2)}
