"""Exact equilibria of two-player zero-sum games with information sets: the sequence-form
linear program (Koller, Megiddo and von Stengel 1996).

With ``A`` player 1's payoffs over pairs of sequences, player 2's best reply to a plan ``x``
is the linear program ``min x^T A y`` over plans ``F y = f, y >= 0``; its dual turns player
1's problem into one linear program::

    maximise q_0  subject to  F^T q - A^T x <= 0,  E x = e,  x >= 0   (q free)

whose optimum is the game's value, ``x`` an optimal plan of player 1, and the duals of the
inequalities (one per sequence of player 2) an optimal plan ``y`` of player 2. Its size is
linear in the tree.

HiGHS solves it in floats; its final basis then fixes the exact answer: the basic variables
solve a square system of the tight constraints, solved with rationals by FLINT, and the
duals likewise. The answer is *certified*, never trusted: each plan's best reply is computed
exactly (:meth:`~analysis.extensive.sequence_form.SequenceForm.best_response`), and the two
best-reply values must be equal, which proves both plans optimal and the value exact (weak
duality). If the float basis is not exactly optimal (possible where payoffs differ by less
than doubles can see), the solver says so with an error instead of answering in floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import flint
import highspy
import numpy as np
from highspy import _core

from analysis.extensive.sequence_form import SequenceForm, sequence_form
from games.errors import DomainError, LimitExceededError, TimeLimitError
from games.extensive.model import ExtensiveGame
from games.limits import check_exact_size, current_deadline

MAX_SEQUENCES: Final = 20_000
"""Most sequences (both players together) the linear program is built for."""

MAX_EXACT_BASIS: Final = 4_000
"""Most basic variables solved with rationals (FLINT's dense solve grows as the cube)."""


@dataclass(frozen=True, slots=True)
class ZeroSumSolution:
    """An exact equilibrium of a two-player zero-sum game.

    Attributes
    ----------
    value
        Player 1's payoff at equilibrium (the game's value).
    plans
        Each player's optimal realization plan (by sequence).
    behaviour
        Each player's behaviour strategy: per information set of theirs, one probability per
        action. A set that the player's own plan never reaches gets the action that is best
        there against the opponent's plan (any choice keeps the equilibrium; this one is
        also sensible where it is not reached).
    best_responses
        The certificate: the best player 1 can get against player 2's plan, and the best
        player 2 can get against player 1's (in player 1's payoff, the least). They are equal,
        and equal to ``value``.
    """

    value: Fraction
    plans: tuple[list[Fraction], list[Fraction]]
    behaviour: tuple[dict[int, tuple[Fraction, ...]], dict[int, tuple[Fraction, ...]]]
    best_responses: tuple[Fraction, Fraction]


def solve_zero_sum(game: ExtensiveGame) -> ZeroSumSolution:
    """The exact value and optimal behaviour strategies of a two-player zero-sum (or
    constant-sum: player 1's payoff is what is optimised) game.

    :raises DomainError: the game is not two-player constant-sum.
    :raises LimitExceededError: the game is larger than :data:`MAX_SEQUENCES` sequences, or
        its basis than :data:`MAX_EXACT_BASIS`.
    :raises TimeLimitError: the deadline passed.
    """
    if not game.zero_sum:
        raise DomainError(
            "the game is not zero-sum (two players whose payoffs add up to the same total at "
            "every end): the sequence-form LP does not apply; use Lemke's algorithm"
        )
    form = sequence_form(game)
    if sum(form.sizes) > MAX_SEQUENCES:
        raise LimitExceededError(
            f"the game has {sum(form.sizes)} sequences; the exact linear program is built for at "
            f"most {MAX_SEQUENCES}"
        )
    lp = _Program(form)
    x, y = lp.solve()
    check_exact_size(x + y, "", "equilibrium probability")
    best_for_one, _ = form.best_response(0, y)
    against_one, _ = form.best_response(1, x)
    # player 2's best reply maximises u2 = total - u1: in player 1's payoff, the least
    total = game.constant_sum or Fraction(0)
    least_for_one = total - against_one
    if best_for_one != least_for_one:
        raise DomainError(
            "the linear program's basis did not give an exact equilibrium (best replies "
            f"{float(best_for_one)} and {float(least_for_one)} differ); this should not happen, "
            "please report the game"
        )
    behaviour = (form.completed_behaviour(0, x, y), form.completed_behaviour(1, y, x))
    return ZeroSumSolution(best_for_one, (x, y), behaviour, (best_for_one, least_for_one))


class _Program:
    """The sequence-form LP of player 1, solved by HiGHS and then exactly."""

    def __init__(self, form: SequenceForm):
        self.form = form
        game = form.game
        n1, n2 = form.sizes
        ones = form.infosets(0)
        twos = form.infosets(1)
        self.columns = n1 + 1 + len(twos)  # x, then q_0 and one q per set of player 2
        q = {h: n1 + 1 + i for i, h in enumerate(twos)}
        rows: list[dict[int, Fraction]] = []
        # E x = e: the empty sequence has probability 1, each set passes on its parent's
        rows.append({0: Fraction(1)})
        for h in ones:
            row = {form.parent[h]: Fraction(-1)}
            for a in range(len(game.infosets[h].actions)):
                row[form.first[h] + a] = Fraction(1)
            rows.append(row)
        self.equalities = len(rows)
        # F^T q - A^T x <= 0, one row per sequence of player 2
        ends: list[dict[int, Fraction]] = [{} for _ in range(n2)]
        for (s1, s2), (u1, _) in form.payoffs.items():
            ends[s2][s1] = ends[s2].get(s1, Fraction(0)) - u1
        for s2 in range(n2):
            row = dict(ends[s2])
            if s2 == 0:
                row[n1] = Fraction(1)
            for h in form.children[1][s2]:
                row[q[h]] = row.get(q[h], Fraction(0)) - 1
            rows.append(row)
        for h in twos:
            for a in range(len(game.infosets[h].actions)):
                rows[self.equalities + form.first[h] + a][q[h]] = Fraction(1)
        self.rows = rows
        self.n1 = n1

    def solve(self) -> tuple[list[Fraction], list[Fraction]]:
        deadline = current_deadline()
        # the binding's core class: highspy.Highs's constructor enables its callbacks, which
        # print HiGHS's banner on standard output before any option can silence it
        highs = _core._Highs()
        highs.setOptionValue("output_flag", False)
        left = deadline.remaining()
        if left is not None:
            highs.setOptionValue("time_limit", max(left, 0.001))
        lp = highspy.HighsLp()
        count = self.columns
        lp.num_col_ = count
        lp.num_row_ = len(self.rows)
        cost = np.zeros(count)
        cost[self.n1] = -1.0  # HiGHS minimises: -q_0
        lp.col_cost_ = cost
        lower = np.full(count, -highspy.kHighsInf)
        lower[: self.n1] = 0.0
        lp.col_lower_ = lower
        lp.col_upper_ = np.full(count, highspy.kHighsInf)
        row_lower = np.full(len(self.rows), -highspy.kHighsInf)
        row_upper = np.zeros(len(self.rows))
        row_lower[: self.equalities] = 0.0
        row_lower[0] = row_upper[0] = 1.0
        lp.row_lower_ = row_lower
        lp.row_upper_ = row_upper
        starts: list[int] = [0]
        indices: list[int] = []
        entries: list[float] = []
        by_column: list[list[tuple[int, float]]] = [[] for _ in range(count)]
        for r, row in enumerate(self.rows):
            for c, v in row.items():
                by_column[c].append((r, float(v)))
        for column in by_column:
            for r, value in column:
                indices.append(r)
                entries.append(value)
            starts.append(len(indices))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = starts
        lp.a_matrix_.index_ = indices
        lp.a_matrix_.value_ = entries
        highs.passModel(lp)
        highs.run()
        status = highs.getModelStatus()
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise TimeLimitError(f"the computation exceeded the time limit of {deadline.seconds} s")
        if status != highspy.HighsModelStatus.kOptimal:
            raise DomainError(
                f"the linear program was not solved: {highs.modelStatusToString(status)}"
            )
        deadline.check()
        basis = highs.getBasis()
        columns = list(basis.col_status)  # one conversion: indexing the binding copies
        statuses = list(basis.row_status)
        basic = [c for c in range(count) if columns[c] == highspy.HighsBasisStatus.kBasic]
        tight = [r for r in range(len(self.rows)) if statuses[r] != highspy.HighsBasisStatus.kBasic]
        if len(basic) != len(tight):
            raise DomainError("the linear program's basis is not square; please report the game")
        if len(basic) > MAX_EXACT_BASIS:
            raise LimitExceededError(
                f"the exact solve has {len(basic)} unknowns; at most {MAX_EXACT_BASIS} are solved "
                "with rationals"
            )
        return self._exact(basic, tight)

    def _exact(self, basic: list[int], tight: list[int]) -> tuple[list[Fraction], list[Fraction]]:
        """The basic solution of the tight rows, and the duals of those rows, with rationals."""
        where = {c: i for i, c in enumerate(basic)}
        system = [{where[c]: v for c, v in self.rows[r].items() if c in where} for r in tight]
        solution = _solve(system, {i: Fraction(1) for i, r in enumerate(tight) if r == 0})
        x = [Fraction(0)] * self.n1
        for j, c in enumerate(basic):
            if c < self.n1:
                x[c] = solution[j]
        # duals: B^T pi = c_B, where c is the objective (q_0)
        transposed: list[dict[int, Fraction]] = [{} for _ in basic]
        for i, row in enumerate(system):
            for j, v in row.items():
                transposed[j][i] = v
        objective = {where[self.n1]: Fraction(1)} if self.n1 in where else {}
        duals = _solve(transposed, objective)
        y = [Fraction(0)] * self.form.sizes[1]
        for i, r in enumerate(tight):
            if r >= self.equalities:
                y[r - self.equalities] = duals[i]
        if y[0] < 0:
            y = [-v for v in y]
        return x, y


def _solve(rows: list[dict[int, Fraction]], rhs: dict[int, Fraction]) -> list[Fraction]:
    """The solution of the square system ``rows`` (sparse, exact) with right side ``rhs``:
    each row scaled to integers, solved by FLINT (p-adic lifting on the integer matrix)."""
    size = len(rows)
    matrix = flint.fmpz_mat(size, size)
    right = flint.fmpz_mat(size, 1)
    for i, row in enumerate(rows):
        scale = math.lcm(
            *(v.denominator for v in row.values()), rhs.get(i, Fraction(0)).denominator
        )
        for j, v in row.items():
            matrix[i, j] = v.numerator * (scale // v.denominator)
        if i in rhs:
            right[i, 0] = int(rhs[i] * scale)
    current_deadline().check()
    try:
        solution = matrix.solve(right)
    except ZeroDivisionError:
        raise DomainError(
            "the linear program's basis is singular in exact arithmetic; please report the game"
        ) from None
    current_deadline().check()
    return [Fraction(int(solution[i, 0].p), int(solution[i, 0].q)) for i in range(size)]
