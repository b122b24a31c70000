"""The class roster, and which student each handed-in answer belongs to.

An answer arrives under a name: a file's name, a key of ``{"answers": {...}}``, or the
identity Gradescope gives a submission. With a variant per student that name picks the
tree graded against, so a name that is not a student's must never be graded as if it
were one. :meth:`Roster.match` tries, in order, and takes a rule's answer only when it
names exactly one student:

1. ``exact``: the name is a student's id;
2. ``case``: the same once case and surrounding spaces are set aside (``BOB`` is ``bob``);
3. ``email``: the name is a student's e-mail address (any case), or an address whose
   part before ``@`` is a student's id;
4. ``canvas``: a file name as Canvas downloads submissions,
   ``<lastfirst>[_LATE]_<user id>_<submission id>_<file>``, whose user id is a student's
   ``lms_id``; or else (``canvas name``) whose ``lastfirst`` is a student's name written
   as Canvas writes it (family name then given names, lower case, letters and digits);
5. ``moodle``: a folder or file name as Moodle downloads them,
   ``<Full Name>_<participant id>_assignsubmission_<plugin>[_<file>]``: the full name is a
   student's name (any case, either order of the names).

Anything else is unmatched, with the reason, and graded against nothing. When several
answers name one student, the one matched most closely (:data:`RANKS`) is theirs; when
the closest tie, none is.

A roster file is either one student id a line, or a CSV file with a header row: the id
column is the first of ``id`` (Arbiter's own), ``SIS User ID`` (Canvas), ``SID``
(Gradescope), ``Student ID``, ``Student Number``; ``email`` (or ``SIS Login ID`` when it
holds an address), ``name`` (or ``Student``, or ``First Name`` and ``Last Name``) and
``lms_id`` (or Canvas's ``ID`` beside its ``SIS User ID``) are optional. Rows without an
id (Canvas's "Points Possible") are skipped.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from games.errors import InvalidInputError, join_pointer

MAX_ROSTER: Final = 5000
"""Most students a roster lists (the largest lecture courses have about 2,000)."""
MAX_ID_CHARS: Final = 200
"""Longest student id, e-mail address, name or LMS id kept."""

RULES: Final = ("exact", "case", "email", "canvas", "canvas name", "moodle")
"""The matching rules, strongest first (:meth:`Roster.match`)."""
RANKS: Final = {"exact": 0, "case": 1, "email": 2, "canvas": 2, "canvas name": 3, "moodle": 3}
"""How closely each rule ties an answer to its student: an e-mail address and a Canvas
user id are as good as each other, so two answers matched by them tie."""

_CANVAS: Final = re.compile(r"(?P<name>[a-z0-9]+)(?:_LATE)?_(?P<user>\d+)_(?P<submission>\d+)_.+")
_MOODLE: Final = re.compile(r"(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_\w+")
_ID_COLUMNS: Final = ("id", "sis user id", "sid", "student id", "student number")


@dataclass(frozen=True, slots=True)
class Student:
    """One student: the ``id`` grades are kept under (and variants drawn for), and what
    else can recognise their answers."""

    id: str
    email: str | None = None
    name: str | None = None
    lms_id: str | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """The student an answer's name belongs to (``None``: unmatched), the rule that
    found them (:data:`RULES`) or why none could."""

    student: str | None
    rule: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Unmatched:
    """An answer graded against nothing: its name and why."""

    answer: str
    reason: str


@dataclass(frozen=True, slots=True)
class Assigned:
    """A class's answers sorted out by a roster: ``answers`` maps each student id (in
    roster order) to the answer's name, ``rules`` to the rule that matched it;
    ``unmatched`` are the answers no student owns; ``missing`` the students without one."""

    answers: dict[str, str]
    rules: dict[str, str]
    unmatched: list[Unmatched]
    missing: list[str]


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _canvas_names(name: str) -> set[str]:
    """How Canvas may write ``name`` in a file name: "Smith, John" as ``smithjohn``; a
    name without a comma in either order (``johnsmith`` or ``smithjohn``)."""
    if "," in name:
        family, _, given = name.partition(",")
        return {_letters(family + given)}
    words = name.split()
    if len(words) < 2:
        return {_letters(name)}
    return {_letters(name), _letters(words[-1] + "".join(words[:-1]))}


def _full_names(name: str) -> set[str]:
    if "," in name:
        family, _, given = name.partition(",")
        return {_fold(f"{given} {family}"), _fold(f"{family} {given}")}
    words = name.split()
    return {_fold(name), _fold(" ".join([words[-1], *words[:-1]]))} if words else set()


class Roster:
    """The students of a class, in order, with the look-ups :meth:`match` uses."""

    def __init__(self, students: Sequence[Student]) -> None:
        self.students = tuple(students)
        self.ids = [student.id for student in self.students]
        self._exact = set(self.ids)
        self._case: dict[str, list[str]] = {}
        self._email: dict[str, list[str]] = {}
        self._lms: dict[str, list[str]] = {}
        self._canvas: dict[str, list[str]] = {}
        self._full: dict[str, list[str]] = {}
        for student in self.students:
            self._case.setdefault(_fold(student.id), []).append(student.id)
            if student.email:
                self._email.setdefault(_fold(student.email), []).append(student.id)
            if student.lms_id:
                self._lms.setdefault(student.lms_id.strip(), []).append(student.id)
            if student.name:
                for written in _canvas_names(student.name):
                    self._canvas.setdefault(written, []).append(student.id)
                for written in _full_names(student.name):
                    self._full.setdefault(written, []).append(student.id)

    def __len__(self) -> int:
        return len(self.students)

    def match(self, name: str) -> Match:
        """The student whose answer ``name`` is, by the first rule that names exactly one
        (the module docstring lists them)."""
        if name in self._exact:
            return Match(name, "exact")
        tried: list[tuple[str, list[str]]] = [("case", self._case.get(_fold(name), []))]
        if "@" in name:
            found = self._email.get(_fold(name), [])
            if not found:
                found = self._case.get(_fold(name.partition("@")[0]), [])
            tried.append(("email", found))
        canvas = _CANVAS.fullmatch(name)
        if canvas is not None:
            by_id = self._lms.get(canvas["user"], [])
            if by_id:
                tried.append(("canvas", by_id))
            else:
                tried.append(("canvas name", self._canvas.get(canvas["name"], [])))
        moodle = _MOODLE.match(name)
        if moodle is not None:
            tried.append(("moodle", self._full.get(_fold(moodle["name"]), [])))
        for rule, found in tried:
            if len(set(found)) == 1:
                return Match(found[0], rule)
            if len(set(found)) > 1:
                listed = ", ".join(sorted(set(found)))
                return Match(None, None, f"could be any of {listed} ({rule}); rename it")
        return Match(None, None, "names no student on the roster")

    def assign(self, names: Iterable[str]) -> Assigned:
        """Match every answer's name; a student claimed by several answers keeps the one
        matched by the strongest rule, and when that is a tie none of them (each listed
        as unmatched, so that the instructor decides)."""
        claims: dict[str, list[tuple[int, str, str]]] = {}
        unmatched: list[Unmatched] = []
        for name in names:
            found = self.match(name)
            if found.student is None or found.rule is None:
                unmatched.append(Unmatched(name, found.reason or "names no student"))
                continue
            claims.setdefault(found.student, []).append((RANKS[found.rule], name, found.rule))
        answers: dict[str, str] = {}
        rules: dict[str, str] = {}
        for student in self.ids:
            claimed = sorted(claims.get(student, []))
            if not claimed:
                continue
            if len(claimed) > 1 and claimed[0][0] == claimed[1][0]:
                rivals = ", ".join(name for _, name, _ in claimed)
                unmatched.extend(
                    Unmatched(name, f"one of several answers for {student} ({rivals})")
                    for _, name, _ in claimed
                )
                continue
            _, name, rule = claimed[0]
            answers[student], rules[student] = name, rule
            unmatched.extend(
                Unmatched(other, f"{student} is graded by {name} ({rule}), matched more closely")
                for _, other, _ in claimed[1:]
            )
        missing = [student for student in self.ids if student not in answers]
        return Assigned(answers, rules, unmatched, missing)


def _text(raw: Any, pointer: str, what: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or len(raw) > MAX_ID_CHARS:
        raise InvalidInputError(f"{what} is a string of at most {MAX_ID_CHARS} characters", pointer)
    return raw.strip() or None


def read_roster(raw: Any, pointer: str = "/roster") -> Roster:
    """A roster from JSON: a list of student ids, or of objects ``{"id", "email", "name",
    "lms_id"}`` (only ``id`` required).

    :raises InvalidInputError: not such a list, an empty one, more than
        :data:`MAX_ROSTER` students, an empty id, or an id listed twice.
    """
    if not isinstance(raw, list) or not raw:
        raise InvalidInputError("a roster is a non-empty list of student ids or objects", pointer)
    if len(raw) > MAX_ROSTER:
        raise InvalidInputError(f"a roster lists at most {MAX_ROSTER} students", pointer)
    students: list[Student] = []
    for place, entry in enumerate(raw):
        where = join_pointer(pointer, place)
        if isinstance(entry, dict):
            unknown = [name for name in entry if name not in ("id", "email", "name", "lms_id")]
            if unknown:
                raise InvalidInputError(
                    f"unknown roster field {unknown[0]!r}; students have id, email, name, lms_id",
                    join_pointer(where, unknown[0]),
                )
            fields = {
                name: _text(entry.get(name), join_pointer(where, name), name)
                for name in ("id", "email", "name", "lms_id")
            }
            student = Student(fields["id"] or "", fields["email"], fields["name"], fields["lms_id"])
            where = join_pointer(where, "id")
        else:
            student = Student(_text(entry, where, "a student id") or "")
        if not student.id:
            raise InvalidInputError("a student id is not empty", where)
        students.append(student)
    seen: set[str] = set()
    for place, student in enumerate(students):
        if student.id in seen:
            raise InvalidInputError(
                f"student id {student.id!r} is listed twice", join_pointer(pointer, place)
            )
        seen.add(student.id)
    return Roster(students)


def roster_json(roster: Roster) -> list[Any]:
    """The roster as :func:`read_roster` reads it back: a bare id for a student known by
    the id alone."""
    out: list[Any] = []
    for student in roster.students:
        extra = {
            name: value
            for name, value in (
                ("email", student.email),
                ("name", student.name),
                ("lms_id", student.lms_id),
            )
            if value
        }
        out.append({"id": student.id, **extra} if extra else student.id)
    return out


def _column(header: Mapping[str, int], *names: str) -> int | None:
    for name in names:
        if name in header:
            return header[name]
    return None


def parse_roster_text(text: str) -> list[Any]:
    """A roster file's text as the JSON :func:`read_roster` reads: one id a line, or a
    CSV file whose header names an id column (the module docstring lists the columns).

    :raises InvalidInputError: a CSV header without an id column; pointers name the line
        (``/2``, counting from 1).
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise InvalidInputError("the roster lists no student", "/")
    rows = [row for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) if any(row)]
    header = {_fold(cell): place for place, cell in enumerate(rows[0])}
    if len(rows[0]) < 2 and not header.keys() & set(_ID_COLUMNS):
        return [line.strip() for line in lines]
    canvas = "sis user id" in header
    column = header["sis user id"] if canvas else _column(header, *_ID_COLUMNS)
    if column is None:
        raise InvalidInputError(
            "the roster's header names no id column (id, SIS User ID, SID, Student ID or "
            "Student Number)",
            "/1",
        )
    email = _column(header, "email", "e-mail", "email address")
    if email is None and canvas:
        email = _column(header, "sis login id")
    name = _column(header, "name", "student", "full name")
    first_name, last_name = _column(header, "first name"), _column(header, "last name")
    lms = _column(header, "lms_id", "lms id", "canvas id", "canvas user id")
    if lms is None and canvas:
        lms = _column(header, "id")
    students: list[Any] = []
    for row in rows[1:]:

        def cell(place: int | None, row: list[str] = row) -> str:
            return row[place].strip() if place is not None and place < len(row) else ""

        if not cell(column):
            continue
        full = cell(name) or f"{cell(first_name)} {cell(last_name)}".strip()
        address = cell(email)
        entry = {
            "id": cell(column),
            "email": address if "@" in address else "",
            "name": full,
            "lms_id": cell(lms),
        }
        students.append({key: value for key, value in entry.items() if value})
    return [entry if len(entry) > 1 else entry["id"] for entry in students]
