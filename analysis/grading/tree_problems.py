"""Grade a student's answer to a tree problem (minimax, alpha-beta, expectimax, max^n),
with partial credit and a diagnosis of the mistakes.

The :class:`Grader` builds the key once (:mod:`analysis.grading.answer_key`), reads each
answer (:mod:`analysis.grading.answers`), scores it field by field
(:mod:`analysis.grading.scoring`, whose docstring gives the partial-credit rules) and,
when it is wrong, replays the usual mistaken conventions
(:mod:`analysis.grading.diagnosis`). Grading spends on the deadline of the computation in
progress (:func:`games.limits.current_deadline`): building the key, reading the answer,
scoring each field and replaying mistakes.
"""

from __future__ import annotations

from typing import Any

from analysis.grading.answer_key import AnswerKey, TreeProblem, correct_key, parse_problem
from analysis.grading.answers import Answer, answer_json, parse_answer
from analysis.grading.diagnosis import diagnose as diagnose_answer
from analysis.grading.diagnosis import mistaken_keys
from analysis.grading.questions import (
    Questions,
    default_questions,
    maximum,
    parse_questions,
    settle_unanswered,
)
from analysis.grading.results import Diagnosis, Grade
from analysis.grading.rubric import FIELDS, SEARCH_FIELDS, Rubric
from analysis.grading.scoring import KeyJson, score_answer
from analysis.trees.alpha_beta import AlphaBetaResult
from analysis.trees.horizon import horizon
from games.errors import InvalidInputError, join_pointer
from games.limits import Limits


class Grader:
    """Grades answers to one problem; the key (and diagnosis searches) are built once."""

    def __init__(self, problem: TreeProblem) -> None:
        self.problem = problem
        self.tree = problem.tree
        key, traced = correct_key(problem)
        self.key: AnswerKey = key
        self.shown = KeyJson(self.tree, key)
        self.traced: AlphaBetaResult | None = traced
        self.children = horizon(self.tree, problem.depth).children
        self._variants: list[tuple[str, str, AnswerKey]] | None = None
        # the fields a problem may ask: no pruned leaves without pruning, no best move
        # from a chance root
        self.fields = tuple(
            name
            for name in FIELDS
            if (name not in SEARCH_FIELDS or getattr(key, name) is not None)
            and (name != "best_move" or key.best_move >= 0)
        )
        detail = {"max_sum": problem.max_sum}
        self.questions: Questions = parse_questions(
            problem.raw.get("questions"), self.fields, default_questions(problem.type, detail)
        )

    @property
    def answer_fields(self) -> tuple[str, ...]:
        """The names an answer may use: every tree field (those this problem's answers
        cannot have are refused with their own error) and ``value_exact``."""
        return (*FIELDS, "value_exact")

    @classmethod
    def from_json(cls, raw: Any, limits: Limits | None = None) -> Grader:
        return cls(parse_problem(raw, limits=limits))

    def variants(self) -> list[tuple[str, str, AnswerKey]]:
        """Keys of the mistaken conventions, built on first use."""
        if self._variants is None:
            self._variants = mistaken_keys(self.problem, self.key)
        return self._variants

    def rubric_for(self, rubric: Rubric | None = None) -> Rubric:
        """``rubric`` (default: the default rubric) with this problem's questions required."""
        return self.questions.rubric(rubric or Rubric(), self.fields)

    def maximum(self, rubric: Rubric | None = None) -> float:
        """The maximum score of every answer to this problem."""
        return maximum(self.rubric_for(rubric))

    def check(
        self, raw_answer: Any, pointer: str = "/answer", asked: tuple[str, ...] = FIELDS
    ) -> Answer:
        """Read an answer (only the fields ``asked``); refuse fields this problem's answers
        cannot have."""
        raw = answer_json(raw_answer, pointer)
        if isinstance(raw, dict):
            for name in SEARCH_FIELDS:
                if name in raw and getattr(self.key, name) is None:
                    raise InvalidInputError(
                        f"{name} is not part of answers to this {self.problem.type} problem",
                        join_pointer(pointer, name),
                    )
        return parse_answer(self.tree, raw, pointer, asked)

    def grade(
        self,
        raw_answer: Any,
        rubric: Rubric | None = None,
        diagnose: bool = True,
        pointer: str = "/answer",
    ) -> Grade:
        """Grade one answer; ``InvalidInputError`` (pointing under ``pointer``) if malformed."""
        rubric = self.rubric_for(rubric)
        answer = self.check(raw_answer, pointer, rubric.required)
        items = score_answer(self.tree, self.key, answer, rubric, self.shown)
        items = settle_unanswered(items, answer.present())
        found: list[Diagnosis] = []
        # a mistake is looked for in what the answer gives: fields left out (or set apart
        # as unreadable) are not mistakes a search could explain
        given = set(answer.present())
        if diagnose and any(not item.correct and item.field in given for item in items):
            found = diagnose_answer(self, answer, rubric)
        return Grade.of(items, found, answer.ignored)
