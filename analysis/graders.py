"""Pick the grader for a problem by its ``type``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from analysis.consistency_grading import ConsistencyGrader
from analysis.grading import Grade, Grader, Rubric
from analysis.lottery_grading import LotteryGrader
from analysis.matrix_grading import MatrixGrader
from analysis.preference_grading import PreferenceGrader
from games.errors import ArbiterError, InvalidInputError, join_pointer
from games.limits import Limits
from games.matrix_format import MatrixLimits


class AnswerGrader(Protocol):
    def grade(
        self,
        raw_answer: Any,
        rubric: Rubric | None = None,
        diagnose: bool = True,
        pointer: str = "/answer",
    ) -> Grade: ...


def make_grader(
    raw: Any, limits: Limits | None = None, matrix_limits: MatrixLimits | None = None
) -> AnswerGrader:
    """A grader for a tree problem (``minimax``, ``alphabeta``, ``expectimax``, ``maxn``)
    or a ``matrix``, ``lottery``, ``preferences`` or ``eu-consistency`` problem; the key is
    computed here, once."""
    if isinstance(raw, dict) and raw.get("type") == "lottery":
        return LotteryGrader(raw)
    if isinstance(raw, dict) and raw.get("type") == "preferences":
        return PreferenceGrader(raw)
    if isinstance(raw, dict) and raw.get("type") == "eu-consistency":
        return ConsistencyGrader(raw)
    if isinstance(raw, dict) and raw.get("type") == "matrix":
        game = {name: value for name, value in raw.items() if name != "type"}
        return MatrixGrader(game, matrix_limits)
    if not isinstance(raw, dict):
        raise InvalidInputError("a problem is an object with a type", "/problem")
    return Grader.from_json(raw, limits)


def _within(pointer: str, base: str) -> bool:
    return pointer == base or pointer.startswith(base + "/")


def grade_batch(
    grader: AnswerGrader,
    answers: Mapping[str, Any],
    rubric: Rubric,
    diagnose: bool = True,
    base: str = "/answers",
) -> dict[str, Grade]:
    """Grade every student's answer; a malformed one scores 0 and carries its ``error``.

    Errors that point outside the student's answer (the problem, the rubric) are
    raised, so that the whole batch is refused.
    """
    grades: dict[str, Grade | None] = {}
    failed: dict[str, ArbiterError] = {}
    for student, answer in answers.items():
        pointer = join_pointer(base, student)
        try:
            grades[student] = grader.grade(answer, rubric, diagnose=diagnose, pointer=pointer)
        except ArbiterError as error:
            if not all(_within(e.pointer, pointer) for e in error.errors):
                raise
            grades[student], failed[student] = None, error
    most = max((g.max_score for g in grades.values() if g is not None), default=None)
    if most is None:
        most = float(sum(rubric.points.get(name, 0) for name in rubric.required))
    result: dict[str, Grade] = {}
    for student, grade in grades.items():
        if grade is None:
            grade = Grade(0.0, most, [], [], failed[student].errors[0])
        result[student] = grade
    return result
