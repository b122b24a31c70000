"""Alpha-beta in negamax form, with iterative deepening, a transposition table and move ordering.

Each iteration searches the root to one more ply than the last. A state's score is worth
to its mover, so a child's score is negated on the way up when the other player moves there
(negamax; kept when the same player moves again); a two-player game's utilities must sum to
zero. The search is fail-soft: a state that stops early returns a
bound on its score, and the table records which kind (exact, lower, upper).

The transposition table maps ``game.key(state)`` to (depth, score, bound, best move). An
entry settles a state when its depth is at least the depth still to search and its bound
decides the window. An entry whose subtree never met the depth cutoff is proven for every
depth and stored with the depth :data:`PROVEN`; a new entry replaces an old one of no
greater depth. The table holds at most ``table_entries`` entries (a full table drops its
shallowest quarter: :mod:`analysis.search.table`). Moves are tried in this order: the table's
move (at the root, the previous iteration's best), the two killer moves of the ply (the last
moves that cut off there), then the rest by the history heuristic (moves that cut off,
weighted by depth squared), each group in the game's order.

At the depth cutoff the game's evaluation scores the state, or with quiescence a search of
the noisy moves only (captures) goes on for at most ``quiescence_plies`` plies, where the
mover may stand pat on the evaluation. An iteration is complete when no evaluation and no
depth-limited table entry entered its value: the value is then exact and deepening stops.

Singular extensions (Anantharaman, Campbell and Hsu 1988: "follow out stand-out moves") search
one ply deeper below a move that stands out from its siblings, the cure for the horizon effect
beside quiescence. The test is the modern one (as in Stockfish), not the paper's PV-singular
and FH-singular searches: at a state ``depth`` >= :data:`SINGULAR_DEPTH` plies from the cutoff
whose table entry holds a move with a lower bound or exact score ``s`` (not a proven win or
loss) from at least ``depth - 3`` plies deep, every other move is searched
``(depth - 1) // 2`` plies deep with a null window at ``s - margin``; if none scores above
``s - margin``, the table's move is singular (a forced move, one without siblings, is too) and
its subtree is searched one ply deeper. The root is not tested (all its moves are searched to
the full depth anyway). Bound: a line's extensions total less than the iteration's depth ``R``
(a state ``ply`` plies down with ``depth`` to go has made ``ply + depth - R`` of them), so no
line goes deeper than ``2 R`` plies and every search ends. The test's own searches do not
count towards the horizon (they decide only whether to search deeper).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Final

from analysis.search.budget import NODE_BATCH, SearchBudget
from analysis.search.deepening import Counters, SearchCounters, deepen, schedule_of
from analysis.search.grid import GridAlphaBeta, grid_search
from analysis.search.results import GameSolution
from analysis.search.score_search import new_score_search, score_solution
from analysis.search.scores import (
    MAX_PLY,
    PROVEN,
    Score,
    exact,
    from_table,
    game_value,
    plies_to_end,
    terminal_score,
    to_table,
    too_deep,
)
from analysis.search.table import DEFAULT_ENTRIES, TranspositionTable
from games.rules.game import Evaluation, Game

SINGULAR_DEPTH: Final = 2
"""Fewest plies to the cutoff at which a state's table move is tested for singularity."""

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2

TIE_MARGIN: Final = Fraction(1, 1 << 20)
"""How far below the best score the root's window opens under a depth cutoff, so that a later
move scoring as much as the best is seen exactly. Any positive margin is correct, a small one
prunes more; a search to the end opens it by 1, which keeps whole scores whole (faster)."""

Entry = tuple[int, Score, int, Any]


class AlphaBeta(SearchCounters):
    """One search: the game, its options, the table and heuristics kept across iterations."""

    def __init__(
        self,
        game: Game[Any, Any],
        evaluation: Evaluation | None,
        *,
        table: bool,
        ordering: bool,
        quiescence_plies: int,
        budget: SearchBudget,
        table_entries: int = DEFAULT_ENTRIES,
        singular_margin: Fraction | None = None,
    ):
        super().__init__(budget)
        self.game = game
        self.evaluate = evaluation
        self.use_table = table
        self.ordering = ordering
        self.quiescence_plies = quiescence_plies
        self.win: Score = exact(Fraction(game.win))
        self.infinity: Score = self.win + MAX_PLY + 2
        self.table: TranspositionTable[Entry] = TranspositionTable(table_entries)
        self.killers: list[list[Any]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.history: tuple[defaultdict[Any, int], defaultdict[Any, int]] = (
            defaultdict(int),
            defaultdict(int),
        )
        self.tie_margin: Score = 1 if evaluation is None else TIE_MARGIN
        self.all_best = True
        """Whether the root finds every best move (True) or one (False: a third fewer nodes)."""
        self.singular: Score | None = None if singular_margin is None else exact(singular_margin)
        """Singular extensions' margin (None: off)."""
        self.extensions = 0
        """Singular extensions made."""
        self.extensions_finished = 0
        """Singular extensions made up to the end of the last finished iteration."""
        self.root_depth = 0

    def cutoff_score(self, state: Any, mover: int, alpha: Score, beta: Score, ply: int) -> Score:
        """The score at the depth cutoff: the evaluation, or a quiescence search."""
        if self.quiescence_plies:
            return self.quiesce(state, mover, alpha, beta, ply, self.quiescence_plies)
        return self.static(state, mover)

    def static(self, state: Any, mover: int) -> Score:
        evaluate = self.evaluate
        if evaluate is None:  # a search to the end that went MAX_PLY deep (a cycle)
            raise too_deep(MAX_PLY)
        self.horizon += 1
        self.evaluations += 1
        return exact(evaluate(state, mover))

    def quiesce(
        self, state: Any, mover: int, alpha: Score, beta: Score, ply: int, left: int
    ) -> Score:
        """Search noisy moves only; the mover may stand pat on the evaluation."""
        game = self.game
        best = self.static(state, mover)
        if best >= beta or left == 0:
            return best
        if best > alpha:
            alpha = best
        for move in game.actions(state):
            if not game.is_noisy(state, move):
                continue
            child = game.result(state, move)
            self.count()
            child_mover = game.to_move(child)
            if game.is_terminal(child):
                self.reached_end(ply + 1)
                score = terminal_score(game.utility(child, child_mover), self.win, ply + 1)
                score = score if child_mover == mover else -score
            elif child_mover == mover:  # the same player moves again
                score = self.quiesce(child, mover, alpha, beta, ply + 1, left - 1)
            else:
                score = -self.quiesce(child, child_mover, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.cutoffs += 1
                        break
        return best

    def ordered(self, moves: Sequence[Any], mover: int, first: Any, ply: int) -> list[Any]:
        """The table's move, then the ply's killers, then the rest by history."""
        rest = sorted(moves, key=self.history[mover].__getitem__, reverse=True)
        front = [first] if first is not None and first in moves else []
        for killer in self.killers[ply]:
            if killer is not None and killer != first and killer in moves:
                front.append(killer)
        if front:
            rest = front + [move for move in rest if move not in front]
        return rest

    def search(
        self, state: Any, mover: int, depth: int, alpha: Score, beta: Score, ply: int
    ) -> Score:
        """The fail-soft negamax score of ``state`` for its ``mover``, ``depth`` plies deep.

        A child's score is negated only when the child's mover is the other player (a game
        may give a player two moves in a row), always reading ``to_move`` as the game says it.
        """
        self.nodes += 1  # count() inlined: this is the hot loop
        if not self.nodes % NODE_BATCH:
            self.budget.spend(NODE_BATCH)
        game = self.game
        if game.is_terminal(state):
            self.reached_end(ply)
            return terminal_score(game.utility(state, mover), self.win, ply)
        if depth <= 0:
            return self.cutoff_score(state, mover, alpha, beta, ply)
        if ply >= MAX_PLY:
            raise too_deep(ply)
        table_move = None
        key = None
        entry = None
        if self.use_table:
            key = game.key(state)
            entry = self.table.get(key)
            if entry is not None:
                stored_depth, stored, bound, table_move = entry
                if stored_depth >= depth:
                    score = from_table(stored, self.win, ply)
                    if (
                        bound == EXACT
                        or (bound == LOWER and score >= beta)
                        or (bound == UPPER and score <= alpha)
                    ):
                        self.table_hits += 1
                        if stored_depth != PROVEN:
                            self.horizon += 1
                        return score
        moves = game.actions(state)
        singular = None
        if (
            self.singular is not None
            and entry is not None
            and depth >= SINGULAR_DEPTH
            and ply + depth < 2 * self.root_depth  # the line has an extension left
        ):
            singular = self.singular_move(state, mover, moves, depth, ply, entry)
        if self.ordering and len(moves) > 1:
            moves = self.ordered(moves, mover, table_move, ply)
        horizon = self.horizon
        window_low = alpha
        best: Score = -self.infinity
        best_move = None
        for move in moves:
            child = game.result(state, move)
            child_mover = game.to_move(child)
            next_depth = depth if move == singular else depth - 1
            if child_mover == mover:
                score = self.search(child, mover, next_depth, alpha, beta, ply + 1)
            else:
                score = -self.search(child, child_mover, next_depth, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.cutoffs += 1
                        if self.ordering:
                            self.remember_cutoff(move, mover, depth, ply)
                        break
        if key is not None:
            bound = UPPER if best <= window_low else LOWER if best >= beta else EXACT
            self.store(
                key, PROVEN if self.horizon == horizon else depth, best, bound, best_move, ply
            )
        return best

    def singular_move(
        self, state: Any, mover: int, moves: Sequence[Any], depth: int, ply: int, entry: Entry
    ) -> Any:
        """The table's move if it is singular: every sibling, searched ``(depth - 1) // 2``
        plies deep with a null window, scores at most its table score minus the margin."""
        stored_depth, stored, bound, candidate = entry
        if candidate is None or bound == UPPER or stored_depth < depth - 3:
            return None
        score = from_table(stored, self.win, ply)
        if score > self.win or score < -self.win:  # a proven win or loss: no margin to beat
            return None
        assert self.singular is not None
        alpha = score - self.singular
        beta = alpha + self.tie_margin
        reduced = (depth - 1) // 2
        game = self.game
        horizon = self.horizon
        singular = candidate in moves
        for move in moves:
            if move == candidate:
                continue
            child = game.result(state, move)
            child_mover = game.to_move(child)
            if child_mover == mover:
                value = self.search(child, mover, reduced, alpha, beta, ply + 1)
            else:
                value = -self.search(child, child_mover, reduced, -beta, -alpha, ply + 1)
            if value > alpha:  # a sibling within the margin: nothing stands out
                singular = False
                break
        self.horizon = horizon
        if not singular:
            return None
        self.extensions += 1
        return candidate

    def remember_cutoff(self, move: Any, mover: int, depth: int, ply: int) -> None:
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        self.history[mover][move] += depth * depth

    def store(
        self, key: Hashable, depth: int, score: Score, bound: int, move: Any, ply: int
    ) -> None:
        self.table.store(key, (depth, to_table(score, self.win, ply), bound, move))

    def root(self, state: Any, depth: int, previous: Any) -> tuple[Score, list[Any], bool]:
        """One iteration: the root's score, every move achieving it, and whether it is exact."""
        self.count()
        self.root_depth = depth
        game = self.game
        horizon = self.horizon
        moves = game.actions(state)
        mover = game.to_move(state)
        if self.ordering and len(moves) > 1:
            moves = self.ordered(moves, mover, previous, 0)
        best: Score = -self.infinity
        best_moves: list[Any] = []
        for move in moves:
            # for every best move, open the window just below the best, so that a move
            # scoring as much is seen exactly
            alpha = best - self.tie_margin if self.all_best else best
            child = game.result(state, move)
            child_mover = game.to_move(child)
            if child_mover == mover:
                score = self.search(child, mover, depth - 1, alpha, self.infinity, 1)
            else:
                score = -self.search(child, child_mover, depth - 1, -self.infinity, -alpha, 1)
            if score > best:
                best = score
                best_moves = [move]
            elif score == best and self.all_best:
                best_moves.append(move)
        complete = self.horizon == horizon
        if self.use_table:
            self.store(
                game.key(state), PROVEN if complete else depth, best, EXACT, best_moves[0], 0
            )
        order = {move: index for index, move in enumerate(game.actions(state))}
        best_moves.sort(key=order.__getitem__)
        self.extensions_finished = self.extensions
        return best, best_moves, complete

    def principal_variation(self, state: Any, first: Any, depth: int) -> list[Any]:
        """The line from the root: the best move, then the table's moves while they are legal."""
        game = self.game
        line = [first]
        state = game.result(state, first)
        seen = set()
        while self.use_table and len(line) < depth and not game.is_terminal(state):
            key = game.key(state)
            entry = self.table.get(key)
            if (
                entry is None
                or entry[3] is None
                or key in seen
                or entry[3] not in game.actions(state)
            ):
                break
            seen.add(key)
            line.append(entry[3])
            state = game.result(state, entry[3])
        return line


def alpha_beta_solution(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None,
    time_limit: float | None,
    evaluation: Evaluation | None,
    table: bool,
    ordering: bool,
    quiescence_plies: int,
    all_best_moves: bool = True,
    compiled: bool = True,
    table_entries: int | None = None,
    analyze: bool = False,
    singular_margin: Fraction | None = None,
) -> GameSolution:
    """Iterative deepening to ``depth`` (or to the end), within ``time_limit`` seconds.

    With a time limit the deepest finished iteration answers; the first iteration always
    finishes. The caller has checked that the root is not terminal and the options fit. A
    grid game runs compiled (:mod:`analysis.search.grid`) unless ``compiled`` is false: the
    same answer and counts either way, as long as neither table fills. ``table_entries``
    bounds the transposition table (``None``: each engine's default, about 256 MB).
    ``singular_margin`` turns singular extensions on (the Python engine only: the compiled
    search has none).

    Connect four (a game of stones dropped into columns) solved to the end with the table and
    ordering on runs the strong solvers' search instead (:mod:`analysis.search.score_search`),
    which also values every root move with ``analyze``.
    """
    budget = SearchBudget(time_limit)
    plain = not quiescence_plies and singular_margin is None
    if depth is None and time_limit is None and table and ordering and plain:
        scores = new_score_search(game, budget, table_entries, compiled)
        if scores is not None:
            return score_solution(
                game, state, scores, all_best_moves=all_best_moves, analyze=analyze
            )
    fast = (
        grid_search(
            game,
            evaluation,
            table=table,
            ordering=ordering,
            quiescence_plies=quiescence_plies,
            budget=budget,
            all_best_moves=all_best_moves,
            table_entries=table_entries,
        )
        if compiled and singular_margin is None
        else None
    )
    search: AlphaBeta | GridAlphaBeta
    counters: Counters
    if fast is not None:
        search, counters = fast, fast.counters
    else:
        python = AlphaBeta(
            game,
            evaluation,
            table=table,
            ordering=ordering,
            quiescence_plies=quiescence_plies,
            budget=budget,
            table_entries=DEFAULT_ENTRIES if table_entries is None else table_entries,
            singular_margin=singular_margin,
        )
        python.all_best = all_best_moves
        search = counters = python
    deepened = deepen(
        counters,
        schedule_of(depth, time_limit),
        lambda limit, previous: search.root(state, limit, previous[1][0] if previous else None),
        lambda found: found[2],
    )
    score, best_moves, complete = deepened.answer
    stats = deepened.stats
    if singular_margin is not None and isinstance(search, AlphaBeta):
        stats = replace(stats, extensions=search.extensions_finished)
    return GameSolution(
        algorithm="alphabeta",
        value=game_value(score, search.win),
        complete=complete,
        best_moves=tuple(best_moves),
        principal_variation=tuple(search.principal_variation(state, best_moves[0], deepened.depth)),
        depth_completed=deepened.depth,
        iterations=deepened.iterations,
        stats=stats,
        plies_to_end=plies_to_end(score, search.win) if complete else None,
    )
