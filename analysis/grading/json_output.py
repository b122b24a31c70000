"""Grades as JSON: what ``POST /v1/grade`` answers (``api.schemas.grading`` documents it) and
what ``arbiter grade`` prints.

Each function names every field it writes, so that a new attribute of a result cannot
reach an answer by accident; a contract test checks these writers against the API's
schema dump. Numbers were written under the one rule of ``docs/numbers.md`` when the
grade was made (:class:`analysis.grading.results.Expected`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from analysis.grading.class_report import BatchSummary
from analysis.grading.feedback import error_json, grade_view, hint, status
from analysis.grading.problem_generator import GeneratedProblem
from analysis.grading.results import Diagnosis, Grade, GradedItem
from analysis.grading.roster import Unmatched


def diagnosis_json(diagnosis: Diagnosis) -> dict[str, Any]:
    return {
        "code": diagnosis.code,
        "message": diagnosis.message,
        "hint": diagnosis.hint,
        "node": diagnosis.node,
    }


def item_json(item: GradedItem) -> dict[str, Any]:
    """One graded field in full; ``expected_exact`` only where a number of ``expected`` is
    inexact, ``error`` only for a field that could not be read."""
    out: dict[str, Any] = {
        "field": item.field,
        "score": item.score,
        "max_score": item.max_score,
        "correct": item.correct,
        "missing": list(item.missing),
        "extra": list(item.extra),
        "wrong": list(item.wrong),
        "feedback": item.feedback,
        "status": status(item),
    }
    if item.error is not None:
        out["error"] = error_json(item.error)
    out["expected"] = item.expected
    if item.expected_exact is not None:
        out["expected_exact"] = item.expected_exact
    out["given"] = item.given
    out["hint"] = hint(item)
    return out


def grade_json(grade: Grade, feedback: str = "full") -> dict[str, Any]:
    """A grade at feedback level ``feedback`` (:mod:`analysis.grading.feedback`); at
    ``full``: total, ``status``, per-field items with the key's entries, the diagnosis,
    the error of an answer that is not an object, the errors of unreadable fields."""
    if feedback != "full":
        return grade_view(grade, feedback)
    return {
        "score": grade.score,
        "max_score": grade.max_score,
        "status": grade.status,
        "diagnosis": [diagnosis_json(d) for d in grade.diagnosis],
        "error": error_json(grade.error),
        "errors": [error_json(error) for error in grade.errors],
        "ignored": list(grade.ignored),
        "items": [item_json(item) for item in grade.items],
    }


def summary_json(summary: BatchSummary) -> dict[str, Any]:
    """The class summary: counts (rows, graded, unreadable, missing, unmatched), maximum,
    mean, median, full marks, distribution, the commonest mistakes."""
    return {
        "count": summary.count,
        "graded": summary.graded,
        "errors": summary.errors,
        "missing": summary.missing,
        "unmatched": summary.unmatched,
        "max_score": summary.max_score,
        "mean": summary.mean,
        "median": summary.median,
        "full_marks": summary.full_marks,
        "distribution": dict(summary.distribution),
        "common_mistakes": [
            {"code": entry["code"], "count": entry["count"]} for entry in summary.common_mistakes
        ],
    }


def grades_json(
    grades: Mapping[str, Grade],
    summary: BatchSummary,
    feedback: str = "full",
    unmatched: Sequence[Unmatched] = (),
    matched: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Every student's grade at ``feedback``; with a roster, which answer each student's
    is and by which rule (``matched``: student -> (answer's name, rule)) and the answers
    that belong to no student (``unmatched``: the answer's name and why); the class
    summary."""
    return {
        "results": {student: grade_json(grade, feedback) for student, grade in grades.items()},
        "matched": {
            student: {"answer": answer, "rule": rule}
            for student, (answer, rule) in (matched or {}).items()
        },
        "unmatched": [{"answer": u.answer, "reason": u.reason} for u in unmatched],
        "summary": summary_json(summary),
    }


def generated_json(made: GeneratedProblem) -> dict[str, Any]:
    """A generated problem (``POST /v1/problems/generate``'s answer, ``arbiter problem
    generate``'s output): body, key, statement, figure, seed, student, draws."""
    return {
        "problem": made.problem,
        "answer": made.answer,
        "statement": made.statement,
        "figure": made.figure,
        "seed": made.seed,
        "student": made.student,
        "attempts": made.attempts,
    }
