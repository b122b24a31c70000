"""What grading returns: the grade of each field, the mistakes recognised, the total.

Every grader (tree, matrix, lottery, preference, EU-consistency) builds its items with
:func:`graded_item` and its grade with :meth:`Grade.of`, so that partial credit, totals
and the writing of the key's numbers follow one rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analysis.grading.rubric import Rubric
from games.errors import FieldError
from games.numbers import Exact, normalize, put_number, put_numbers


@dataclass(frozen=True, slots=True)
class Expected:
    """The key's entry for one field, written under Arbiter's number rule: ``json`` with
    every number as a JSON number, ``exact`` the same shape with every number as its
    exact string, or ``None`` when every number of ``json`` is already exact."""

    json: Any
    exact: Any = None

    @classmethod
    def of(cls, value: Any) -> Expected:
        """Write ``value``: a number (int or Fraction), or lists, tuples and objects of
        numbers and other JSON values (floats, which have no exact form, are kept as is)."""
        if _is_exact_number(value):
            value = _normal(value)
            shown: dict[str, Any] = {}
            put_number(shown, "expected", value)
            return cls(shown["expected"], shown.get("expected_exact"))
        shown = {}
        put_numbers(shown, "expected", value)
        return cls(shown["expected"], shown.get("expected_exact"))


NONE: Expected = Expected(None)
"""The entry of a field whose key has nothing to show (e.g. no witness exists)."""


def _is_exact_number(value: Any) -> bool:
    return type(value) is int or isinstance(value, Fraction)


def _normal(value: Exact) -> Exact:
    """An integral Fraction as the int it is, so that it is written exactly."""
    return normalize(value) if isinstance(value, Fraction) else value


@dataclass(frozen=True, slots=True)
class FieldScore:
    """The score of one field of an answer: what a report reads, and what a full item
    (:class:`GradedItem`) and a batch item (``registry.BatchItem``) share."""

    field: str
    score: float
    max_score: float
    correct: bool


@dataclass(frozen=True, slots=True)
class GradedItem(FieldScore):
    """The grade of one field of the answer: the key's entry (``expected``, with
    ``expected_exact`` beside it when some number in it is not exact) and what the
    student wrote (``given``), both JSON-ready."""

    expected: Any
    expected_exact: Any
    given: Any
    missing: list[str]
    extra: list[str]
    wrong: list[str]
    feedback: str
    error: FieldError | None = None
    """Why the field could not be read (it then scores 0; the other fields are graded)."""


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """A mistake recognised in the answer, with a stable ``code``: ``message`` explains it
    with the key's numbers, ``hint`` names it from the student's own answer alone (what
    feedback at the ``hints`` level shows; see :mod:`analysis.grading.feedback`)."""

    code: str
    message: str
    node: str | None = None
    hint: str = ""


@dataclass(frozen=True, slots=True)
class Grade:
    """Total and per-field scores, and the mistakes recognised.

    ``error`` is set (and the score 0) for an answer that is not an object at all;
    ``ignored`` names the fields the answer gives that the problem does not ask (not
    graded); ``errors`` are the fields that could not be read (each scores 0, on its item
    when the problem asks it), the others being graded all the same; ``missing`` marks a
    roster student who handed in no answer (scored 0).
    """

    score: float
    max_score: float
    items: list[GradedItem]
    diagnosis: list[Diagnosis]
    error: FieldError | None = None
    ignored: list[str] = dataclasses.field(default_factory=list)
    errors: list[FieldError] = dataclasses.field(default_factory=list)
    missing: bool = False

    @classmethod
    def of(
        cls,
        items: list[GradedItem],
        diagnosis: Sequence[Diagnosis] = (),
        ignored: Sequence[str] = (),
        errors: Sequence[FieldError] = (),
    ) -> Grade:
        """The grade whose total and maximum are the sums over ``items``."""
        total = sum(item.score for item in items)
        return cls(
            total,
            sum(item.max_score for item in items),
            items,
            list(diagnosis),
            None,
            list(ignored),
            list(errors),
        )

    @classmethod
    def refused(cls, max_score: float, error: FieldError) -> Grade:
        """The grade of an answer that cannot be read at all: 0, with its ``error``."""
        return cls(0.0, max_score, [], [], error)

    @classmethod
    def absent(cls, max_score: float) -> Grade:
        """The grade of a roster student who handed in no answer: 0, marked missing."""
        return cls(0.0, max_score, [], [], None, missing=True)

    @property
    def status(self) -> str:
        """``graded``, ``unreadable`` (not an object: :attr:`error`) or ``missing``."""
        return grade_status(self.error, self.missing)


def grade_status(error: FieldError | None, missing: bool) -> str:
    """A grade's status from its ``error`` and whether its student handed in nothing."""
    if missing:
        return "missing"
    return "unreadable" if error is not None else "graded"


def graded_item(
    name: str,
    fraction: Fraction,
    rubric: Rubric,
    expected: Expected,
    given: Any,
    feedback: str,
    missing: list[str] | None = None,
    extra: list[str] | None = None,
    wrong: list[str] | None = None,
) -> GradedItem:
    """The item of field ``name`` right to ``fraction``: its points times ``fraction``, or
    nothing when the rubric gives no partial credit and the field is not fully right."""
    points = rubric.points_for(name)
    correct = fraction == 1
    if not rubric.partial_credit and not correct:
        fraction = Fraction(0)
    return GradedItem(
        field=name,
        score=float(points * fraction),
        max_score=float(points),
        correct=correct,
        expected=expected.json,
        expected_exact=expected.exact,
        given=given,
        missing=missing or [],
        extra=extra or [],
        wrong=wrong or [],
        feedback=feedback,
    )


def f1_fraction(matched: int, expected: int, given: int) -> Fraction:
    """Partial credit of a listed set: ``2 * matched / (expected + given)`` (1 when both
    are empty), so missing and extra entries both cost."""
    total = expected + given
    return Fraction(2 * matched, total) if total else Fraction(1)
