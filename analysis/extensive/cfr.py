"""Counterfactual regret minimisation: CFR (Zinkevich, Johanson, Bowling and Piccione 2007)
and CFR+ (Tammelin 2014), in floats, over the whole tree at once.

At each iteration every player ``i`` plays the current strategy given by *regret matching*
(at each information set, actions in proportion to their positive cumulative regret;
uniformly if none is positive). The iteration walks the tree twice, as numpy arrays level by
level (:class:`~analysis.extensive.policy.TreeArrays`): top-down, the reach probability of
each node by each player and by chance; bottom-up, each node's value ``u_i`` to each player.
The counterfactual regret of action ``a`` at a set ``I`` of ``i`` then grows by::

    r(I, a) = sum over nodes h of I of  pi_{-i}(h) * (u_i(h . a) - u_i(h))

and the *average* strategy, weighted at each set by ``i``'s own reach ``pi_i(h)``, is what
converges: in a two-player zero-sum game its exploitability falls as ``O(1/sqrt(T))``.

- **CFR** (``"cfr"``): as in Zinkevich et al., both players' regrets are updated at once
  (simultaneous updates; OpenSpiel's ``CFRSolver`` alternates them) and every iteration
  counts equally in the average.
- **CFR+** (``"cfr_plus"``), as Tammelin (2014) and Tammelin, Burch, Johanson and Bowling
  (2015) describe it: *regret matching+* (cumulative regrets are clipped at 0 after each
  update, so an action that turns good is played again at once), *alternating updates*
  (player 1 is updated, then player 2 against player 1's new strategy), and *linear
  averaging* (iteration ``t`` weighs ``t`` in the average, no delay). In practice it converges
  far faster than CFR. This is OpenSpiel's ``CFRPlusSolver``: after the same iterations on
  Kuhn and Leduc poker both give the same exploitability to 1e-15 (``bench/extensive.py``).

Both are deterministic (no sampling, so no seed: the same game gives the same numbers).
After each iteration the NashConv of the average strategy is recorded (every ``record_every``
iterations: by default each one up to :data:`RECORD_ALL_UP_TO` nodes, else every tenth); a
run stops after ``iterations``, when NashConv falls to ``target_nash_conv``, or when the
request's deadline passes, returning the average as of the last recorded iteration and
saying which happened. The guarantee holds for two-player zero-sum games; in other games
no-regret play approaches the coarse correlated equilibria (as a joint distribution of play),
not a Nash equilibrium, and the average's NashConv says how far from one it is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from analysis.extensive.policy import BehaviourProfile, ProfileEvaluation, TreeArrays, Values
from games.errors import InvalidInputError, TimeLimitError
from games.extensive.model import ExtensiveGame

Method = Literal["cfr", "cfr_plus"]
METHODS: Final = ("cfr", "cfr_plus")

RECORD_ALL_UP_TO: Final = 50_000
"""Largest game (in nodes) whose NashConv is recorded after every iteration by default."""

Stop = Literal["iterations", "target", "time_limit"]


@dataclass(frozen=True, slots=True)
class CFRSolution:
    """The average strategy of a CFR run and how it converged.

    Attributes
    ----------
    method
        ``"cfr"`` or ``"cfr_plus"``.
    profile
        The average behaviour strategy profile (floats).
    nash_conv
        Its NashConv (0 at a Nash equilibrium).
    exploitability
        NashConv / 2 for two-player constant-sum games, else ``None``.
    evaluation
        The profile's payoffs and best responses (computed as NashConv was, so a run stopped
        by the deadline needs no more time to report them).
    iterations
        Iterations whose updates the average includes.
    curve
        ``(iterations, NashConv of the average after them)`` at every recorded iteration,
        from 0 (the uniform profile).
    record_every
        How often NashConv was recorded (and the target tested).
    stopped
        ``"iterations"`` (all were done), ``"target"`` (NashConv reached
        ``target_nash_conv``) or ``"time_limit"`` (the deadline passed first).
    seconds
        Wall-clock time of the run.
    exact
        Always ``False``: CFR works in floats.
    """

    method: Method
    profile: BehaviourProfile
    nash_conv: float
    exploitability: float | None
    evaluation: ProfileEvaluation
    iterations: int
    curve: tuple[tuple[int, float], ...]
    record_every: int
    stopped: Stop
    seconds: float
    exact: bool = False


def solve_cfr(
    game: ExtensiveGame,
    method: Method = "cfr_plus",
    iterations: int = 1000,
    *,
    record_every: int | None = None,
    target_nash_conv: float | None = None,
) -> CFRSolution:
    """Run CFR or CFR+ on ``game`` and return the average strategy.

    Parameters
    ----------
    method
        ``"cfr"`` (Zinkevich et al. 2007) or ``"cfr_plus"`` (Tammelin 2014).
    iterations
        Most iterations to run (0 returns the uniform profile).
    record_every
        Record NashConv of the average every this many iterations (and after the last);
        default 1, or 10 for games over :data:`RECORD_ALL_UP_TO` nodes.
    target_nash_conv
        Stop at the first recorded iteration whose NashConv is at most this.

    :raises InvalidInputError: a parameter is out of range (the error names it).
    :raises TimeLimitError: the deadline passed before the uniform profile was evaluated.
    """
    if method not in METHODS:
        raise InvalidInputError(
            f"method {method!r} is not one of {list(METHODS)}", parameter="method"
        )
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise InvalidInputError(
            f"iterations must be a whole number >= 0, not {iterations!r}", parameter="iterations"
        )
    if record_every is None:
        record_every = 1 if len(game.nodes) <= RECORD_ALL_UP_TO else 10
    if isinstance(record_every, bool) or not isinstance(record_every, int) or record_every < 1:
        raise InvalidInputError(
            f"record_every must be a whole number >= 1, not {record_every!r}",
            parameter="record_every",
        )
    if target_nash_conv is not None and not target_nash_conv >= 0:
        raise InvalidInputError(
            f"target_nash_conv must be >= 0, not {target_nash_conv!r}",
            parameter="target_nash_conv",
        )
    started = time.perf_counter()
    run = _Run(TreeArrays(game), plus=method == "cfr_plus")
    average = run.average()
    evaluation = run.arrays.evaluate_flat(average)
    curve = [(0, float(evaluation.nash_conv))]
    done = 0
    stopped: Stop = "iterations"
    try:
        while done < iterations and not _reached(curve[-1][1], target_nash_conv):
            run.iterate(done + 1)
            done += 1
            if done % record_every == 0 or done == iterations:
                candidate = run.average()
                judged = run.arrays.evaluate_flat(candidate)
                curve.append((done, float(judged.nash_conv)))
                average, evaluation = candidate, judged
    except TimeLimitError:
        stopped = "time_limit"
    if stopped != "time_limit" and _reached(curve[-1][1], target_nash_conv):
        stopped = "target"
    reached, conv = curve[-1]
    return CFRSolution(
        method,
        run.arrays.profile(average),
        conv,
        None if evaluation.exploitability is None else float(evaluation.exploitability),
        evaluation,
        reached,
        tuple(curve),
        record_every,
        stopped,
        time.perf_counter() - started,
    )


def _reached(conv: float, target: float | None) -> bool:
    return target is not None and conv <= target


class _Run:
    """The state of one run: cumulative regrets, the average's numerators, the tree."""

    def __init__(self, arrays: TreeArrays, plus: bool):
        self.arrays = arrays
        self.plus = plus
        slots = arrays.slots
        self.regrets = np.zeros(slots)
        self.numerators = np.zeros(slots)
        self.sizes = np.diff(arrays.slot_offsets)
        self.slot_sizes = self.sizes[arrays.slot_infoset].astype(np.float64)
        players = arrays.players
        self.own = [arrays.acting == player for player in range(players)]
        # each player's moves: the position reached, where it was taken, its slot
        self.moves = []
        for player in range(players):
            reached = arrays.decision_edges[arrays.acting[arrays.decision_edges] == player]
            self.moves.append((reached, arrays.parent[reached], arrays.slot[reached]))
        self.current = self._matched()

    def iterate(self, t: int) -> None:
        """Iteration ``t`` (from 1): regrets and the average updated, all or nothing (a
        :class:`TimeLimitError` inside leaves the state of iteration ``t - 1``)."""
        players = range(self.arrays.players)
        if not self.plus:
            regrets, numerators = self._update(self.current, players, 1.0)
            self.regrets = self.regrets + regrets
            self.numerators = self.numerators + numerators
            self.current = self._matched()
            return
        kept = self.regrets, self.numerators, self.current
        try:
            for player in players:
                regrets, numerators = self._update(self.current, (player,), float(t))
                self.regrets = np.maximum(self.regrets + regrets, 0.0)
                self.numerators = self.numerators + numerators
                self.current = self._matched()
        except TimeLimitError:
            self.regrets, self.numerators, self.current = kept
            raise

    def _update(
        self, current: Values, players: range | tuple[int], weight: float
    ) -> tuple[Values, Values]:
        """The regrets of ``players`` this iteration and their average's numerators
        (weighted by ``weight``) under the strategy ``current``."""
        arrays = self.arrays
        edge = arrays.edge_probabilities(current)
        regrets = np.zeros(arrays.slots)
        numerators = np.zeros(arrays.slots)
        for player in players:
            value = arrays.values(edge, player)
            reached, at, slot = self.moves[player]
            # the player's own reach, and chance's and the others' (counterfactual)
            mine = self.own[player]
            own = arrays.reach(np.where(mine, edge, 1.0))[at]
            others = arrays.reach(np.where(mine, 1.0, edge))[at]
            regrets += np.bincount(
                slot, weights=others * (value[reached] - value[at]), minlength=arrays.slots
            )
            numerators += np.bincount(
                slot, weights=weight * own * current[slot], minlength=arrays.slots
            )
        return regrets, numerators

    def _matched(self) -> Values:
        """The current strategy: regret matching (+) on the cumulative regrets."""
        return self._normalised(np.maximum(self.regrets, 0.0))

    def average(self) -> Values:
        """The average strategy (uniform where the player never reached a set)."""
        return self._normalised(self.numerators)

    def _normalised(self, weights: Values) -> Values:
        if not weights.size:
            return weights
        totals = np.add.reduceat(weights, self.arrays.slot_offsets[:-1])
        spread = totals[self.arrays.slot_infoset]
        positive = spread > 0
        return np.where(positive, weights / np.where(positive, spread, 1.0), 1.0 / self.slot_sizes)
