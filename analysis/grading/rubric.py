"""The rubric: points per answer field, which fields are required, partial credit and
the tolerance on numbers (``docs/grading.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from analysis.grading.answer_key import Value
from games.errors import InvalidInputError, join_pointer
from games.numbers import parse_exact

FIELDS: Final = (
    "value",
    "best_move",
    "nodes",
    "principal_variation",
    "pruned",
    "pruned_leaves",
    "evaluated_leaves",
)
"""The fields of an answer to a tree problem, in the order they are graded."""

SEARCH_FIELDS: Final = frozenset({"pruned", "pruned_leaves", "evaluated_leaves"})
DEFAULT_POINTS: Final[Mapping[str, Fraction]] = {
    "value": Fraction(1),
    "best_move": Fraction(1),
    "nodes": Fraction(4),
    "principal_variation": Fraction(1),
    "pruned": Fraction(2),
    "pruned_leaves": Fraction(2),
    "evaluated_leaves": Fraction(2),
    "pure_equilibria": Fraction(2),  # matrix problems: analysis.grading.matrix_problems
    "equilibria": Fraction(2),
    # lottery problems: analysis.grading.lottery_problems
    "emv": Fraction(1),
    "expected_utility": Fraction(1),
    "certainty_equivalent": Fraction(1),
    "risk_premium": Fraction(1),
    "attitude": Fraction(1),
    # preference problems: analysis.grading.preference_problems
    "axioms": Fraction(6),
    "utility": Fraction(2),
    # EU-consistency problems: analysis.grading.consistency_problems
    "consistent": Fraction(1),
    "witness": Fraction(2),
    # extensive-form problems: analysis.grading.extensive_problems (and value above)
    "strategy": Fraction(2),
    "profile": Fraction(2),
}
TOLERANCES: Final = ("exact", "absolute", "relative")


@dataclass(frozen=True, slots=True)
class Rubric:
    """How an answer is scored.

    Attributes
    ----------
    points
        Points per field (defaults in ``DEFAULT_POINTS``).
    required
        Fields asked of every answer, besides the problem's questions
        (:mod:`analysis.grading.questions`); left out, they score 0.
    partial_credit
        Whether a partly right field earns part of its points.
    tolerance, tolerance_amount
        ``exact``, or ``absolute``/``relative`` with the allowed difference.
    ordered
        Grade ``pruned``/``pruned_leaves``/``evaluated_leaves`` as ordered lists
        (left to right, as the search meets them) rather than as sets.
    stated
        The fields the rubric itself gives points (their points win over a problem's
        ``questions``).
    """

    points: Mapping[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_POINTS))
    required: tuple[str, ...] = ()
    partial_credit: bool = True
    tolerance: str = "exact"
    tolerance_amount: Fraction = Fraction(0)
    ordered: bool = False
    stated: frozenset[str] = frozenset()

    def points_for(self, name: str) -> Fraction:
        """The points ``name`` is worth (its default when the rubric does not say)."""
        return self.points.get(name, DEFAULT_POINTS[name])

    def wants(self, name: str, answer: Mapping[str, Any]) -> bool:
        """Whether field ``name`` is graded: the answer gives it or the rubric requires it."""
        return name in answer or name in self.required

    def close(self, given: Value, expected: Value) -> bool:
        """Whether ``given`` is ``expected`` within the tolerance (per utility for tuples)."""
        if self.tolerance == "exact":
            return given == expected
        if isinstance(given, tuple) or isinstance(expected, tuple):
            return (
                isinstance(given, tuple)
                and isinstance(expected, tuple)
                and len(given) == len(expected)
                and all(self.close(g, e) for g, e in zip(given, expected, strict=True))
            )
        gap = abs(Fraction(given) - Fraction(expected))
        if self.tolerance == "absolute":
            return gap <= self.tolerance_amount
        return gap <= self.tolerance_amount * abs(Fraction(expected))


def parse_rubric(raw: Any, pointer: str = "/rubric") -> Rubric:
    """Read a rubric: ``points``, ``required``, ``partial_credit``, ``tolerance``, ``sets``."""
    if raw is None:
        return Rubric()
    if not isinstance(raw, dict):
        raise InvalidInputError("a rubric is an object", pointer)
    known = {"points", "required", "partial_credit", "tolerance", "sets"}
    for name in raw:
        if name not in known:
            raise InvalidInputError(f"unknown rubric field {name!r}", join_pointer(pointer, name))
    points = dict(DEFAULT_POINTS)
    given_points = raw.get("points", {})
    if not isinstance(given_points, dict):
        raise InvalidInputError("points maps answer fields to numbers", f"{pointer}/points")
    for name, amount in given_points.items():
        where = join_pointer(pointer, "points", name)
        if name not in DEFAULT_POINTS:
            raise InvalidInputError(f"unknown answer field {name!r}", where)
        value = parse_exact(amount, where)
        if value < 0:
            raise InvalidInputError(f"points must be >= 0, got {amount!r}", where)
        points[name] = Fraction(value)
    # fields given points are graded even when the answer leaves them out
    required = raw.get("required", list(given_points))
    if not isinstance(required, list) or any(name not in DEFAULT_POINTS for name in required):
        raise InvalidInputError(
            f"required lists answer fields among {', '.join(FIELDS)}", f"{pointer}/required"
        )
    partial = raw.get("partial_credit", True)
    if type(partial) is not bool:
        raise InvalidInputError("partial_credit must be true or false", f"{pointer}/partial_credit")
    tolerance, amount = "exact", Fraction(0)
    raw_tolerance = raw.get("tolerance", "exact")
    if isinstance(raw_tolerance, dict):
        tolerance = raw_tolerance.get("mode", "absolute")
        amount = Fraction(
            parse_exact(raw_tolerance.get("amount", 0), f"{pointer}/tolerance/amount")
        )
        if amount < 0:
            raise InvalidInputError("tolerance must be >= 0", f"{pointer}/tolerance/amount")
    elif raw_tolerance != "exact":
        tolerance = "invalid"
    if tolerance not in TOLERANCES:
        raise InvalidInputError(
            '"tolerance" is "exact" or {"mode": "absolute" | "relative", "amount": x}',
            f"{pointer}/tolerance",
        )
    sets = raw.get("sets", "set")
    if sets not in ("set", "ordered"):
        raise InvalidInputError('sets is "set" or "ordered"', f"{pointer}/sets")
    return Rubric(
        points,
        tuple(required),
        partial,
        tolerance,
        amount,
        sets == "ordered",
        frozenset(given_points),
    )
