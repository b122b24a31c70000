"""The reduced strategic form of a two-player game with information sets, and all its
extreme equilibria through the matrix solver.

A pure strategy picks an action at every information set of its player. Two pure strategies
that differ only at sets they themselves never reach lead to the same play against anything
(they have the same realization plan), so the *reduced* strategic form keeps one of each:
a reduced strategy picks an action at each set its own earlier picks reach, and the sets it
cuts off are shown as ``*`` in its label (Gambit's convention). Kuhn poker has 27 reduced
strategies for player 1 and 64 for player 2, against 64 and 64 pure ones.

The form is exponential in the tree, so it is built only when small: the count is computed
first (a product over the sets, no enumeration) and a form above the limit is refused. Its
extreme equilibria come from :func:`analysis.equilibria.vertex_enumeration.extreme_equilibria`
(exact, certified there), and each is mapped back to realization plans (the mix of the pure
plans) and behaviour strategies.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from analysis.equilibria.equilibrium_set import EquilibriumSet
from analysis.equilibria.vertex_enumeration import MAX_STRATEGIES, extreme_equilibria
from analysis.extensive.lemke import Behaviour
from analysis.extensive.sequence_form import SequenceForm, sequence_form
from games.errors import LimitExceededError
from games.extensive.model import ExtensiveGame
from games.limits import current_deadline
from games.matrices.model import NormalFormGame, exact_array

MAX_REDUCED_STRATEGIES: Final = 2_000
"""Most reduced strategies per player the strategic form is built with."""

MAX_CELLS: Final = 250_000
"""Most cells (pairs of reduced strategies) the strategic form is built with."""


@dataclass(frozen=True, slots=True)
class ReducedStrategicForm:
    """The reduced strategic form of a two-player game.

    Attributes
    ----------
    game
        The bimatrix game: rows are player 1's reduced strategies, columns player 2's, with
        exact expected payoffs (chance included).
    strategies
        Each player's reduced strategies, each as the sequences it plays (its pure
        realization plan's support, the empty sequence first).
    form
        The sequence form the strategies are sequences of.
    """

    game: NormalFormGame
    strategies: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    form: SequenceForm

    def plan(self, player: int, mix: tuple[Fraction, ...]) -> list[Fraction]:
        """The realization plan of ``player``'s mixed strategy ``mix`` (one probability per
        reduced strategy)."""
        plan = [Fraction(0)] * self.form.sizes[player]
        for probability, sequences in zip(mix, self.strategies[player], strict=True):
            if probability:
                for s in sequences:
                    plan[s] += probability
        return plan


@dataclass(frozen=True, slots=True)
class ExtremeEquilibrium:
    """One extreme equilibrium of the reduced strategic form, in both shapes.

    Attributes
    ----------
    mixed
        Each player's probability of each reduced strategy.
    plans
        The realization plans the mixed strategies induce.
    behaviour
        The behaviour strategies of the plans, completed at unreached sets as
        :class:`~analysis.extensive.lemke.LemkeSolution`'s are.
    payoffs
        Each player's expected payoff.
    """

    mixed: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
    plans: tuple[list[Fraction], list[Fraction]]
    behaviour: tuple[Behaviour, Behaviour]
    payoffs: tuple[Fraction, Fraction]


@dataclass(frozen=True, slots=True)
class StrategicFormEquilibria:
    """All extreme equilibria of a game's reduced strategic form.

    Attributes
    ----------
    strategic_form
        The reduced strategic form solved.
    equilibria
        Its extreme equilibria, in the matrix solver's order.
    matrix_equilibria
        The matrix solver's full answer (maximal Nash subsets and components, degeneracy).
    """

    strategic_form: ReducedStrategicForm
    equilibria: tuple[ExtremeEquilibrium, ...]
    matrix_equilibria: EquilibriumSet


def reduced_strategy_counts(game: ExtensiveGame) -> tuple[int, int]:
    """How many reduced strategies each player has, counted without listing them."""
    form = sequence_form(game)
    return (_count(form, 0), _count(form, 1))


def reduced_strategic_form(
    game: ExtensiveGame, max_strategies: int = MAX_REDUCED_STRATEGIES
) -> ReducedStrategicForm:
    """The reduced strategic form of the two-player game ``game``.

    :raises InvalidInputError: the game does not have two players.
    :raises LimitExceededError: a player has more than ``max_strategies`` reduced strategies,
        or the form more than :data:`MAX_CELLS` cells.
    :raises TimeLimitError: the deadline passed.
    """
    form = sequence_form(game)
    counts = (_count(form, 0), _count(form, 1))
    for player, count in enumerate(counts):
        if count > max_strategies:
            raise LimitExceededError(
                f"{game.players[player]} has {count} reduced strategies; the strategic form is "
                f"built for at most {max_strategies} per player (Lemke's algorithm finds one "
                "equilibrium of larger games)",
                parameter="max_strategies",
            )
    if counts[0] * counts[1] > MAX_CELLS:
        raise LimitExceededError(
            f"the reduced strategic form has {counts[0]} x {counts[1]} cells; it is built for "
            f"at most {MAX_CELLS} (Lemke's algorithm finds one equilibrium of larger games)",
            parameter="max_strategies",
        )
    strategies = (_strategies(form, 0), _strategies(form, 1))
    spend = current_deadline().spend
    # player 1's payoffs A[s1][s2] and player 2's, by the sequences of player 1
    by_first: list[dict[int, tuple[Fraction, Fraction]]] = [{} for _ in range(form.sizes[0])]
    for (s1, s2), paid in form.payoffs.items():
        by_first[s1][s2] = paid
    tables: tuple[list[list[Fraction]], list[list[Fraction]]] = ([], [])
    for row in strategies[0]:
        one: dict[int, Fraction] = {}
        two: dict[int, Fraction] = {}
        for s1 in row:
            for s2, (u1, u2) in by_first[s1].items():
                one[s2] = one.get(s2, Fraction(0)) + u1
                two[s2] = two.get(s2, Fraction(0)) + u2
        spend(len(strategies[1]))
        tables[0].append(
            [sum((one.get(s, Fraction(0)) for s in col), Fraction(0)) for col in strategies[1]]
        )
        tables[1].append(
            [sum((two.get(s, Fraction(0)) for s in col), Fraction(0)) for col in strategies[1]]
        )
    labels = (_labels(form, 0, strategies[0]), _labels(form, 1, strategies[1]))
    matrix = NormalFormGame((exact_array(tables[0]), exact_array(tables[1])), labels)
    return ReducedStrategicForm(matrix, strategies, form)


def strategic_form_equilibria(
    game: ExtensiveGame, max_strategies: int = MAX_STRATEGIES
) -> StrategicFormEquilibria:
    """All extreme equilibria of ``game``'s reduced strategic form, exactly, each mapped back
    to realization plans and behaviour strategies.

    :raises InvalidInputError: the game does not have two players.
    :raises LimitExceededError: a player has more than ``max_strategies`` reduced strategies
        (the matrix solver enumerates at most
        :data:`~analysis.equilibria.vertex_enumeration.MAX_STRATEGIES`).
    :raises TimeLimitError: the deadline passed.
    """
    strategic = reduced_strategic_form(game, max_strategies)
    found = extreme_equilibria(strategic.game, exact=True, max_strategies=max_strategies)
    form = strategic.form
    equilibria = []
    for equilibrium in found.equilibria:
        mixed = (
            tuple(Fraction(p) for p in equilibrium.row),
            tuple(Fraction(p) for p in equilibrium.col),
        )
        x, y = strategic.plan(0, mixed[0]), strategic.plan(1, mixed[1])
        behaviour = (form.completed_behaviour(0, x, y), form.completed_behaviour(1, y, x))
        payoffs = (Fraction(equilibrium.payoffs[0]), Fraction(equilibrium.payoffs[1]))
        equilibria.append(ExtremeEquilibrium(mixed, (x, y), behaviour, payoffs))
    return StrategicFormEquilibria(strategic, tuple(equilibria), found)


def _count(form: SequenceForm, player: int) -> int:
    """The number of reduced strategies: below a sequence, the product over the sets it
    leads to of the sum over their actions."""
    below = [1] * form.sizes[player]
    for h in reversed(form.infosets(player)):  # children before parents
        actions = len(form.game.infosets[h].actions)
        below[form.parent[h]] *= sum(below[form.first[h] + a] for a in range(actions))
    return below[0]


def _strategies(form: SequenceForm, player: int) -> tuple[tuple[int, ...], ...]:
    """The reduced strategies of ``player``: each the sequences it plays, in order, the
    first set's action varying slowest. Built up the tree (no recursion, so deep trees are
    fine): below each sequence, every way to play on from it."""
    spend = current_deadline().spend
    below: list[list[tuple[int, ...]]] = [[(s,)] for s in range(form.sizes[player])]
    for h in reversed(form.infosets(player)):  # children before parents
        options = [
            part
            for a in range(len(form.game.infosets[h].actions))
            for part in below[form.first[h] + a]
        ]
        parent = form.parent[h]
        # sets met later were combined first, so this one varies slower than they do
        below[parent] = [(*base, *part) for part in options for base in below[parent]]
        spend(len(below[parent]))
        for a in range(len(form.game.infosets[h].actions)):
            below[form.first[h] + a] = []
    return tuple(tuple(sorted(strategy)) for strategy in below[0])


def _labels(
    form: SequenceForm, player: int, strategies: tuple[tuple[int, ...], ...]
) -> tuple[str, ...]:
    """Each reduced strategy's action at each of the player's sets, ``*`` where it does not
    reach the set, joined by commas."""
    sets = form.infosets(player)
    labels = []
    for sequences in strategies:
        played = set(sequences)
        picks = []
        for h in sets:
            actions = form.game.infosets[h].actions
            taken = [a for a in range(len(actions)) if form.first[h] + a in played]
            picks.append(actions[taken[0]] if taken else "*")
        labels.append(",".join(picks))
    return tuple(labels)
