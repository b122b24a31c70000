"""Value iteration for games whose states repeat (Pig): no tree search ends there.

Every state reachable from the position is listed once (an explicit queue, no recursion),
with its kind (terminal, the player's move, the opponent's move, chance) and its successors.
Then all values are updated together, sweep after sweep, vectorised with numpy: a state of
the player takes the largest successor value, the opponent's the smallest, a chance state the
probability-weighted sum; terminal states keep their utility. Sweeps stop when none changes
a value by more than the tolerance (the residual), which bounds the last step, not the
distance to the fixed point: the values are floating-point estimates and never exact (an
exact solution of Pig's cyclic equations is out of reach, so ``complete`` stays false).

Pig to 100 has about a million states; listing them goes through the game's Python rules and
is the slow part (several seconds); the sweeps run at numpy speed. The number of states is
bounded by the active limits' ``max_nodes``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from analysis.search.results import GameSolution, IterationStats, totals
from games.errors import LimitExceededError
from games.limits import active_limits, current_deadline
from games.rules.game import CHANCE, Game

TERMINAL: Final = 0
PLAYER: Final = 1
OPPONENT: Final = 2
RANDOM: Final = 3

DEFAULT_TOLERANCE: Final = Fraction(1, 10**9)


class StateGraph:
    """The states reachable from a position, numbered from 0 (the position), with their edges.

    ``starts[i]`` is where state ``i``'s successors begin in ``targets`` (and ``weights``,
    the probabilities at chance states, 1 elsewhere); terminal states have none.
    """

    def __init__(self, game: Game[Any, Any], root: Any, player: int):
        deadline = current_deadline()
        limit = active_limits().max_nodes
        index: dict[Hashable, int] = {game.key(root): 0}
        states = [root]
        kinds: list[int] = []
        utilities: list[float] = []
        starts: list[int] = []
        targets: list[int] = []
        weights: list[float] = []
        moves: list[list[Any]] = []
        for state in states:  # the list grows as states are found: a breadth-first queue
            deadline.spend(4)
            starts.append(len(targets))
            if game.is_terminal(state):
                kinds.append(TERMINAL)
                utilities.append(float(game.utility(state, player)))
                moves.append([])
                continue
            utilities.append(0.0)
            mover = game.to_move(state)
            if mover == CHANCE:
                kinds.append(RANDOM)
                edges = [(o, float(p)) for o, p in game.chance_outcomes(state)]
            else:
                kinds.append(PLAYER if mover == player else OPPONENT)
                edges = [(move, 1.0) for move in game.actions(state)]
            moves.append([move for move, _ in edges])
            for move, weight in edges:
                child = game.result(state, move)
                key = game.key(child)
                number = index.get(key)
                if number is None:
                    number = index[key] = len(states)
                    states.append(child)
                    if len(states) > limit:
                        raise LimitExceededError(
                            f"more than {limit} states are reachable from the position",
                            parameter="position",
                        )
                targets.append(number)
                weights.append(weight)
        self.moves = moves
        self.kinds = np.array(kinds, dtype=np.int8)
        self.utilities = np.array(utilities, dtype=np.float64)
        self.starts = np.array(starts, dtype=np.int64)
        self.targets = np.array(targets, dtype=np.int64)
        self.weights = np.array(weights, dtype=np.float64)

    def solve(self, tolerance: float) -> tuple[npt.NDArray[np.float64], int, float]:
        """Sweep until no value moves by more than ``tolerance``: (values, sweeps, residual)."""
        deadline = current_deadline()
        values = self.utilities.copy()
        inner = self.kinds != TERMINAL
        if not inner.any():
            return values, 0, 0.0
        starts = self.starts[inner]
        kinds = self.kinds[inner]
        player, opponent = kinds == PLAYER, kinds == OPPONENT
        work = len(self.targets) // 50 + 1  # numpy handles an edge in tens of nanoseconds
        sweeps = 0
        while True:
            successors = values[self.targets]
            updated = np.add.reduceat(successors * self.weights, starts)
            updated[player] = np.maximum.reduceat(successors, starts)[player]
            updated[opponent] = np.minimum.reduceat(successors, starts)[opponent]
            residual = float(np.max(np.abs(updated - values[inner])))
            values[inner] = updated
            sweeps += 1
            deadline.spend(work)
            if residual <= tolerance:
                return values, sweeps, residual


def value_iteration_solution(
    game: Game[Any, Any], state: Any, *, tolerance: Fraction
) -> GameSolution:
    """The position's value to its mover (player 0 at chance) by value iteration.

    The value is rounded to the decimal places the tolerance shows; the best moves are those
    whose successor's value lies within the tolerance of the best one.
    """
    start = time.perf_counter()
    mover = game.to_move(state)
    player = 0 if mover == CHANCE else mover
    graph = StateGraph(game, state, player)
    values, sweeps, residual = graph.solve(float(tolerance))
    places = max(0, math.ceil(-math.log10(tolerance)))
    best_moves: list[Any] = []
    if graph.kinds[0] in (PLAYER, OPPONENT):
        first = int(graph.starts[0])
        successors = values[graph.targets[first : first + len(graph.moves[0])]]
        best = successors.max() if graph.kinds[0] == PLAYER else successors.min()
        best_moves = [
            move
            for move, value in zip(graph.moves[0], successors, strict=True)
            if abs(float(value) - float(best)) <= tolerance
        ]
    iteration = IterationStats(
        depth=0,
        nodes=len(graph.kinds),
        table_hits=0,
        cutoffs=0,
        seconds=time.perf_counter() - start,
        effective_branching=None,
    )
    terminals = int(np.count_nonzero(graph.kinds == TERMINAL))
    return GameSolution(
        algorithm="value_iteration",
        value=Fraction(f"{values[0]:.{places}f}"),
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
