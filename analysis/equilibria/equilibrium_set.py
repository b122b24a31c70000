"""What the vertex enumeration answers: extreme equilibria, their payoffs and components.

Each player's distinct extreme strategies are numbered. Every maximal set ``X x Y`` of
extreme equilibria with all pairs equilibria spans the convex set ``conv(X) x conv(Y)``
of equilibria (a maximal Nash subset; Gambit's "cliques"), and overlapping ones form
connected components (:func:`nash_components`). Exact payoffs are computed in integers,
each strategy over its common denominator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from games.limits import Deadline, check_exact_size, current_deadline, spend_on_size
from games.matrices.model import NormalFormGame, scaled_to_integers
from games.numbers import Exact, normalize


@dataclass(frozen=True, slots=True)
class MixedEquilibrium:
    """One extreme equilibrium: mixed strategies and expected payoffs.

    ``row_vertex`` and ``col_vertex`` number the distinct extreme strategies of
    each player, as used by :class:`NashSubset`.
    """

    row: tuple[Exact | float, ...]
    col: tuple[Exact | float, ...]
    payoffs: tuple[Exact | float, Exact | float]
    row_vertex: int
    col_vertex: int


@dataclass(frozen=True, slots=True)
class NashSubset:
    """A maximal Nash subset: every mix of ``row`` strategies against every mix of ``col`` ones."""

    row: tuple[int, ...]
    col: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Component:
    """A connected set of equilibria: the union of overlapping maximal Nash subsets."""

    equilibria: tuple[int, ...]
    subsets: tuple[NashSubset, ...]

    @property
    def continuum(self) -> bool:
        return any(len(s.row) > 1 or len(s.col) > 1 for s in self.subsets)


@dataclass(frozen=True, slots=True)
class EquilibriumSet:
    """All extreme equilibria of a bimatrix game.

    Attributes
    ----------
    equilibria
        Extreme equilibria, sorted by the row then the column strategy.
    row_vertices, col_vertices
        The distinct extreme strategies, numbered as in the equilibria.
    degenerate
        Whether some mixed strategy with support size k has more than k pure best
        responses.
    components
        Connected components with their maximal Nash subsets.
    exact
        False in the floating-point mode.
    """

    equilibria: tuple[MixedEquilibrium, ...]
    row_vertices: tuple[tuple[Exact | float, ...], ...]
    col_vertices: tuple[tuple[Exact | float, ...], ...]
    degenerate: bool
    components: tuple[Component, ...]
    exact: bool


def assemble_equilibrium_set(
    game: NormalFormGame,
    strategies: Sequence[tuple[tuple[Exact | float, ...], tuple[Exact | float, ...]]],
    degenerate: bool,
    exact: bool,
    clock: Deadline,
    float_payoffs: Sequence[tuple[float, float]] = (),
    numbers: Sequence[tuple[int, int]] | None = None,
) -> EquilibriumSet:
    """The equilibrium set; ``float_payoffs`` are the payoffs of the float mode's strategies,
    ``numbers`` (optional) stand for the strategies when telling them apart."""
    row_index: dict[object, int] = {}
    col_index: dict[object, int] = {}
    row_vertices: list[tuple[Exact | float, ...]] = []
    col_vertices: list[tuple[Exact | float, ...]] = []
    equilibria: list[MixedEquilibrium] = []
    exact_payoffs = _ExactPayoffs(game, clock) if exact else None
    for k, (x, y) in enumerate(strategies):
        clock.spend(len(x) + len(y))
        r = row_index.setdefault(x if numbers is None else numbers[k][0], len(row_index))
        c = col_index.setdefault(y if numbers is None else numbers[k][1], len(col_index))
        if r == len(row_vertices):
            row_vertices.append(x)
        if c == len(col_vertices):
            col_vertices.append(y)
        payoffs: tuple[Exact | float, Exact | float]
        if exact_payoffs is not None:
            payoffs = exact_payoffs.of(x, y, r, c)
        else:
            payoffs = float_payoffs[len(equilibria)]
        equilibria.append(MixedEquilibrium(x, y, payoffs, r, c))
    components = nash_components([(e.row_vertex, e.col_vertex) for e in equilibria], clock)
    return EquilibriumSet(
        tuple(equilibria), tuple(row_vertices), tuple(col_vertices), degenerate, components, exact
    )


class _ExactPayoffs:
    """Both players' exact payoffs of strategy pairs, in integers: with the payoffs scaled to
    integers and each strategy written over its common denominator, a payoff is one integer
    dot product over the column strategy's support, divided once (each row strategy's
    products with both matrices are kept, by its vertex number)."""

    def __init__(self, game: NormalFormGame, clock: Deadline) -> None:
        first, self.first_scale = scaled_to_integers(game.row_payoffs, clock)
        second, self.second_scale = scaled_to_integers(game.col_payoffs, clock)
        self.first: list[list[int]] = first.tolist()
        self.second: list[list[int]] = second.tolist()
        self.clock = clock
        self.rows: dict[int, tuple[list[int], list[int], int]] = {}
        self.cols: dict[int, tuple[list[tuple[int, int]], int]] = {}

    def of(
        self, x: tuple[Exact | float, ...], y: tuple[Exact | float, ...], r: int, c: int
    ) -> tuple[Exact, Exact]:
        """The payoffs of row strategy ``x`` (vertex number ``r``) against ``y`` (``c``)."""
        row = self.rows.get(r)
        if row is None:
            numerators, denominator = _over_common_denominator(x)
            support = [(i, n) for i, n in enumerate(numerators) if n]
            self.clock.spend(len(support) * len(self.first[0]))
            first = [
                sum(n * self.first[i][j] for i, n in support) for j in range(len(self.first[0]))
            ]
            second = [
                sum(n * self.second[i][j] for i, n in support) for j in range(len(self.first[0]))
            ]
            row = self.rows[r] = (first, second, denominator)
        col = self.cols.get(c)
        if col is None:
            numerators, denominator = _over_common_denominator(y)
            col = self.cols[c] = ([(j, n) for j, n in enumerate(numerators) if n], denominator)
        first, second, row_denominator = row
        support, col_denominator = col
        self.clock.spend(2 * len(support))
        denominator = row_denominator * col_denominator
        payoffs = (
            Fraction(sum(first[j] * n for j, n in support), denominator * self.first_scale),
            Fraction(sum(second[j] * n for j, n in support), denominator * self.second_scale),
        )
        for payoff in payoffs:
            spend_on_size(self.clock, payoff)
            check_exact_size(payoff, "", "equilibrium payoff")
        return normalize(payoffs[0]), normalize(payoffs[1])


def _over_common_denominator(strategy: tuple[Exact | float, ...]) -> tuple[list[int], int]:
    """Integers ``n`` and ``d`` with ``strategy == n / d`` (exact entries only)."""
    ratios = [p.as_integer_ratio() for p in strategy]
    denominator = lcm(*(d for _, d in ratios))
    return [n * (denominator // d) for n, d in ratios], denominator


def nash_components(
    edges: list[tuple[int, int]], deadline: Deadline | None = None
) -> tuple[Component, ...]:
    """Maximal Nash subsets and connected components of the extreme-equilibrium graph.

    ``edges`` are (row vertex, column vertex) pairs that are equilibria. The
    maximal subsets are the closed column sets: intersections of neighbourhoods
    of row vertices, closed under intersection (found iteratively).
    """
    clock = deadline or current_deadline()
    clock.spend(1 + len(edges))
    if len({r for r, _ in edges}) == len(edges) == len({c for _, c in edges}):
        # every vertex in one equilibrium only (as in every nondegenerate game): each
        # equilibrium is a component and a maximal Nash subset of its own
        return tuple(Component((k,), (NashSubset((r,), (c,)),)) for k, (r, c) in enumerate(edges))
    neighbours: dict[int, frozenset[int]] = {}
    for r, c in edges:
        clock.spend(1)
        neighbours[r] = neighbours.get(r, frozenset()) | {c}
    closed: set[frozenset[int]] = set(neighbours.values())
    frontier = list(closed)
    while frontier:
        current = frontier.pop()
        clock.spend(len(closed))
        for other in list(closed):
            meet = current & other
            if meet and meet not in closed:
                closed.add(meet)
                frontier.append(meet)
    subsets = []
    for cols in closed:
        clock.spend(len(neighbours))
        rows = frozenset(r for r, near in neighbours.items() if cols <= near)
        subsets.append(NashSubset(tuple(sorted(rows)), tuple(sorted(cols))))
    spans = [(set(s.row), set(s.col)) for s in subsets]
    maximal = []
    for s, (s_rows, s_cols) in zip(subsets, spans, strict=True):
        clock.spend(len(subsets))
        if not any(
            t != s and s_rows <= t_rows and s_cols <= t_cols
            for t, (t_rows, t_cols) in zip(subsets, spans, strict=True)
        ):
            maximal.append(s)
    subsets = maximal
    edge_index = {edge: k for k, edge in enumerate(edges)}
    groups: list[tuple[set[int], set[int], list[NashSubset]]] = []
    for subset in sorted(subsets, key=lambda s: (s.row, s.col)):
        clock.spend(len(groups))
        group_rows, group_cols = set(subset.row), set(subset.col)
        joined = [g for g in groups if g[0] & group_rows or g[1] & group_cols]
        for g in joined:
            groups.remove(g)
            group_rows |= g[0]
            group_cols |= g[1]
        groups.append((group_rows, group_cols, [s for g in joined for s in g[2]] + [subset]))
    components = []
    for group_rows, group_cols, members in groups:
        clock.spend(len(edge_index))
        inside = sorted(
            k for (r, c), k in edge_index.items() if r in group_rows and c in group_cols
        )
        ordered = tuple(sorted(members, key=lambda s: (s.row, s.col)))
        components.append(Component(tuple(inside), ordered))
    return tuple(sorted(components, key=lambda comp: comp.equilibria))
