"""Connect four solved as the strong solvers do: null-window alpha-beta on the exact score.

A solve to the end of a game of stones dropped into columns (:class:`games.rules.game.GridForm`
with ``gravity``) asks only one question of each position: its outcome and how soon it comes.
So the search works on the *score* as Pons's solver states it (connect4.gamesolver.org): with
``n`` stones on a board of ``cells`` cells, a win ``d`` plies from now (``d`` odd) scores
``(cells - n - d) // 2 + 1``, a loss ``d`` plies from now (``d`` even) the negative of that, a
draw 0. A sooner win scores more, a later loss less; a child's score is its parent's negated.

Seven techniques make the search small:

1. **Null windows.** :meth:`ScoreSearch.solve` never asks for a score, only whether it is
   above a guess: ``negamax(position, guess, guess + 1)``. Each answer narrows the range the
   score can be in (:func:`probe` picks the guess), so the root is searched again with a
   narrower range until it is a single score: iterative deepening on the score, each probe
   one iteration.
2. **Non-losing moves.** A move that lets the opponent win at once (a stone under one of its
   threats, or anything but the block when it threatens) loses at the next ply, the earliest
   a loss can come, so it is never tried; no move left means the loss in two plies.
3. **Bounds from the board.** A position where the mover cannot win at once scores at most a
   win three plies away and at least a loss four plies away: the window is narrowed to that
   range before anything is searched, and an empty range returns at once.
4. **Threat ordering.** Moves are tried by the number of threats they create (empty cells
   that would complete a line), most first, ties in the game's order (centre first).
5. **A table of bounds**, keyed as Tromp keys a position (the mover's stones plus all
   stones, unique for a board with a spare bit atop each column): a search that fails high
   stores a lower bound with the move that did it, tried first next time; one that fails low
   stores an upper bound. Bounds found in a null window are what the next probe needs.
6. **Mirror images share an entry.** A position reflected left to right has the same score,
   so both are stored under the smaller of their two keys, the move as the stored side plays
   it. From a symmetric position (the empty board, a centre opening) the search meets each
   line's mirror image, and finds it searched: this halves the empty boards' searches.
7. **Enhanced transposition cutoffs** (Plaat, Schaeffer, Pijls and de Bruin, 1996). Before
   searching any move, a position with fewer than :data:`ETC_STONES` stones looks up every
   child's entry: a child already known to score low enough for the mover cuts off at once,
   with no search at all.

:mod:`analysis.search._grid`'s ``ScoreSearch`` is this search compiled, move for move: the
same scores and the same node counts while neither table fills. Once its table is full (a
search of the empty 7 x 6 board visits about 70 times more positions than it holds),
a new entry replaces the one of least work near its place, work being the bit length of the
nodes searched below an entry: what costs most to search again stays.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final, cast

from analysis.search.budget import SearchBudget
from analysis.search.deepening import SearchCounters, report
from analysis.search.grid import KERNEL, NODE_BATCH, NODE_UNITS, TABLE_ENTRIES
from analysis.search.results import (
    GameSolution,
    IterationStats,
    MoveValue,
    Outcome,
    branching,
    totals,
)
from analysis.search.table import DEFAULT_ENTRIES, TranspositionTable
from games.rules.game import Game, GridForm

LOWER: Final = 1
UPPER: Final = 2
ETC_STONES: Final = 28
"""Positions with fewer stones look up their children's entries before searching any
(enhanced transposition cutoffs): past that, the lookups cost more than the nodes they save."""

Bitboard = int


def toward_zero_half(score: int) -> int:
    """``score / 2`` rounded toward 0."""
    return -(-score // 2) if score < 0 else score // 2


def probe(low: int, high: int) -> int:
    """The guess a null window tests next, for a score known to be in ``[low, high]``: the
    middle, or half the range's end on the middle's side of 0 where that lies further out
    (a guess far from 0 is answered by a small search: few lines decide so early or late)."""
    middle = low + (high - low) // 2
    if middle <= 0 and toward_zero_half(low) < middle:
        return toward_zero_half(low)
    if middle >= 0 and toward_zero_half(high) > middle:
        return toward_zero_half(high)
    return middle


def plies_of(score: int, stones_left: int) -> int:
    """Plies to the end that a decisive ``score`` stands for, with ``stones_left`` empty cells:
    ``(stones_left - d) // 2 + 1 = |score|``, ``d`` odd for a win and even for a loss."""
    plies = stones_left - 2 * (abs(score) - 1)
    return plies if plies % 2 == (1 if score > 0 else 0) else plies - 1


class ScoreSearch(SearchCounters):
    """The search of one gravity grid game: its geometry, the table and the counters."""

    def __init__(self, form: GridForm, budget: SearchBudget, table_entries: int):
        super().__init__(budget)
        height = form.rows + 1
        self.cells = form.columns * form.rows
        self.full = sum(((1 << form.rows) - 1) << c * height for c in range(form.columns))
        self.bottom = sum(1 << c * height for c in range(form.columns))
        self.moves = form.moves
        self.column_masks = tuple(((1 << form.rows) - 1) * bit for bit in form.move_bits)
        self.height = height
        self.columns = form.columns
        # each move's mirror image: the move of the column as far from the other side
        self.mirror_moves = tuple(
            form.move_bits.index(self.mirrored(bit)) for bit in form.move_bits
        )
        self.table: TranspositionTable[tuple[int, int, int, int]] = TranspositionTable(
            table_entries
        )
        shifts = (1, height, height + 1, height - 1)  # up, across and the two diagonals
        # a cell completes a line when, for some direction and some place j of the cell in
        # the line, the k - 1 other cells of the line hold stones: their offsets from it
        self.line_offsets = tuple(
            tuple((i - j) * shift for i in range(form.k) if i != j)
            for shift in shifts
            for j in range(form.k)
        )

    # -- the rules on bitboards ----------------------------------------------------------------

    def completing(self, stones: Bitboard) -> Bitboard:
        """The cells (empty or not) where one more stone gives ``stones`` k in a row."""
        found = 0
        for offsets in self.line_offsets:
            cells = self.full
            for offset in offsets:
                cells &= stones >> offset if offset > 0 else stones << -offset
            found |= cells
        return found & self.full

    def mirrored(self, board: Bitboard) -> Bitboard:
        """``board`` (or a key) reflected left to right: column ``c`` becomes
        ``columns - 1 - c`` (a key's columns never carry into each other)."""
        column = (1 << self.height) - 1
        far = (self.columns - 1) * self.height
        return sum(((board >> c) & column) << (far - c) for c in range(0, far + 1, self.height))

    def table_key(self, mine: Bitboard, mask: Bitboard) -> tuple[int, bool]:
        """A position's key in the table, and whether it is its mirror image's: the smaller
        of the two keys, since a position and its mirror image have one score."""
        key = mine + mask
        other = self.mirrored(key)
        return (other, True) if other < key else (key, False)

    def playable(self, mask: Bitboard) -> Bitboard:
        """The lowest empty cell of each column that has one."""
        return (mask + self.bottom) & self.full

    def wins_at_once(self, mine: Bitboard, mask: Bitboard) -> bool:
        return bool(self.completing(mine) & self.playable(mask))

    def non_losing(self, mine: Bitboard, mask: Bitboard) -> Bitboard:
        """The playable cells that do not let the opponent win at once (0: none), for a mover
        who cannot win at once."""
        playable = self.playable(mask)
        threats = self.completing(mine ^ mask) & ~mask
        forced = playable & threats
        if forced:
            if forced & (forced - 1):  # two threats: one block is not enough
                return 0
            playable = forced
        return playable & ~(threats >> 1)  # a stone under a threat gives its cell away

    def ordered(self, mine: Bitboard, mask: Bitboard, options: Bitboard, first: int) -> list[int]:
        """The moves (indices into ``moves``) among ``options``: the table's move ``first``
        (-1: none), then by the threats each creates, most first, ties in the game's order."""
        found = []
        for index, column in enumerate(self.column_masks):
            cell = options & column
            if cell and index != first:
                after = mask | cell
                threats = (self.completing(mine | cell) & ~after).bit_count()
                found.append((-threats, index))
        found.sort()
        front = [first] if first >= 0 and options & self.column_masks[first] else []
        return front + [index for _, index in found]

    def cell(self, mask: Bitboard, index: int) -> Bitboard:
        """The cell move ``index`` takes (0: its column is full)."""
        return self.playable(mask) & self.column_masks[index]

    # -- the search ----------------------------------------------------------------------------

    def negamax(self, mine: Bitboard, mask: Bitboard, alpha: int, beta: int, ply: int) -> int:
        """The score of a position whose mover (holding ``mine``) cannot win at once, as
        alpha-beta bounds it: exact inside ``(alpha, beta)``, else a bound on the side it fails."""
        self.count()
        stones = mask.bit_count()
        options = self.non_losing(mine, mask)
        if not options:  # whatever the mover does, the opponent wins next
            self.reached_end(ply + 2)
            return -((self.cells - stones) // 2)
        if stones >= self.cells - 2:  # one or two cells left, and no one can take a line
            self.reached_end(ply + self.cells - stones)
            return 0
        low = -((self.cells - stones - 2) // 2)  # a loss four plies away, at the soonest
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (self.cells - stones - 1) // 2  # a win three plies away, at the soonest
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        key, flipped = self.table_key(mine, mask)
        first = -1
        entry = self.table.get(key)
        if entry is not None:
            _, stored, bound, move = entry
            first = self.as_stored(move, flipped)
            if bound == LOWER and stored > alpha:
                alpha = stored
            elif bound == UPPER and stored < beta:
                beta = stored
            if alpha >= beta:
                self.table_hits += 1
                return alpha if bound == LOWER else beta
        theirs = mine ^ mask
        moves = self.ordered(mine, mask, options, first)
        if stones < ETC_STONES:
            # a child whose entry already bounds it low enough cuts off with no search
            for index in moves:
                known = self.table.get(self.table_key(theirs, mask | self.cell(mask, index))[0])
                if known is not None and known[2] == UPPER and -known[1] >= beta:
                    self.table_hits += 1
                    self.cutoffs += 1
                    self.table.store(key, (0, -known[1], LOWER, self.as_stored(index, flipped)))
                    return -known[1]
        for index in moves:
            score = -self.negamax(theirs, mask | self.cell(mask, index), -beta, -alpha, ply + 1)
            if score >= beta:  # beta cut-off
                self.cutoffs += 1
                self.table.store(key, (0, score, LOWER, self.as_stored(index, flipped)))
                return score
            if score > alpha:
                alpha = score
        self.table.store(key, (0, alpha, UPPER, -1))
        return alpha

    def as_stored(self, move: int, flipped: bool) -> int:
        """``move`` as the other side of a mirrored entry plays it (both ways alike)."""
        return self.mirror_moves[move] if flipped and move >= 0 else move

    def solve(
        self, mine: Bitboard, mask: Bitboard, on_probe: Callable[[int, int], object] | None = None
    ) -> int:
        """The exact score of a position that is not over, by null-window probes.

        ``on_probe(low, high)`` is called after each probe with the range the score is now
        known to be in.
        """
        stones_left = self.cells - mask.bit_count()
        self.count()
        if self.wins_at_once(mine, mask):
            self.reached_end(1)
            return (stones_left + 1) // 2
        low, high = -(stones_left // 2), (stones_left + 1) // 2
        while low < high:
            guess = probe(low, high)
            found = self.negamax(mine, mask, guess, guess + 1, 0)
            if found <= guess:
                high = found
            else:
                low = found
            if on_probe is not None:
                on_probe(low, high)
        return low

    def move_score(self, mine: Bitboard, mask: Bitboard, index: int) -> int:
        """The exact score of playing move ``index`` (which must be legal), for the mover."""
        cell = self.cell(mask, index)
        if self.completing(mine) & cell:
            return (self.cells - mask.bit_count() + 1) // 2
        return -self.solve(mine ^ mask, mask | cell)

    def reaches(self, mine: Bitboard, mask: Bitboard, index: int, score: int) -> bool:
        """Whether move ``index`` scores at least ``score`` (the position's exact score, so
        the move is one of the best)."""
        cell = self.cell(mask, index)
        if self.completing(mine) & cell:
            return True
        after = mask | cell
        theirs = mine ^ mask
        if self.wins_at_once(theirs, after):
            return score <= -((self.cells - mask.bit_count()) // 2)
        return self.negamax(theirs, after, -score, -score + 1, 1) <= -score

    def search_order(self, mine: Bitboard, mask: Bitboard) -> list[int]:
        """The legal moves in the order the search tries them (a move that wins at once
        first, then the table's move and the rest of the non-losing moves by threats), then
        the moves that lose at once: the order in which a best move is likely found first."""
        legal = self.legal_indices(mask)
        completes = self.completing(mine)
        wins = [index for index in legal if completes & self.cell(mask, index)]
        key, flipped = self.table_key(mine, mask)
        entry = self.table.get(key)
        first = self.as_stored(entry[3], flipped) if entry else -1
        ordered = self.ordered(mine, mask, self.non_losing(mine, mask), first)
        front = wins + [index for index in ordered if index not in wins]
        return front + [index for index in legal if index not in front]

    def legal_indices(self, mask: Bitboard) -> list[int]:
        return [index for index in range(len(self.moves)) if self.cell(mask, index)]


def new_score_search(
    game: Game[Any, Any], budget: SearchBudget, table_entries: int | None, compiled: bool
) -> ScoreSearch | None:
    """The search for ``game`` (compiled where built and ``compiled``), or ``None`` when the game
    is not one of stones dropped into columns that fits 64 bits."""
    form: GridForm | None = getattr(game, "grid", None)
    if form is None or not form.gravity or form.columns * (form.rows + 1) > 64:
        return None
    if compiled and KERNEL is not None:
        search: Any = KERNEL.ScoreSearch(
            columns=form.columns,
            rows=form.rows,
            k=form.k,
            moves=form.moves,
            move_bits=form.move_bits,
            budget=budget,
            node_batch=NODE_BATCH,
            node_units=NODE_UNITS,
            table_entries=TABLE_ENTRIES if table_entries is None else table_entries,
            etc_stones=ETC_STONES,
        )
        return cast(ScoreSearch, search)
    return ScoreSearch(form, budget, DEFAULT_ENTRIES if table_entries is None else table_entries)


def score_solution(
    game: Game[Any, Any],
    state: Any,
    search: ScoreSearch,
    *,
    all_best_moves: bool,
    analyze: bool,
) -> GameSolution:
    """Solve ``state`` (not over) to the end: its exact outcome, best moves and line of play.

    Each null-window probe of the root is one iteration, with the outcomes the value is then
    known to lie between. With ``analyze`` every legal move is solved too (one table for all).
    """
    form: GridForm = game.grid  # type: ignore[attr-defined]  # new_score_search checked it
    mine, mask = form.position(state)
    stones_left = search.cells - mask.bit_count()
    iterations: list[IterationStats] = []
    counted = [(search.nodes, search.table_hits, search.cutoffs)]  # at the last probe's end
    started = [time.perf_counter()]

    def outcome(score: int, left: int) -> Outcome:
        if score == 0:
            return Outcome(Fraction(0), None)
        return Outcome(game.win if score > 0 else -game.win, plies_of(score, left))

    def finished(low: int, high: int) -> None:
        now = time.perf_counter()
        nodes, hits, cutoffs = counted[0]
        iterations.append(
            IterationStats(
                depth=search.longest,
                nodes=search.nodes - nodes,
                table_hits=search.table_hits - hits,
                cutoffs=search.cutoffs - cutoffs,
                seconds=now - started[0],
                effective_branching=branching(
                    search.nodes - nodes, iterations[-1] if iterations else None
                ),
                bounds=(outcome(low, stones_left), outcome(high, stones_left)),
            )
        )
        counted[0] = (search.nodes, search.table_hits, search.cutoffs)
        started[0] = now
        report(iterations[-1])

    score = search.solve(mine, mask, finished)
    if not iterations:  # a win at once: no probe was needed
        finished(score, score)
    legal = search.legal_indices(mask)
    moves = form.moves
    move_values = None
    if analyze:
        scores = [search.move_score(mine, mask, index) for index in legal]
        move_values = tuple(
            MoveValue(moves[index], outcome(found, stones_left))
            for index, found in zip(legal, scores, strict=True)
        )
        best = [index for index, found in zip(legal, scores, strict=True) if found == score]
    elif all_best_moves:
        best = [index for index in legal if search.reaches(mine, mask, index, score)]
    else:
        best = []
    line = principal_variation(search, moves, mine, mask, score, best[:1])
    final = outcome(score, stones_left)
    found_iterations = tuple(iterations)
    return GameSolution(
        algorithm="alphabeta",
        value=final.value,
        complete=True,
        best_moves=tuple(moves[index] for index in best) or line[:1],
        principal_variation=line,
        depth_completed=search.longest,
        iterations=found_iterations,
        stats=totals(found_iterations, search.terminals, 0),
        plies_to_end=final.plies_to_end,
        move_values=move_values,
    )


def principal_variation(
    search: ScoreSearch,
    moves: tuple[Any, ...],
    mine: Bitboard,
    mask: Bitboard,
    score: int,
    first: list[int],
) -> tuple[Any, ...]:
    """Best play from the root to the end: at each position the first move (in the search's
    order, so usually the first tried) that keeps the score, found by a null window
    (``first``: the root's, if known)."""
    line: list[Any] = []
    plies = plies_of(score, search.cells - mask.bit_count()) if score else None
    while mask.bit_count() < search.cells and (plies is None or len(line) < plies):
        order = search.search_order(mine, mask)
        index = (
            first[0] if first else next(i for i in order if search.reaches(mine, mask, i, score))
        )
        first = []
        line.append(moves[index])
        mine, mask, score = mine ^ mask, mask | search.cell(mask, index), -score
    return tuple(line)
