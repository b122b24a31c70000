"""Search scores: game values with the distance to the end folded in (mate distance).

Among equal outcomes the engine prefers the fastest win and the slowest loss. A decisive
terminal state (utility at least ``win`` or at most ``-win``) reached ``ply`` plies below the
root scores ``win + (MATE - ply)`` (or its negative): above every evaluation and every
non-decisive value, and higher the sooner the win comes. Scores are exact (ints where the
value is whole, Fractions otherwise); :func:`game_value` maps a score back to the value.

Transposition-table entries hold scores relative to their own state (:func:`to_table`,
:func:`from_table`), so an entry means the same at whatever ply it is found.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from games.errors import LimitExceededError

MAX_PLY: Final = 400
"""Deepest line a search follows (the recursion of the searches is bounded by it)."""

MATE: Final = MAX_PLY + 1

PROVEN: Final = 1 << 30
"""The depth of a transposition-table entry whose subtree never met the cutoff: valid at every
depth."""

Score = int | Fraction
"""A search score: an int when the value is whole (fast to compare and negate)."""


def exact(value: Fraction) -> Score:
    """``value`` as an int when it is whole (ints compare and negate several times faster)."""
    return value.numerator if value.denominator == 1 else value


def terminal_score(utility: Fraction, win: Score, ply: int) -> Score:
    """The score of a terminal state ``ply`` plies deep, worth ``utility`` to its mover."""
    if utility >= win:
        return win + (MATE - ply)
    if utility <= -win:
        return -win - (MATE - ply)
    return exact(utility)


def to_table(score: Score, win: Score, ply: int) -> Score:
    """A score found ``ply`` plies below the root, relative to its own state."""
    if score > win:
        return score + ply
    if score < -win:
        return score - ply
    return score


def from_table(score: Score, win: Score, ply: int) -> Score:
    """A table score read ``ply`` plies below the root, relative to the root."""
    if score > win:
        return score - ply
    if score < -win:
        return score + ply
    return score


def game_value(score: Score, win: Score) -> Fraction:
    """The game value a root score stands for."""
    if score > win:
        return Fraction(win)
    if score < -win:
        return Fraction(-win)
    return Fraction(score)


def plies_to_end(score: Score, win: Score) -> int | None:
    """Plies until the decisive end a root score stands for (``None`` if not decisive)."""
    if score > win:
        return int(MATE - (score - win))
    if score < -win:
        return int(MATE - (-win - score))
    return None


def too_deep(ply: int) -> LimitExceededError:
    """The error for a line longer than :data:`MAX_PLY` (a cyclic game searched to the end)."""
    return LimitExceededError(
        f"the search reached {ply} plies without the game ending; give a depth, or use "
        "value_iteration for a game whose states repeat",
        parameter="depth",
    )
