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
    bounds
        A search that deepens on the score (connect four solved to the end): the outcomes the
        root's value is known to lie between after this iteration, worst first; ``None``
        for a search that deepens on the depth.
    """

    depth: int
    nodes: int
    table_hits: int
    cutoffs: int
    seconds: float
    effective_branching: float | None
    bounds: tuple[Outcome, Outcome] | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """An exact outcome for the player to move: the value, and for a win or a loss the plies
    until it comes with best play (``None`` for a draw)."""

    value: Fraction
    plies_to_end: int | None


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move of the root and its exact outcome for the player who makes it."""

    move: Hashable
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class SearchTotals:
    """The work of the whole search: the sums over its iterations.

    ``terminals`` counts terminal states reached (the finished games of a full minimax),
    ``evaluations`` the static evaluations made at the depth cutoff, ``extensions`` the
    singular extensions made (``None``: the search had none to make).
    """

    nodes: int
    table_hits: int
    cutoffs: int
    seconds: float
    terminals: int
    evaluations: int
    extensions: int | None = None


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
    move_values
        On request (``analyze``), every legal move of the root with its exact outcome, in the
        game's move order; ``None`` otherwise.
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
    move_values: tuple[MoveValue, ...] | None = None


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


@dataclass(frozen=True, slots=True)
class ChildStatistics:
    """A child of the MCTS root: its move, visits and total reward (to the root's player)."""

    move: Hashable
    visits: int
    total: Fraction

    @property
    def mean(self) -> Fraction:
        """The mean reward, ``total / visits`` (every child in the tree has a visit)."""
        return self.total / self.visits


@dataclass(frozen=True, slots=True)
class SelectionStep:
    """One step of an MCTS selection: the child stepped to, as it stood before the simulation.

    ``ucb`` is its UCB1 value (``None`` at a chance node, where ``probability`` is the drawn
    outcome's probability instead); ``total`` is the reward of the player who moves into it.
    """

    node: int
    move: Hashable
    visits: int
    total: Fraction
    ucb: float | None
    probability: Fraction | None


@dataclass(frozen=True, slots=True)
class Expansion:
    """The node an MCTS simulation added: its id, its parent's, the move, who made it (the
    player whose reward it will hold) and, for a chance outcome, its probability."""

    node: int
    parent: int
    move: Hashable
    player: int
    probability: Fraction | None


@dataclass(frozen=True, slots=True)
class Playout:
    """The random moves from the new node to the end, and the end's reward to each player."""

    moves: tuple[Hashable, ...]
    rewards: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class Backup:
    """One node's update by back-propagation: the reward added (to ``player``, who moved
    into the node) and the node's visits and total after it."""

    node: int
    player: int
    reward: Fraction
    visits: int
    total: Fraction


@dataclass(frozen=True, slots=True)
class SimulationEvents:
    """The four phases of one MCTS simulation (numbered from 1)."""

    simulation: int
    selection: tuple[SelectionStep, ...]
    expansion: Expansion | None
    """``None`` when selection ended at a finished game or the tree was full."""
    playout: Playout
    backpropagation: tuple[Backup, ...]
    """From the root down to the new node."""


@dataclass(frozen=True, slots=True)
class MctsSolution:
    """What Monte Carlo tree search (UCT) estimates: sampled, so never exact or complete.

    Attributes
    ----------
    algorithm
        ``mcts``.
    player
        Whose rewards ``root_moves`` hold: the player to move (player 0 at a chance root).
    move
        The most visited root move (the first in the game's order among equals); ``None``
        at a chance root.
    reward
        The estimate of the position for ``player`` on the reward scale [0, 1] (1 a win, 1/2
        a draw, 0 a loss): the chosen move's mean reward (at a chance root, the root's).
    value
        ``reward`` on the game's utility scale (``loss + reward * (win - loss)``), to set
        beside the exact value of the other algorithms.
    root_moves
        The root's children in the game's move order, each with its visits and total reward.
    simulations
        Simulations run.
    stopped_by
        ``simulations`` (the number asked for was run) or ``time_limit``.
    exploration, seed
        UCB1's constant and the random stream's seed.
    tree_nodes, tree_full
        Nodes in the tree at the end, and whether the cap stopped it from growing.
    plies
        States entered by the simulations (tree steps and playout moves).
    seconds
        Wall-clock time.
    events
        The four phases of the first simulations, as many as asked for.
    """

    algorithm: str
    player: int
    move: Hashable
    reward: Fraction
    value: Fraction
    root_moves: tuple[ChildStatistics, ...]
    simulations: int
    stopped_by: str
    exploration: float
    seed: int
    tree_nodes: int
    tree_full: bool
    plies: int
    seconds: float
    events: tuple[SimulationEvents, ...]
