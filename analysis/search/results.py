"""What a game search returns: the value, the best moves, and the work per iteration."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class IterationStats:
    """One iteration of iterative deepening (or the one search of a fixed-depth algorithm).

    Attributes
    ----------
    depth
        The depth cutoff of the iteration, in plies.
    nodes
        States entered (the root, interior, terminal, cutoff and quiescence states).
    table_hits
        Transposition-table entries that settled a state without searching it.
    cutoffs
        States that stopped with moves left unsearched (alpha-beta cutoffs).
    seconds
        Wall-clock time of the iteration.
    effective_branching
        ``nodes`` over the previous iteration's ``nodes`` (``None`` for the first).
    """

    depth: int
    nodes: int
    table_hits: int
    cutoffs: int
    seconds: float
    effective_branching: float | None


@dataclass(frozen=True, slots=True)
class SearchTotals:
    """The work of the whole search: the sums over its iterations.

    ``terminals`` counts terminal states reached (the finished games of a full minimax),
    ``evaluations`` the static evaluations made at the depth cutoff.
    """

    nodes: int
    table_hits: int
    cutoffs: int
    seconds: float
    terminals: int
    evaluations: int


@dataclass(frozen=True, slots=True)
class GameSolution:
    """The value of a position and how the search found it.

    Attributes
    ----------
    algorithm
        ``alphabeta``, ``minimax``, ``expectimax`` or ``value_iteration``.
    value
        The position's worth to the player to move (player 0 at a chance state): exact when
        ``complete``; an evaluation backed up from the cutoff otherwise; for value iteration,
        the fixed point rounded to the tolerance's decimal places.
    complete
        Whether the search reached the end of every line it had to look at, so that no
        static evaluation entered the value (value iteration is never complete: it stops at
        a tolerance).
    best_moves
        Every move of the root that achieves the value (among equal outcomes only those
        with the fastest win or the slowest loss), in the game's move order.
    principal_variation
        The line of best play from the root, as far as the search knows it.
    depth_completed
        The depth of the deepest finished iteration (the longest line searched when the
        search ran to the end).
    iterations
        One entry per finished iteration, shallowest first.
    stats
        The totals over the iterations.
    plies_to_end
        For a complete search of a decisive position: plies until the game is won or lost
        with best play on both sides.
    tolerance, sweeps, residual
        Value iteration only: the stopping tolerance, the sweeps made and the largest change
        of the last sweep.
    """

    algorithm: str
    value: Fraction
    complete: bool
    best_moves: tuple[Hashable, ...]
    principal_variation: tuple[Hashable, ...]
    depth_completed: int
    iterations: tuple[IterationStats, ...]
    stats: SearchTotals
    plies_to_end: int | None = None
    tolerance: Fraction | None = None
    sweeps: int | None = None
    residual: float | None = None


@dataclass(frozen=True, slots=True)
class MoveChoice:
    """The engine's move within a time budget.

    ``value`` is the move's worth to the mover as far as ``depth_completed`` plies show it
    (exact when ``complete``).
    """

    move: Hashable
    value: Fraction
    depth_completed: int
    complete: bool
    stats: SearchTotals


def totals(
    iterations: tuple[IterationStats, ...], terminals: int, evaluations: int
) -> SearchTotals:
    """The sums of ``iterations`` (so the totals always add up)."""
    return SearchTotals(
        nodes=sum(i.nodes for i in iterations),
        table_hits=sum(i.table_hits for i in iterations),
        cutoffs=sum(i.cutoffs for i in iterations),
        seconds=sum(i.seconds for i in iterations),
        terminals=terminals,
        evaluations=evaluations,
    )


def branching(nodes: int, previous: IterationStats | None) -> float | None:
    """The effective branching factor: this iteration's nodes over the previous one's."""
    if previous is None or previous.nodes == 0:
        return None
    return nodes / previous.nodes
