"""All extreme Nash equilibria of a bimatrix game, exactly, by vertex enumeration.

With payoffs shifted to be positive, the best-response polytopes are

    P = {x >= 0 : B^T x <= 1}   (labels: i where x_i = 0, m + j where (B^T x)_j = 1)
    Q = {y >= 0 : A y <= 1}     (labels: i where (A y)_i = 1, m + j where y_j = 0)

and ``(x/sum x, y/sum y)`` is a Nash equilibrium exactly when ``(x, y) != (0, 0)``
is a pair of vertices whose labels together cover all ``m + n`` labels (von
Stengel 2007, *Algorithmic Game Theory* ch. 3). Each polytope's vertices come with
their labels from :mod:`analysis.equilibria.best_response_polytopes`: exact from the
compiled basis search, or in floating point. This module pairs the vertices whose
labels are complementary; in the exact mode each float vertex taking part in a pair
is certified exactly, so every published equilibrium is exact, and a small game whose
float search is in doubt is enumerated exactly over every basis. The game is
*degenerate* when some vertex has more labels than its dimension; then equilibria may
form continua, reported as the components of
:class:`~analysis.equilibria.equilibrium_set.EquilibriumSet`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from analysis.equilibria import basis_search
from analysis.equilibria.best_response_polytopes import (
    BestResponsePolytope,
    best_response_polytope,
    certify,
    count_labels,
    exact_point,
    has_degenerate_vertex,
    positive_floats,
    positive_integers,
)
from analysis.equilibria.equilibrium_set import EquilibriumSet, assemble_equilibrium_set
from analysis.equilibria.qhull_vertices import afford_vertex_search
from games.errors import DomainError, ExactSizeError, LimitExceededError
from games.limits import Deadline, check_exact_size, current_deadline, spend_on_size
from games.matrices.model import NormalFormGame
from games.numbers import Exact, normalize

MAX_STRATEGIES = 15
"""Most strategies per player for full enumeration (use Lemke-Howson beyond)."""

MAX_EXACT_BASES = 1_000
"""Most constraint subsets tried with rationals when the float search is in doubt."""


def extreme_equilibria(
    game: NormalFormGame,
    exact: bool = True,
    max_strategies: int = MAX_STRATEGIES,
    deadline: Deadline | None = None,
) -> EquilibriumSet:
    """Enumerate the extreme Nash equilibria of a two-player game.

    Parameters
    ----------
    game
        A bimatrix game.
    exact
        True: rational equilibria, each certified. False: floats, faster.
    max_strategies
        Refuse games where a player has more strategies.
    deadline
        Charged by the work done (the request's deadline by default).

    Raises
    ------
    DomainError
        If the game does not have two players.
    LimitExceededError
        If a player has more than ``max_strategies`` strategies.
    TimeLimitError
        When the deadline passes, or the vertex search could not end before it.
    ExactSizeError
        When an exact probability or payoff grows past the exact-size limit.
    """
    if not game.is_bimatrix:
        raise DomainError("mixed equilibria are computed for two-player games only", "")
    rows, cols = game.shape
    if max(rows, cols) > max_strategies:
        raise LimitExceededError(
            f"enumerating all equilibria is limited to {max_strategies} strategies per player; "
            "ask for lemke_howson to find one equilibrium of a larger game",
            "",
        )
    clock = deadline or current_deadline()
    floats = None if exact else positive_floats(game, clock)
    if floats is not None:
        for dimension in (rows, cols):
            afford_vertex_search(dimension, rows + cols, clock)
        p = best_response_polytope(floats[1].T, own_first=True, clock=clock)
        q = best_response_polytope(floats[0], own_first=False, clock=clock)
    else:
        first = positive_integers(game.row_payoffs, clock)
        second = positive_integers(game.col_payoffs, clock)
        # the exact search is charged by its work; a qhull call must be affordable up front
        searched = exact and basis_search.COMPILED
        for dimension, matrix in ((rows, second.T), (cols, first)):
            if not (searched and basis_search.fits_in_64_bits(matrix)):
                afford_vertex_search(dimension, rows + cols, clock)
        p = best_response_polytope(second.T, own_first=True, clock=clock, search=searched)
        q = best_response_polytope(first, own_first=False, clock=clock, search=searched)
    clock.check()
    full = (1 << (rows + cols)) - 1
    pairs = _complementary_pairs(
        p.labels, q.labels, rows, cols, clock, p.label_counts, q.label_counts
    )
    clock.check()
    degenerate = has_degenerate_vertex(p, exact, clock) or has_degenerate_vertex(q, exact, clock)
    reliable = p.reliable and q.reliable
    small = comb(rows + cols, rows) <= MAX_EXACT_BASES
    if not reliable and not (exact and small):
        raise DomainError(
            "the payoffs span too many orders of magnitude for the floating-point vertex "
            "search" + ("" if exact else " (try arithmetic: exact)") + "; rescale them",
            "",
        )
    if not exact:
        return _float_set(game, p, q, pairs, degenerate, clock)
    doubtful = not reliable
    # each vertex is certified and normalised once; equal strategies get one number
    numbered: tuple[_Numbered, _Numbered] = ({}, {})
    strategies: tuple[_Strategies, _Strategies] = ({}, {})
    found: dict[tuple[int, int], None] = {}
    for x_index, y_index in pairs.tolist():
        x = _numbered_strategy(p, x_index, numbered[0], strategies[0], clock)
        y = _numbered_strategy(q, y_index, numbered[1], strategies[1], clock)
        if x is None or y is None or (x[1] | y[1]) != full:
            doubtful = True
            continue
        found[(x[0], y[0])] = None
    if not found or doubtful:
        # Nash: every finite game has an equilibrium, and a float candidate that fails its
        # exact check means the float search was misled: in a small game, enumerate exactly.
        if small:
            exact_pairs, degenerate = _exact_by_bases(p, q, clock)
            return _exact_set(game, exact_pairs, degenerate, clock)
        if not found:
            raise DomainError(
                "the payoffs are too badly scaled for the floating-point vertex search to be "
                "certified; rescale them",
                "",
            )
    ordered, numbers = _in_order(found, strategies, clock)
    return _exact_set(game, ordered, degenerate, clock, numbers)


_Numbered = dict[int, tuple[int, int] | None]
_Strategies = dict[tuple[Exact, ...], int]


def _numbered_strategy(
    polytope: BestResponsePolytope,
    index: int,
    numbered: _Numbered,
    strategies: _Strategies,
    clock: Deadline,
) -> tuple[int, int] | None:
    """The number of vertex ``index``'s mixed strategy in ``strategies`` (vertices certified
    to the same point share it) and its exact labels; ``None`` when it fails certification."""
    if index in numbered:
        return numbered[index]
    result: tuple[int, int] | None = None
    if polytope.exact_points is not None:
        numerators = polytope.exact_points.numerators[index].tolist()
        strategy = _normalised_integers(numerators, clock)
        result = (strategies.setdefault(strategy, len(strategies)), int(polytope.labels[index]))
    else:
        certified = certify(polytope, index, clock)
        if certified is not None:
            strategy = _normalised(certified[0], clock)
            result = (strategies.setdefault(strategy, len(strategies)), certified[1])
    numbered[index] = result
    return result


def _in_order(
    found: dict[tuple[int, int], None],
    strategies: tuple[_Strategies, _Strategies],
    clock: Deadline,
) -> tuple[list[tuple[tuple[Exact, ...], tuple[Exact, ...]]], list[tuple[int, int]]]:
    """The equilibria ``found`` (pairs of strategy numbers) as strategies, sorted by the row
    then the column strategy (each player's strategies are sorted once), and their numbers."""
    rows, cols = list(strategies[0]), list(strategies[1])
    clock.spend(len(rows) + len(cols) + len(found))
    row_rank, col_rank = [0] * len(rows), [0] * len(cols)
    for rank, k in enumerate(sorted(range(len(rows)), key=rows.__getitem__)):
        row_rank[k] = rank
    for rank, k in enumerate(sorted(range(len(cols)), key=cols.__getitem__)):
        col_rank[k] = rank
    order = sorted(found, key=lambda pair: (row_rank[pair[0]], col_rank[pair[1]]))
    return [(rows[r], cols[c]) for r, c in order], order


def _complementary_pairs(
    x_labels: npt.NDArray[np.int64],
    y_labels: npt.NDArray[np.int64],
    rows: int,
    cols: int,
    clock: Deadline,
    x_counts: npt.NDArray[np.int64] | None = None,
    y_counts: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]:
    """Index pairs ``(i, j)`` with ``x_labels[i] | y_labels[j]`` covering all labels.

    Every vertex has at least its dimension in labels. A vertex of P with exactly
    ``rows`` labels needs a partner whose labels are exactly the complement, or a
    superset of it when the partner is degenerate; so pairs are found by a lookup of
    the complement, plus a vectorised scan for the few degenerate vertices only.
    """
    full = (1 << (rows + cols)) - 1
    if len(x_labels) == 0 or len(y_labels) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    # each polytope's label sets are distinct (the caller keeps one vertex per set): a
    # sorted search finds every vertex of Q whose labels are exactly a complement
    clock.spend(1 + (len(y_labels) + len(x_labels)) // 64)
    order = np.argsort(y_labels, kind="stable")
    ordered = y_labels[order]
    complements = np.int64(full) ^ x_labels
    at = np.minimum(np.searchsorted(ordered, complements), len(ordered) - 1)
    hits = np.flatnonzero(ordered[at] == complements)
    clock.spend(len(hits))
    found: set[tuple[int, int]] = set(zip(hits.tolist(), order[at[hits]].tolist(), strict=True))
    x_counts = count_labels(x_labels) if x_counts is None else x_counts
    y_counts = count_labels(y_labels) if y_counts is None else y_counts
    # one vectorised scan per degenerate vertex, about a nanosecond per partner
    x_scan, y_scan = 1 + len(y_labels) // 256, 1 + len(x_labels) // 256
    for x_index in np.flatnonzero(x_counts > rows).tolist():
        clock.spend(x_scan)
        need = full ^ int(x_labels[x_index])
        for y_index in np.flatnonzero((y_labels & need) == need).tolist():
            clock.spend(1)
            found.add((x_index, y_index))
    for y_index in np.flatnonzero(y_counts > cols).tolist():
        clock.spend(y_scan)
        for x_index in np.flatnonzero((x_labels | y_labels[y_index]) == full).tolist():
            clock.spend(1)
            found.add((x_index, y_index))
    return np.array(sorted(found), dtype=np.int64).reshape(-1, 2)


def _exact_by_bases(
    p: BestResponsePolytope, q: BestResponsePolytope, clock: Deadline
) -> tuple[list[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]], bool]:
    """Equilibria and degeneracy by exact vertex enumeration over every basis (small games)."""
    vertices = []
    for polytope in (p, q):
        found: dict[tuple[Fraction, ...], int] = {}
        for basis in combinations(range(polytope.rows.shape[0]), polytope.dimension):
            point = exact_point(polytope, basis, clock)
            if point is not None and any(point[0]):
                found[point[0]] = point[1]
        vertices.append(found)
    full = (1 << p.rows.shape[0]) - 1
    degenerate = any(
        bin(bits).count("1") > polytope.dimension
        for polytope, found in zip((p, q), vertices, strict=True)
        for bits in found.values()
    )
    clock.spend(len(vertices[0]) * len(vertices[1]))
    pairs = [
        (_normalised(x, clock), _normalised(y, clock))
        for x, x_bits in vertices[0].items()
        for y, y_bits in vertices[1].items()
        if x_bits | y_bits == full
    ]
    return sorted(set(pairs)), degenerate


def _normalised_integers(numerators: list[int], clock: Deadline) -> tuple[Exact, ...]:
    """The vertex ``numerators / d`` (any ``d``) as a probability vector (0 and 1 as ints),
    each entry within the exact-size limit."""
    total = sum(numerators)
    spend_on_size(clock, total)
    clock.spend(len(numerators))
    probabilities = tuple(Fraction(n, total) if 0 < n < total else n // total for n in numerators)
    # a probability n / total in lowest terms has no more digits than total
    try:
        check_exact_size(total, "", "equilibrium probability")
    except ExactSizeError:
        for probability in probabilities:
            check_exact_size(probability, "", "equilibrium probability")
    return probabilities


def _normalised(vertex: tuple[Fraction, ...], clock: Deadline) -> tuple[Fraction, ...]:
    """The vertex scaled to a probability vector, each entry within the exact-size limit."""
    total = sum(vertex, Fraction(0))
    spend_on_size(clock, total)
    clock.spend(len(vertex))
    probabilities = tuple(z / total for z in vertex)
    for probability in probabilities:
        check_exact_size(probability, "", "equilibrium probability")
    return probabilities


def _exact_set(
    game: NormalFormGame,
    pairs: Sequence[tuple[tuple[Exact, ...], tuple[Exact, ...]]],
    degenerate: bool,
    clock: Deadline,
    numbers: Sequence[tuple[int, int]] | None = None,
) -> EquilibriumSet:
    """The exact set; ``numbers``, if given, number the distinct row and column strategies of
    ``pairs`` (any numbering: it saves hashing the strategies)."""
    strategies = [
        (tuple(normalize(p) for p in x), tuple(normalize(q) for q in y))  # type: ignore[arg-type]
        for x, y in pairs
    ]
    return assemble_equilibrium_set(game, strategies, degenerate, True, clock, numbers=numbers)


def _float_set(
    game: NormalFormGame,
    p: BestResponsePolytope,
    q: BestResponsePolytope,
    pairs: npt.NDArray[np.int64],
    degenerate: bool,
    clock: Deadline,
) -> EquilibriumSet:
    clock.spend(len(pairs) * (10 + p.dimension + q.dimension))
    with np.errstate(all="ignore"):
        x = p.vertices[pairs[:, 0]] * p.unscale
        y = q.vertices[pairs[:, 1]] * q.unscale
        x /= x.sum(axis=1, keepdims=True)
        y /= y.sum(axis=1, keepdims=True)
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        finite = np.isfinite(x).all(axis=1) & np.isfinite(y).all(axis=1)
        x, y = x[finite], y[finite]
    first = game.float_payoffs(0)
    second = game.float_payoffs(1)
    row_payoffs = ((x @ first) * y).sum(axis=1).tolist()
    col_payoffs = ((x @ second) * y).sum(axis=1).tolist()
    Strategies = tuple[tuple[float, ...], tuple[float, ...]]
    found: dict[Strategies, tuple[Strategies, tuple[float, float]]] = {}
    for x_key, y_key, x_row, y_row, u, v in zip(
        np.round(x, 9).tolist(),
        np.round(y, 9).tolist(),
        x.tolist(),
        y.tolist(),
        row_payoffs,
        col_payoffs,
        strict=True,
    ):
        found.setdefault((tuple(x_key), tuple(y_key)), ((tuple(x_row), tuple(y_row)), (u, v)))
    ordered = sorted(found.values())
    return assemble_equilibrium_set(
        game, [pair for pair, _ in ordered], degenerate, False, clock, [pay for _, pay in ordered]
    )
