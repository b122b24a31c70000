"""Reports on many grades: a summary, CSV, and Gradescope's ``results.json``."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import mean, median
from typing import Any, Final, Protocol

from analysis.grading.feedback import diagnosis_text, item_feedback, shows, summary_line
from analysis.grading.results import Diagnosis, FieldScore, Grade, GradedItem
from analysis.grading.rubric import DEFAULT_POINTS
from games.errors import FieldError
from games.limits import current_deadline


class Scored(Protocol):
    """What a report reads of one student's grade (a full or a batch grade)."""

    @property
    def score(self) -> float: ...

    @property
    def max_score(self) -> float: ...

    @property
    def items(self) -> Sequence[FieldScore]: ...

    @property
    def diagnosis(self) -> Sequence[Diagnosis]: ...

    @property
    def error(self) -> FieldError | None: ...

    @property
    def errors(self) -> Sequence[FieldError]: ...

    @property
    def missing(self) -> bool: ...

    @property
    def status(self) -> str: ...


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """Mean and median score, counts per tenth of the maximum, and the commonest mistakes.

    ``count`` is every row (every roster student, with a roster); answers that cannot be
    read at all (``errors``) and students without one (``missing``) count as 0 in every
    figure; ``unmatched`` answers belong to no roster student and are in no figure.
    """

    count: int
    graded: int
    errors: int
    missing: int
    unmatched: int
    max_score: float
    mean: float | None
    median: float | None
    full_marks: int
    distribution: dict[str, int]
    common_mistakes: list[dict[str, Any]]


NOT_MISTAKES: Final = frozenset({"first_departure"})
"""Diagnosis codes that say where an answer goes wrong, not which mistake it makes: not
counted among a class's common mistakes."""


def summarize(grades: Mapping[str, Scored], unmatched: int = 0) -> BatchSummary:
    current_deadline().spend(len(grades))
    scores = [grade.score for grade in grades.values()]
    most = max((grade.max_score for grade in grades.values()), default=0.0)
    bins = {f"{10 * i}-{10 * (i + 1)}%": 0 for i in range(10)}
    labels = list(bins)
    for grade in grades.values():
        share = grade.score / grade.max_score if grade.max_score else 1.0
        if grade.error is not None or grade.missing:
            share = 0.0
        bins[labels[min(int(share * 10), 9)]] += 1
    # each code once per student, in the order first met, so that ties keep one order
    codes = Counter(
        code
        for grade in grades.values()
        for code in dict.fromkeys(d.code for d in grade.diagnosis)
        if code not in NOT_MISTAKES
    )
    errors = sum(1 for grade in grades.values() if grade.error is not None)
    missing = sum(1 for grade in grades.values() if grade.missing)
    return BatchSummary(
        count=len(scores),
        graded=len(scores) - errors - missing,
        errors=errors,
        missing=missing,
        unmatched=unmatched,
        max_score=most,
        mean=mean(scores) if scores else None,
        median=median(scores) if scores else None,
        full_marks=sum(
            1 for g in grades.values() if g.error is None and g.max_score and g.score == g.max_score
        ),
        distribution=bins,
        common_mistakes=[{"code": c, "count": n} for c, n in codes.most_common()],
    )


FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a CSV cell as a formula."""


def csv_text(text: str) -> str:
    """``text`` as a CSV cell that a spreadsheet shows and never runs: a text that starts
    as a formula (:data:`FORMULA_STARTS`) gets a leading ``'``, OWASP's rule against CSV
    injection (``=HYPERLINK(...)`` as a student id). For every text cell; the numbers the
    program writes (a score of -1.5) stay numbers. The csv module quotes the cell after."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def grades_csv(grades: Mapping[str, Scored], fields: Sequence[str] | None = None) -> str:
    """One row per student: total, maximum, ``status`` (``graded``, ``unreadable`` or
    ``missing``), the score of each field (``fields``, the problem's; by default those
    some grade has), diagnosis codes, and the errors (``pointer: message``, the whole
    answer's or each unreadable field's); every text cell through :func:`csv_text`."""
    deadline = current_deadline()
    deadline.spend(len(grades))
    if fields is None:
        fields = [
            name
            for name in DEFAULT_POINTS
            if any(i.field == name for g in grades.values() for i in g.items)
        ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "score", "max_score", "status", *fields, "diagnosis", "error"])
    for student, grade in grades.items():
        deadline.spend(1 + len(grade.items))
        by_field = {item.field: item.score for item in grade.items}
        errors = [grade.error] if grade.error is not None else list(grade.errors)
        writer.writerow(
            [
                csv_text(student),
                f"{grade.score:g}",
                f"{grade.max_score:g}",
                grade.status,
                *(f"{by_field[n]:g}" if n in by_field else "" for n in fields),
                csv_text(";".join(dict.fromkeys(d.code for d in grade.diagnosis))),
                csv_text(" | ".join(f"{e.pointer}: {e.message}" for e in errors)),
            ]
        )
    return out.getvalue()


VISIBILITIES: Final = ("visible", "after_due_date", "after_published", "hidden")
"""When Gradescope shows students a result or a test (its ``visibility`` values)."""


def _diagnosis_lines(grade: Grade, feedback: str) -> str:
    lines = []
    for diagnosis in grade.diagnosis:
        text = diagnosis_text(diagnosis, feedback)
        if text is not None:
            lines.append(f"[{diagnosis.code}] {text}")
    return "\n".join(lines)


def _item_by_field(grade: Grade) -> dict[str, GradedItem]:
    return {item.field: item for item in grade.items}


def gradescope_results(
    grade: Grade,
    asked: Mapping[str, float],
    feedback: str = "full",
    visibility: str = "visible",
) -> dict[str, Any]:
    """The ``results.json`` a Gradescope autograder writes: ``score``, ``output`` (the
    total, and the diagnosis at ``hints`` and ``full``), ``visibility``, and at
    ``fields`` and above one test per field asked (``asked``: field -> points) with
    ``name``, ``score``, ``max_score``, ``status`` (``passed`` when fully right),
    ``output`` (:func:`analysis.grading.feedback.item_feedback`) and ``visibility``. An
    answer that cannot be read scores 0 on every test, the reason in ``output``."""
    output = summary_line(grade)
    diagnosis = _diagnosis_lines(grade, feedback)
    if diagnosis:
        output += "\n\n" + diagnosis
    results: dict[str, Any] = {"score": grade.score, "output": output, "visibility": visibility}
    if not shows(feedback, "fields"):
        return results
    by_field = _item_by_field(grade)
    tests = []
    for name, points in asked.items():
        item = by_field.get(name)
        tests.append(
            {
                "name": name,
                "score": item.score if item is not None else 0,
                "max_score": points,
                "status": "passed" if item is not None and item.correct else "failed",
                "output": item_feedback(item, feedback) if item is not None else _UNGRADED,
                "visibility": visibility,
            }
        )
    results["tests"] = tests
    return results


_UNGRADED: Final = "not graded (see above)"


def prairielearn_results(
    grade: Grade, asked: Mapping[str, float], feedback: str = "full"
) -> dict[str, Any]:
    """The ``results.json`` of a PrairieLearn external grader: ``gradable`` (false for an
    answer that cannot be read at all, which then costs no attempt), ``score`` from 0 to
    1, ``message`` (the total), ``output`` (the diagnosis at ``hints`` and ``full``) and,
    at ``fields`` and above, one test per field asked (``name``, ``points``,
    ``max_points``, ``message``)."""
    if grade.error is not None:
        return {"gradable": False, "score": 0.0, "message": summary_line(grade), "tests": []}
    results: dict[str, Any] = {
        "gradable": True,
        "score": grade.score / grade.max_score if grade.max_score else 1.0,
        "message": summary_line(grade),
        "output": _diagnosis_lines(grade, feedback),
        "tests": [],
    }
    if shows(feedback, "fields"):
        by_field = _item_by_field(grade)
        results["tests"] = [
            {
                "name": name,
                "points": by_field[name].score if name in by_field else 0,
                "max_points": points,
                "message": item_feedback(by_field[name], feedback)
                if name in by_field
                else _UNGRADED,
            }
            for name, points in asked.items()
        ]
    return results
