"""The roster: reading it (ids, CSV as Canvas and Gradescope export it) and matching each
answer's name to one student, or to none with the reason."""

from __future__ import annotations

import pytest

from analysis.grading.roster import (
    Roster,
    Student,
    parse_roster_text,
    read_roster,
    roster_json,
)
from games.errors import InvalidInputError

CLASS = Roster(
    [
        Student("bob", "bob.smith@uni.edu", "Bob Smith", "12345"),
        Student("ada", "ada@uni.edu", "Lovelace, Ada"),
        Student("s1001"),
        Student("jo1", name="Jo Lee"),
        Student("jo2", name="Jo Lee"),
    ]
)


@pytest.mark.parametrize(
    ("name", "student", "rule"),
    [
        ("bob", "bob", "exact"),
        ("BOB", "bob", "case"),
        (" Bob ", "bob", "case"),
        ("S1001", "s1001", "case"),
        ("bob.smith@uni.edu", "bob", "email"),
        ("ADA@UNI.EDU", "ada", "email"),
        # an address whose local part is an id
        ("s1001@students.uni.edu", "s1001", "email"),
        # Canvas: the user id names the student, whatever the name part says
        ("smithbob_12345_67890_answer", "bob", "canvas"),
        ("whoever_LATE_12345_67890_answer", "bob", "canvas"),
        # Canvas without a known user id: family name then given names
        ("lovelaceada_777_888_answer", "ada", "canvas name"),
        ("smithbob_999_1_hw1", "bob", "canvas name"),
        # Moodle: the full name, either order, any case
        ("Bob Smith_42_assignsubmission_file_", "bob", "moodle"),
        ("ada lovelace_7_assignsubmission_file_answer", "ada", "moodle"),
    ],
)
def test_an_answer_name_matches_one_student(name: str, student: str, rule: str) -> None:
    found = CLASS.match(name)
    assert (found.student, found.rule) == (student, rule)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        # the cases: a name that is no id must never pick a variant
        ("Bob Smith", "names no student on the roster"),
        ("bobby", "names no student on the roster"),
        ("smithjohn_1_2_answer", "names no student on the roster"),
        # two students share a name: refused, not guessed
        ("leejo_5_6_answer", "could be any of jo1, jo2 (canvas name); rename it"),
        ("Jo Lee_3_assignsubmission_file_", "could be any of jo1, jo2 (moodle); rename it"),
    ],
)
def test_an_unknown_or_ambiguous_name_matches_nobody(name: str, reason: str) -> None:
    found = CLASS.match(name)
    assert (found.student, found.reason) == (None, reason)


def test_assign_keeps_the_closest_match_and_lists_the_rest() -> None:
    names = ["BOB", "bob", "smithbob_12345_1_a", "zed", "ada@uni.edu", "ADA@uni.edu"]
    assigned = CLASS.assign(names)
    # bob's exact file wins over the others; ada has two equally close answers: neither
    assert assigned.answers == {"bob": "bob"}
    assert assigned.rules == {"bob": "exact"}
    assert assigned.missing == ["ada", "s1001", "jo1", "jo2"]
    reasons = {u.answer: u.reason for u in assigned.unmatched}
    assert reasons == {
        "zed": "names no student on the roster",
        "BOB": "bob is graded by bob (exact), matched more closely",
        "smithbob_12345_1_a": "bob is graded by bob (exact), matched more closely",
        "ada@uni.edu": "one of several answers for ada (ADA@uni.edu, ada@uni.edu)",
        "ADA@uni.edu": "one of several answers for ada (ADA@uni.edu, ada@uni.edu)",
    }


def test_an_email_and_a_canvas_user_id_tie() -> None:
    # both tie the answer to bob as closely: the instructor decides, not the order
    assigned = CLASS.assign(["smithbob_12345_1_answer", "bob.smith@uni.edu"])
    assert "bob" in assigned.missing
    tied = [u.answer for u in assigned.unmatched]
    assert tied == ["bob.smith@uni.edu", "smithbob_12345_1_answer"]


def test_plain_roster_file() -> None:
    assert parse_roster_text("ada\n\n bob \ncyd\n") == ["ada", "bob", "cyd"]


def test_gradescope_roster_export() -> None:
    text = (
        "First Name,Last Name,SID,Email,Role,Sections\n"
        "Ada,Lovelace,s1,ada@uni.edu,Student,\n"
        "Bob,Smith,s2,bob@uni.edu,Student,\n"
    )
    assert parse_roster_text(text) == [
        {"id": "s1", "email": "ada@uni.edu", "name": "Ada Lovelace"},
        {"id": "s2", "email": "bob@uni.edu", "name": "Bob Smith"},
    ]


def test_canvas_gradebook_export() -> None:
    # Canvas: ID is its own user id, SIS User ID the school's; a Points Possible row
    text = (
        "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,HW1\n"
        "    Points Possible,,,,,9\n"
        '"Smith, John",12345,js01,js01@uni.edu,A,\n'
    )
    (john,) = parse_roster_text(text)
    assert john == {"id": "js01", "email": "js01@uni.edu", "name": "Smith, John", "lms_id": "12345"}
    roster = read_roster([john])
    assert roster.match("smithjohn_12345_67890_answer").student == "js01"


def test_a_csv_without_an_id_column_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="names no id column") as caught:
        parse_roster_text("Name,Email\nAda,ada@uni.edu\n")
    assert caught.value.errors[0].pointer == "/1"


@pytest.mark.parametrize(
    ("raw", "pointer", "message"),
    [
        ([], "/roster", "non-empty list"),
        (["ada", "ada"], "/roster/1", "listed twice"),
        (["ada", ""], "/roster/1", "not empty"),
        ([{"id": "ada", "phone": "1"}], "/roster/0/phone", "unknown roster field"),
        ([{"email": "a@b"}], "/roster/0/id", "not empty"),
        ([7], "/roster/0", "a string"),
    ],
)
def test_bad_rosters_are_refused_with_a_pointer(raw: object, pointer: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as caught:
        read_roster(raw)
    assert caught.value.errors[0].pointer == pointer


def test_the_roster_round_trips_through_its_json() -> None:
    assert roster_json(read_roster(roster_json(CLASS))) == roster_json(CLASS)
    assert roster_json(CLASS)[2] == "s1001"
