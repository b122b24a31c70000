"""Behaviour strategy profiles of extensive-form games: expected payoffs, best responses,
NashConv and exploitability.

A **behaviour strategy profile** gives, at every information set, one probability per action
(:class:`BehaviourProfile`). Under it each player expects a payoff; a **best response** of
player ``i`` is a pure behaviour strategy maximising ``i``'s payoff while the others keep
theirs. Under imperfect information the best action at a set ``I`` of player ``i`` maximises
the *counterfactual* value of the set (Zinkevich et al. 2007)::

    Q(I, a) = sum over nodes h of I of  pi_{-i}(h) * u_i(h . a)

where ``pi_{-i}(h)`` is the probability that chance and the other players bring the play to
``h`` and ``u_i(h . a)`` is ``i``'s value below ``h . a`` with ``i`` playing their best
response there. Perfect recall makes this well defined: the sets of ``i`` below ``I`` lie
entirely below ``I``, so the sets are decided bottom-up by the number of ``i``'s own moves
before them (their *own depth*), deepest first.

**NashConv** is the sum over players of what a best response gains over the profile,
``sum_i (max u_i(br_i, sigma_{-i}) - u_i(sigma))``: zero exactly at a Nash equilibrium.
For two players with a constant sum, **exploitability** is NashConv / 2 (OpenSpiel's
``exploitability``): how much a best-responding opponent wins beyond the game's value, on
average over the two seats.

Everything is computed over numpy arrays of the tree laid out **level by level** (breadth
first: the root, then its children, ...; the children of a node are consecutive there), with
no recursion: reach probabilities top-down one level at a time, values bottom-up. The same
code runs on ``float64`` arrays (fast, for CFR) and on object arrays of exact rationals
(python-flint's ``fmpq``, about ten times faster than :class:`~fractions.Fraction` there): a
profile of Fractions gives exact payoffs, best-response values and NashConv, as Fractions, a
certificate for an exact solver. :class:`TreeArrays` holds the layout once for repeated
evaluation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, Literal, TypeAlias

import flint
import numpy as np
import numpy.typing as npt

from games.errors import DomainError, InvalidInputError
from games.extensive.model import CHANCE, TERMINAL, ExtensiveGame
from games.limits import current_deadline

Probability: TypeAlias = Fraction | float
IntArray: TypeAlias = npt.NDArray[np.int64]
Values: TypeAlias = npt.NDArray[Any]
"""A float64 array, or an object array of exact rationals (FLINT's ``fmpq``)."""

FLOAT_TOLERANCE: Final = 1e-9
"""How far a float profile's probabilities at a set may sum from 1."""

_EXACT_COST: Final = 4
"""Deadline units per element of an exact (Fraction) array operation, per float one: 1."""

_ROOT: Final = -3
"""The ``acting`` player of the root (no edge leads to it)."""


@dataclass(frozen=True, slots=True)
class BehaviourProfile:
    """One behaviour strategy per player: at every information set of the game (in the order
    of :attr:`~games.extensive.model.ExtensiveGame.infosets`), one probability per action.

    Integers are read as Fractions; the profile is *exact* when every probability is a
    Fraction, else every probability is kept as a float.
    """

    probabilities: tuple[tuple[Probability, ...], ...]
    exact: bool = field(init=False)

    def __post_init__(self) -> None:
        rows = tuple(tuple(row) for row in self.probabilities)
        for row in rows:
            for p in row:
                if isinstance(p, bool) or not isinstance(p, int | Fraction | float):
                    raise _invalid(f"a probability must be a number, not {p!r}")
        exact = all(isinstance(p, int | Fraction) for row in rows for p in row)
        if exact:
            kept: tuple[tuple[Probability, ...], ...] = tuple(
                tuple(Fraction(p) for p in row) for row in rows
            )
        else:
            kept = tuple(tuple(float(p) for p in row) for row in rows)
        object.__setattr__(self, "probabilities", kept)
        object.__setattr__(self, "exact", exact)

    def as_mapping(self, game: ExtensiveGame) -> dict[str, dict[str, dict[str, Probability]]]:
        """``{player: {information set: {action: probability}}}``, by the game's names."""
        shown: dict[str, dict[str, dict[str, Probability]]] = {p: {} for p in game.players}
        for infoset, row in zip(game.infosets, self.probabilities, strict=True):
            shown[game.players[infoset.player]][infoset.name] = dict(
                zip(infoset.actions, row, strict=True)
            )
        return shown


def uniform_profile(game: ExtensiveGame) -> BehaviourProfile:
    """Every action of every information set equally likely (exact)."""
    return BehaviourProfile(
        tuple(tuple(Fraction(1, len(s.actions)) for _ in s.actions) for s in game.infosets)
    )


ProfileKey: TypeAlias = int | str | tuple[int, str]
ProfileRow: TypeAlias = Sequence[Probability] | Mapping[str, Probability]


def profile_from_mapping(
    game: ExtensiveGame,
    mapping: Mapping[ProfileKey, ProfileRow],
    missing: Literal["error", "uniform"] = "error",
) -> BehaviourProfile:
    """A profile from its information sets' probabilities.

    Parameters
    ----------
    mapping
        Keyed by an information set's index, its name (when no other set has it) or
        ``(player, name)``; each value lists the probabilities in the set's action order or
        maps action labels to probabilities (actions left out get 0).
    missing
        What a set absent from ``mapping`` gets: an error, or the uniform strategy.

    :raises InvalidInputError: a key names no set (or several), a label no action, a set is
        missing, or a set's probabilities are negative or do not sum to 1.
    """
    by_name: dict[str, list[int]] = {}
    for index, infoset in enumerate(game.infosets):
        by_name.setdefault(infoset.name, []).append(index)
        by_name.setdefault(f"\0{infoset.player}\0{infoset.name}", []).append(index)
    rows: list[tuple[Probability, ...] | None] = [None] * len(game.infosets)
    for key, row in mapping.items():
        index = _infoset_index(game, by_name, key)
        infoset = game.infosets[index]
        if isinstance(row, Mapping):
            unknown = [label for label in row if label not in infoset.actions]
            if unknown:
                raise _invalid(
                    f"information set {infoset.name!r} has no action {unknown[0]!r} "
                    f"(its actions: {list(infoset.actions)})"
                )
            rows[index] = tuple(row.get(label, Fraction(0)) for label in infoset.actions)
        else:
            rows[index] = tuple(row)
    for index, given in enumerate(rows):
        if given is None:
            infoset = game.infosets[index]
            if missing == "error":
                raise _invalid(f"the profile gives no probabilities at {infoset.name!r}")
            rows[index] = tuple(Fraction(1, len(infoset.actions)) for _ in infoset.actions)
    profile = BehaviourProfile(tuple(row for row in rows if row is not None))
    check_profile(game, profile)
    return profile


def check_profile(game: ExtensiveGame, profile: BehaviourProfile) -> None:
    """Check that ``profile`` fits ``game``.

    :raises InvalidInputError: a set is missing or has the wrong number of probabilities,
        or its probabilities are negative or do not sum to 1 (a float profile: within
        :data:`FLOAT_TOLERANCE`).
    """
    rows = profile.probabilities
    if len(rows) != len(game.infosets):
        raise _invalid(
            f"the profile has {len(rows)} information sets; the game has {len(game.infosets)}"
        )
    for infoset, row in zip(game.infosets, rows, strict=True):
        if len(row) != len(infoset.actions):
            raise _invalid(
                f"information set {infoset.name!r} has {len(infoset.actions)} actions; "
                f"the profile gives {len(row)} probabilities"
            )
        total: Probability = sum(row, Fraction(0) if profile.exact else 0.0)
        bad = [p for p in row if not p >= 0 or (isinstance(p, float) and not math.isfinite(p))]
        off = total != 1 if profile.exact else not abs(float(total) - 1) <= FLOAT_TOLERANCE
        if bad or off:
            shown = ", ".join(str(p) for p in row)
            raise _invalid(
                f"the probabilities at information set {infoset.name!r} ({shown}) must be "
                f"non-negative and sum to 1"
            )


@dataclass(frozen=True, slots=True)
class BestResponse:
    """A pure best response of one player against the others' strategies.

    Attributes
    ----------
    player
        The responding player.
    actions
        The action chosen (its index) at each of the player's information sets, in the order
        of :meth:`~games.extensive.model.ExtensiveGame.player_infosets`. At a set the others
        never reach every action is best; the first is chosen.
    value
        The player's expected payoff when responding so.
    """

    player: int
    actions: tuple[int, ...]
    value: Probability


@dataclass(frozen=True, slots=True)
class ProfileEvaluation:
    """A profile evaluated: each player's payoff, best response and NashConv.

    Attributes
    ----------
    exact
        Whether the numbers are exact (the profile was).
    payoffs
        Each player's expected payoff under the profile.
    best_responses
        Each player's best response against the others.
    nash_conv
        ``sum_i (best_responses[i].value - payoffs[i])``; 0 exactly at a Nash equilibrium.
    exploitability
        NashConv / 2 for two players with a constant sum, else ``None``.
    """

    exact: bool
    payoffs: tuple[Probability, ...]
    best_responses: tuple[BestResponse, ...]
    nash_conv: Probability
    exploitability: Probability | None


def evaluate_profile(game: ExtensiveGame, profile: BehaviourProfile) -> ProfileEvaluation:
    """Every player's payoff under ``profile``, best response, NashConv and exploitability.

    :raises InvalidInputError: the profile does not fit the game.
    :raises TimeLimitError: the request's deadline passed.
    """
    return TreeArrays(game).evaluate(profile)


def expected_payoffs(game: ExtensiveGame, profile: BehaviourProfile) -> tuple[Probability, ...]:
    """Each player's expected payoff under ``profile``."""
    arrays = TreeArrays(game)
    return arrays.expected_payoffs(arrays.flat(profile))


def best_response(game: ExtensiveGame, profile: BehaviourProfile, player: int) -> BestResponse:
    """A pure best response of ``player`` against the others' strategies in ``profile``."""
    arrays = TreeArrays(game)
    return arrays.best_response(arrays.flat(profile), player)


def nash_conv(game: ExtensiveGame, profile: BehaviourProfile) -> Probability:
    """``sum_i (u_i(best response_i, profile_{-i}) - u_i(profile))``: 0 at an equilibrium."""
    return evaluate_profile(game, profile).nash_conv


def exploitability(game: ExtensiveGame, profile: BehaviourProfile) -> Probability:
    """NashConv / 2 of a two-player constant-sum game (OpenSpiel's definition).

    :raises DomainError: the game is not a two-player constant-sum game.
    """
    if not game.zero_sum:
        raise DomainError(
            "exploitability is defined for two-player constant-sum games; use NashConv",
            parameter="game",
        )
    result = evaluate_profile(game, profile).exploitability
    assert result is not None
    return result


@dataclass(frozen=True, slots=True)
class _Phase:
    """The work of one own depth ``d`` of a best response of one player.

    ``decide``: the player's nodes at own depth ``d``; ``children`` their children (each
    node's consecutive, in action order), ``local`` each child's action as an index into the
    concatenated actions of the phase's sets (``segment`` tells each action's set, ``action``
    its index in the set; a set's actions start at ``starts``), ``rank`` each node's set
    among them, ``first`` each node's first child. ``sums``: the other nodes at own depth
    ``d`` that have children, one group per tree level from the deepest, each with its
    children concatenated and where each node's children start.
    """

    decide: IntArray
    children: IntArray
    local: IntArray
    starts: IntArray
    segment: IntArray
    action: IntArray
    rank: IntArray
    first: IntArray
    infosets: IntArray
    sums: tuple[tuple[IntArray, IntArray, IntArray], ...]


class TreeArrays:
    """A game's tree as numpy arrays in level order, evaluating profiles given as flat
    vectors (one entry per information set and action: a *slot*).

    Attributes (positions are level-order indices; ``order[k]`` is the node at position k)
    ----------
    order, position
        Level order to node index and back.
    level_starts
        The first position of each depth, then the number of nodes.
    parent, player, infoset, first_child, child_count
        Per position: parent's position (-1 at the root), the mover (a player,
        :data:`CHANCE` or :data:`TERMINAL`), the information set (-1), the first child's
        position and the number of children.
    acting, slot
        Per position: the player whose move led here (:data:`CHANCE`, or -3 at the root) and
        the slot of that move (-1 after chance and at the root).
    slot_offsets, slot_infoset
        Each set's first slot (then the number of slots); each slot's set.
    """

    def __init__(self, game: ExtensiveGame):
        spend = current_deadline().spend
        nodes = game.nodes
        count = len(nodes)
        spend(count)
        self.game = game
        self.players = len(game.players)
        sizes = np.array([len(s.actions) for s in game.infosets], dtype=np.int64)
        self.slot_offsets: IntArray = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        self.slot_infoset: IntArray = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        slots = int(self.slot_offsets[-1])
        self.slots = slots

        depth = [0] * count
        for index, node in enumerate(nodes):
            for child in node.children:
                depth[child] = depth[index] + 1
        # level order: by depth, then prefix order; a node's children are then consecutive
        order: IntArray = np.argsort(np.array(depth, dtype=np.int64), kind="stable")
        position = np.empty(count, dtype=np.int64)
        position[order] = np.arange(count, dtype=np.int64)
        self.order = order
        self.position: IntArray = position
        levels = np.bincount(np.array(depth, dtype=np.int64))
        self.level_starts: IntArray = np.concatenate(([0], np.cumsum(levels))).astype(np.int64)

        # filled as lists (element writes into numpy arrays cost more), by position
        place = position.tolist()
        parents = [-1] * count
        movers = [0] * count
        sets = [-1] * count
        firsts = [-1] * count
        counts = [0] * count
        actors = [_ROOT] * count
        edges = [-1] * count
        one, zero = flint.fmpq(1), flint.fmpq(0)
        chance_exact = [one] * count
        chance_float = [1.0] * count
        payoff_exact = [[zero] * count for _ in game.players]
        payoff_float = [[0.0] * count for _ in game.players]
        offsets = self.slot_offsets.tolist()
        # each distinct number converted once (a game repeats few payoffs and probabilities)
        converted: dict[tuple[int, int], tuple[flint.fmpq, float]] = {}

        def both(value: Fraction) -> tuple[flint.fmpq, float]:
            key = (value.numerator, value.denominator)
            found = converted.get(key)
            if found is None:
                found = converted[key] = (_rational(value), float(value))
            return found

        for index, node in enumerate(nodes):
            spend(4)
            at = place[index]
            movers[at] = node.player
            sets[at] = node.infoset
            if node.children:
                firsts[at] = place[node.children[0]]
                counts[at] = len(node.children)
            for action, child in enumerate(node.children):
                below = place[child]
                parents[below] = at
                actors[below] = node.player
                if node.player == CHANCE:
                    chance_exact[below], chance_float[below] = both(node.probabilities[action])
                else:
                    edges[below] = offsets[node.infoset] + action
            for receiver, paid in enumerate(node.payoffs):
                payoff_exact[receiver][at], payoff_float[receiver][at] = both(paid)
        self.parent: IntArray = np.array(parents, dtype=np.int64)
        self.player: IntArray = np.array(movers, dtype=np.int64)
        self.infoset: IntArray = np.array(sets, dtype=np.int64)
        self.first_child: IntArray = np.array(firsts, dtype=np.int64)
        self.child_count: IntArray = np.array(counts, dtype=np.int64)
        self.acting: IntArray = np.array(actors, dtype=np.int64)
        self.slot: IntArray = np.array(edges, dtype=np.int64)
        self.chance_float: Values = np.fromiter(chance_float, dtype=np.float64, count=count)
        self.payoff_float: Values = np.stack(
            [np.fromiter(row, dtype=np.float64, count=count) for row in payoff_float]
        )
        self.chance_exact: Values = _objects(chance_exact)
        self.payoff_exact: Values = np.stack([_objects(row) for row in payoff_exact])
        parent, player, first_child, child_count, slot = (
            self.parent,
            self.player,
            self.first_child,
            self.child_count,
            self.slot,
        )
        self.terminal: IntArray = np.flatnonzero(player == TERMINAL)
        self.terminal_exact: Values = self.payoff_exact[:, self.terminal]
        self.terminal_float: Values = self.payoff_float[:, self.terminal]
        # two players whose payoffs sum to a constant (game.zero_sum, with fast rationals)
        totals = self.terminal_exact.sum(axis=0)
        self.zero_sum = self.players == 2 and bool(totals.size) and all(totals == totals[0])
        self.decision_edges: IntArray = np.flatnonzero(slot >= 0)
        self.decision_slots: IntArray = slot[self.decision_edges]
        self.player_sets = [
            np.array(game.player_infosets(p), dtype=np.int64) for p in range(self.players)
        ]
        # per level with children: the next level's bounds, the positions with children and
        # where each one's children start within the next level (they fill it, in order)
        self.internal_levels: list[tuple[int, int, IntArray, IntArray]] = []
        for level in range(len(levels) - 1):
            start, end = int(self.level_starts[level]), int(self.level_starts[level + 1])
            inner = start + np.flatnonzero(child_count[start:end] > 0)
            self.internal_levels.append(
                (end, int(self.level_starts[level + 2]), inner, first_child[inner] - end)
            )
        # per level below the root: its positions and their parents' positions
        self.levels_below: list[tuple[int, int, IntArray]] = []
        for level in range(1, len(levels)):
            start, end = int(self.level_starts[level]), int(self.level_starts[level + 1])
            self.levels_below.append((start, end, parent[start:end]))
        self._phases: dict[int, tuple[_Phase, ...]] = {}

    # profiles as flat vectors ---------------------------------------------------------

    def flat(self, profile: BehaviourProfile) -> Values:
        """The profile as one vector over the slots (exact rationals, FLINT's ``fmpq``, in an
        object array when the profile is exact, else float64), checked against the game.

        :raises InvalidInputError: a set is missing or has the wrong number of
            probabilities, or its probabilities are negative or do not sum to 1.
        """
        check_profile(self.game, profile)
        values = [p for row in profile.probabilities for p in row]
        if profile.exact:
            return _objects([_rational(p) for p in values])  # type: ignore[arg-type]
        return np.array(values, dtype=np.float64)

    def profile(self, flat: Values) -> BehaviourProfile:
        """The profile of a flat vector (the inverse of :meth:`flat`)."""
        listed = [as_fraction(p) for p in flat] if flat.dtype == object else flat.tolist()
        offsets = self.slot_offsets.tolist()
        return BehaviourProfile(
            tuple(tuple(listed[a:b]) for a, b in zip(offsets[:-1], offsets[1:], strict=True))
        )

    # evaluation ---------------------------------------------------------------------

    def evaluate(self, profile: BehaviourProfile) -> ProfileEvaluation:
        """Payoffs, best responses, NashConv and exploitability of ``profile``."""
        return self.evaluate_flat(self.flat(profile))

    def evaluate_flat(self, flat: Values) -> ProfileEvaluation:
        """:meth:`evaluate` for a flat profile (no checks: :meth:`flat` made it, or a solver
        did); exact when ``flat`` holds Fractions."""
        exact = flat.dtype == object
        edge = self.edge_probabilities(flat)
        payoffs = self._payoffs(edge)
        responses = tuple(self._best_response(edge, p) for p in range(self.players))
        gains = [r.value - v for r, v in zip(responses, payoffs, strict=True)]
        conv: Probability = sum(gains, Fraction(0)) if exact else float(sum(gains))
        exploit = conv / 2 if self.zero_sum else None
        return ProfileEvaluation(exact, payoffs, responses, conv, exploit)

    def nash_conv(self, flat: Values) -> Probability:
        """NashConv of a flat profile (see :meth:`evaluate_flat`)."""
        return self.evaluate_flat(flat).nash_conv

    def edge_probabilities(self, flat: Values) -> Values:
        """Per position, the probability of the move leading to it (1 at the root)."""
        exact = flat.dtype == object
        edge = (self.chance_exact if exact else self.chance_float).copy()
        edge[self.decision_edges] = flat[self.decision_slots]
        return edge

    def reach(self, factor: Values) -> Values:
        """Top-down products of ``factor`` (one per position): each position's product of
        the factors on its path from the root (the root's: 1)."""
        reached = np.empty_like(factor)
        reached[0] = 1
        cost = _EXACT_COST if factor.dtype == object else 1
        current_deadline().spend(cost * len(factor))
        for start, end, parents in self.levels_below:
            np.multiply(reached[parents], factor[start:end], out=reached[start:end])
        return reached

    def values(self, edge: Values, player: int) -> Values:
        """Bottom-up, each position's expected payoff to ``player`` when every move is taken
        with its probability in ``edge`` (see :meth:`edge_probabilities`)."""
        exact = edge.dtype == object
        values = np.zeros_like(edge)
        values[self.terminal] = (self.terminal_exact if exact else self.terminal_float)[player]
        current_deadline().spend((_EXACT_COST if exact else 1) * len(edge))
        for start, end, inner, offsets in reversed(self.internal_levels):
            values[inner] = np.add.reduceat(values[start:end] * edge[start:end], offsets)
        return values

    def expected_payoffs(self, flat: Values) -> tuple[Probability, ...]:
        """Each player's expected payoff under the flat profile."""
        return self._payoffs(self.edge_probabilities(flat))

    def best_response(self, flat: Values, player: int) -> BestResponse:
        """A pure best response of ``player`` to the others' parts of the flat profile."""
        if not 0 <= player < self.players:
            raise InvalidInputError(
                f"player {player} is not one of the game's {self.players} players",
                parameter="player",
            )
        return self._best_response(self.edge_probabilities(flat), player)

    def _payoffs(self, edge: Values) -> tuple[Probability, ...]:
        exact = edge.dtype == object
        reached = self.reach(edge)[self.terminal]
        payoff = self.terminal_exact if exact else self.terminal_float
        totals = (payoff * reached).sum(axis=1)
        if exact:
            return tuple(as_fraction(v) for v in totals)
        return tuple(float(v) for v in totals)

    def _best_response(self, edge: Values, player: int) -> BestResponse:
        exact = edge.dtype == object
        cost = _EXACT_COST if exact else 1
        spend = current_deadline().spend
        # chance's and the others' reach: the player's own moves count 1
        others = self.reach(np.where(self.acting == player, 1, edge).astype(edge.dtype))
        # values weighted by the others' reach (counterfactual values), filled bottom-up
        weighted = np.zeros_like(others)
        payoff = (self.terminal_exact if exact else self.terminal_float)[player]
        weighted[self.terminal] = others[self.terminal] * payoff
        choice = np.zeros(len(self.game.infosets), dtype=np.int64)
        for phase in self._player_phases(player):
            if phase.decide.size:
                # Q(I, a) summed over the set's nodes; the first best action of each set
                q = _segment_sum(phase.local, weighted[phase.children], phase.segment.size)
                is_best = q == np.maximum.reduceat(q, phase.starts)[phase.segment]
                last = phase.segment.size
                best = np.minimum.reduceat(np.where(is_best, phase.action, last), phase.starts)
                choice[phase.infosets] = best
                weighted[phase.decide] = weighted[phase.first + best[phase.rank]]
                spend(cost * (phase.children.size + q.size))
            for group, children, starts in phase.sums:
                weighted[group] = np.add.reduceat(weighted[children], starts)
                spend(cost * children.size)
        value = weighted[0]
        actions = tuple(choice[self.player_sets[player]].tolist())
        return BestResponse(player, actions, as_fraction(value) if exact else float(value))

    def _player_phases(self, player: int) -> tuple[_Phase, ...]:
        """The best response's work for ``player``, deepest own depth first (cached)."""
        cached = self._phases.get(player)
        if cached is not None:
            return cached
        own = self.reach_count(self.acting == player)
        phases = []
        mover = self.player
        inner = self.child_count > 0
        level_of = np.repeat(
            np.arange(len(self.level_starts) - 1), np.diff(self.level_starts)
        ).astype(np.int64)
        for depth in range(int(own.max()), -1, -1):
            at_depth = own == depth
            decide = np.flatnonzero(at_depth & (mover == player))
            children, owner = self._children_of(decide)
            infosets, rank = np.unique(self.infoset[decide], return_inverse=True)
            sizes = np.diff(self.slot_offsets)[infosets]
            starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
            action = children - self.first_child[decide][owner]
            local = starts[rank.reshape(-1)[owner]] + action
            summed = np.flatnonzero(at_depth & inner & (mover != player))
            sums = []
            for level in np.unique(level_of[summed])[::-1]:
                group = summed[level_of[summed] == level]
                kids, _ = self._children_of(group)
                kid_starts = np.concatenate(([0], np.cumsum(self.child_count[group])[:-1]))
                sums.append((group, kids, kid_starts.astype(np.int64)))
            segment = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
            phases.append(
                _Phase(
                    decide,
                    children,
                    local.astype(np.int64),
                    starts,
                    segment,
                    np.arange(segment.size, dtype=np.int64) - starts[segment],
                    rank.reshape(-1).astype(np.int64),
                    self.first_child[decide],
                    infosets.astype(np.int64),
                    tuple(sums),
                )
            )
        self._phases[player] = tuple(phases)
        return self._phases[player]

    def reach_count(self, mask: npt.NDArray[np.bool_]) -> IntArray:
        """Per position, how many positions on its path from the root (itself included, the
        root excluded) have ``mask`` set: with ``acting == i``, player i's own moves so far."""
        counted = np.zeros(len(mask), dtype=np.int64)
        starts = self.level_starts
        for level in range(1, len(starts) - 1):
            start, end = int(starts[level]), int(starts[level + 1])
            counted[start:end] = counted[self.parent[start:end]] + mask[start:end]
        return counted

    def _children_of(self, nodes: IntArray) -> tuple[IntArray, IntArray]:
        """The children of ``nodes`` concatenated (each node's in action order), and the
        index into ``nodes`` of each one's parent."""
        counts = self.child_count[nodes]
        owner = np.repeat(np.arange(len(nodes), dtype=np.int64), counts)
        before = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        children = self.first_child[nodes][owner] + np.arange(owner.size) - before[owner]
        return children.astype(np.int64), owner


def _objects(values: Sequence[object]) -> Values:
    """A 1-D object array holding ``values`` as they are (no look inside them for shapes)."""
    return np.fromiter(values, dtype=object, count=len(values))


def _rational(value: int | Fraction) -> flint.fmpq:
    """A FLINT rational (``fmpq``: exact, and about ten times faster than a Fraction in
    numpy's object loops)."""
    return flint.fmpq(value.numerator, value.denominator)


def as_fraction(value: object) -> Fraction:
    """An exact array element (``fmpq``, or a plain 0 or 1 left by ``zeros``) as a Fraction."""
    if isinstance(value, flint.fmpq):
        return Fraction(int(value.p), int(value.q))
    assert isinstance(value, int | Fraction)
    return Fraction(value)


def _segment_sum(index: IntArray, values: Values, size: int) -> Values:
    """``out[index[k]] += values[k]`` (exact on object arrays)."""
    if values.dtype == object:
        total = np.zeros(size, dtype=object)
        np.add.at(total, index, values)
        return total
    return np.bincount(index, weights=values, minlength=size)


def _infoset_index(game: ExtensiveGame, by_name: dict[str, list[int]], key: object) -> int:
    if isinstance(key, int) and not isinstance(key, bool):
        if 0 <= key < len(game.infosets):
            return key
        raise _invalid(f"the game has no information set {key}")
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], int):
        found = by_name.get(f"\0{key[0]}\0{key[1]}", [])
    elif isinstance(key, str):
        found = by_name.get(key, [])
    else:
        raise _invalid(f"an information set is named by its index, name or (player, name): {key!r}")
    if len(found) != 1:
        reason = "no information set is" if not found else f"{len(found)} information sets are"
        raise _invalid(f"{reason} named {key!r}")
    return found[0]


def _invalid(message: str) -> InvalidInputError:
    return InvalidInputError(message, parameter="profile")
