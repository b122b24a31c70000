"""What a problem asks: the answer fields graded, with points, the same for every student.

A problem may carry ``questions``: a list of answer fields (``["value", "best_move"]``,
each worth its default points) or an object of fields and points (``{"value": 2,
"pruned_leaves": 3}``). Without it the problem asks its type's default
(:func:`default_questions`). A field asked and not answered scores 0 ("not answered");
a field answered but not asked is not read, and the grade lists it in ``ignored``.
The rubric still sets points (over the questions' own), tolerance and partial credit;
the fields it ``requires`` are asked too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from analysis.grading.results import GradedItem
from analysis.grading.rubric import Rubric
from games.errors import InvalidInputError, join_pointer
from games.numbers import parse_exact

NOT_ANSWERED: Final = "not answered"
"""The feedback of a field asked and not answered."""

TREE_DEFAULTS: Final[Mapping[str, tuple[str, ...]]] = {
    "minimax": ("value", "best_move", "nodes"),
    "alphabeta": ("value", "best_move", "pruned_leaves"),
    "expectimax": ("value", "best_move", "nodes"),
    "maxn": ("value", "best_move", "nodes"),
}
"""The questions of a tree problem without ``questions`` (a max^n problem with ``max_sum``
asks ``pruned_leaves`` too)."""


def default_questions(kind: str, detail: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The fields a problem of type ``kind`` asks by default.

    ``detail`` says what the default depends on: ``max_sum`` (max^n: the shallow-pruned
    leaves are asked too), ``players`` (matrix: mixed equilibria are asked of
    two-player games only) and ``zero_sum`` (extensive: the value and a strategy of a
    zero-sum game, else a whole profile).
    """
    detail = detail or {}
    if kind in TREE_DEFAULTS:
        asked = TREE_DEFAULTS[kind]
        if kind == "maxn" and detail.get("max_sum") is not None:
            asked = (*asked, "pruned_leaves")
        return asked
    if kind == "matrix":
        return (
            ("pure_equilibria", "equilibria")
            if detail.get("players") == 2
            else ("pure_equilibria",)
        )
    if kind == "lottery":
        return ("emv", "expected_utility", "certainty_equivalent", "risk_premium", "attitude")
    if kind == "preferences":
        return ("axioms", "utility")
    if kind == "eu-consistency":
        return ("consistent", "witness")
    if kind == "extensive":
        return ("value", "strategy") if detail.get("zero_sum") else ("profile",)
    raise ValueError(f"no default questions for problem type {kind!r}")


@dataclass(frozen=True, slots=True)
class Questions:
    """The fields a problem asks, in the order they are graded, and the points the problem
    gives them (a field without points here is worth the rubric's points)."""

    fields: tuple[str, ...]
    points: Mapping[str, Fraction] = field(default_factory=dict)

    def rubric(self, rubric: Rubric, allowed: Sequence[str]) -> Rubric:
        """``rubric`` as it grades this problem: the questions and the rubric's required
        fields (among ``allowed``, in its order) required, and points from the rubric where
        it states them, else from the questions, else the defaults."""
        asked = set(self.fields) | set(rubric.required)
        points = dict(rubric.points)
        for name, amount in self.points.items():
            if name not in rubric.stated:
                points[name] = amount
        required = tuple(name for name in allowed if name in asked)
        return dataclasses.replace(rubric, points=points, required=required)


def parse_questions(
    raw: Any,
    allowed: Sequence[str],
    default: tuple[str, ...],
    pointer: str = "/problem/questions",
) -> Questions:
    """Read a problem's ``questions`` (``None``: the ``default``); every field must be one
    of ``allowed`` (the fields answers to this problem give).

    :raises InvalidInputError: not a list of fields or an object of fields and points, an
        unknown or repeated field, or points that are not a number >= 0.
    """
    if raw is None:
        return Questions(default)
    if isinstance(raw, list):
        names: list[Any] = list(raw)
        where = [join_pointer(pointer, i) for i in range(len(raw))]
        points: dict[str, Fraction] = {}
    elif isinstance(raw, dict):
        names = list(raw)
        where = [join_pointer(pointer, name) for name in raw]
        points = {}
    else:
        raise InvalidInputError(
            "questions is a list of answer fields or an object of fields and points", pointer
        )
    if not names:
        raise InvalidInputError("questions asks at least one answer field", pointer)
    for name, at in zip(names, where, strict=True):
        if not isinstance(name, str) or name not in allowed:
            raise InvalidInputError(
                f"{name!r} is not an answer field of this problem; it asks among "
                f"{', '.join(allowed)}",
                at,
            )
        if isinstance(raw, dict):
            amount = parse_exact(raw[name], at)
            if amount < 0:
                raise InvalidInputError(f"points must be >= 0, got {raw[name]!r}", at)
            points[name] = Fraction(amount)
    if len(set(names)) != len(names):
        raise InvalidInputError("questions names a field twice", pointer)
    order = [name for name in allowed if name in names]
    return Questions(tuple(order), points)


def split_answer(
    answer: Mapping[str, Any], asked: Iterable[str]
) -> tuple[dict[str, Any], list[str]]:
    """The answer's fields that are asked, and the names of those that are not (ignored)."""
    wanted = set(asked)
    kept = {name: value for name, value in answer.items() if name in wanted}
    return kept, [name for name in answer if name not in wanted]


def settle_unanswered(items: list[GradedItem], answered: Iterable[str]) -> list[GradedItem]:
    """``items`` with each field the answer leaves out scored 0, "not answered" (whatever
    an empty answer would have earned: an empty list of pruned leaves may be right)."""
    given = set(answered)
    return [
        item
        if item.field in given
        else dataclasses.replace(
            item, score=0.0, correct=False, given=None, extra=[], wrong=[], feedback=NOT_ANSWERED
        )
        for item in items
    ]


def maximum(rubric: Rubric) -> float:
    """The maximum of every answer graded by ``rubric`` as :meth:`Questions.rubric` made it."""
    return float(sum(rubric.points_for(name) for name in rubric.required))
