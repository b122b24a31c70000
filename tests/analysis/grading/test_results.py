"""Result objects: the key's numbers under the one number rule, items and totals."""

from __future__ import annotations

from fractions import Fraction

from analysis.grading.results import Expected, Grade, f1_fraction, graded_item
from analysis.grading.rubric import Rubric, parse_rubric


def test_exact_numbers_need_no_exact_string() -> None:
    assert Expected.of(3) == Expected(3, None)
    assert Expected.of(Fraction(4, 2)) == Expected(2, None)  # an integral fraction is 2
    assert Expected.of(["root.0", "root.1"]) == Expected(["root.0", "root.1"], None)
    assert Expected.of({"a": 1, "b": [2, 3]}) == Expected({"a": 1, "b": [2, 3]}, None)


def test_inexact_numbers_get_their_exact_string_beside_them() -> None:
    assert Expected.of(Fraction(9, 2)) == Expected(4.5, "9/2")
    # beyond 64 bits: the nearest double, and the integer exactly
    assert Expected.of(2**64) == Expected(float(2**64), "18446744073709551616")
    # a list (a max^n value): the whole list of exact strings when one entry needs it
    assert Expected.of((Fraction(1, 3), 2)) == Expected([1 / 3, 2], ["1/3", "2"])
    mixed = Expected.of([{"row": [Fraction(1, 2), Fraction(1, 2)], "col": [1, 0]}])
    assert mixed.json == [{"row": [0.5, 0.5], "col": [1, 0]}]
    assert mixed.exact == [{"row": ["1/2", "1/2"], "col": ["1", "0"]}]
    nodes = Expected.of({"root": Fraction(5, 3), "root.0": 1})
    assert nodes == Expected({"root": 5 / 3, "root.0": 1}, {"root": "5/3", "root.0": "1"})


def test_a_float_has_no_exact_form() -> None:
    # an irrational value (sqrt(3) - 1) is known only as a float
    assert Expected.of(0.7320508075688772) == Expected(0.7320508075688772, None)


def test_graded_item_partial_credit() -> None:
    # nodes are worth 4 points: three quarters right scores 3
    item = graded_item("nodes", Fraction(3, 4), Rubric(), Expected.of(3), 2, "3 of 4")
    assert (item.score, item.max_score, item.correct) == (3, 4, False)
    assert (item.missing, item.extra, item.wrong) == ([], [], [])
    strict = parse_rubric({"partial_credit": False})
    item = graded_item("nodes", Fraction(3, 4), strict, Expected.of(3), 2, "3 of 4")
    assert (item.score, item.correct) == (0, False)
    item = graded_item("value", Fraction(1), strict, Expected.of(Fraction(1, 2)), "1/2", "ok")
    assert (item.score, item.expected, item.expected_exact) == (1, 0.5, "1/2")


def test_grade_totals_its_items() -> None:
    items = [
        graded_item("value", Fraction(1), Rubric(), Expected.of(3), 3, "correct"),
        graded_item("pruned_leaves", Fraction(2, 3), Rubric(), Expected([]), [], "missing"),
    ]
    grade = Grade.of(items)
    # 1 + 2 * 2/3 of 1 + 2 points
    assert grade.score == 1 + 4 / 3 and grade.max_score == 3
    assert grade.diagnosis == [] and grade.error is None


def test_f1() -> None:
    # one of two expected, nothing extra: 2 * 1 / 3; one of two with one extra: 2 * 1 / 4
    assert f1_fraction(1, 2, 1) == Fraction(2, 3)
    assert f1_fraction(1, 2, 2) == Fraction(1, 2)
    assert f1_fraction(0, 0, 0) == 1  # nothing to list, nothing listed
