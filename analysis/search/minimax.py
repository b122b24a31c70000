"""Plain minimax (negamax form): every state of the tree to the depth cutoff, no pruning, no table.

It is the yardstick the other searches are measured against: its node count is the size of
the game tree (549,946 states for tic-tac-toe from the empty board, the root included, with
255,168 finished games), and its value is the one alpha-beta must reach.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from analysis.search.budget import SearchBudget
from analysis.search.deepening import SearchCounters
from analysis.search.results import GameSolution, IterationStats, totals
from analysis.search.scores import (
    MAX_PLY,
    Score,
    exact,
    game_value,
    plies_to_end,
    terminal_score,
    too_deep,
)
from games.rules.game import Evaluation, Game


class Minimax(SearchCounters):
    """One full-width search with its counters."""

    def __init__(self, game: Game[Any, Any], evaluation: Evaluation | None):
        super().__init__(SearchBudget(None))
        self.game = game
        self.evaluate = evaluation
        self.win: Score = exact(Fraction(game.win))

    def search(self, state: Any, mover: int, depth: int, ply: int) -> Score:
        """The negamax score of ``state`` for its ``mover``, ``depth`` plies deep."""
        self.count()
        game = self.game
        if game.is_terminal(state):
            self.reached_end(ply)
            return terminal_score(game.utility(state, mover), self.win, ply)
        if depth <= 0:
            if self.evaluate is None:  # a search to the end that went MAX_PLY deep (a cycle)
                raise too_deep(ply)
            self.evaluations += 1
            return exact(self.evaluate(state, mover))
        if ply >= MAX_PLY:
            raise too_deep(ply)
        best: Score | None = None
        for move in game.actions(state):
            score = self.child_score(state, mover, move, depth, ply)
            if best is None or score > best:
                best = score
        assert best is not None  # a state that is not terminal has a move
        return best

    def child_score(self, state: Any, mover: int, move: Any, depth: int, ply: int) -> Score:
        """The score of ``move`` for ``mover``: the child's, negated if the other player moves
        there (a game may give a player two moves in a row)."""
        child = self.game.result(state, move)
        child_mover = self.game.to_move(child)
        score = self.search(child, child_mover, depth - 1, ply + 1)
        return score if child_mover == mover else -score

    def root(self, state: Any, depth: int, ply: int) -> tuple[Score, list[Any]]:
        """The score of ``state`` and every move achieving it."""
        game = self.game
        mover = game.to_move(state)
        scores = [
            (self.child_score(state, mover, move, depth, ply), move) for move in game.actions(state)
        ]
        best = max(score for score, _ in scores)
        return best, [move for score, move in scores if score == best]


def minimax_solution(
    game: Game[Any, Any], state: Any, *, depth: int | None, evaluation: Evaluation | None
) -> GameSolution:
    """Search the whole tree to ``depth`` plies (to the end when ``None``).

    The principal variation is found afterwards by searching the best child's children
    again, ply by ply; that work is not counted in the stats.
    """
    search = Minimax(game, evaluation)
    limit = MAX_PLY if depth is None else depth
    start = time.perf_counter()
    search.nodes = 1  # the root
    score, best_moves = search.root(state, limit, 0)
    seconds = time.perf_counter() - start
    complete = search.evaluations == 0
    iteration = IterationStats(
        depth=search.longest if depth is None else depth,
        nodes=search.nodes,
        table_hits=0,
        cutoffs=0,
        seconds=seconds,
        effective_branching=None,
    )
    stats = totals((iteration,), search.terminals, search.evaluations)
    line = [best_moves[0]]
    follow = game.result(state, best_moves[0])
    while len(line) < limit and not game.is_terminal(follow):
        line.append(search.root(follow, limit - len(line), len(line))[1][0])
        follow = game.result(follow, line[-1])
    return GameSolution(
        algorithm="minimax",
        value=game_value(score, search.win),
        complete=complete,
        best_moves=tuple(best_moves),
        principal_variation=tuple(line),
        depth_completed=iteration.depth,
        iterations=(iteration,),
        stats=stats,
        plies_to_end=plies_to_end(score, search.win) if complete else None,
    )
