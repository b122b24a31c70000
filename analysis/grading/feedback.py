"""What a student is shown of a grade, by feedback level, so that feedback can be given
before the due date without giving the key away.

The levels, least first (:data:`FEEDBACK_LEVELS`):

* ``score``: the total and the maximum only (and why an answer could not be read at all).
* ``fields``: and each field's points and status (:func:`status`): ``right``,
  ``partly right``, ``wrong``, ``not answered`` or ``unreadable`` (with the reason).
* ``hints``: and for each field a hint built from the student's own answer alone: which
  of their entries are wrong or should not be there, whether some are missing; and
  each diagnosis as its ``hint``, which names the mistake without the key's values.
* ``full``: everything: the key's entry beside the student's, every missing entry, each
  diagnosis with the key's numbers.

No level below ``full`` writes a value of the key that the student did not write
(tests/analysis/grading/test_feedback.py checks every output of every level).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from analysis.grading.questions import NOT_ANSWERED
from analysis.grading.results import Diagnosis, Grade, GradedItem
from games.errors import FieldError

if TYPE_CHECKING:
    from analysis.grading.registry import BatchItem

FEEDBACK_LEVELS: Final = ("score", "fields", "hints", "full")
"""The feedback levels, least first (the module docstring says what each shows)."""
STATUSES: Final = ("right", "partly right", "wrong", "not answered", "unreadable")
MAX_NAMED: Final = 10
"""Most entries a hint names (the rest are counted)."""


def shows(level: str, least: str) -> bool:
    """Whether feedback at ``level`` shows what ``least`` shows."""
    return FEEDBACK_LEVELS.index(level) >= FEEDBACK_LEVELS.index(least)


def status(item: GradedItem | BatchItem) -> str:
    """How one field fared (:data:`STATUSES`): ``partly right`` earns some but not all of
    its points."""
    if item.error is not None:
        return "unreadable"
    if item.correct:
        return "right"
    if item.feedback == NOT_ANSWERED:
        return "not answered"
    return "partly right" if item.score > 0 else "wrong"


def _named(entries: list[str]) -> str:
    shown = ", ".join(entries[:MAX_NAMED])
    return shown + (f" and {len(entries) - MAX_NAMED} more" if len(entries) > MAX_NAMED else "")


def hint(item: GradedItem) -> str:
    """One field's feedback at the ``hints`` level: its status, the student's own entries
    judged wrong or out of place, and whether entries are missing (not which, nor how
    many: the count of pruned leaves is part of the key)."""
    state = status(item)
    if state == "unreadable" and item.error is not None:
        return f"could not be read: {item.error.message}"
    if state in ("right", "not answered"):
        return state
    notes = []
    if item.wrong:
        notes.append(f"{_named(item.wrong)} {'is' if len(item.wrong) == 1 else 'are'} wrong")
    if item.extra:
        notes.append(f"{_named(item.extra)} should not be there")
    if item.missing:
        notes.append("some entries are missing")
    return f"{state}: {'; '.join(notes)}" if notes else state


def item_feedback(item: GradedItem, level: str) -> str:
    """One field's feedback text at ``level`` (``fields``: its status)."""
    if level == "full":
        return item.feedback
    if level == "hints":
        return hint(item)
    state = status(item)
    if state == "unreadable" and item.error is not None:
        return f"could not be read: {item.error.message}"
    return state


def diagnosis_text(diagnosis: Diagnosis, level: str) -> str | None:
    """A diagnosis as feedback at ``level`` shows it: its message (``full``), its hint
    (``hints``), or nothing."""
    if level == "full":
        return diagnosis.message
    if level == "hints":
        return diagnosis.hint or diagnosis.code.replace("_", " ")
    return None


def error_json(error: FieldError | None) -> dict[str, str] | None:
    """A field error as JSON, ``{"pointer", "message"}`` (``None`` for none)."""
    return None if error is None else {"pointer": error.pointer, "message": error.message}


def item_view(item: GradedItem, level: str) -> dict[str, Any]:
    """One field as a student sees it at ``level`` (``fields`` or ``hints``)."""
    out: dict[str, Any] = {
        "field": item.field,
        "score": item.score,
        "max_score": item.max_score,
        "status": status(item),
    }
    if item.error is not None:
        out["error"] = error_json(item.error)
    if level == "hints":
        out["hint"] = hint(item)
    return out


def grade_view(grade: Grade, level: str) -> dict[str, Any]:
    """A grade as a student sees it at a level below ``full``: total and maximum, the
    error of an answer that cannot be read at all, and at ``fields`` and above each
    field (:func:`item_view`), at ``hints`` the diagnosis' hints."""
    out: dict[str, Any] = {
        "score": grade.score,
        "max_score": grade.max_score,
        "status": grade.status,
        "error": error_json(grade.error),
    }
    if shows(level, "fields"):
        out["items"] = [item_view(item, level) for item in grade.items]
        out["errors"] = [error_json(error) for error in grade.errors]
        out["ignored"] = list(grade.ignored)
    if shows(level, "hints"):
        out["diagnosis"] = [
            {"code": d.code, "hint": diagnosis_text(d, level)} for d in grade.diagnosis
        ]
    return out


def summary_line(grade: Grade) -> str:
    """``6 / 9`` (and what was not graded), or why the answer could not be read."""
    if grade.missing:
        return f"no answer handed in: 0 / {grade.max_score:g}"
    if grade.error is not None and not grade.error.pointer:
        return grade.error.message  # not about the answer: whose it is (no roster match)
    if grade.error is not None:
        return f"your answer could not be read: {grade.error.pointer}: {grade.error.message}"
    line = f"{grade.score:g} / {grade.max_score:g}"
    if grade.errors:
        line += f"; could not be read: {', '.join(e.pointer for e in grade.errors)}"
    if grade.ignored:
        line += f"; not asked, so not graded: {', '.join(grade.ignored)}"
    return line
