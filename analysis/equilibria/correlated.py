"""Correlated and coarse correlated equilibria of normal-form games, exact by linear programming.

A *correlated equilibrium* (Aumann 1974) is a distribution ``p`` over pure profiles such
that no player, told only his own recommended strategy ``s``, gains by playing ``t``
instead: for every player ``i`` and strategies ``s != t``

    sum over the others' profiles r of  p(s, r) * (u_i(s, r) - u_i(t, r))  >=  0.

A *coarse correlated equilibrium* (Hannan; Moulin and Vial 1978; the limit of no-regret
play, Hart and Mas-Colell 2000) only asks that no player gains by committing to ``t``
before hearing anything: ``sum_profiles p(x) * (u_i(x) - u_i(t, x_-i)) >= 0`` for every
``i`` and ``t``. Both sets are polytopes (every Nash equilibrium lies in the first, which
lies in the second), so the welfare-maximising and -minimising ones solve linear programs

    maximise (or minimise)  sum_x p(x) * sum_i u_i(x)
    subject to  G p >= 0  (one row per incentive constraint),  sum(p) = 1,  p >= 0.

The LP is solved in floats by HiGHS (interior point, then crossover to a vertex), given the
time left of the request's deadline. The vertex is then recomputed exactly from the
constraints HiGHS left tight, in integers (payoffs scaled by their common denominator),
and *verified*: every incentive constraint holds exactly, the probabilities are
non-negative and sum to 1, and an exact dual solution ``(z, y)`` (``y >= 0``,
``z - (G^T y)_x >= w_x`` for every profile ``x``, ``z == w . p``) certifies that no
distribution does better. When that fails on a small LP (payoffs whose differences doubles
cannot see), an exact simplex over rationals solves it again, for at most
:data:`SIMPLEX_SECONDS`. A certificate that still fails, or numbers past the exact-size
limit, leave the float answer, flagged ``exact=False``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

import numpy as np
import numpy.typing as npt
from scipy.linalg import qr
from scipy.optimize import linprog
from scipy.sparse import csr_matrix

from analysis.equilibria.exact_linear_algebra import solve_integer
from games.errors import DomainError, ExactSizeError, LimitExceededError, TimeLimitError
from games.limits import Deadline, check_exact_size, current_deadline
from games.matrices.model import NormalFormGame, ObjectArray, scaled_to_integers
from games.numbers import Exact, normalize

MAX_COEFFICIENTS: Final = 150_000
"""Most non-zero coefficients of one LP (profiles times each profile's constraints): a
40x40 game's coarse LP has 128,000, a 50x50 game's 250,000 (whose minimum-welfare LP takes
HiGHS some 20 s on a random game)."""

MAX_EXACT_SUPPORT: Final = 120
"""Largest vertex (profiles of positive probability, or positive dual prices) recomputed with
rationals by default (about a second); larger answers stay in floats."""

MAX_FORCED_EXACT_SUPPORT: Final = 250
"""Largest vertex recomputed with rationals when exact answers are asked for (elimination
grows as the cube of the support: some 7 s at 240 on a random 20x20 game)."""

MAX_SIMPLEX_CELLS: Final = 1_200
"""Largest dictionary (profiles times constraints) solved by the exact simplex when the float
answer cannot be certified (a 5x5 game's correlated LP has 1,075)."""

SIMPLEX_SECONDS: Final = 1.0
"""Most time the exact simplex may take before the float answer stands (Bland's rule on these
degenerate LPs can take thousands of pivots: 12 s on a random 6x6 game)."""

_TIGHT: Final = 1e-9

Objective = Literal["max_welfare", "min_welfare"]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class IncentiveConstraint:
    """One incentive constraint: ``player``, told ``recommended``, gains nothing by ``deviation``.

    ``recommended`` is ``None`` for a coarse constraint (deviate before being told anything).
    """

    player: int
    recommended: int | None
    deviation: int


@dataclass(frozen=True, slots=True)
class CorrelatedEquilibrium:
    """A welfare-extreme (coarse) correlated equilibrium.

    Attributes
    ----------
    coarse
        True for a coarse correlated equilibrium.
    objective
        ``max_welfare`` or ``min_welfare``.
    distribution
        ``(profile, probability)`` for every pure profile of positive probability, in
        profile order.
    payoffs
        Each player's expected payoff.
    welfare
        The sum of ``payoffs``: the optimum of the LP.
    binding
        Incentive constraints that hold with equality (slack 0), in order of player,
        recommended strategy and deviation. For correlated equilibria, only strategies
        recommended with positive probability are listed (a strategy never recommended
        binds every constraint trivially).
    exact
        True when every number is an exact rational, verified and certified optimal exactly.
    """

    coarse: bool
    objective: Objective
    distribution: tuple[tuple[tuple[int, ...], Exact | float], ...]
    payoffs: tuple[Exact | float, ...]
    welfare: Exact | float
    binding: tuple[IncentiveConstraint, ...]
    exact: bool


@dataclass(frozen=True, slots=True)
class CorrelatedEquilibria:
    """The welfare-maximising and -minimising correlated and coarse correlated equilibria."""

    max_welfare: CorrelatedEquilibrium
    min_welfare: CorrelatedEquilibrium
    coarse_max_welfare: CorrelatedEquilibrium
    coarse_min_welfare: CorrelatedEquilibrium


@dataclass(frozen=True, slots=True)
class _Program:
    """The incentive constraints ``G p >= 0`` of one game, in integers.

    Row ``k`` has coefficients ``coefficients[k]`` (Python ints) on profiles ``columns[k]``
    (flat C-order indices); ``welfare`` is ``sum_i u_i`` per profile, scaled like ``G``.
    """

    constraints: tuple[IncentiveConstraint, ...]
    columns: tuple[IntArray, ...]
    coefficients: tuple[ObjectArray, ...]
    welfare: ObjectArray
    payoffs: tuple[ObjectArray, ...]
    unit: int
    shape: tuple[int, ...]

    @property
    def profiles(self) -> int:
        return math.prod(self.shape)


def lp_size(shape: tuple[int, ...], coarse: bool = False) -> int:
    """Non-zero coefficients of the incentive constraints of a game of ``shape``."""
    profiles = math.prod(shape)
    per_profile = sum(size if coarse else size - 1 for size in shape)
    return profiles * per_profile


def check_size(shape: tuple[int, ...]) -> None:
    """Refuse a game whose correlated LPs would exceed :data:`MAX_COEFFICIENTS`.

    :raises LimitExceededError: the game is too large (parameter ``parts``).
    """
    size = max(lp_size(shape), lp_size(shape, coarse=True))
    if size > MAX_COEFFICIENTS:
        dimensions = "x".join(str(m) for m in shape)
        raise LimitExceededError(
            f"correlated equilibria are computed for games whose linear program has at most "
            f"{MAX_COEFFICIENTS:,} coefficients; a {dimensions} game needs {size:,}",
            parameter="parts",
        )


def correlated_equilibria(
    game: NormalFormGame, exact: bool | None = None, deadline: Deadline | None = None
) -> CorrelatedEquilibria:
    """The welfare-maximising and -minimising correlated and coarse correlated equilibria.

    Parameters
    ----------
    game
        Any finite normal-form game.
    exact
        False: floats only; otherwise exact answers where they can be certified.

    Raises
    ------
    LimitExceededError
        The game is too large (:func:`check_size`).
    TimeLimitError
        The deadline passed.
    """
    clock = deadline or current_deadline()
    check_size(game.shape)
    found = []
    for coarse in (False, True):
        program = _program(game, coarse, clock)
        for objective in ("max_welfare", "min_welfare"):
            found.append(_solve(program, coarse, objective, exact, clock))
    return CorrelatedEquilibria(*found)


def welfare_extreme_equilibrium(
    game: NormalFormGame,
    objective: Objective = "max_welfare",
    coarse: bool = False,
    exact: bool | None = None,
    deadline: Deadline | None = None,
) -> CorrelatedEquilibrium:
    """One welfare-maximising (or -minimising) correlated (or coarse correlated) equilibrium.

    :raises LimitExceededError: the game is too large (:func:`check_size`).
    :raises DomainError: ``objective`` is neither ``max_welfare`` nor ``min_welfare``.
    :raises TimeLimitError: the deadline passed.
    """
    if objective not in ("max_welfare", "min_welfare"):
        raise DomainError(f"unknown objective {objective!r}", parameter="objective")
    clock = deadline or current_deadline()
    check_size(game.shape)
    return _solve(_program(game, coarse, clock), coarse, objective, exact, clock)


def _program(game: NormalFormGame, coarse: bool, clock: Deadline) -> _Program:
    """The incentive constraints of ``game`` with payoffs scaled to integers."""
    clock.spend(game.payoffs[0].size * game.players)
    stacked = np.stack(game.payoffs)
    integers, unit = scaled_to_integers(stacked, clock)
    shape = game.shape
    index = np.arange(math.prod(shape)).reshape(shape)
    constraints: list[IncentiveConstraint] = []
    columns: list[IntArray] = []
    coefficients: list[ObjectArray] = []
    for player, size in enumerate(shape):
        own = integers[player]
        for deviation in range(size):
            clock.spend(own.size)
            # u_i(t, x_-i) at every profile x: the deviation's slice, repeated along axis i
            deviated = np.take(own, [deviation], axis=player)
            if coarse:
                constraints.append(IncentiveConstraint(player, None, deviation))
                columns.append(index.ravel())
                coefficients.append((own - deviated).ravel())
                continue
            for recommended in range(size):
                if recommended == deviation:
                    continue
                kept = np.take(own, recommended, axis=player)
                gain = kept - np.take(deviated, 0, axis=player)
                constraints.append(IncentiveConstraint(player, recommended, deviation))
                columns.append(np.take(index, recommended, axis=player).ravel())
                coefficients.append(gain.ravel())
    if not coarse:
        order = sorted(range(len(constraints)), key=lambda k: _order(constraints[k]))
        constraints = [constraints[k] for k in order]
        columns = [columns[k] for k in order]
        coefficients = [coefficients[k] for k in order]
    welfare = integers.sum(axis=0).ravel()
    payoffs = tuple(integers[player].ravel() for player in range(game.players))
    return _Program(
        tuple(constraints),
        tuple(columns),
        tuple(coefficients),
        welfare,
        payoffs,
        unit,
        shape,
    )


def _order(constraint: IncentiveConstraint) -> tuple[int, int, int]:
    return (constraint.player, constraint.recommended or 0, constraint.deviation)


def _solve(
    program: _Program,
    coarse: bool,
    objective: Objective,
    exact: bool | None,
    clock: Deadline,
) -> CorrelatedEquilibrium:
    sign = 1 if objective == "max_welfare" else -1
    goal = program.welfare * sign
    p, y, reduced, matrix = _float_lp(program, goal, clock)
    if exact is not False:
        largest = MAX_EXACT_SUPPORT if exact is None else MAX_FORCED_EXACT_SUPPORT
        certified = _certify(program, goal, p, y, reduced, matrix, largest, clock)
        if certified is None and program.profiles * (len(program.columns) + 3) <= MAX_SIMPLEX_CELLS:
            certified = _exact_simplex(program, goal, clock)
        if certified is not None:
            return _answer(program, coarse, objective, certified, clock)
    return _float_answer(program, coarse, objective, p, matrix, clock)


def _exact_simplex(program: _Program, goal: ObjectArray, clock: Deadline) -> _Vertex | None:
    """An optimal vertex by the simplex method in rationals, verified like a float one's, or
    ``None`` after :data:`SIMPLEX_SECONDS`.

    Used for small games whose float answer could not be certified (payoffs whose
    differences doubles cannot see). It solves the dual, ``min z`` subject to
    ``t_x = z - (G^T y)_x - goal_x >= 0``, ``y >= 0``, from the feasible dictionary
    ``y = 0``, ``z = max goal`` (``z = max goal + up - down``, both ``>= 0``), with Bland's
    rule (no cycling); at the optimum the objective's coefficient of ``t_x`` is ``p(x)``.
    """
    rows, profiles = len(program.columns), program.profiles
    dense = [[0] * profiles for _ in range(rows)]
    for k, (columns, coefficients) in enumerate(
        zip(program.columns, program.coefficients, strict=True)
    ):
        for x, a in zip(columns.tolist(), coefficients.tolist(), strict=True):
            dense[k][x] = a
    top = max(goal.tolist())
    # variables: 0 = up, 1 = down, 2 + k = y_k, 2 + rows + x = t_x
    nonbasic = list(range(2 + rows))
    basic = [2 + rows + x for x in range(profiles)]
    table = [
        [Fraction(top - goal[x]), Fraction(1), Fraction(-1)]
        + [Fraction(-dense[k][x]) for k in range(rows)]
        for x in range(profiles)
    ]
    cost = [Fraction(0), Fraction(1), Fraction(-1)] + [Fraction(0)] * rows  # z - top
    stop = time.monotonic() + SIMPLEX_SECONDS
    while True:
        clock.spend(profiles * len(cost))
        if time.monotonic() > stop:
            return None
        entering = min(
            (j for j in range(len(nonbasic)) if cost[1 + j] < 0),
            key=lambda j: nonbasic[j],
            default=None,
        )
        if entering is None:
            break
        ratios = [
            (-row[0] / row[1 + entering], basic[i], i)
            for i, row in enumerate(table)
            if row[1 + entering] < 0
        ]
        if not ratios:
            return None  # unbounded dual: cannot happen, a correlated equilibrium exists
        leaving = min(ratios)[2]
        pivot_row = table[leaving]
        pivot = pivot_row[1 + entering]
        # solve the leaving row for the entering variable
        solved = [-value / pivot for value in pivot_row]
        solved[1 + entering] = 1 / pivot
        table[leaving] = solved
        for row in [*table[:leaving], *table[leaving + 1 :], cost]:
            factor = row[1 + entering]
            if factor:
                row[1 + entering] = Fraction(0)
                for j, value in enumerate(solved):
                    row[j] += factor * value
        basic[leaving], nonbasic[entering] = nonbasic[entering], basic[leaving]
    p = [Fraction(0)] * profiles
    for j, variable in enumerate(nonbasic):
        if variable >= 2 + rows:
            p[variable - 2 - rows] = cost[1 + j]
    prices = [Fraction(0)] * rows
    for i, variable in enumerate(basic):
        if 2 <= variable < 2 + rows:
            prices[variable - 2] = table[i][0]
    z = top + cost[0]
    denominator = math.lcm(*(q.denominator for q in p))
    support = np.flatnonzero(np.array([q != 0 for q in p], dtype=bool))
    numerators = np.empty(len(support), dtype=object)
    numerators[:] = [int(p[x] * denominator) for x in support.tolist()]
    vertex = _Vertex(support, numerators, denominator)
    if not _primal_feasible(program, vertex, clock):
        return None
    value = sum(goal[support] * numerators)
    dual_denominator = math.lcm(z.denominator, *(y.denominator for y in prices))
    dual = [int(z * dual_denominator)] + [int(y * dual_denominator) for y in prices]
    if not _proves_optimal(
        program, goal, vertex, value, list(range(rows)), dual, dual_denominator, clock
    ):
        return None
    return vertex if _within_size(vertex) else None


def _float_lp(
    program: _Program, goal: ObjectArray, clock: Deadline
) -> tuple[FloatArray, FloatArray, FloatArray, csr_matrix]:
    """HiGHS's vertex ``p``, dual prices ``y >= 0``, reduced costs ``z - G^T y - goal`` and
    ``G``, all in floats, ``G`` and ``goal`` divided by their largest entries."""
    rows = np.repeat(np.arange(len(program.columns)), [len(c) for c in program.columns])
    columns = np.concatenate(program.columns) if program.columns else np.zeros(0, dtype=np.int64)
    clock.spend(len(columns))
    data = (
        np.concatenate([c.astype(np.float64) for c in program.coefficients])
        if program.coefficients
        else np.zeros(0)
    )
    # HiGHS treats coefficients beyond 1e20 as infinite: solve a rescaled problem
    largest = float(np.abs(data).max(initial=0.0))
    if largest > 0:
        data = data / largest
    matrix = csr_matrix((data, (rows, columns)), shape=(len(program.columns), program.profiles))
    cost = -goal.astype(np.float64)
    top = float(np.abs(cost).max(initial=0.0))
    if top > 0:
        cost = cost / top
    left = clock.remaining()
    result = linprog(
        cost,
        A_ub=-matrix if matrix.shape[0] else None,
        b_ub=np.zeros(matrix.shape[0]) if matrix.shape[0] else None,
        A_eq=np.ones((1, program.profiles)),
        b_eq=[1.0],
        bounds=(0.0, None),
        method="highs-ipm",
        options={} if left is None else {"time_limit": max(left, 1e-3)},
    )
    clock.check()
    if result.status == 1:
        raise TimeLimitError(
            f"the computation exceeded the time limit of {clock.seconds} s", parameter="parts"
        )
    if result.status != 0:
        raise DomainError(f"the linear program failed: {result.message}", parameter="parts")
    p = np.clip(result.x, 0.0, None)
    p = p / p.sum()
    y = (
        np.clip(-result.ineqlin.marginals, 0.0, None)
        if matrix.shape[0]
        else np.zeros(0, dtype=np.float64)
    )
    return p, y, np.asarray(result.lower.marginals, dtype=np.float64), matrix


@dataclass(frozen=True, slots=True)
class _Vertex:
    """An exact, certified vertex: ``p = numerators / denominator`` on ``support``."""

    support: IntArray
    numerators: ObjectArray
    denominator: int


def _certify(
    program: _Program,
    goal: ObjectArray,
    p: FloatArray,
    y: FloatArray,
    reduced: FloatArray,
    matrix: csr_matrix,
    largest: int,
    clock: Deadline,
) -> _Vertex | None:
    """The vertex ``p`` recomputed exactly and certified optimal by an exact dual, or ``None``."""
    support = np.flatnonzero(p > _TIGHT)
    priced = np.flatnonzero(y > _TIGHT)
    if len(support) > largest or len(priced) + 1 > largest:
        return None
    slack = matrix @ p
    tight = np.flatnonzero(np.abs(slack) <= 1e-7)
    # primal: sum p = 1 and G_k p = 0 (tight k), unknowns p on the support
    block = matrix[tight][:, support].toarray()
    # the normalisation's row outweighs every other, so pivoted QR takes it first
    heaviest = float(np.abs(block).sum(axis=1).max(initial=0.0))
    equations = np.vstack([np.full((1, len(support)), 1.0 + heaviest), block])
    chosen = _independent_rows(equations, len(support))
    if chosen is None or chosen[0] != 0:
        return None
    exact_rows = [[1] * len(support)] + [
        _row_on(program, int(tight[r - 1]), support) for r in chosen[1:]
    ]
    rhs = [1] + [0] * (len(exact_rows) - 1)
    clock.spend(len(support) ** 2)
    found = solve_integer(exact_rows, rhs, clock)
    if found is None:
        return None
    numerators = np.empty(len(support), dtype=object)
    numerators[:] = found[0]
    denominator = found[1]
    vertex = _Vertex(support, numerators, denominator)
    if not _primal_feasible(program, vertex, clock):
        return None
    value = sum(goal[support] * numerators)  # times denominator
    if not _dual_certificate(program, goal, vertex, value, reduced, priced, clock):
        return None
    return vertex if _within_size(vertex) else None


def _within_size(vertex: _Vertex) -> bool:
    """Whether the probabilities are within the exact-size limit (else the float answer stands)."""
    try:
        check_exact_size(vertex.denominator, "", "probability")
        for n in vertex.numerators.tolist():
            check_exact_size(n, "", "probability")
    except ExactSizeError:
        return False
    return True


def _independent_rows(equations: FloatArray, unknowns: int) -> list[int] | None:
    """Indices of ``unknowns`` linearly independent rows of ``equations`` (pivoted QR), in
    increasing order; ``None`` when the rank is short."""
    if equations.shape[0] < unknowns:
        return None
    # scaling an unknown changes no row's independence; unit columns keep big payoffs beside
    # the normalisation's ones from passing for rank deficiency
    largest = np.abs(equations).max(axis=0)
    equations = equations / np.where(largest > 0, largest, 1.0)
    _, triangle, order = qr(equations.T, pivoting=True, mode="economic")
    diagonal = np.abs(np.diag(triangle))
    if len(diagonal) < unknowns or diagonal[unknowns - 1] <= 1e-9 * max(diagonal[0], 1.0):
        return None
    return sorted(int(r) for r in order[:unknowns])


def _row_on(program: _Program, row: int, support: IntArray) -> list[int]:
    """Integer coefficients of constraint ``row`` on the profiles ``support``."""
    full = np.zeros(program.profiles, dtype=object)
    full[program.columns[row]] = program.coefficients[row]
    return [int(v) for v in full[support]]


def _primal_feasible(program: _Program, vertex: _Vertex, clock: Deadline) -> bool:
    """Whether the exact ``p`` is a distribution satisfying every incentive constraint."""
    if vertex.denominator <= 0 or any(n < 0 for n in vertex.numerators.tolist()):
        return False
    if sum(vertex.numerators.tolist()) != vertex.denominator:
        return False
    full = np.zeros(program.profiles, dtype=object)
    full[vertex.support] = vertex.numerators
    for columns, coefficients in zip(program.columns, program.coefficients, strict=True):
        clock.spend(len(columns))
        if np.dot(coefficients, full[columns]) < 0:
            return False
    return True


def _dual_certificate(
    program: _Program,
    goal: ObjectArray,
    vertex: _Vertex,
    value: int,
    reduced: npt.NDArray[np.float64],
    priced: IntArray,
    clock: Deadline,
) -> bool:
    """Whether exact prices ``y >= 0`` and ``z`` with ``z - (G^T y)_x >= goal_x`` for every
    profile ``x`` and ``z == goal . p`` exist (weak duality then proves ``p`` optimal).

    The unknowns, ``z`` and ``y`` on the float dual's support ``priced``, solve the dual
    constraints of the profiles whose float reduced cost ``reduced`` is 0; only which
    constraints are tight is taken from the floats.
    """
    tight = np.flatnonzero(reduced <= 1e-7)
    unknowns = 1 + len(priced)
    columns = [_row_on(program, int(k), tight) for k in priced.tolist()]
    equations = np.ones((len(tight), unknowns))
    for position, column in enumerate(columns):
        equations[:, 1 + position] = -np.array(column, dtype=np.float64)
    chosen = _independent_rows(equations, unknowns)
    if chosen is None:
        return False
    rows = [[1] + [-column[r] for column in columns] for r in chosen]
    rhs = [int(goal[tight[r]]) for r in chosen]
    clock.spend(unknowns**2)
    found = solve_integer(rows, rhs, clock)
    if found is None:
        return False
    numerators, denominator = found
    return _proves_optimal(
        program, goal, vertex, value, priced.tolist(), numerators, denominator, clock
    )


def _proves_optimal(
    program: _Program,
    goal: ObjectArray,
    vertex: _Vertex,
    value: int,
    priced: list[int],
    numerators: list[int],
    denominator: int,
    clock: Deadline,
) -> bool:
    """Whether ``z = numerators[0] / denominator`` and prices ``y_k = numerators[1 + j] /
    denominator`` on rows ``priced[j]`` (0 elsewhere) are a dual solution worth ``goal . p``
    (``value / vertex.denominator``): ``y >= 0`` and ``z - (G^T y)_x >= goal_x`` everywhere."""
    z_numerator, price_numerators = numerators[0], numerators[1:]
    if denominator <= 0 or any(n < 0 for n in price_numerators):
        return False
    if z_numerator * vertex.denominator != value * denominator:
        return False
    # z - (G^T y)_x >= goal_x for every profile x, in integers times ``denominator``
    pressure = np.zeros(program.profiles, dtype=object)
    for k, n in zip(priced, price_numerators, strict=True):
        clock.spend(len(program.columns[k]))
        pressure[program.columns[k]] += program.coefficients[k] * n
    clock.spend(program.profiles)
    return bool(np.all(z_numerator - pressure - goal * denominator >= 0))


def _answer(
    program: _Program,
    coarse: bool,
    objective: Objective,
    vertex: _Vertex,
    clock: Deadline,
) -> CorrelatedEquilibrium:
    """The certified vertex as exact numbers, with its binding constraints."""
    shape_index = vertex.support.tolist()
    probabilities = [Fraction(int(n), vertex.denominator) for n in vertex.numerators.tolist()]
    full = np.zeros(program.profiles, dtype=object)
    full[vertex.support] = vertex.numerators
    payoffs = tuple(
        normalize(
            Fraction(int(np.dot(values[vertex.support], vertex.numerators)))
            / (vertex.denominator * program.unit)
        )
        for values in program.payoffs
    )
    welfare = normalize(sum((Fraction(v) for v in payoffs), Fraction(0)))
    binding = []
    for constraint, columns, coefficients in zip(
        program.constraints, program.columns, program.coefficients, strict=True
    ):
        clock.spend(len(columns))
        weights = full[columns]
        if constraint.recommended is not None and not any(w != 0 for w in weights.tolist()):
            continue
        if np.dot(coefficients, weights) == 0:
            binding.append(constraint)
    return CorrelatedEquilibrium(
        coarse,
        objective,
        tuple(
            (_profile(program, i), normalize(q))
            for i, q in zip(shape_index, probabilities, strict=True)
        ),
        payoffs,
        welfare,
        tuple(binding),
        True,
    )


def _float_answer(
    program: _Program,
    coarse: bool,
    objective: Objective,
    p: FloatArray,
    matrix: csr_matrix,
    clock: Deadline,
) -> CorrelatedEquilibrium:
    """HiGHS's answer as floats (``exact=False``); binding means slack within float noise."""
    clock.spend(program.profiles * (1 + len(program.payoffs)))
    unit = float(program.unit)
    payoffs = tuple(float(values.astype(np.float64) @ p) / unit for values in program.payoffs)
    slack = matrix @ p if matrix.shape[0] else np.zeros(0)
    support = np.flatnonzero(p > _TIGHT)
    recommended = np.zeros(program.profiles, dtype=bool)
    recommended[support] = True
    binding = []
    for k, constraint in enumerate(program.constraints):
        if constraint.recommended is not None and not recommended[program.columns[k]].any():
            continue
        if abs(slack[k]) <= 1e-7:
            binding.append(constraint)
    return CorrelatedEquilibrium(
        coarse,
        objective,
        tuple((_profile(program, int(i)), float(p[i])) for i in support),
        payoffs,
        float(sum(payoffs)),
        tuple(binding),
        False,
    )


def _profile(program: _Program, flat: int) -> tuple[int, ...]:
    return tuple(int(s) for s in np.unravel_index(flat, program.shape))
