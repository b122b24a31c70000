"""The rubric: defaults, reading one from JSON with pointers, and the tolerance on numbers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from analysis.grading.rubric import DEFAULT_POINTS, Rubric, parse_rubric
from games.errors import InvalidInputError


def test_defaults() -> None:
    rubric = parse_rubric(None)
    assert rubric == Rubric()
    assert (rubric.points_for("nodes"), rubric.points_for("axioms")) == (4, 6)
    assert rubric.required == () and rubric.partial_credit and not rubric.ordered


def test_points_given_are_required() -> None:
    rubric = parse_rubric({"points": {"value": "1/2", "pruned_leaves": 3}, "sets": "ordered"})
    assert rubric.points_for("value") == Fraction(1, 2)
    assert rubric.points_for("best_move") == DEFAULT_POINTS["best_move"]
    assert rubric.required == ("value", "pruned_leaves")
    assert rubric.ordered
    # a field is graded when the answer gives it or the rubric requires it
    assert rubric.wants("value", {}) and rubric.wants("nodes", {"nodes": {}})
    assert not rubric.wants("nodes", {"value": 3})


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ([], "/rubric"),
        ({"bogus": 1}, "/rubric/bogus"),
        ({"points": {"bogus": 1}}, "/rubric/points/bogus"),
        ({"points": {"value": -1}}, "/rubric/points/value"),
        ({"points": []}, "/rubric/points"),
        ({"required": ["bogus"]}, "/rubric/required"),
        ({"partial_credit": 1}, "/rubric/partial_credit"),
        ({"tolerance": "loose"}, "/rubric/tolerance"),
        ({"tolerance": {"mode": "absolute", "amount": -1}}, "/rubric/tolerance/amount"),
        ({"sets": "bag"}, "/rubric/sets"),
    ],
)
def test_malformed_rubrics_point_at_the_field(raw: Any, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        parse_rubric(raw)
    assert error.value.errors[0].pointer == pointer


def test_tolerances() -> None:
    exact = Rubric()
    assert exact.close(Fraction(1, 2), Fraction(2, 4)) and not exact.close(Fraction(1, 3), 0)
    absolute = parse_rubric({"tolerance": {"mode": "absolute", "amount": "0.01"}})
    # |3.01 - 3| = 0.01 is within; 0.02 is not
    assert absolute.close(Fraction(301, 100), 3)
    assert not absolute.close(Fraction(302, 100), 3)
    relative = parse_rubric({"tolerance": {"mode": "relative", "amount": "1/10"}})
    # 10% of 10 is 1: 11 is within, 12 is not
    assert relative.close(11, 10) and not relative.close(12, 10)
    # max^n utilities: each one within the tolerance, and as many as expected
    assert absolute.close((Fraction(301, 100), 5), (3, 5))
    assert not absolute.close((3, 5), (3, 5, 0))
