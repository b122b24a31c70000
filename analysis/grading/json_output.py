"""Grades as JSON: what ``POST /v1/grade`` answers (``api.schemas.grading`` documents it) and
what ``arbiter grade`` prints.

Each function names every field it writes, so that a new attribute of a result cannot
reach an answer by accident; a contract test checks these writers against the API's
schema dump. Numbers were written under the one rule of ``docs/numbers.md`` when the
grade was made (:class:`analysis.grading.results.Expected`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from analysis.grading.class_report import BatchSummary
from analysis.grading.problem_generator import GeneratedProblem
from analysis.grading.results import Diagnosis, Grade, GradedItem


def diagnosis_json(diagnosis: Diagnosis) -> dict[str, Any]:
    return {"code": diagnosis.code, "message": diagnosis.message, "node": diagnosis.node}


def item_json(item: GradedItem) -> dict[str, Any]:
    """One graded field; ``expected_exact`` only where a number of ``expected`` is inexact."""
    out: dict[str, Any] = {
        "field": item.field,
        "score": item.score,
        "max_score": item.max_score,
        "correct": item.correct,
        "missing": list(item.missing),
        "extra": list(item.extra),
        "wrong": list(item.wrong),
        "feedback": item.feedback,
        "expected": item.expected,
    }
    if item.expected_exact is not None:
        out["expected_exact"] = item.expected_exact
    out["given"] = item.given
    return out


def grade_json(grade: Grade) -> dict[str, Any]:
    """A grade: total, per-field items, the diagnosis, and the error of a malformed answer."""
    error = grade.error
    return {
        "score": grade.score,
        "max_score": grade.max_score,
        "diagnosis": [diagnosis_json(d) for d in grade.diagnosis],
        "error": None if error is None else {"pointer": error.pointer, "message": error.message},
        "ignored": list(grade.ignored),
        "items": [item_json(item) for item in grade.items],
    }


def summary_json(summary: BatchSummary) -> dict[str, Any]:
    """The class summary: count, errors, maximum, mean, median, full marks, distribution."""
    return {
        "count": summary.count,
        "errors": summary.errors,
        "max_score": summary.max_score,
        "mean": summary.mean,
        "median": summary.median,
        "full_marks": summary.full_marks,
        "distribution": dict(summary.distribution),
        "common_mistakes": [
            {"code": entry["code"], "count": entry["count"]} for entry in summary.common_mistakes
        ],
    }


def grades_json(grades: Mapping[str, Grade], summary: BatchSummary) -> dict[str, Any]:
    """Every student's full grade and the class summary (``arbiter grade``'s JSON)."""
    return {
        "results": {student: grade_json(grade) for student, grade in grades.items()},
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
