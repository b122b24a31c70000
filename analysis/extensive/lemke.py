"""An exact equilibrium of a two-player game with information sets: Lemke's algorithm on the
sequence form (Koller, Megiddo and von Stengel 1996), started from a prior (a pure or mixed
strategy pair) as von Stengel, van den Elzen and Talman (2002) do, and as Gambit's
``gambit-lcp`` does for extensive games.

With ``A`` and ``B`` the players' payoffs over pairs of sequences and ``E x = e``,
``F y = f`` the plans' constraints, a pair of plans is an equilibrium when each is a best
reply to the other; by linear-programming duality, when there are ``u``, ``v`` (free: each
information set's value) with::

    a = E^T u - A y >= 0,   x >= 0,   x^T a = 0
    b = F^T v - B^T x >= 0,  y >= 0,   y^T b = 0

a linear complementarity problem. The start ``(x0, y0)`` (the *prior*) enters through one
more variable ``z0`` that runs from 1 down to 0: player 1 plays ``x + z0 x0`` with
``E x = (1 - z0) e``, and ``x / (1 - z0)`` is a best reply to player 2's ``y + z0 y0``, and
the same for player 2::

    a = E^T u - A y - (A y0) z0,   E x + e z0 = e
    b = F^T v - B^T x - (B^T x0) z0,  F y + f z0 = f

At ``z0 = 1`` both play the prior and best-reply to it; each pivot moves along an edge of
the polyhedron, keeping all but one complementary pair (the *missing* one) complementary,
until ``z0`` leaves the basis at 0: an equilibrium (von Stengel, van den Elzen and Talman
prove that the path never escapes along a ray). The free ``u`` and ``v`` enter the basis at
the start and never leave it, so their rows constrain nothing and are dropped.

Arithmetic is exact: each row of the tableau is integers over one positive denominator of
its own, reduced by their greatest common divisor after every change. This takes the same
pivots as the textbook's fraction-free integer tableau (Edmonds 1967; every entry there is
the basis determinant times the row's, and the determinant grows), with numbers several
times shorter: on Leduc hold'em, 35 bits against 153 after the same 2200 pivots. Degenerate games
(ties) are handled by the lexicographic ratio test against the columns of the first basis,
which follows the path of a perturbed, nondegenerate system and so cannot cycle.

The answer is certified, never trusted: each player's plan's exact best-reply value
(:meth:`~analysis.extensive.sequence_form.SequenceForm.best_response`) must equal the
payoff it gets, and the plans must satisfy their constraints exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Final

from analysis.extensive.sequence_form import SequenceForm, sequence_form
from games.errors import DomainError, InvalidInputError, LimitExceededError
from games.extensive.model import ExtensiveGame
from games.limits import check_exact_size, current_deadline

MAX_SEQUENCES: Final = 20_000
"""Most sequences (both players together) the tableau is built for (the deadline usually
stops a long path well before: Leduc hold'em, 2186 sequences, does not end in minutes)."""

MAX_PIVOTS: Final = 100_000
"""Default cap on the number of pivots of one run."""

Behaviour = dict[int, tuple[Fraction, ...]]
"""A behaviour strategy: per information set of the player, one probability per action."""


@dataclass(frozen=True, slots=True)
class LemkeSolution:
    """An exact equilibrium of a two-player game found by Lemke's algorithm.

    Attributes
    ----------
    plans
        Each player's realization plan (by sequence).
    behaviour
        Each player's behaviour strategy at every information set of theirs. A set that the
        player's own plan never reaches gets the action that is best there against the
        other's plan, the player going on with such actions below it (the first action on
        ties, and where the other's plan does not reach the set either). Any choice there
        keeps the equilibrium; this one also answers the opponent sensibly off the path.
    payoffs
        Each player's expected payoff at the equilibrium.
    best_responses
        The certificate: the best each player can get against the other's plan, computed
        exactly; each equals the player's payoff.
    start
        The prior the path started from: per information set, each action's probability.
    pivots
        Pivots taken along the path (the first basis not counted).
    """

    plans: tuple[list[Fraction], list[Fraction]]
    behaviour: tuple[Behaviour, Behaviour]
    payoffs: tuple[Fraction, Fraction]
    best_responses: tuple[Fraction, Fraction]
    start: tuple[tuple[Fraction, ...], ...]
    pivots: int


def solve_lemke(
    game: ExtensiveGame,
    start: Mapping[int, int | Sequence[Fraction | int]] | None = None,
    *,
    max_pivots: int = MAX_PIVOTS,
) -> LemkeSolution:
    """An exact equilibrium of the two-player game ``game`` by Lemke's algorithm on the
    sequence form, from the prior ``start``.

    Parameters
    ----------
    game
        A two-player game with perfect recall (any payoffs: general-sum or zero-sum).
    start
        The prior: information set index -> the index of an action, or one exact probability
        per action; a set not named plays its first action (the default: the first action
        everywhere). Different starts may end at different equilibria. From a completely
        mixed prior in general position the equilibrium is normal-form perfect (von Stengel,
        van den Elzen and Talman 2002): it survives small trembles, so no player relies on a
        weakly dominated reply; a pure prior may end at an imperfect one.
    max_pivots
        Stop with an error after this many pivots.

    :raises InvalidInputError: ``start`` names a set or an action the game does not have or
        gives probabilities that are not a distribution, or ``max_pivots`` is not positive
        (the error names the parameter).
    :raises LimitExceededError: the game has more than :data:`MAX_SEQUENCES` sequences, or
        the path needs more than ``max_pivots`` pivots.
    :raises ExactSizeError: a tableau denominator grows past the exact-size limit.
    :raises TimeLimitError: the deadline passed.
    """
    if max_pivots < 1:
        raise InvalidInputError(
            f"max_pivots must be at least 1, got {max_pivots}", parameter="max_pivots"
        )
    form = sequence_form(game)
    if sum(form.sizes) > MAX_SEQUENCES:
        raise LimitExceededError(
            f"the game has {sum(form.sizes)} sequences; Lemke's algorithm here is built for at "
            f"most {MAX_SEQUENCES}"
        )
    prior = _prior(game, start)
    path = _Path(form, prior)
    x, y, pivots = path.follow(max_pivots)
    check_exact_size(x + y, "", "equilibrium probability")
    return _certified(form, x, y, prior, pivots)


def _prior(
    game: ExtensiveGame, start: Mapping[int, int | Sequence[Fraction | int]] | None
) -> tuple[tuple[Fraction, ...], ...]:
    """The prior's probability of each action at each set, from ``start``."""
    prior = [
        tuple(Fraction(int(a == 0)) for a in range(len(infoset.actions)))
        for infoset in game.infosets
    ]
    for h, given in (start or {}).items():
        if not isinstance(h, int) or not 0 <= h < len(game.infosets):
            raise InvalidInputError(
                f"start names information set {h!r}; the game has sets 0 to "
                f"{len(game.infosets) - 1}",
                parameter="start",
            )
        infoset = game.infosets[h]
        count = len(infoset.actions)
        where = f"start gives information set {infoset.name!r} ({', '.join(infoset.actions)})"
        if isinstance(given, int):
            if not 0 <= given < count:
                raise InvalidInputError(
                    f"{where} action {given}; its actions are 0 to {count - 1}",
                    parameter="start",
                )
            prior[h] = tuple(Fraction(int(a == given)) for a in range(count))
            continue
        try:
            probabilities = tuple(Fraction(p) for p in given)
        except (TypeError, ValueError):
            probabilities = ()
        if (
            len(probabilities) != count
            or min(probabilities) < 0
            or sum(probabilities) != 1
            or any(isinstance(p, float) for p in given)
        ):
            raise InvalidInputError(
                f"{where} {list(given)!r}; give an action index or {count} exact "
                "probabilities (ints or Fractions, none negative) that add up to 1",
                parameter="start",
            )
        prior[h] = probabilities
    return tuple(prior)


def _prior_plan(
    form: SequenceForm, player: int, prior: tuple[tuple[Fraction, ...], ...]
) -> list[Fraction]:
    return form.plan(player, {h: prior[h] for h in form.infosets(player)})


def _certified(
    form: SequenceForm,
    x: list[Fraction],
    y: list[Fraction],
    prior: tuple[tuple[Fraction, ...], ...],
    pivots: int,
) -> LemkeSolution:
    """The solution, once the plans are checked to be plans and mutual best replies."""
    for player, plan in ((0, x), (1, y)):
        if (
            plan[0] != 1
            or min(plan) < 0
            or any(
                sum(plan[form.first[h] + a] for a in range(len(form.game.infosets[h].actions)))
                != plan[form.parent[h]]
                for h in form.infosets(player)
            )
        ):
            raise DomainError(
                "Lemke's algorithm ended at a point that is not a pair of realization plans; "
                "this should not happen, please report the game"
            )
    payoffs = form.payoff(x, y)
    best = (form.best_response(0, y)[0], form.best_response(1, x)[0])
    if best != payoffs:
        raise DomainError(
            "Lemke's algorithm ended at plans that are not best replies to each other (best "
            f"replies {float(best[0])}, {float(best[1])}; payoffs {float(payoffs[0])}, "
            f"{float(payoffs[1])}); this should not happen, please report the game"
        )
    behaviour = (form.completed_behaviour(0, x, y), form.completed_behaviour(1, y, x))
    return LemkeSolution((x, y), behaviour, payoffs, best, prior, pivots)


class _Path:
    """The tableau of the LCP and the complementary pivoting along its path.

    Columns: ``x`` (n1), ``y`` (n2), ``a`` (n1), ``b`` (n2), ``u`` (p1), ``v`` (p2), ``z0``,
    then the right-hand side. Rows: one per ``a``, per ``b``, per row of ``E`` and of ``F``.
    Row ``r`` is the inverse basis times the system, ``tableau[r] / denominator[r]``. The
    tableau stays sparse (the tree's structure keeps a few percent of its entries nonzero),
    so each row is a dict of its nonzero entries, and ``rows_of`` lists the rows holding
    each column: a pivot touches only the rows holding the entering column. A ratio within
    one row, as the ratio test takes, needs no denominator.
    """

    def __init__(self, form: SequenceForm, prior: tuple[tuple[Fraction, ...], ...]):
        self.deadline = current_deadline()
        n1, n2 = form.sizes
        sets = (form.infosets(0), form.infosets(1))
        p1, p2 = len(sets[0]) + 1, len(sets[1]) + 1
        self.half = n1 + n2
        x, y, a, b = 0, n1, n1 + n2, 2 * n1 + n2
        u, v = 2 * (n1 + n2), 2 * (n1 + n2) + p1
        self.n1 = n1
        self.z0 = z0 = v + p2
        self.rhs = rhs = z0 + 1
        rows = n1 + n2 + p1 + p2
        tableau: list[dict[int, int]] = [{} for _ in range(rows)]
        for s in range(n1):
            tableau[s][a + s] = 1
        for t in range(n2):
            tableau[n1 + t][b + t] = 1
        # E-row k of player 1 is row n1 + n2 + k: k = 0 says x_0 = 1, then one per set
        e_root, f_root = n1 + n2, n1 + n2 + p1
        e_row = {h: e_root + 1 + i for i, h in enumerate(sets[0])}
        f_row = {h: f_root + 1 + i for i, h in enumerate(sets[1])}
        for player, row_of, root, column, free, slack_row in (
            (0, e_row, e_root, x, u, 0),
            (1, f_row, f_root, y, v, n1),
        ):
            tableau[root].update({column: 1, z0: 1, rhs: 1})
            # the slack row of each sequence holds -(E^T u): -1 for the set the sequence is
            # an action of (the root row for the empty one), +1 for each set it leads to
            tableau[slack_row][free] = -1
            for h in sets[player]:
                k = row_of[h] - root
                tableau[row_of[h]][column + form.parent[h]] = -1
                tableau[slack_row + form.parent[h]][free + k] = 1
                for action in range(len(form.game.infosets[h].actions)):
                    s = form.first[h] + action
                    tableau[row_of[h]][column + s] = 1
                    tableau[slack_row + s][free + k] = -1
        # each player's payoffs scaled to integers, and by the denominators of the other's
        # prior, so that the prior's payoffs are integers too (a positive factor changes no
        # best reply)
        priors = (_prior_plan(form, 0, prior), _prior_plan(form, 1, prior))
        common = [lcm(*(p.denominator for p in plan)) for plan in priors]
        integral = [[int(p * common[i]) for p in priors[i]] for i in (0, 1)]
        scales = [lcm(*(paid[i].denominator for paid in form.payoffs.values())) for i in (0, 1)]
        for (s, t), paid in form.payoffs.items():
            one = paid[0].numerator * (scales[0] // paid[0].denominator)
            two = paid[1].numerator * (scales[1] // paid[1].denominator)
            _add(tableau[s], y + t, one * common[1])
            _add(tableau[s], z0, one * integral[1][t])
            _add(tableau[n1 + t], x + s, two * common[0])
            _add(tableau[n1 + t], z0, two * integral[0][s])
        self.tableau = tableau
        self.denominator = [1] * rows
        self.rows_of: dict[int, set[int]] = {}
        for r, entries in enumerate(tableau):
            for j in entries:
                self.rows_of.setdefault(j, set()).add(r)
        self.basis = [a + s for s in range(n1)] + [b + t for t in range(n2)] + [-1] * (p1 + p2)
        # the first basis: both players best-reply to the prior at every set (x_0 is left
        # out; it enters first), the free u and v in the slack rows of those replies
        replies = (form.best_actions(0, priors[1])[1], form.best_actions(1, priors[0])[1])
        chosen = [[(h, form.first[h] + replies[p][h]) for h in sets[p]] for p in (0, 1)]
        plan: list[tuple[int, int]] = [(z0, e_root)]
        plan += [(x + s, e_row[h]) for h, s in chosen[0]]
        plan += [(y, f_root)]
        plan += [(y + t, f_row[h]) for h, t in chosen[1]]
        # top-down: a set's u is in no row of an earlier one, so each pivot element is still
        # the original entry; the rows of earlier u (which hold their sets' whole subtrees)
        # are left as they are, for they are dropped
        plan += [(u, 0)] + [(u + e_row[h] - e_root, s) for h, s in chosen[0]]
        plan += [(v, n1)] + [(v + f_row[h] - f_root, n1 + t) for h, t in chosen[1]]
        self.free = range(u, z0)
        for column, row in plan:
            if not tableau[row].get(column):
                raise DomainError(
                    "the first basis of Lemke's algorithm is singular; this should not happen, "
                    "please report the game"
                )
            self._pivot(row, column)
        # u and v stay basic for good: their rows constrain nothing more, and their columns
        # are zero in every other row
        kept = [r for r in range(rows) if self.basis[r] not in self.free]
        self.tableau = [self.tableau[r] for r in kept]
        self.basis = [self.basis[r] for r in kept]
        self.denominator = [self.denominator[r] for r in kept]
        self.rows_of = {}
        for r, entries in enumerate(self.tableau):
            for j in entries:
                self.rows_of.setdefault(j, set()).add(r)
        if any(row.get(rhs, 0) < 0 for row in self.tableau):
            raise DomainError(
                "the first basis of Lemke's algorithm is infeasible; this should not happen, "
                "please report the game"
            )
        # the lexicographic order: the columns of the first basis, each a unit column now
        self.order = list(self.basis)
        self.first_entering = x

    def follow(self, max_pivots: int) -> tuple[list[Fraction], list[Fraction], int]:
        """Pivot from the first basis until ``z0`` leaves; the plans and the pivot count."""
        half = self.half
        entering = self.first_entering
        pivots = 0
        while True:
            if pivots == max_pivots:
                raise LimitExceededError(
                    f"Lemke's algorithm took {max_pivots} pivots without reaching an "
                    "equilibrium; raise max_pivots or try another start",
                    parameter="max_pivots",
                )
            row = self._leaving_row(entering)
            leaving = self.basis[row]
            self._pivot(row, entering)
            pivots += 1
            if leaving == self.z0:
                break
            # the complement of the variable that left enters: x_s after a_s, and back
            entering = leaving - half if leaving >= half else leaving + half
        values = [Fraction(0)] * half
        for r, column in enumerate(self.basis):
            if column < half:
                values[column] = Fraction(self.tableau[r].get(self.rhs, 0), self.denominator[r])
        return values[: self.n1], values[self.n1 :], pivots

    def _leaving_row(self, entering: int) -> int:
        """The row of the ratio test: the least ratio of value to the entering column's
        entry, over rows where it is positive; ``z0`` first on ties (the path ends there),
        else ties broken lexicographically by the columns of the first basis."""
        tableau = self.tableau
        candidates = sorted(r for r in self.rows_of.get(entering, ()) if tableau[r][entering] > 0)
        self.deadline.spend(len(candidates) + 1)
        if not candidates:
            raise DomainError(
                "Lemke's algorithm ran off along a ray; this should not happen for the "
                "sequence form, please report the game"
            )
        for column in [self.rhs, *self.order]:
            best = candidates[0]
            tied = [best]
            for r in candidates[1:]:
                # value_r / entry_r against value_best / entry_best (both entries positive)
                left = tableau[r].get(column, 0) * tableau[best][entering]
                right = tableau[best].get(column, 0) * tableau[r][entering]
                if left < right:
                    best, tied = r, [r]
                elif left == right:
                    tied.append(r)
            if len(tied) == 1:
                return best
            if column == self.rhs:
                ending = [r for r in tied if self.basis[r] == self.z0]
                if ending:
                    return ending[0]
            candidates = tied
        raise DomainError(
            "the lexicographic ratio test tied; this should not happen, please report the game"
        )

    def _pivot(self, row: int, column: int) -> None:
        """Exchange the basic variable of ``row`` for ``column``: the pivot row is divided
        by its element, and each other row holding the column loses its multiple of it."""
        pivot_row = self.tableau[row]
        element = pivot_row[column]
        if element < 0:
            pivot_row = {j: -value for j, value in pivot_row.items()}
            element = -element
        common = gcd(element, *pivot_row.values())
        if common > 1:
            pivot_row = {j: value // common for j, value in pivot_row.items()}
            element //= common
        work = len(pivot_row)
        for r in sorted(self.rows_of[column] - {row}):
            if self.basis[r] in self.free:
                continue  # a free variable's row: never read again
            current = self.tableau[r]
            factor = current[column]
            combined = {j: value * element for j, value in current.items()}
            for j, other in pivot_row.items():
                combined[j] = combined.get(j, 0) - factor * other
            denominator = self.denominator[r] * element
            common = gcd(denominator, *combined.values())
            self._write(r, {j: value // common for j, value in combined.items() if value})
            self.denominator[r] = denominator // common
            check_exact_size(self.denominator[r], "", "tableau denominator")
            work += len(current) + len(pivot_row)
        self._write(row, pivot_row)
        self.denominator[row] = element
        self.deadline.spend(work * (1 + element.bit_length() // 64) + 1)
        self.basis[row] = column

    def _write(self, r: int, entries: dict[int, int]) -> None:
        old = self.tableau[r]
        for j in old.keys() - entries.keys():
            self.rows_of[j].discard(r)
        for j in entries.keys() - old.keys():
            self.rows_of.setdefault(j, set()).add(r)
        self.tableau[r] = entries


def _add(row: dict[int, int], column: int, value: int) -> None:
    if value:
        total = row.get(column, 0) + value
        if total:
            row[column] = total
        else:
            del row[column]
