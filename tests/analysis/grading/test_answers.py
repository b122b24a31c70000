"""Reading answers: node ids or move labels, exact numbers, the solve response's own form,
and the checks every answer object goes through."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from analysis.grading.answers import (
    MAX_ANSWER_NESTING,
    FieldsAnswerGrader,
    answer_json,
    answer_object,
    parse_answer,
    under_problem,
)
from analysis.grading.results import Diagnosis, Expected, GradedItem, graded_item
from analysis.grading.rubric import Rubric
from games.errors import FieldError, InvalidInputError, TimeLimitError
from games.trees.parser import parse_tree

AIMA = parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
LABELLED = parse_tree({"children": [{"move": "left", "value": 1}, {"move": "right", "value": 2}]})


def test_answer_in_the_solve_response_form() -> None:
    raw = {
        "value": 2.5,
        "value_exact": "5/2",
        "best_move": "root.0",
        "nodes": {"root.1": {"value": 2}, "root": "3"},
        "pruned_leaves": ["root.1.1"],
    }
    answer = parse_answer(AIMA, raw)
    index = AIMA.index_of
    # the exact string is read in place of the rounded number
    assert answer.value == Fraction(5, 2)
    assert answer.best_move == index("root.0")
    assert answer.nodes == {index("root.1"): 2, index("root"): 3}
    assert answer.pruned_leaves == [index("root.1.1")]
    assert answer.present() == ["value", "best_move", "nodes", "pruned_leaves"]


def test_plain_map_and_move_labels() -> None:
    # an object with none of the answer fields is a map of node values
    answer = parse_answer(AIMA, {"root": 3, "root.1": "2"})
    assert answer.nodes == {AIMA.index_of("root"): 3, AIMA.index_of("root.1"): 2}
    assert answer.present() == ["nodes"]
    # a move label names the root's child that carries it
    assert parse_answer(LABELLED, {"best_move": "right"}).best_move == 2


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ([], "/answer"),
        ({"best_move": "root.7"}, "/answer/best_move"),
        ({"nodes": {"X": 1}}, "/answer/nodes/X"),
        ({"nodes": {"root": {"bound": "exact"}}}, "/answer/nodes/root"),
        ({"pruned": ["root.0", 7]}, "/answer/pruned/1"),
        ({"value": 3, "bogus": 1}, "/answer/bogus"),
    ],
)
def test_malformed_answers_point_at_the_field(raw: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        parse_answer(AIMA, raw)
    assert error.value.errors[0].pointer == pointer


def test_answer_json_echoes_big_integers_as_exact_strings() -> None:
    raw = {"value": [2**70, 3], "nodes": {"root": 1}}
    assert answer_json(raw) == {"value": ["1180591620717411303424", 3], "nodes": {"root": 1}}
    small = {"value": [1, 2]}
    assert answer_json(small) is small  # nothing to rewrite: no copy


def test_answer_json_refuses_deep_nesting() -> None:
    deep: Any = 1
    for _ in range(MAX_ANSWER_NESTING + 1):
        deep = [deep]
    with pytest.raises(InvalidInputError) as error:
        answer_json({"nodes": deep})
    # the object is level 0, so the first level too deep is 31 arrays inside "nodes"
    assert error.value.errors[0].pointer == "/answer/nodes" + "/0" * (MAX_ANSWER_NESTING - 1)


def test_answer_object() -> None:
    assert answer_object({"emv": 2}, ("emv", "attitude"), "lottery") == {"emv": 2}
    with pytest.raises(InvalidInputError) as error:
        answer_object({"emv": 2, "cash": 1}, ("emv", "attitude"), "lottery", "/answers/ada")
    assert error.value.errors[0].pointer == "/answers/ada/cash"
    assert "lottery answers give emv, attitude" in error.value.message


def test_under_problem() -> None:
    moved = under_problem(InvalidInputError("bad", "/A/0/1"))
    assert [e.pointer for e in moved.errors] == ["/problem/A/0/1"]
    deadline = TimeLimitError("too slow", "")
    assert under_problem(deadline) is deadline


class Parity(FieldsAnswerGrader):
    """A toy grader: is ``n`` even? (2 points, as ``witness``)."""

    fields = ("witness",)
    kind = "parity"

    def __init__(self) -> None:
        self.ask(None, ("witness",))

    def grade_fields(
        self, answer: dict[str, Any], rubric: Rubric, diagnose: bool, pointer: str
    ) -> tuple[list[GradedItem], list[Diagnosis]]:
        right = answer.get("witness") == "even"
        item = graded_item(
            "witness", Fraction(int(right)), rubric, Expected("even"), answer.get("witness"), ""
        )
        return [item], [] if right or not diagnose else [Diagnosis("odd", "not even")]


def test_fields_answer_grader_reads_grades_and_totals() -> None:
    grade = Parity().grade({"witness": "odd"})
    assert (grade.score, grade.max_score, [d.code for d in grade.diagnosis]) == (0, 2, ["odd"])
    assert Parity().grade({"witness": "even"}, diagnose=False).score == 2
    with pytest.raises(InvalidInputError) as error:
        Parity().grade({"n": 1}, pointer="/answers/bob")
    assert error.value.errors == [
        FieldError("/answers/bob/n", "unknown answer field 'n'; parity answers give witness")
    ]
