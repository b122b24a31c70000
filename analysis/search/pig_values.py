"""Pig's win probabilities on integer-indexed arrays: the fast path of value iteration.

Neller and Presser's equations: ``P[i, j, k]`` is the chance that the player to move wins
with score ``i``, the opponent's ``j`` and turn total ``k``; rolling is worth
``(1 - P[j, i, 0] + sum of P[i, j, k + r] for faces r = 2..die) / die`` (a 1 busts and
hands the opponent ``(j, i, 0)``; a total reaching the goal wins: 1), holding (``k > 0``)
``1 - P[j, i + k, 0]``, and ``P`` is the larger. Here ``a = i + k`` (what holding would
bank) indexes the turn, so a state is the integer triple ``(a, i, j)``.

Two remarks make the cyclic equations cheap. Along one turn of a pair of scores ``(i, j)``
the bust always leads to the same state, so every value of the turn is ``A + B * b`` with
``b = 1 - P[j, i, 0]`` (``B``: the chance of busting before the turn ends). And the turn
total only grows, while holding at ``a`` leads to ``(j, a, 0)`` with the same ``t = a + j``.
So one pass over ``t`` from the top down values each state from larger ``t`` (rolls) and
from the turn starts of the same ``t`` (holds), which it settles first: they depend on
each other only in pairs, ``(i, j, 0)`` and ``(j, i, 0)``, two linear equations solved in
closed form. The pass picks each state's move by the bust values of the pass before; when
two passes pick the same moves, the values are those of a policy that is greedy for its own
values: the optimality equations hold (policy iteration; about 7 passes at goal 100).
Vectorised with numpy over the scores, a pass is ``2 goal - 1`` array steps.

The same pass runs on exact fractions (numpy object arrays), from the moves the floats
chose: :func:`pig_table` with ``exact=True`` gives ``P`` as fractions for small goals, and
checks that every state's value is exactly the larger of its two moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from games.errors import InvalidInputError
from games.limits import check_exact_size, current_deadline

Table = npt.NDArray[Any]
"""A float64 array, or an object array of fractions in exact mode."""

MOST_PASSES: Final = 100
"""Passes after which policy iteration stops whatever happens (a bound on the work)."""

SETTLED: Final = 1e-12
"""Float policy iteration also stops when no turn start moves by more than this in a pass:
moves whose two values agree to rounding can flip back and forth for ever (Pig to 200
with a two-sided die flips 67,378 of them every pass, changing values by 6.5e-14)."""

MOST_SWEEPS: Final = 8
"""Sweeps of value iteration after policy iteration, which leaves only rounding to settle."""

FLOAT_CELL_COST: Final = 40
"""Array cells of a pass step per unit of the deadline (about a microsecond)."""

EXACT_CELL_COST: Final = 40
"""Units of the deadline an array cell of fractions costs in a pass step."""


@dataclass(frozen=True, slots=True)
class PigTable:
    """The win probability of every Pig state for the player to move.

    Attributes
    ----------
    goal, die
        The game.
    values
        ``values[a, i, j]``: the mover's chance with score ``i``, the opponent's ``j``, turn
        total ``a - i``; rows ``a >= goal`` are 1 (the turn has reached the goal).
    starts
        ``starts[i, j]``, the value at the start of a turn, ``values[i, i, j]``.
    passes
        Passes of policy iteration made (the last one changed no move).
    sweeps
        Sweeps of value iteration over the whole table after them (0 when exact).
    residual
        The largest change of a value in the last sweep (0 when exact: none can change).
    exact
        Whether the values are fractions.
    """

    goal: int
    die: int
    values: Table
    starts: Table
    passes: int
    sweeps: int
    residual: float
    exact: bool

    def value(self, mine: int, theirs: int, turn: int) -> Any:
        """The mover's chance of winning at ``(mine, theirs, turn)``, the die in hand."""
        return self.values[mine + turn, mine, theirs]

    def rolling(self, mine: int, theirs: int, turn: int) -> Any:
        """The mover's chance once the die is thrown (the value of ``"roll"``)."""
        banked = mine + turn
        faces = sum(self.values[banked + face, mine, theirs] for face in range(2, self.die + 1))
        return (1 - self.starts[theirs, mine] + faces) / self.die

    def holding(self, mine: int, theirs: int, turn: int) -> Any:
        """The mover's chance after ``"hold"`` (``turn > 0``)."""
        return 1 - self.starts[theirs, mine + turn]


def pig_table(goal: int, die: int, *, tolerance: float = 0.0, exact: bool = False) -> PigTable:
    """Solve Pig to ``goal`` with a ``die``-sided die: every state's win probability.

    Floats: policy iteration, then sweeps of value iteration over the whole table until none
    changes a value by more than ``tolerance`` (at most :data:`MOST_SWEEPS`: rounding sets a
    floor near 1e-16). With ``exact``, fractions, from the moves the floats chose, checked
    against the optimality equations exactly.

    :raises InvalidInputError: ``goal`` below 1 or ``die`` below 2.
    :raises LimitExceededError: the request's deadline passed, or (exact) a fraction grew
        past the exact-size limit.
    """
    if goal < 1:
        raise InvalidInputError(f"goal must be at least 1, not {goal}", parameter="goal")
    if die < 2:
        raise InvalidInputError(f"die must be at least 2, not {die}", parameter="die")
    starts, passes = _policy_iteration(goal, die, float, np.full((goal, goal), 0.5))
    if exact:
        starts, more = _policy_iteration(goal, die, Fraction, starts)
        passes += more
    diagonal = (np.arange(goal), np.arange(goal))
    values = _turn_values(goal, die, starts)
    if exact:
        # every value is the larger of its moves' values given the turn starts; those are
        # the policy's own (policy iteration stopped), so the equations hold if they agree
        if not np.array_equal(values[diagonal], starts):
            raise AssertionError(f"Pig to {goal}: exact values off the optimality equations")
        return PigTable(goal, die, values, starts, passes, 0, 0.0, exact)
    sweeps = 0
    while sweeps < MOST_SWEEPS:
        sweeps += 1
        previous, values = values, _turn_values(goal, die, values[diagonal])
        residual = float(np.max(np.abs(values - previous)))
        if residual <= tolerance:
            break
    starts = values[diagonal]
    return PigTable(goal, die, values, starts, passes, sweeps, residual, exact)


def _policy_iteration(
    goal: int, die: int, kind: Callable[[int], Any], starts: Table
) -> tuple[Table, int]:
    """Passes until one picks the same moves as the one before: (turn starts, passes)."""
    holds: npt.NDArray[np.bool_] | None = None
    for passes in range(1, MOST_PASSES + 1):
        previous = starts
        starts, chosen = _policy_pass(goal, die, kind, 1 - previous.T)
        if holds is not None and np.array_equal(chosen, holds):
            return starts, passes
        if kind is float and np.max(np.abs(starts - previous)) <= SETTLED:
            return starts, passes
        holds = chosen
    return starts, MOST_PASSES


def _policy_pass(
    goal: int, die: int, kind: Callable[[int], Any], bust: Table
) -> tuple[Table, npt.NDArray[np.bool_]]:
    """One pass over ``t = a + j`` from the top: each state's move chosen with ``bust``
    (``bust[i, j] = 1 - P[j, i, 0]`` of the previous pass), the values of those moves.

    Layer ``t`` of the turn values is kept as ``A + B * b`` in two arrays over ``(i, j)``,
    in a ring of the last ``die + 1`` layers; ``above_a``/``above_b`` are the sums of layers
    ``t + 2`` to ``t + die`` (the faces 2 to die), kept up to date as ``t`` goes down.
    Returns the turn starts ``P[i, j, 0]`` and which states hold.
    """
    deadline = current_deadline()
    zero, one = kind(0), kind(1)
    dtype = np.float64 if kind is float else object
    ring = die + 1
    ring_a = np.full((ring, goal, goal), one, dtype=dtype)  # above the top: won turns
    ring_b = np.full((ring, goal, goal), zero, dtype=dtype)
    above_a = np.full((goal, goal), kind(die - 1), dtype=dtype)
    above_b = np.full((goal, goal), zero, dtype=dtype)
    starts = np.full((goal, goal), zero, dtype=dtype)
    holds = np.zeros((2 * goal - 1, goal, goal), dtype=bool)
    scores_below = np.arange(goal)[:, None]
    cost = FLOAT_CELL_COST if kind is float else 1
    for t in range(2 * goal - 2, -1, -1):
        slot = t % ring  # holds layer t + die + 1, which leaves the sums
        above_a += ring_a[(t + 2) % ring] - ring_a[slot]
        above_b += ring_b[(t + 2) % ring] - ring_b[slot]
        low, high = max(0, t - goal + 1), min(t, goal - 1)  # j with 0 <= a = t - j < goal
        columns = slice(low, high + 1)
        rows = slice(0, min(goal, t - low + 1))  # i <= a: the largest a is t - low
        roll_a = above_a[rows, columns] / die
        roll_b = (above_b[rows, columns] + 1) / die
        # the turn starts of layer t: (i, t - i) for i = low..high (so low + high = t),
        # each paired with its mirror (t - i, i): the same cells reversed
        scores = np.arange(low, high + 1)
        diagonal = (scores, t - scores - low)  # (row i, column of j = t - i)
        alpha, beta = roll_a[diagonal], roll_b[diagonal]
        mirror_a, mirror_b = alpha[::-1], beta[::-1]
        # x = alpha + beta (1 - y), y = mirror_a + mirror_b (1 - x): solved for x
        start = (alpha + beta - beta * (mirror_a + mirror_b)) / (1 - beta * mirror_b)
        starts[scores, t - scores] = start
        # column j = scores[c] banks a = t - j by holding, handing over (j, a, 0): 1 - start[c]
        hold = (1 - start)[None, :]
        later = scores_below[rows] < (t - scores)[None, :]  # k > 0: holding is a move
        choose = later & (hold > roll_a + roll_b * bust[rows, columns])
        new_a = np.where(choose, hold, roll_a)
        new_b = np.where(choose, zero, roll_b)
        new_a[diagonal] = start
        new_b[diagonal] = zero
        ring_a[slot][rows, columns] = new_a
        ring_b[slot][rows, columns] = new_b
        holds[t][rows, columns] = choose
        cells = new_a.size
        if kind is float:
            deadline.spend(cells // cost + 1)
        else:
            for value in start:
                check_exact_size(value, "/params/goal", "win probability")
            deadline.spend(cells * EXACT_CELL_COST)
    return starts, holds


def _turn_values(goal: int, die: int, starts: Table) -> Table:
    """Every state's value from the turn starts, the turn total from the top down."""
    deadline = current_deadline()
    one = starts.flat[0] * 0 + 1
    values = np.full((goal + die + 1, goal, goal), one, dtype=starts.dtype)
    bust = 1 - starts.T
    for a in range(goal - 1, -1, -1):
        faces = values[a + 2 : a + die + 1, : a + 1].sum(axis=0)
        roll = (bust[: a + 1] + faces) / die
        new = np.maximum(roll, (1 - starts[:, a])[None, :])
        new[a] = roll[a]  # no holding a turn total of 0
        values[a, : a + 1] = new
        cells = goal * (a + 1)
        deadline.spend(cells // FLOAT_CELL_COST + 1 if starts.dtype != object else cells)
    return values


def pig_states(goal: int) -> int:
    """How many states a player can hold the die in: ``(i, j, k)`` with ``i + k < goal``."""
    return goal * goal * (goal + 1) // 2
