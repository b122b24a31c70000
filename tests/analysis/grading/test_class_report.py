"""Reports on many grades: the summary, the CSV and Gradescope's results.json, on grades
built by hand."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from analysis.grading.class_report import (
    csv_text,
    grades_csv,
    gradescope_results,
    prairielearn_results,
    summarize,
)
from analysis.grading.results import Diagnosis, Expected, Grade, graded_item
from analysis.grading.rubric import Rubric
from games.errors import FieldError

RUBRIC = Rubric()
VALUE = graded_item("value", Fraction(1), RUBRIC, Expected.of(3), 3, "correct")
WRONG_VALUE = graded_item("value", Fraction(0), RUBRIC, Expected.of(3), 14, "is 3, not 14")
LEAVES = graded_item("pruned_leaves", Fraction(2, 3), RUBRIC, Expected([]), [], "missing")
STRICT = Diagnosis("strict_pruning", "pruned only on strict inequality")
DEPARTURE = Diagnosis("first_departure", "at node root.1 ...", "root.1")

GRADES = {
    # 1 + 2 of 3: full marks
    "ada": Grade.of(
        [VALUE, graded_item("pruned_leaves", Fraction(1), RUBRIC, Expected([]), [], "")]
    ),
    # 0 + 4/3 of 3: 44%
    "bob": Grade.of([WRONG_VALUE, LEAVES], [STRICT, DEPARTURE, STRICT]),
    # unreadable: 0 of the batch's 3
    "cy": Grade(0.0, 3.0, [], [], FieldError("/answers/cy/value", "not a number")),
}


def test_summary() -> None:
    summary = summarize(GRADES)
    assert (summary.count, summary.errors, summary.max_score) == (3, 1, 3)
    # mean of 3, 4/3 and 0 is 13/9; the median is 4/3
    assert summary.mean == (3 + 4 / 3) / 3
    assert summary.median == 4 / 3
    assert summary.full_marks == 1
    assert {k: v for k, v in summary.distribution.items() if v} == {
        "0-10%": 1,
        "40-50%": 1,
        "90-100%": 1,
    }
    # each code counted once per student; first_departure says where an answer goes
    # wrong, not which mistake it makes: not a common mistake
    assert summary.common_mistakes == [{"code": "strict_pruning", "count": 1}]
    assert (summary.graded, summary.missing, summary.unmatched) == (2, 0, 0)


def test_summary_counts_missing_students_and_unmatched_answers() -> None:
    grades = {**GRADES, "dan": Grade.absent(3.0)}
    summary = summarize(grades, unmatched=2)
    # dan counts as 0: the mean of 3, 4/3, 0 and 0
    assert (summary.count, summary.graded, summary.errors) == (4, 2, 1)
    assert (summary.missing, summary.unmatched) == (1, 2)
    assert summary.mean == (3 + 4 / 3) / 4 and summary.distribution["0-10%"] == 2


def test_csv() -> None:
    assert grades_csv(GRADES).splitlines() == [
        "student,score,max_score,status,value,pruned_leaves,diagnosis,error",
        "ada,3,3,graded,1,2,,",
        "bob,1.33333,3,graded,0,1.33333,strict_pruning;first_departure,",
        "cy,0,3,unreadable,,,,/answers/cy/value: not a number",
    ]


def test_csv_keeps_the_problems_columns_when_no_answer_can_be_read() -> None:
    grades = {"cy": GRADES["cy"], "dan": Grade.absent(3.0)}
    assert grades_csv(grades, ["value", "pruned_leaves"]).splitlines() == [
        "student,score,max_score,status,value,pruned_leaves,diagnosis,error",
        "cy,0,3,unreadable,,,,/answers/cy/value: not a number",
        "dan,0,3,missing,,,,",
    ]


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("ada", "ada"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_csv_text_neutralises_what_a_spreadsheet_would_run(text: str, cell: str) -> None:
    assert csv_text(text) == cell


def test_csv_text_cells_cannot_start_a_formula_and_numbers_stay_numbers() -> None:
    grades = {
        '=HYPERLINK("http://x","y")': Grade(-1.5, 3.0, [], [], None),
        "+cmd|' /C calc'!A0": Grade.of([WRONG_VALUE], [Diagnosis("-x", "a code as a formula")]),
        "@bob": Grade(0.0, 3.0, [], [], FieldError("=1+1", "a pointer as a formula")),
    }
    text = grades_csv(grades)
    # the quote goes inside the csv module's own quoting, which still doubles the quotes
    assert text.splitlines()[1] == '"\'=HYPERLINK(""http://x"",""y"")",-1.5,3,graded,,,'
    rows = list(csv.reader(io.StringIO(text)))
    assert [row[0] for row in rows[1:]] == [
        '\'=HYPERLINK("http://x","y")',
        "'+cmd|' /C calc'!A0",
        "'@bob",
    ]
    assert (rows[1][1], rows[2][4], rows[2][5]) == ("-1.5", "0", "'-x")
    assert rows[3][6] == "'=1+1: a pointer as a formula"


ASKED = {"value": 1.0, "pruned_leaves": 2.0}


def test_gradescope() -> None:
    results = gradescope_results(GRADES["bob"], ASKED, "full", "after_due_date")
    # the diagnosis goes with the total, not in a 0/0 test that would show as passed
    assert results["score"] == 4 / 3
    assert results["output"] == (
        "1.33333 / 3\n\n"
        "[strict_pruning] pruned only on strict inequality\n"
        "[first_departure] at node root.1 ...\n"
        "[strict_pruning] pruned only on strict inequality"
    )
    assert results["visibility"] == "after_due_date"
    assert results["tests"] == [
        {
            "name": "value",
            "score": 0,
            "max_score": 1,
            "status": "failed",
            "output": "is 3, not 14",
            "visibility": "after_due_date",
        },
        {
            "name": "pruned_leaves",
            "score": 4 / 3,
            "max_score": 2,
            "status": "failed",
            "output": "missing",
            "visibility": "after_due_date",
        },
    ]


def test_gradescope_feedback_levels() -> None:
    # score: the total alone; fields: each test's status, no feedback text
    total = gradescope_results(GRADES["bob"], ASKED, "score")
    assert total == {"score": 4 / 3, "output": "1.33333 / 3", "visibility": "visible"}
    fields = gradescope_results(GRADES["ada"], ASKED, "fields")
    assert [(t["name"], t["status"], t["output"]) for t in fields["tests"]] == [
        ("value", "passed", "right"),
        ("pruned_leaves", "passed", "right"),
    ]
    bob = gradescope_results(GRADES["bob"], ASKED, "fields")
    assert [t["output"] for t in bob["tests"]] == ["wrong", "partly right"]
    assert bob["output"] == "1.33333 / 3"


def test_gradescope_malformed_scores_zero_with_the_error() -> None:
    results = gradescope_results(GRADES["cy"], ASKED)
    assert results["score"] == 0
    assert results["output"] == "your answer could not be read: /answers/cy/value: not a number"
    assert [(t["name"], t["score"], t["max_score"]) for t in results["tests"]] == [
        ("value", 0, 1),
        ("pruned_leaves", 0, 2),
    ]


def test_prairielearn() -> None:
    results = prairielearn_results(GRADES["bob"], ASKED, "full")
    # 4/3 of 3 points: a score from 0 to 1
    assert (results["gradable"], results["score"]) == (True, 4 / 9)
    assert [(t["name"], t["points"], t["max_points"]) for t in results["tests"]] == [
        ("value", 0, 1),
        ("pruned_leaves", 4 / 3, 2),
    ]
    assert results["output"].startswith("[strict_pruning]")
    # a malformed answer is not gradable: PrairieLearn charges no attempt for it
    bad = prairielearn_results(GRADES["cy"], ASKED)
    assert (bad["gradable"], bad["score"]) == (False, 0)
    assert "/answers/cy/value: not a number" in bad["message"]
