"""Pick the grader for a problem by its ``type``, and grade a batch of answers."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

from analysis.grading.results import Diagnosis, FieldScore, Grade, GradedItem, grade_status
from analysis.grading.rubric import Rubric, parse_rubric
from games.errors import ArbiterError, FieldError, InvalidInputError, join_pointer
from games.limits import Limits, active_limits, current_deadline

if TYPE_CHECKING:
    from games.matrices.parser import MatrixLimits

MAX_LISTED: Final = 50
"""Most entries of ``missing``, ``extra`` and ``wrong`` one student's item lists in a batch
(the counts give the full numbers): a student who leaves out a field of a large problem
would otherwise repeat the whole key."""


class AnswerGrader(Protocol):
    @property
    def fields(self) -> tuple[str, ...]:
        """The fields a problem of this kind may ask."""

    def grade(
        self,
        raw_answer: Any,
        rubric: Rubric | None = None,
        diagnose: bool = True,
        pointer: str = "/answer",
    ) -> Grade: ...

    def maximum(self, rubric: Rubric | None = None) -> float: ...

    def rubric_for(self, rubric: Rubric | None = None) -> Rubric: ...


GRADERS: Final = {
    "lottery": "analysis.grading.lottery_problems:LotteryGrader",
    "preferences": "analysis.grading.preference_problems:PreferenceGrader",
    "eu-consistency": "analysis.grading.consistency_problems:ConsistencyGrader",
    "matrix": "analysis.grading.matrix_problems:MatrixGrader",
    "tree": "analysis.grading.tree_problems:Grader",
    "extensive": "analysis.grading.extensive_problems:ExtensiveGrader",
}
"""Each kind's grader as ``module:class``, imported when a problem of that kind is graded,
so that grading a tree from the command line loads no SymPy, SciPy or matplotlib."""


def _grader_class(kind: str) -> Any:
    module, name = GRADERS[kind].split(":")
    return getattr(importlib.import_module(module), name)


def make_grader(
    raw: Any, limits: Limits | None = None, matrix_limits: MatrixLimits | None = None
) -> AnswerGrader:
    """A grader for a tree problem (``minimax``, ``alphabeta``, ``expectimax``, ``maxn``)
    or a ``matrix``, ``lottery``, ``preferences``, ``eu-consistency`` or ``extensive``
    problem; the key is computed here, once."""
    if not isinstance(raw, dict):
        raise InvalidInputError("a problem is an object with a type", "/problem")
    kind = raw.get("type")
    if kind == "matrix":
        game = {name: value for name, value in raw.items() if name not in ("type", "questions")}
        return cast(AnswerGrader, _grader_class(kind)(game, matrix_limits, raw.get("questions")))
    if kind in ("lottery", "preferences", "eu-consistency"):
        return cast(AnswerGrader, _grader_class(kind)(raw))
    if kind == "extensive":
        return cast(AnswerGrader, _grader_class(kind)(raw, limits))
    return cast(AnswerGrader, _grader_class("tree").from_json(raw, limits))


def grade_answer(problem: Any, answer: Any, rubric: Any = None, diagnose: bool = True) -> Grade:
    """Grade one student's ``answer`` to ``problem`` (both as JSON-shaped data, as posted to
    ``/v1/grade``), with partial credit and, unless ``diagnose`` is false, the diagnosis.

    ``rubric`` is a :class:`Rubric` or its JSON form; ``None`` is the default rubric.
    """
    grader = make_grader(problem, active_limits())
    chosen = rubric if isinstance(rubric, Rubric) else parse_rubric(rubric)
    return grade_one(grader, answer, chosen, diagnose)


def grade_one(
    grader: AnswerGrader,
    raw: Any,
    rubric: Rubric,
    diagnose: bool = True,
    pointer: str = "/answer",
) -> Grade:
    """Grade one answer field by field: a field that cannot be read (or is not a field of
    such answers) scores 0 with its own error, in ``errors`` and on its item, and the
    other fields are graded all the same. Only an answer that is not an object at all (or
    a tree answer's plain ``{node id: value}`` map with a bad entry) scores 0 as a whole,
    with its ``error``. A field left ``null`` where ``null`` is no answer (the answer
    template's placeholder) is not answered, not unreadable.

    Errors that point outside the answer (the problem, the rubric, the deadline) are
    raised. Each field read out costs one more grading of what is left, at most once per
    field a problem may ask (unknown names are set apart before the first).
    """
    if not isinstance(raw, dict):
        refusal = FieldError(pointer, "an answer is a JSON object of fields")
        return Grade.refused(grader.maximum(rubric), refusal)
    known = set(getattr(grader, "answer_fields", grader.fields))
    answer = dict(raw)
    failed: dict[str, FieldError] = {}
    if any(name in known for name in answer):
        for name in raw:
            if name not in known:
                failed[name] = FieldError(
                    join_pointer(pointer, name),
                    f"unknown answer field {name!r}; these answers give {', '.join(grader.fields)}",
                )
                del answer[name]
    while True:
        try:
            grade = grader.grade(answer, rubric, diagnose=diagnose, pointer=pointer)
            break
        except ArbiterError as error:
            if not all(_within(e.pointer, pointer) for e in error.errors):
                raise  # the problem, the rubric or the deadline: not the student's doing
            first = error.errors[0]
            name = _field_of(first.pointer, pointer)
            if name is None or name not in answer or name not in known:
                return Grade.refused(grader.maximum(rubric), first)
            if answer[name] is not None:
                failed[name] = first
            # else a placeholder of the answer template left as it was: not answered
            del answer[name]
            if name == "value":
                answer.pop("value_exact", None)
    if not failed:
        return grade
    return _with_failed(grade, failed, grader.fields)


def _field_of(pointer: str, base: str) -> str | None:
    """The answer field ``pointer`` (under ``base``) points into, unescaped."""
    if not pointer.startswith(base + "/"):
        return None
    token = pointer[len(base) + 1 :].split("/", 1)[0]
    return token.replace("~1", "/").replace("~0", "~")


def _with_failed(grade: Grade, failed: dict[str, FieldError], fields: tuple[str, ...]) -> Grade:
    """``grade`` with each field of ``failed`` scored 0 with its error on its item (the
    problem asks it), and every error in ``errors``."""
    items = list(grade.items)
    at = {item.field: place for place, item in enumerate(items)}
    for name, error in failed.items():
        note = f"could not be read: {error.message}"
        if name in at:
            item = items[at[name]]
            items[at[name]] = dataclasses.replace(
                item,
                score=0.0,
                correct=False,
                given=None,
                extra=[],
                wrong=[],
                missing=[],
                feedback=note,
                error=error,
            )
    order = {name: place for place, name in enumerate(fields)}
    items.sort(key=lambda item: order.get(item.field, len(order)))
    return Grade.of(items, grade.diagnosis, grade.ignored, list(failed.values()))


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
    error: FieldError | None = None


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
    errors: list[FieldError] = dataclasses.field(default_factory=list)
    missing: bool = False

    @property
    def status(self) -> str:
        """As :attr:`analysis.grading.results.Grade.status`."""
        return grade_status(self.error, self.missing)


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
        error=item.error,
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
    results: dict[str, BatchGrade] = {}
    for student, answer in answers.items():
        deadline.check()
        grade = grade_one(grader, answer, rubric, diagnose, join_pointer(base, student))
        for item in grade.items:
            if item.field not in key:
                key[item.field] = item.expected
                if item.expected_exact is not None:
                    key[f"{item.field}_exact"] = item.expected_exact
        results[student] = BatchGrade(
            grade.score,
            grade.max_score,
            [_brief(item) for item in grade.items],
            grade.diagnosis,
            grade.error,
            grade.ignored,
            grade.errors,
        )
    return BatchGrades(key, results)
