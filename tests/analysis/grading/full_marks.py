"""What every generated problem must satisfy: its own answer, posted with it, scores full
marks out of every field the answer gives (the default points of each)."""

from __future__ import annotations

from analysis.grading.problem_generator import GeneratedProblem
from analysis.grading.registry import grade_answer
from analysis.grading.rubric import DEFAULT_POINTS


def assert_full_marks(made: GeneratedProblem) -> None:
    grade = grade_answer(made.problem, made.answer)
    most = sum(DEFAULT_POINTS[name] for name in made.answer)
    assert grade.max_score == most, made.problem
    assert grade.score == grade.max_score, [i.feedback for i in grade.items if not i.correct]
