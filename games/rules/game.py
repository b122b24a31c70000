"""A game defined by its rules, in the formulation every AI course teaches (AIMA ch. 5).

A :class:`Game` says who moves (``to_move``), what they may do (``actions``), what follows
(``result``), when it ends (``is_terminal``) and what the end is worth (``utility``); a game
with dice also says which outcomes a chance state has (``chance_outcomes``). Rules only: the
search lives in ``analysis.search``, which reads a game through this protocol alone.

States are immutable and hashable (ints or tuples), so a search keys its transposition
table by ``key(state)`` and never copies a board. Moves are whatever the game finds fast
(an int, a tuple); ``move_text`` and ``parse_move`` convert them to and from the game's
documented notation. Positions are written and read in the notation the catalogue documents
(``position_text`` and ``parse_position``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Generic, Protocol, TypeVar

CHANCE: Final = -1
"""``to_move`` of a state where chance (a die) moves next."""

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

Evaluation = Callable[[Any, int], Fraction]
"""A static evaluation: ``(state, player) -> value`` from ``player``'s point of view, strictly
between the game's ``loss`` and ``win`` utilities for a non-terminal state (so a search never
mistakes an estimate for a proven result), and equal to ``utility`` on a terminal state."""


def quoted(text: str, most: int = 60) -> str:
    """``text`` in quotes for an error message, cut short if long (a position from a request)."""
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text)} characters)"


def natural(text: str, digits: int = 6) -> int | None:
    """``text`` as a number if it is 1 to ``digits`` ASCII digits, else None (so a superscript
    digit or a number thousands of digits long is refused, never a crash in ``int``)."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


@dataclass(frozen=True, slots=True)
class Parameter:
    """One documented parameter of a game (``rows``, ``k``, ``misere``)."""

    name: str
    kind: type  # int, bool, or list (a list of ints, such as Nim's piles)
    default: int | bool | tuple[int, ...]
    low: int | None = None
    """Least value (for a list: of each entry)."""
    high: int | None = None
    """Greatest value (for a list: of each entry)."""
    description: str = ""
    min_length: int | None = None
    """For a list: fewest entries."""
    max_length: int | None = None
    """For a list: most entries."""


@dataclass(frozen=True, slots=True)
class EvaluationInfo:
    """A named static evaluation function and what it computes (documented for users)."""

    name: str
    description: str
    function: Evaluation


@dataclass(frozen=True, slots=True)
class GridForm:
    """A k-in-a-row game in the form a compiled search reads (``analysis.search.grid``).

    Boards are in Tromp's layout: bit ``column * (rows + 1) + row``, row 0 at the bottom, a
    spare bit atop each column. A game that offers this form must play exactly as these
    fields say: moves place a stone of the mover (on a cell, or with ``gravity`` in the
    lowest empty cell of a column), k in a row across, up or diagonally ends the game as a
    loss for the player to move, a full board as a draw (utilities -1, 0, +1).
    """

    columns: int
    rows: int
    k: int
    gravity: bool
    moves: tuple[int, ...]
    """Every move of the game, in the order ``actions`` lists them."""
    move_bits: tuple[int, ...]
    """For each of ``moves``: its cell's bit, or with ``gravity`` its column's lowest cell."""
    lines: tuple[int, ...]
    """The lines the evaluations count, as the evaluations count them (bit masks)."""
    evaluations: Mapping[str, tuple[str, int]]
    """Each evaluation's kind (``open_lines``, ``weighted_lines``, ``threats``) and its
    denominator (the value is a whole number over it)."""
    position: Callable[[Any], tuple[int, int]]
    """A state as ``(stones of the player to move, all stones)``."""


class Game(Protocol[S, M]):
    """The rules of a finite game of perfect information (with or without chance)."""

    name: str
    """The catalogue name (``tic_tac_toe``)."""
    players: int
    """Number of players (2 for every game of the catalogue)."""
    has_chance: bool
    """Whether some states are chance states (``to_move(state) == CHANCE``)."""
    win: Fraction
    """The utility of a win (1 for the two-player games; Pig's value is a win probability)."""
    loss: Fraction
    """The utility of a loss: ``-win`` for the +1/0/-1 games, 0 for Pig (a win probability)."""
    evaluations: Mapping[str, EvaluationInfo]
    """Named static evaluations; the first is the default."""

    def initial_state(self) -> S: ...

    def to_move(self, state: S) -> int:
        """The player to move (0 moves first), or :data:`CHANCE`."""
        ...

    def actions(self, state: S) -> Sequence[M]:
        """The legal moves in a fixed, documented order (empty at a terminal state).

        The catalogue's games return tuples, which they may share between calls: never mutate.
        """
        ...

    def result(self, state: S, move: M) -> S: ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, Fraction]]:
        """At a chance state: each outcome (a move for ``result``) with its probability."""
        ...

    def is_terminal(self, state: S) -> bool: ...

    def utility(self, state: S, player: int) -> Fraction:
        """A terminal state's worth to ``player`` (+1 win, 0 draw, -1 loss; Pig: 1 win, 0 loss)."""
        ...

    def key(self, state: S) -> Hashable:
        """The transposition-table key (the state itself, or a canonical form)."""
        ...

    def is_noisy(self, state: S, move: M) -> bool:
        """Whether ``move`` makes the position unquiet (a capture): quiescence searches it."""
        ...

    def move_text(self, state: S, move: M) -> str: ...

    def parse_move(self, state: S, text: str) -> M:
        """:raises InvalidInputError: not a legal move here (``parameter="move"``)."""
        ...

    def position_text(self, state: S) -> str: ...

    def parse_position(self, text: str) -> S:
        """:raises InvalidInputError: not a position of this game (``parameter="position"``)."""
        ...


def states_repeat(game: Game[Any, Any]) -> bool:
    """Whether ``game``'s states can repeat (its state graph has cycles, as Pig's: both
    players may roll 1s for ever), so that no tree search reaches the end of every line and
    value iteration solves it.

    A game says so with a class attribute ``states_repeat``; one that does not is taken to
    repeat when it has chance: value iteration solves any finite game with chance, cycles or
    not, where expectimax would never end on a cycle. A game without chance is taken not to
    repeat (a search that goes ``MAX_PLY`` deep is stopped and says so).
    """
    return bool(getattr(game, "states_repeat", game.has_chance))


@dataclass(frozen=True, slots=True)
class GameSpec(Generic[S, M]):
    """A catalogue entry: how to build the game from its parameters, and its documentation."""

    name: str
    title: str
    description: str
    parameters: tuple[Parameter, ...]
    notation: str
    """How a position is written, with an example."""
    build: Callable[..., Game[S, M]]
