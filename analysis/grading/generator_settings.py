"""What a teacher asks the problem generator for, the seed of each student's variant, and
the draw of probabilities every family shares.

The settings of every problem family live in one frozen :class:`ProblemSettings`; the
families (:mod:`analysis.grading.tree_generator`, ``matrix_generator``,
``lottery_generator``, ``preference_generator``, ``consistency_generator``,
``extensive_generator``) each read the
fields that concern them and return a :class:`Draft`.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from games.errors import InvalidInputError, join_pointer

MAX_GENERATED_NODES: Final = 2_000
MAX_GENERATED_DEPTH: Final = 8
MAX_ATTEMPTS: Final = 1_000
"""Most draws one request may ask for (each costs up to a few tens of milliseconds)."""
MAX_LEAF_VALUE: Final = 10**15
"""Largest leaf value in magnitude (exact as a JSON number in every client)."""
MAX_SEED: Final = 2**63 - 1
"""Seeds are 0..MAX_SEED: every JSON client holds them exactly as 64-bit integers."""
MAX_STUDENT_ID: Final = 200
"""Longest student id (characters)."""

TREE_TYPES: Final = ("minimax", "alphabeta", "expectimax", "maxn")
PROBLEM_TYPES: Final = (
    *TREE_TYPES,
    "matrix",
    "lottery",
    "preferences",
    "eu-consistency",
    "extensive",
)
MATRIX_KINDS: Final = ("pure", "mixed", "dominance")
LOTTERY_UTILITIES: Final = ("sqrt", "square")


@dataclass(frozen=True, slots=True)
class ProblemSettings:
    """What the teacher asks for.

    ``branching`` and ``values`` are inclusive ranges; ``denominators`` the allowed
    denominators of probabilities; ``min_pruned_leaves`` applies to alpha-beta problems,
    ``players`` to max^n, ``matrix`` (``pure``, ``mixed`` or ``dominance``) to matrix
    problems, ``utility`` (``sqrt``, ``square``, or ``None`` for either) to lottery
    problems, ``consistent`` (``None`` for either) to preference and EU-consistency
    problems. ``seed`` ``None`` draws a fresh seed; ``student`` picks that student's
    variant of the seed's problem.
    """

    type: str = "alphabeta"
    depth: int = 3
    branching: tuple[int, int] = (2, 3)
    values: tuple[int, int] = (0, 20)
    root: str = "max"
    prune_on_equality: bool = True
    seed: int | None = None
    student: str | None = None
    min_pruned_leaves: int = 0
    unique_best_move: bool = False
    no_ties: bool = False
    denominators: tuple[int, ...] = (2, 3, 4)
    max_attempts: int = 200
    players: int = 3
    matrix: str = "pure"
    utility: str | None = None
    consistent: bool | None = None


@dataclass(frozen=True, slots=True)
class Draft:
    """One drawn problem that meets the settings: the body, its key as a gradable answer,
    the statement's title and body (Markdown, without the title), the answer template (every
    field asked, each with a placeholder that gives nothing of the key away) and a way to
    draw its figure (drawn once, for the draw kept)."""

    problem: dict[str, Any]
    answer: dict[str, Any]
    title: str
    statement: str
    template: dict[str, Any]
    figure: Callable[[], str | None] = field(default=lambda: None)


_TREE_SETTINGS: Final = ("depth", "branching", "values", "root", "unique_best_move", "no_ties")
SETTINGS_OF_TYPE: Final[dict[str, tuple[str, ...]]] = {
    "minimax": _TREE_SETTINGS,
    "alphabeta": (*_TREE_SETTINGS, "prune_on_equality", "min_pruned_leaves"),
    "expectimax": (*_TREE_SETTINGS, "denominators"),
    # max^n has no MAX or MIN: player 0 moves at the root
    "maxn": (*(name for name in _TREE_SETTINGS if name != "root"), "players"),
    "matrix": ("matrix", "values"),
    "lottery": ("utility", "denominators"),
    "preferences": ("consistent", "denominators"),
    "eu-consistency": ("consistent",),
    "extensive": ("depth", "branching", "values", "denominators"),
}
"""The settings that shape a problem of each type (besides ``type``, ``seed``, ``student``
and ``max_attempts``, which every type has); the others are not read for that type."""


def settings_json(settings: ProblemSettings) -> dict[str, Any]:
    """The settings as the JSON object :func:`read_settings` reads back (ranges as lists):
    the type, the seed and the student when given, and the settings of that type only
    (:data:`SETTINGS_OF_TYPE`, every one written, defaults too, so that a teacher sees what
    may be set). A setting that no problem of the type reads is left out, whatever its
    value: it draws the same problems without it."""
    applies = SETTINGS_OF_TYPE.get(settings.type, ())
    shaping = [name for name in ProblemSettings.__dataclass_fields__ if name in applies]
    names = ["type", "seed", "student", *shaping, "max_attempts"]
    written: dict[str, Any] = {}
    for name in names:
        value = getattr(settings, name)
        if value is None and name in ("seed", "student"):
            continue
        written[name] = list(value) if isinstance(value, tuple) else value
    return written


def fresh_seed() -> int:
    """A seed from the operating system's randomness, for a request that gives none."""
    return secrets.randbelow(2**32)


def draw_probabilities(
    rng: random.Random, count: int, denominators: tuple[int, ...]
) -> list[Fraction]:
    """``count`` positive probabilities summing to 1 over one of ``denominators`` (one at
    least ``count``; ``count`` itself when none is)."""
    usable = [d for d in denominators if d >= count] or [count]
    whole = rng.choice(usable)
    cuts = sorted(rng.sample(range(1, whole), count - 1))
    return [Fraction(b - a, whole) for a, b in zip([0, *cuts], [*cuts, whole], strict=True)]


def variant_seed(seed: int, student: str | None) -> int:
    """The seed of ``student``'s variant of the problem drawn from ``seed``.

    Without a student it is ``seed`` itself. With one it is the first 63 bits of
    SHA-256 of ``"<seed>:<student>"`` (UTF-8), the same on every machine and in every
    Python (``hash()`` of a string is salted per process).
    """
    if student is None:
        return seed
    digest = hashlib.sha256(f"{seed}:{student}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


_INTEGERS: Final = ("depth", "min_pruned_leaves", "max_attempts", "players")
_BOOLEANS: Final = ("prune_on_equality", "unique_best_move", "no_ties")
_RANGES: Final = ("branching", "values")


def _integer(raw: Any, pointer: str) -> int:
    if type(raw) is not int:
        raise InvalidInputError(f"expected an integer, got {raw!r}", pointer)
    return raw


def _integers(raw: Any, pointer: str, size: int | None) -> tuple[int, ...]:
    """A list of integers (of ``size`` entries), or one integer standing for all of them."""
    if type(raw) is int:
        return (raw,) * (size or 1)
    if not isinstance(raw, list) or not raw or (size is not None and len(raw) != size):
        shape = "[min, max]" if size == 2 else "a non-empty list of integers"
        raise InvalidInputError(f"expected an integer or {shape}, got {raw!r}", pointer)
    return tuple(_integer(item, join_pointer(pointer, i)) for i, item in enumerate(raw))


def read_settings(raw: Any, pointer: str = "") -> ProblemSettings:
    """The generator's settings from a JSON object (a request body, a file), each field
    checked for its type; a field may be absent (its default) and a range given as one
    integer (``"branching": 3`` is ``[3, 3]``). Ranges of values are checked by
    :func:`analysis.grading.problem_generator.generate_problem`.

    :raises InvalidInputError: an unknown field or a value of the wrong type, with the
        pointer of the field under ``pointer``.
    """
    if not isinstance(raw, dict):
        raise InvalidInputError("the settings are an object", pointer)
    known = ProblemSettings.__dataclass_fields__
    read: dict[str, Any] = {}
    for name, value in raw.items():
        where = join_pointer(pointer, name)
        if name not in known:
            raise InvalidInputError(
                f"unknown setting {name!r}; the settings are {', '.join(known)}", where
            )
        if name in _INTEGERS:
            read[name] = _integer(value, where)
        elif name in _BOOLEANS:
            if type(value) is not bool:
                raise InvalidInputError(f"expected true or false, got {value!r}", where)
            read[name] = value
        elif name in _RANGES:
            read[name] = _integers(value, where, 2)
        elif name == "denominators":
            read[name] = _integers(value, where, None)
        elif name == "seed":
            read[name] = None if value is None else _integer(value, where)
        elif name == "consistent":
            if value is not None and type(value) is not bool:
                raise InvalidInputError(f"expected true, false or null, got {value!r}", where)
            read[name] = value
        elif name in ("student", "utility"):
            if value is not None and not isinstance(value, str):
                raise InvalidInputError(f"expected a string or null, got {value!r}", where)
            read[name] = value
        else:  # type, root, matrix
            if not isinstance(value, str):
                raise InvalidInputError(f"expected a string, got {value!r}", where)
            read[name] = value
    return ProblemSettings(**read)
