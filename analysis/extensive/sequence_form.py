"""The sequence form of a two-player game with perfect recall (Koller, Megiddo and von
Stengel 1996; von Stengel 1996).

A player's **sequence** is the empty sequence or one of their (information set, action)
pairs: under perfect recall, the pair names the whole list of their own choices that leads
to it. Sequence 0 is the empty one; the actions of information set ``h`` are sequences
``first[h] .. first[h] + len(actions) - 1``, and ``parent[h]`` is the sequence that leads to
``h``. A **realization plan** ``x`` gives each sequence the probability that the player's own
choices follow it: ``x[0] = 1`` and, at each of their sets, the actions' shares add up to
the parent's, ``sum_a x[first[h] + a] = x[parent[h]]`` (the constraints ``E x = e``). Every
behaviour strategy has one, and back: ``b(a | h) = x[first[h] + a] / x[parent[h]]``.

The expected payoff is bilinear in the two plans, ``x^T A y``, with one entry per pair of
sequences that end together at a terminal node (weighted by chance), so the sizes are linear
in the tree where the normal form is exponential.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.errors import InvalidInputError
from games.extensive.model import CHANCE, TERMINAL, ExtensiveGame
from games.limits import current_deadline

Plan = Sequence[Fraction]
"""A realization plan: one exact probability per sequence of a player."""


@dataclass(frozen=True, slots=True)
class SequenceForm:
    """The sequence form of a two-player game.

    Attributes
    ----------
    game
        The game.
    sizes
        Each player's number of sequences (the empty one included).
    first
        For each information set of the game (by its index), the sequence of its first
        action.
    parent
        For each information set, its player's sequence leading to it.
    children
        For each player and sequence, the information sets of that player it leads to
        directly (whose ``parent`` it is).
    payoffs
        ``(s1, s2) -> (u1, u2)``: the chance-weighted payoffs of the terminal nodes reached
        by the pair of sequences, summed (pairs with no terminal node are absent).
    """

    game: ExtensiveGame
    sizes: tuple[int, int]
    first: tuple[int, ...]
    parent: tuple[int, ...]
    children: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    payoffs: dict[tuple[int, int], tuple[Fraction, Fraction]]

    def infosets(self, player: int) -> tuple[int, ...]:
        """``player``'s information sets, in the game's order (parents before children)."""
        return self.game.player_infosets(player)

    def behaviour(self, player: int, plan: Plan) -> dict[int, tuple[Fraction, ...]]:
        """The behaviour strategy of a realization plan, by information set; a set the plan
        never reaches (its parent sequence has probability 0) is absent."""
        strategy: dict[int, tuple[Fraction, ...]] = {}
        for h in self.infosets(player):
            reach = plan[self.parent[h]]
            if reach:
                count = len(self.game.infosets[h].actions)
                strategy[h] = tuple(plan[self.first[h] + a] / reach for a in range(count))
        return strategy

    def plan(self, player: int, behaviour: dict[int, Sequence[Fraction]]) -> list[Fraction]:
        """The realization plan of a behaviour strategy (a set missing from ``behaviour``
        must be unreached)."""
        plan = [Fraction(0)] * self.sizes[player]
        plan[0] = Fraction(1)
        for h in self.infosets(player):  # parents come first
            reach = plan[self.parent[h]]
            if not reach:
                continue
            for a, p in enumerate(behaviour[h]):
                plan[self.first[h] + a] = reach * p
        return plan

    def payoff(self, x: Plan, y: Plan) -> tuple[Fraction, Fraction]:
        """Both players' expected payoffs under the plans ``x`` and ``y``."""
        one = two = Fraction(0)
        for (s1, s2), (u1, u2) in self.payoffs.items():
            weight = x[s1] * y[s2]
            if weight:
                one += weight * u1
                two += weight * u2
        return one, two

    def best_actions(
        self, player: int, against: Sequence[Fraction | int]
    ) -> tuple[Fraction, dict[int, int]]:
        """The best ``player`` can get against the other's plan ``against``, and the action
        that is best at each of the player's sets if it were reached and the player went on
        with such actions below it (the first on ties): every set gets one, reached or not.

        In the sequence form this is one pass up the player's sets: a sequence is worth the
        payoffs it ends at (weighted by the other's plan and chance) plus the best of each set
        it leads to.
        """
        spend = current_deadline().spend
        worth = [Fraction(0)] * self.sizes[player]
        for pair, paid in self.payoffs.items():
            weight = against[pair[1 - player]]
            if weight:
                worth[pair[player]] += weight * paid[player]
        choice: dict[int, int] = {}
        for h in reversed(self.infosets(player)):  # children before parents
            spend(1)
            start = self.first[h]
            values = worth[start : start + len(self.game.infosets[h].actions)]
            best = max(range(len(values)), key=values.__getitem__)
            choice[h] = best
            worth[self.parent[h]] += values[best]
        return worth[0], choice

    def best_response(self, player: int, against: Plan) -> tuple[Fraction, list[Fraction]]:
        """The best ``player`` can get against the other's plan ``against``, and a pure plan
        that gets it (:meth:`best_actions` wherever the plan goes)."""
        value, choice = self.best_actions(player, against)
        plan = [Fraction(0)] * self.sizes[player]
        plan[0] = Fraction(1)
        for h in self.infosets(player):
            if plan[self.parent[h]]:
                plan[self.first[h] + choice[h]] = Fraction(1)
        return value, plan

    def completed_behaviour(
        self, player: int, plan: Plan, against: Plan
    ) -> dict[int, tuple[Fraction, ...]]:
        """The behaviour strategy of ``plan``, with :meth:`best_actions` against ``against``
        at every set the plan does not reach (which leaves the plan, and any equilibrium it
        is part of, the same), by information set in order."""
        strategy = self.behaviour(player, plan)
        _, chosen = self.best_actions(player, against)
        for h in self.infosets(player):
            if h not in strategy:
                count = len(self.game.infosets[h].actions)
                strategy[h] = tuple(Fraction(int(a == chosen[h])) for a in range(count))
        return dict(sorted(strategy.items()))


def sequence_form(game: ExtensiveGame) -> SequenceForm:
    """The sequence form of ``game``.

    :raises InvalidInputError: the game does not have two players.
    """
    if len(game.players) != 2:
        raise InvalidInputError(
            f"the sequence form here is for two players; the game has {len(game.players)}"
        )
    spend = current_deadline().spend
    first = [0] * len(game.infosets)
    sizes = [1, 1]
    for index, infoset in enumerate(game.infosets):
        first[index] = sizes[infoset.player]
        sizes[infoset.player] += len(infoset.actions)
    parent = [-1] * len(game.infosets)
    children: list[list[list[int]]] = [[[] for _ in range(n)] for n in sizes]
    payoffs: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}
    # each node's pair of sequences and chance probability, parents before children
    at: list[tuple[int, int, Fraction]] = [(0, 0, Fraction(1))] * len(game.nodes)
    for index, node in enumerate(game.nodes):
        spend(1)
        s1, s2, chance = at[index]
        if node.player == TERMINAL:
            if chance:
                u1, u2 = payoffs.get((s1, s2), (Fraction(0), Fraction(0)))
                payoffs[s1, s2] = (u1 + chance * node.payoffs[0], u2 + chance * node.payoffs[1])
            continue
        if node.player == CHANCE:
            for child, p in zip(node.children, node.probabilities, strict=True):
                at[child] = (s1, s2, chance * p)
            continue
        h = node.infoset
        mine = (s1, s2)[node.player]
        if parent[h] < 0:
            parent[h] = mine
            children[node.player][mine].append(h)
        for a, child in enumerate(node.children):
            sequence = first[h] + a
            at[child] = (sequence, s2, chance) if node.player == 0 else (s1, sequence, chance)
    return SequenceForm(
        game,
        (sizes[0], sizes[1]),
        tuple(first),
        tuple(parent),
        (
            tuple(tuple(c) for c in children[0]),
            tuple(tuple(c) for c in children[1]),
        ),
        payoffs,
    )
