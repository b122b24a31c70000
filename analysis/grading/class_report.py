"""Reports on many grades: a summary, CSV, and Gradescope's ``results.json``."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import mean, median
from typing import Any, Final, Protocol

from analysis.grading.results import Diagnosis, FieldScore, Grade
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


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """Mean and median score, counts per tenth of the maximum, and the commonest mistakes.

    Malformed answers count as 0 in every figure; ``errors`` counts them.
    """

    count: int
    errors: int
    max_score: float
    mean: float | None
    median: float | None
    full_marks: int
    distribution: dict[str, int]
    common_mistakes: list[dict[str, Any]]


def summarize(grades: Mapping[str, Scored]) -> BatchSummary:
    current_deadline().spend(len(grades))
    scores = [grade.score for grade in grades.values()]
    most = max((grade.max_score for grade in grades.values()), default=0.0)
    bins = {f"{10 * i}-{10 * (i + 1)}%": 0 for i in range(10)}
    labels = list(bins)
    for grade in grades.values():
        share = grade.score / grade.max_score if grade.max_score else 1.0
        if grade.error is not None:
            share = 0.0
        bins[labels[min(int(share * 10), 9)]] += 1
    # each code once per student, in the order first met, so that ties keep one order
    codes = Counter(
        code for grade in grades.values() for code in dict.fromkeys(d.code for d in grade.diagnosis)
    )
    return BatchSummary(
        count=len(scores),
        errors=sum(1 for grade in grades.values() if grade.error is not None),
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


def grades_csv(grades: Mapping[str, Scored]) -> str:
    """One row per student: total, maximum, the score of each field, diagnosis codes, and
    ``pointer: message`` for a malformed answer; every text cell through :func:`csv_text`."""
    deadline = current_deadline()
    deadline.spend(len(grades))
    present = [
        name
        for name in DEFAULT_POINTS
        if any(i.field == name for g in grades.values() for i in g.items)
    ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "score", "max_score", *present, "diagnosis", "error"])
    for student, grade in grades.items():
        deadline.spend(1 + len(grade.items))
        by_field = {item.field: item.score for item in grade.items}
        writer.writerow(
            [
                csv_text(student),
                f"{grade.score:g}",
                f"{grade.max_score:g}",
                *(f"{by_field[n]:g}" if n in by_field else "" for n in present),
                csv_text(";".join(dict.fromkeys(d.code for d in grade.diagnosis))),
                csv_text(f"{grade.error.pointer}: {grade.error.message}" if grade.error else ""),
            ]
        )
    return out.getvalue()


def _summary_line(grade: Grade) -> str:
    if grade.error is not None:
        return f"your answer could not be read: {grade.error.pointer}: {grade.error.message}"
    line = f"{grade.score:g} / {grade.max_score:g}"
    if grade.ignored:
        line += f"; not asked, so not graded: {', '.join(grade.ignored)}"
    return line


def gradescope_results(grade: Grade, asked: Mapping[str, float]) -> dict[str, Any]:
    """The ``results.json`` a Gradescope autograder writes: ``score``, ``output`` and one
    test per field asked (``asked``: field -> points), each with ``name``, ``score``,
    ``max_score``, ``output`` and ``visibility``; a malformed answer (``grade.error``)
    scores 0 on every test with the error as its output."""
    by_field = {item.field: item for item in grade.items}
    tests = []
    for name, points in asked.items():
        item = by_field.get(name)
        tests.append(
            {
                "name": name,
                "score": item.score if item is not None else 0,
                "max_score": points,
                "output": item.feedback if item is not None else "not graded: see above",
                "visibility": "visible",
            }
        )
    if grade.diagnosis:
        tests.append(
            {
                "name": "diagnosis",
                "score": 0,
                "max_score": 0,
                "output": "\n".join(f"[{d.code}] {d.message}" for d in grade.diagnosis),
                "visibility": "visible",
            }
        )
    return {"score": grade.score, "output": _summary_line(grade), "tests": tests}


def prairielearn_results(grade: Grade, asked: Mapping[str, float]) -> dict[str, Any]:
    """The ``results.json`` of a PrairieLearn external grader: ``gradable`` (false for a
    malformed answer, which then costs no attempt), ``score`` from 0 to 1, ``message``,
    ``output`` and one test per field asked (``name``, ``points``, ``max_points``,
    ``message``)."""
    if grade.error is not None:
        return {"gradable": False, "score": 0.0, "message": _summary_line(grade), "tests": []}
    by_field = {item.field: item for item in grade.items}
    tests = [
        {
            "name": name,
            "points": by_field[name].score if name in by_field else 0,
            "max_points": points,
            "message": by_field[name].feedback if name in by_field else "not graded",
        }
        for name, points in asked.items()
    ]
    diagnosis = "\n".join(f"[{d.code}] {d.message}" for d in grade.diagnosis)
    return {
        "gradable": True,
        "score": grade.score / grade.max_score if grade.max_score else 1.0,
        "message": _summary_line(grade),
        "output": diagnosis,
        "tests": tests,
    }
