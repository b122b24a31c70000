"""Iterated elimination of dominated strategies, by pure or mixed strategies.

Strategy ``s`` of player ``i`` is *strictly dominated* by a mixed strategy
``sigma`` of the same player when ``sum_t sigma_t u_i(t, c) > u_i(s, c)`` against
every surviving profile ``c`` of the others; *weakly* when ``>=`` everywhere and
``>`` somewhere. Pure dominators are checked first, exactly; a mixed dominator is
searched by a linear program (HiGHS), then rationalised and re-checked exactly,
so every reported step carries an exact certificate. One strategy is removed
per step (rows before columns, lowest index first) and the search restarts;
for strict dominance the surviving game does not depend on that order, for
weak dominance it may.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import linprog

from analysis.equilibria.exact_linear_algebra import solve_exact
from games.limits import Deadline, current_deadline, spend_on_size
from games.matrices.model import NormalFormGame
from games.numbers import Exact, exact_text, normalize, to_float

_DENOMINATORS = (2, 3, 4, 6, 10, 12, 100, 1000, 10**6)


@dataclass(frozen=True, slots=True)
class DominanceStep:
    """One elimination: ``player``'s ``strategy`` goes, dominated by ``dominated_by``.

    ``dominated_by`` lists ``(strategy, probability)`` pairs; one pair with
    probability 1 is a pure dominator.
    """

    player: int
    strategy: int
    dominated_by: tuple[tuple[int, Exact], ...]
    weak: bool
    explanation: str


@dataclass(frozen=True, slots=True)
class DominanceResult:
    """The steps in order and the strategies that survive, per player."""

    steps: tuple[DominanceStep, ...]
    surviving: tuple[tuple[int, ...], ...]
    weak: bool


def iterated_elimination(
    game: NormalFormGame, weak: bool = False, mixed: bool = True, deadline: Deadline | None = None
) -> DominanceResult:
    """Remove dominated strategies until none is left.

    Parameters
    ----------
    game
        Any finite normal-form game.
    weak
        Also remove weakly dominated strategies (the result may depend on order).
    mixed
        Look for domination by mixed strategies too (one LP per candidate).
    deadline
        Charged by the work done (the request's deadline by default); each linear
        program is given the time left.

    :raises TimeLimitError: the deadline passed.
    """
    clock = deadline or current_deadline()
    alive = [list(range(size)) for size in game.shape]
    integers = [game.integer_payoffs(player) for player in range(game.players)]
    steps: list[DominanceStep] = []
    while True:
        step = _next_step(game, integers, alive, weak, mixed, clock)
        if step is None:
            break
        steps.append(step)
        alive[step.player].remove(step.strategy)
    return DominanceResult(tuple(steps), tuple(tuple(a) for a in alive), weak)


def _next_step(
    game: NormalFormGame,
    integers: list[npt.NDArray[Any]],
    alive: list[list[int]],
    weak: bool,
    mixed: bool,
    clock: Deadline,
) -> DominanceStep | None:
    for player in range(game.players):
        if len(alive[player]) < 2:
            continue
        table = _own_table(integers[player], alive, player)
        for position, strategy in enumerate(alive[player]):
            # one comparison per entry of the table, vectorised
            clock.spend(1 + table.size // 64)
            found = _pure_dominator(table, position, weak)
            kind_weak = weak and found is not None and _only_weak(table, position, found)
            weights: list[tuple[int, Fraction]] | None = None
            if found is not None:
                weights = [(found, Fraction(1))]
            elif mixed and len(alive[player]) > 2:
                clock.check()
                weights = _mixed_dominator(table, position, False, clock)
                kind_weak = False
                if weights is None and weak:
                    weights = _mixed_dominator(table, position, True, clock)
                    kind_weak = weights is not None
            if weights is not None:
                dominated_by = tuple((alive[player][k], normalize(p)) for k, p in weights)
                return DominanceStep(
                    player,
                    strategy,
                    dominated_by,
                    kind_weak,
                    _explain(game, alive, player, strategy, dominated_by, kind_weak),
                )
    return None


def _own_table(array: npt.NDArray[Any], alive: list[list[int]], player: int) -> npt.NDArray[Any]:
    """Surviving payoffs of ``player``: one row per own strategy, one column per others' profile."""
    restricted = array[np.ix_(*alive)]
    return np.moveaxis(restricted, player, 0).reshape(len(alive[player]), -1)


def _pure_dominator(table: npt.NDArray[Any], position: int, weak: bool) -> int | None:
    """Lowest-index pure strategy dominating row ``position`` (strictly first), or ``None``."""
    target = table[position]
    strict = np.asarray(table > target, dtype=np.bool_)
    if strict.all(axis=1).any():
        return int(np.flatnonzero(strict.all(axis=1))[0])
    if weak:
        at_least = np.asarray(table >= target, dtype=np.bool_).all(axis=1) & strict.any(axis=1)
        if at_least.any():
            return int(np.flatnonzero(at_least)[0])
    return None


def _only_weak(table: npt.NDArray[Any], position: int, other: int) -> bool:
    return not all(table[other] > table[position])


def _mixed_dominator(
    integers: npt.NDArray[Any], position: int, weak: bool, clock: Deadline
) -> list[tuple[int, Fraction]] | None:
    """An exact mixed strategy dominating row ``position``, or ``None``."""
    table = integers.astype(object)
    others = [k for k in range(table.shape[0]) if k != position]
    values = _ratios(table)
    others_values = values[others]
    target = values[position]
    count, columns = len(others), values.shape[1]
    if weak:
        cost = -others_values.sum(axis=1)
        upper = -others_values.T
        rhs = -target
        bounds: list[tuple[float | None, float | None]] = [(0.0, None)] * count
        equality = np.ones((1, count))
    else:
        cost = np.zeros(count + 1)
        cost[-1] = -1.0
        upper = np.hstack([-others_values.T, np.ones((columns, 1))])
        rhs = -target
        bounds = [(0.0, None)] * count + [(None, 1.0)]
        equality = np.hstack([np.ones((1, count)), np.zeros((1, 1))])
    left = clock.remaining()
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=rhs,
        A_eq=equality,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
        options={} if left is None else {"time_limit": max(left, 1e-3)},
    )
    clock.check()
    if result.status != 0:
        return None
    margin = -result.fun - (0.0 if not weak else float(target.sum()))
    if margin <= 1e-9:
        return None
    sigma = np.clip(result.x[:count], 0.0, None)
    for candidate in _exact_candidates(table, values, others, position, sigma, weak, clock):
        if _dominates(table, others, position, candidate, weak, clock):
            return [(others[k], p) for k, p in enumerate(candidate) if p]
    return None


def _ratios(table: npt.NDArray[np.object_]) -> npt.NDArray[np.float64]:
    """``table`` divided by its largest absolute entry, in floats (the entries are integers
    that may be far beyond the float range; the division is exact, then rounded)."""
    entries: list[int] = table.ravel().tolist()
    largest = max((abs(v) for v in entries), default=0) or 1
    ratios = np.array([v / largest for v in entries], dtype=np.float64)
    return ratios.reshape(table.shape)


def _exact_candidates(
    table: npt.NDArray[np.object_],
    values: npt.NDArray[np.float64],
    others: list[int],
    position: int,
    sigma: npt.NDArray[np.float64],
    weak: bool,
    clock: Deadline,
) -> list[list[Fraction]]:
    """Rational guesses near the LP's ``sigma``: simple fractions first, then the vertex.

    ``values`` is ``table`` rescaled to floats (:func:`_ratios`).
    """
    guesses = []
    for bound in _DENOMINATORS:
        clock.spend(len(sigma))
        rounded = [Fraction(float(p)).limit_denominator(bound) for p in sigma]
        total = sum(rounded, Fraction(0))
        if total > 0:
            guesses.append([p / total for p in rounded])
    if weak:
        support = [k for k, p in enumerate(sigma) if p > 1e-9]
        payoff = sigma @ values[others]
        tight = np.flatnonzero(np.abs(payoff - values[position]) < 1e-7)
        equations = [[1] * len(support)] + [[table[others[k], c] for k in support] for c in tight]
        solution = solve_exact(equations, [1] + [table[position, c] for c in tight], clock)
        if solution is not None:
            full = [Fraction(0)] * len(others)
            for k, p in zip(support, solution, strict=True):
                full[k] = p
            guesses.append(full)
    return guesses


def _dominates(
    table: npt.NDArray[np.object_],
    others: list[int],
    position: int,
    sigma: list[Fraction],
    weak: bool,
    clock: Deadline,
) -> bool:
    if any(p < 0 for p in sigma):
        return False
    support = [(others[k], p) for k, p in enumerate(sigma) if p]
    mixed = []
    for c in range(table.shape[1]):
        total = sum((p * table[row, c] for row, p in support), Fraction(0))
        clock.spend(len(support))
        spend_on_size(clock, total)
        mixed.append(total)
    target = table[position]
    if weak:
        return all(u >= t for u, t in zip(mixed, target, strict=True)) and any(
            u > t for u, t in zip(mixed, target, strict=True)
        )
    return all(u > t for u, t in zip(mixed, target, strict=True))


MAX_EXPLAINED_PROFILES = 8
"""Payoff rows are quoted in explanations when the opponents have at most this many profiles."""


def _explain(
    game: NormalFormGame,
    alive: list[list[int]],
    player: int,
    strategy: int,
    dominated_by: tuple[tuple[int, Exact], ...],
    weak: bool,
) -> str:
    labels = game.labels[player]
    if len(dominated_by) == 1:
        by = labels[dominated_by[0][0]]
    else:
        by = " + ".join(f"{_text(p)} {labels[k]}" for k, p in dominated_by)
    who = (
        "row player"
        if game.is_bimatrix and player == 0
        else ("column player" if game.is_bimatrix else f"player {player + 1}")
    )
    strength = "weakly" if weak else "strictly"
    text = (
        f"{labels[strategy]} ({who}) is {strength} dominated by {by}: it pays "
        f"{'no more' if weak else 'less'} against every surviving strategy of the "
        f"{'others' if game.players > 2 else 'opponent'}"
    )
    table = _own_table(game.payoffs[player], alive, player)
    if table.shape[1] > MAX_EXPLAINED_PROFILES:
        return text + "."
    own = alive[player]
    mixed = [
        sum((Fraction(p) * table[own.index(k), c] for k, p in dominated_by), Fraction(0))
        for c in range(table.shape[1])
    ]
    others = [p for p in range(game.players) if p != player]
    profiles = [
        "/".join(game.labels[p][s] for p, s in zip(others, profile, strict=True))
        for profile in itertools.product(*(alive[p] for p in others))
    ]
    mine = ", ".join(_text(v) for v in table[own.index(strategy)])
    theirs = ", ".join(_text(normalize(v)) for v in mixed)
    return f"{text} ({', '.join(profiles)}): {by} pays {theirs}; {labels[strategy]} pays {mine}."


def _text(value: Exact) -> str:
    """``value`` exactly (``"2/3"``), or its nearest double when the exact form is too long."""
    return exact_text(value) or repr(float(to_float(value)))
