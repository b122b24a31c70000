"""Pick the grader for a problem by its ``type``."""

from __future__ import annotations

from typing import Any, Protocol

from analysis.consistency_grading import ConsistencyGrader
from analysis.grading import Grade, Grader, Rubric
from analysis.lottery_grading import LotteryGrader
from analysis.matrix_grading import MatrixGrader
from analysis.preference_grading import PreferenceGrader
from games.errors import InvalidInputError
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
