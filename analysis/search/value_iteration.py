"""Value iteration for games whose states repeat (Pig): no tree search ends there.

Every state reachable from the position is listed once (an explicit queue, no recursion),
numbered by the state itself (values here are worth to one player, so a key that merges
positions equal only from the mover's view would not do), with its kind (terminal, the
player's move, the opponent's move, chance) and its successors. Then the values are updated
sweep after sweep, vectorised: chance states first, as a sparse matrix-vector product
(``scipy.sparse``), then the players' states from those fresh values, as the largest (the
player's) or smallest (the opponent's) of a padded array of successor values; terminal
states keep their utility. Updating the two halves in turn carries news two plies a sweep.

Sweeps stop when none changes a value by more than the tolerance (the residual). The residual
bounds the last step, not the distance to the fixed point, and the values are floating-point,
so ``complete`` stays false. Listing the states goes through the game's Python rules and is
the slow part; the number of states is bounded by the active limits' ``max_nodes``.

This generic sweep is the reference. Pig, whose states are known in advance as integer
triples, has a fast path with the same answer (:mod:`analysis.search.pig_values`: Neller
and Presser's equations on numpy arrays, goal 100 in about 0.3 s instead of about 70 s),
which the tests check against this one on small goals.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from analysis.search.pig_values import pig_states, pig_table
from analysis.search.results import GameSolution, IterationStats, totals
from games.errors import InvalidInputError, LimitExceededError
from games.limits import active_limits, current_deadline
from games.rules.game import CHANCE, Game
from games.rules.pig import Pig

TERMINAL: Final = 0
PLAYER: Final = 1
OPPONENT: Final = 2
RANDOM: Final = 3

DEFAULT_TOLERANCE: Final = Fraction(1, 10**9)
FINEST_TOLERANCE: Final = Fraction(1, 10**15)
"""The smallest tolerance taken: the values are doubles, good to about 16 significant digits,
so a change below about 1e-16 cannot be told from rounding, and the value is reported to the
decimal places the tolerance shows (a tolerance of 1e-400, a double's 0, would ask for 400)."""

Vector = npt.NDArray[np.float64]
Indices = npt.NDArray[np.int64]


class StateGraph:
    """The states reachable from a position, numbered from 0 (the position), with their edges.

    State ``i``'s successors are ``targets[starts[i]:starts[i + 1]]``, with the probabilities
    ``weights`` at a chance state (1 elsewhere); ``root_moves`` are the moves (or outcomes) of
    the position, in the order of its successors; ``states[i]`` is state ``i``. Flat arrays:
    Pig to 100 has two million states.
    """

    def __init__(self, game: Game[Any, Any], root: Any, player: int):
        deadline = current_deadline()
        limit = active_limits().max_nodes
        index: dict[Hashable, int] = {root: 0}
        states = [root]
        kinds: list[int] = []
        utilities: list[float] = []
        starts: list[int] = []
        targets: list[int] = []
        weights: list[float] = []
        self.root_moves: list[Any] = []
        last: tuple[object, list[Any], list[float]] = (None, [], [])
        for state in states:  # the list grows as states are found: a breadth-first queue
            deadline.spend(16)  # a state costs 10 to 20 microseconds through the rules
            starts.append(len(targets))
            if game.is_terminal(state):
                kinds.append(TERMINAL)
                utilities.append(float(game.utility(state, player)))
                continue
            utilities.append(0.0)
            mover = game.to_move(state)
            if mover == CHANCE:
                kinds.append(RANDOM)
                outcomes = game.chance_outcomes(state)
                if outcomes is not last[0]:  # a game that hands out one list: convert it once
                    last = (outcomes, [o for o, _ in outcomes], [float(p) for _, p in outcomes])
                moves = last[1]
                weights.extend(last[2])
            else:
                kinds.append(PLAYER if mover == player else OPPONENT)
                moves = list(game.actions(state))
                weights.extend(1.0 for _ in moves)
            if len(starts) == 1:  # the position itself
                self.root_moves = moves
            for move in moves:
                child = game.result(state, move)
                number = index.get(child)
                if number is None:
                    number = index[child] = len(states)
                    states.append(child)
                    if len(states) > limit:
                        raise LimitExceededError(
                            f"more than {limit} states are reachable from the position",
                            parameter="position",
                        )
                targets.append(number)
        starts.append(len(targets))
        self.states = states
        self.kinds = np.array(kinds, dtype=np.int8)
        self.utilities = np.array(utilities, dtype=np.float64)
        self.starts = np.array(starts, dtype=np.int64)
        self.targets = np.array(targets, dtype=np.int64)
        self.weights = np.array(weights, dtype=np.float64)

    def rows_of(self, kind: int) -> tuple[Indices, Indices]:
        """The states of ``kind`` and how many successors each has."""
        rows = np.flatnonzero(self.kinds == kind)
        return rows, self.starts[rows + 1] - self.starts[rows]

    def chance_matrix(self) -> tuple[Indices, Any]:
        """The chance states and the sparse matrix of their outcome probabilities."""
        from scipy import sparse  # here: importing it costs every command 0.25 s

        rows, lengths = self.rows_of(RANDOM)
        pointers = np.concatenate(([0], np.cumsum(lengths)))
        # the edges of the chance states, in order: each state's run of edge numbers
        edges = np.repeat(self.starts[rows] - pointers[:-1], lengths) + np.arange(pointers[-1])
        shape = (len(rows), len(self.kinds))
        matrix = sparse.csr_matrix((self.weights[edges], self.targets[edges], pointers), shape)
        return rows, matrix

    def padded(self, kind: int) -> tuple[Indices, Indices]:
        """The states of ``kind`` and their successors, padded by repeating the first one
        (a repeat changes neither a maximum nor a minimum)."""
        rows, lengths = self.rows_of(kind)
        width = int(lengths.max()) if len(rows) else 1
        columns = np.arange(width)[None, :]
        columns = np.where(columns < lengths[:, None], columns, 0)
        return rows, self.targets[self.starts[rows][:, None] + columns]

    def solve(self, tolerance: float) -> tuple[Vector, int, float]:
        """Sweep until no value moves by more than ``tolerance``: (values, sweeps, residual)."""
        deadline = current_deadline()
        values = self.utilities.copy()
        chance, matrix = self.chance_matrix()
        mine, my_moves = self.padded(PLAYER)
        theirs, their_moves = self.padded(OPPONENT)
        work = len(self.targets) // 50 + 1  # numpy handles an edge in tens of nanoseconds
        sweeps = 0

        def settle(rows: Indices, fresh: Vector) -> float:
            """Write the fresh values of ``rows``; the largest change."""
            if not len(rows):
                return 0.0
            change = float(np.max(np.abs(fresh - values[rows])))
            values[rows] = fresh
            return change

        while True:
            residual = settle(chance, np.asarray(matrix @ values, dtype=np.float64))
            residual = max(residual, settle(mine, values[my_moves].max(axis=1)))
            residual = max(residual, settle(theirs, values[their_moves].min(axis=1)))
            sweeps += 1
            deadline.spend(work)
            if residual <= tolerance:
                return values, sweeps, residual


def check_tolerance(tolerance: Fraction) -> None:
    """Refuse a tolerance outside [:data:`FINEST_TOLERANCE`, 1).

    :raises InvalidInputError: the tolerance is out of range (``parameter="tolerance"``).
    """
    if not FINEST_TOLERANCE <= tolerance < 1:
        shown = Decimal(tolerance.numerator) / Decimal(tolerance.denominator)
        raise InvalidInputError(
            f"tolerance must be at least 1e-15 (the values are doubles, good to about 16 "
            f"digits) and below 1, not {shown:.6g}",
            parameter="tolerance",
        )


def value_iteration_solution(
    game: Game[Any, Any], state: Any, *, tolerance: Fraction, compact: bool = True
) -> GameSolution:
    """The position's value to its mover (player 0 at chance) by value iteration.

    The value is rounded to the decimal places the tolerance shows; the best moves are those
    whose successor's value lies within the tolerance of the best one. ``compact`` takes
    Pig's fast path (:func:`pig_solution`); off, the generic sweep over the rules.

    :raises InvalidInputError: the tolerance is below :data:`FINEST_TOLERANCE` or not below 1.
    """
    check_tolerance(tolerance)
    if compact and isinstance(game, Pig) and not game.is_terminal(state):
        return pig_solution(game, state, tolerance)
    start = time.perf_counter()
    mover = game.to_move(state)
    player = 0 if mover == CHANCE else mover
    graph = StateGraph(game, state, player)
    values, sweeps, residual = graph.solve(float(tolerance))
    best_moves: list[Any] = []
    if graph.kinds[0] in (PLAYER, OPPONENT):
        successors = [float(values[n]) for n in graph.targets[graph.starts[0] : graph.starts[1]]]
        best = max(successors) if graph.kinds[0] == PLAYER else min(successors)
        best_moves = [
            move
            for move, value in zip(graph.root_moves, successors, strict=True)
            if abs(value - best) <= tolerance
        ]
    terminals = int(np.count_nonzero(graph.kinds == TERMINAL))
    return answer(
        float(values[0]), best_moves, tolerance, len(graph.kinds), terminals, start, sweeps,
        residual,
    )  # fmt: skip


def pig_solution(game: Pig, state: Any, tolerance: Fraction) -> GameSolution:
    """Pig's fast path: the table of :func:`analysis.search.pig_values.pig_table` read at
    ``state``; ``sweeps`` counts its passes of policy iteration and sweeps of value
    iteration, ``nodes`` the states it values."""
    start = time.perf_counter()
    table = pig_table(game.goal, game.die, tolerance=float(tolerance))
    side, mine, theirs, turn, rolling = state
    best_moves: list[Any] = []
    if rolling:  # chance moves: the value is player 0's
        value = float(table.rolling(mine, theirs, turn))
        value = value if side == 0 else 1 - value
    else:
        value = float(table.value(mine, theirs, turn))
        moves = {"roll": float(table.rolling(mine, theirs, turn))}
        if turn:
            moves["hold"] = float(table.holding(mine, theirs, turn))
        best = max(moves.values())
        best_moves = [move for move, worth in moves.items() if abs(worth - best) <= tolerance]
    return answer(
        value, best_moves, tolerance, pig_states(game.goal), 0, start,
        table.passes + table.sweeps, table.residual,
    )  # fmt: skip


def answer(
    value: float,
    best_moves: list[Any],
    tolerance: Fraction,
    nodes: int,
    terminals: int,
    start: float,
    sweeps: int,
    residual: float,
) -> GameSolution:
    """The solution: ``value`` rounded to the decimal places ``tolerance`` shows."""
    places = max(0, math.ceil(-math.log10(tolerance)))
    iteration = IterationStats(
        depth=0,
        nodes=nodes,
        table_hits=0,
        cutoffs=0,
        seconds=time.perf_counter() - start,
        effective_branching=None,
    )
    return GameSolution(
        algorithm="value_iteration",
        value=Fraction(f"{value:.{places}f}"),
        complete=False,
        best_moves=tuple(best_moves),
        principal_variation=tuple(best_moves[:1]),
        depth_completed=0,
        iterations=(iteration,),
        stats=totals((iteration,), terminals, 0),
        tolerance=tolerance,
        sweeps=sweeps,
        residual=residual,
    )
