"""Expectiminimax for games with dice: the mover maximises, the opponent minimises, chance averages.

Values are worth to one player throughout (the root's mover, player 0 at a chance root) and
exact: a chance state is worth the probability-weighted sum of its outcomes. Every level
counts as a ply toward the depth cutoff, a chance level included, as in a drawn tree. With
the table on, a state's value is remembered with the depth it was searched to (or as proven
when its subtree never met the cutoff) and reused at no greater depth; the table is keyed by
the state itself, not ``game.key``, which may be a canonical view equal only to the mover,
and holds at most ``table_entries`` entries (:mod:`analysis.search.table`).
With a time limit the depth deepens one ply at a time and the deepest finished iteration
answers.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from analysis.search.budget import SearchBudget
from analysis.search.deepening import SearchCounters, deepen, schedule_of
from analysis.search.results import GameSolution
from analysis.search.scores import MAX_PLY, PROVEN, too_deep
from analysis.search.table import DEFAULT_ENTRIES, TranspositionTable
from games.limits import check_exact_size
from games.rules.game import CHANCE, Evaluation, Game


class Expectimax(SearchCounters):
    """One search for ``player``: its table and counters."""

    def __init__(
        self,
        game: Game[Any, Any],
        player: int,
        evaluation: Evaluation | None,
        *,
        table: bool,
        budget: SearchBudget,
        table_entries: int = DEFAULT_ENTRIES,
    ):
        super().__init__(budget)
        self.game = game
        self.player = player
        self.evaluate = evaluation
        self.use_table = table
        self.table: TranspositionTable[tuple[int, Fraction]] = TranspositionTable(table_entries)

    def value(self, state: Any, depth: int, ply: int) -> Fraction:
        """The worth of ``state`` to the player, ``depth`` plies deep."""
        self.count()
        game = self.game
        if game.is_terminal(state):
            self.reached_end(ply)
            return Fraction(game.utility(state, self.player))
        if depth <= 0:
            if self.evaluate is None:  # a search to the end that went MAX_PLY deep (a cycle)
                raise too_deep(ply)
            self.horizon += 1
            self.evaluations += 1
            return Fraction(self.evaluate(state, self.player))
        if ply >= MAX_PLY:
            raise too_deep(ply)
        key: Hashable = None
        if self.use_table:
            # the state itself: values here are one player's, and a canonical key may merge
            # positions that are equal only from the mover's point of view
            key = state
            entry = self.table.get(key)
            if entry is not None and entry[0] >= depth:
                self.table_hits += 1
                if entry[0] != PROVEN:
                    self.horizon += 1
                return entry[1]
        horizon = self.horizon
        mover = game.to_move(state)
        if mover == CHANCE:
            found = Fraction(0)
            for outcome, probability in game.chance_outcomes(state):
                found += probability * self.value(game.result(state, outcome), depth - 1, ply + 1)
            check_exact_size(found, "", "expected value")
        else:
            values = (
                self.value(game.result(state, move), depth - 1, ply + 1)
                for move in game.actions(state)
            )
            found = max(values) if mover == self.player else min(values)
        if key is not None:
            self.table.store(key, (PROVEN if self.horizon == horizon else depth, found))
        return found

    def root(self, state: Any, depth: int, ply: int = 0) -> tuple[Fraction, list[Any], bool]:
        """The value of ``state``, its mover's best moves (none at chance), whether exact."""
        game = self.game
        horizon = self.horizon
        mover = game.to_move(state)
        if mover == CHANCE:
            return self.value(state, depth, ply), [], self.horizon == horizon
        self.nodes += 1
        scored = [
            (self.value(game.result(state, move), depth - 1, ply + 1), move)
            for move in game.actions(state)
        ]
        values = [value for value, _ in scored]
        best = max(values) if mover == self.player else min(values)
        return best, [move for value, move in scored if value == best], self.horizon == horizon


def expectimax_solution(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None,
    time_limit: float | None,
    evaluation: Evaluation | None,
    table: bool,
    table_entries: int | None = None,
) -> GameSolution:
    """Expectiminimax to ``depth`` plies (to the end when ``None``), deepening under a time limit.

    The principal variation follows the best moves down to the first chance state. The table
    holds at most ``table_entries`` entries (``None``: the default, about 256 MB).
    """
    mover = game.to_move(state)
    player = 0 if mover == CHANCE else mover
    search = Expectimax(
        game,
        player,
        evaluation,
        table=table,
        budget=SearchBudget(time_limit),
        table_entries=DEFAULT_ENTRIES if table_entries is None else table_entries,
    )
    schedule = schedule_of(depth, time_limit)
    if time_limit is None and depth is not None:
        schedule = [depth]  # no budget: the one depth asked for
    deepened = deepen(
        search, schedule, lambda limit, _: search.root(state, limit), lambda found: found[2]
    )
    value, best_moves, complete = deepened.answer
    line: list[Any] = []
    if best_moves:
        line.append(best_moves[0])
        follow = game.result(state, best_moves[0])
        left = deepened.depth - 1
        while left > 0 and not game.is_terminal(follow) and game.to_move(follow) != CHANCE:
            found = search.root(follow, left, len(line))
            line.append(found[1][0])
            follow = game.result(follow, line[-1])
            left -= 1
    return GameSolution(
        algorithm="expectimax",
        value=value,
        complete=complete,
        best_moves=tuple(best_moves),
        principal_variation=tuple(line),
        depth_completed=deepened.depth,
        iterations=deepened.iterations,
        stats=deepened.stats,
    )
