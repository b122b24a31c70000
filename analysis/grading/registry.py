"""Pick the grader for a problem by its ``type``, and grade a batch of answers."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from analysis.grading.consistency_problems import ConsistencyGrader
from analysis.grading.lottery_problems import LotteryGrader
from analysis.grading.matrix_problems import MatrixGrader
from analysis.grading.preference_problems import PreferenceGrader
from analysis.grading.results import Diagnosis, FieldScore, Grade, GradedItem
from analysis.grading.rubric import Rubric, parse_rubric
from analysis.grading.tree_problems import Grader
from games.errors import ArbiterError, FieldError, InvalidInputError, join_pointer
from games.limits import Limits, active_limits, current_deadline
from games.matrices.parser import MatrixLimits

MAX_LISTED: Final = 50
"""Most entries of ``missing``, ``extra`` and ``wrong`` one student's item lists in a batch
(the counts give the full numbers): a student who leaves out a field of a large problem
would otherwise repeat the whole key."""


class AnswerGrader(Protocol):
    def grade(
        self,
        raw_answer: Any,
        rubric: Rubric | None = None,
        diagnose: bool = True,
        pointer: str = "/answer",
    ) -> Grade: ...

    def maximum(self, rubric: Rubric | None = None) -> float: ...

    def rubric_for(self, rubric: Rubric | None = None) -> Rubric: ...


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
        game = {name: value for name, value in raw.items() if name not in ("type", "questions")}
        return MatrixGrader(game, matrix_limits, raw.get("questions"))
    if not isinstance(raw, dict):
        raise InvalidInputError("a problem is an object with a type", "/problem")
    return Grader.from_json(raw, limits)


def grade_answer(problem: Any, answer: Any, rubric: Any = None, diagnose: bool = True) -> Grade:
    """Grade one student's ``answer`` to ``problem`` (both as JSON-shaped data, as posted to
    ``/v1/grade``), with partial credit and, unless ``diagnose`` is false, the diagnosis.

    ``rubric`` is a :class:`Rubric` or its JSON form; ``None`` is the default rubric.
    """
    grader = make_grader(problem, active_limits())
    chosen = rubric if isinstance(rubric, Rubric) else parse_rubric(rubric)
    return grader.grade(answer, chosen, diagnose)


@dataclass(frozen=True, slots=True)
class BatchItem(FieldScore):
    """One field of one student's grade in a batch; its ``expected`` is in
    :attr:`BatchGrades.key`, once for every student, and what the student wrote is not
    echoed. ``missing``, ``extra`` and ``wrong`` list at most :data:`MAX_LISTED` entries,
    the ``*_count`` fields how many there are."""

    missing: list[str]
    extra: list[str]
    wrong: list[str]
    missing_count: int
    extra_count: int
    wrong_count: int
    feedback: str


@dataclass(frozen=True, slots=True)
class BatchGrade:
    """One student's grade in a batch; ``error`` is set (and the score 0) for a malformed
    answer; ``ignored`` names the fields given but not asked."""

    score: float
    max_score: float
    items: list[BatchItem]
    diagnosis: list[Diagnosis]
    error: FieldError | None = None
    ignored: list[str] = dataclasses.field(default_factory=list)


@dataclass(frozen=True, slots=True)
class BatchGrades:
    """Every student's grade, and the answer key once: ``key`` maps each graded field to
    the key's entry (the ``expected`` of a single grade) and, when some number in it is
    not exact, ``<field>_exact`` to its exact form (the item's ``expected_exact``)."""

    key: dict[str, Any]
    results: dict[str, BatchGrade]


def _brief(item: GradedItem) -> BatchItem:
    return BatchItem(
        field=item.field,
        score=item.score,
        max_score=item.max_score,
        correct=item.correct,
        missing=item.missing[:MAX_LISTED],
        extra=item.extra[:MAX_LISTED],
        wrong=item.wrong[:MAX_LISTED],
        missing_count=len(item.missing),
        extra_count=len(item.extra),
        wrong_count=len(item.wrong),
        feedback=item.feedback,
    )


def _within(pointer: str, base: str) -> bool:
    return pointer == base or pointer.startswith(base + "/")


def grade_batch(
    grader: AnswerGrader,
    answers: Mapping[str, Any],
    rubric: Rubric,
    diagnose: bool = True,
    base: str = "/answers",
) -> BatchGrades:
    """Grade every student's answer; a malformed one scores 0 and carries its ``error``.

    Each grade is cut down to a :class:`BatchGrade` as soon as it is made, so memory
    grows with the number of students, not with students times the size of the key.
    Errors that point outside the student's answer (the problem, the rubric, the
    deadline) are raised, so that the whole batch is refused.
    """
    deadline = current_deadline()
    key: dict[str, Any] = {}
    grades: dict[str, BatchGrade | None] = {}
    failed: dict[str, ArbiterError] = {}
    for student, answer in answers.items():
        deadline.check()
        pointer = join_pointer(base, student)
        try:
            grade = grader.grade(answer, rubric, diagnose=diagnose, pointer=pointer)
        except ArbiterError as error:
            if not all(_within(e.pointer, pointer) for e in error.errors):
                raise
            grades[student], failed[student] = None, error
            continue
        for item in grade.items:
            if item.field not in key:
                key[item.field] = item.expected
                if item.expected_exact is not None:
                    key[f"{item.field}_exact"] = item.expected_exact
        grades[student] = BatchGrade(
            grade.score,
            grade.max_score,
            [_brief(item) for item in grade.items],
            grade.diagnosis,
            None,
            grade.ignored,
        )
    most = grader.maximum(rubric)
    results: dict[str, BatchGrade] = {}
    for student, graded in grades.items():
        if graded is None:
            graded = BatchGrade(0.0, most, [], [], failed[student].errors[0])
        results[student] = graded
    return BatchGrades(key, results)
