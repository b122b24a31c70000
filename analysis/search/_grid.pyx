# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=True
"""The compiled hot loop of alpha-beta for k-in-a-row games on a grid (connect four, tic-tac-toe).

It is :class:`analysis.search.alpha_beta.AlphaBeta` move for move, on 64-bit boards instead of
the game's Python rules: the same negamax, the same transposition table rules (an entry replaces
one of no greater depth; proven entries hold at every depth; at most ``table_entries`` entries,
though a full table makes room its own way: the shallowest entry on the new one's probe path is
replaced, or nothing is kept), the same move order (the table's move, the ply's two killers, then the rest by
history, stably), the same root with its tie window, and the same counters. So both find the same values, best moves, lines and node counts; only the
time differs (by a factor of thirty or more). With ``shortcuts`` (connect four solved to the end)
it also skips moves that lose at once, which keeps every score but enters fewer states.
:mod:`analysis.search.grid` decides when it runs.

Scores are int64: the Python engine's scores times ``scale`` (the evaluation's denominator times
the tie margin's, or 1 for a search to the end), so exact evaluations stay exact integers.
Boards follow Tromp's layout: bit ``column * (rows + 1) + row`` with a spare bit atop each column,
so the shifts that find a line never carry from one column into the next.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free

cdef extern from "sys/mman.h":
    int madvise(void* address, size_t length, int advice) nogil
    int MADV_HUGEPAGE

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    void prefetch "__builtin_prefetch"(const void*) nogil
    int clz "__builtin_clzll"(unsigned long long) nogil

cdef enum:
    EXACT = 0
    LOWER = 1
    UPPER = 2
    MOST_MOVES = 64
    MOST_PLIES = 66
    MOST_LINES = 1024
    PROVEN_HERE = 32767
    OPEN_LINES = 0
    WEIGHTED_LINES = 1
    THREATS = 2
    NO_EVALUATION = -1

cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15
cdef uint64_t WINS_AT_ONCE = <uint64_t>1 << 63  # the spare bit of a 64-bit board's last column


cdef struct Entry:  # 16 bytes: four to a cache line
    uint64_t key  # the position's key + 1 (0: an empty slot)
    int32_t score
    int16_t depth  # PROVEN_HERE for a proven entry (valid at every depth, as PROVEN in Python);
                   # in a ScoreSearch, the bit length of the nodes searched below it
    int8_t bound
    int8_t move


cdef class GridSearch:
    """One alpha-beta search of a grid game: the table and heuristics kept across iterations.

    Counters and ``budget`` are what :func:`analysis.search.deepening.deepen` reads and arms.
    """

    cdef public object budget
    cdef public long long nodes, table_hits, cutoffs, terminals, evaluations, horizon, longest
    cdef public bint all_best

    cdef int columns, rows, k, gravity, height, move_count, kind, use_table, ordering, shortcuts
    cdef uint64_t bottom_row
    cdef int offsets[36][8]
    cdef int offset_groups
    cdef int pack_key, batch_mask, node_units
    cdef uint64_t full
    cdef uint64_t move_bit[MOST_MOVES]
    cdef uint64_t move_top[MOST_MOVES]
    cdef int order[MOST_MOVES]
    cdef int game_move[MOST_MOVES]
    cdef int shifts[4]
    cdef int steps[4][8]
    cdef int step_count[4]
    cdef uint64_t lines[MOST_LINES]
    cdef int line_count
    cdef int64_t weights[MOST_MOVES]
    cdef int64_t scale, unit, win, infinity, tie_margin, mate
    cdef int killers[MOST_PLIES][2]
    cdef int64_t history[2][MOST_MOVES]
    cdef Entry* table
    cdef size_t slots, used, most_slots, most_entries
    cdef bint newest_wins  # a key's new entry replaces its old one whatever their depths
    cdef int slot_bits

    def __cinit__(self):
        self.table = NULL

    def __init__(
        self,
        *,
        int columns,
        int rows,
        int k,
        bint gravity,
        moves,
        move_bits,
        lines,
        evaluation_kind,
        int64_t denominator,
        bint table,
        bint ordering,
        bint shortcuts,
        budget,
        int max_ply,
        int node_batch,
        int node_units,
        long long table_entries,
    ):
        """Set up a search; ``moves`` are the game's moves in its order of actions, and
        ``move_bits[i]`` is move ``moves[i]``'s cell bit (or, with ``gravity``, its column's
        lowest cell)."""
        if (
            columns * (rows + 1) > 64
            or len(moves) > MOST_MOVES
            or len(lines) > MOST_LINES
            or not 1 <= k <= 9
        ):
            raise ValueError("the board does not fit the compiled search")
        if table_entries < 1:
            raise ValueError("the table needs room for an entry")
        self.columns = columns
        self.rows = rows
        self.k = k
        self.gravity = gravity
        self.height = rows + 1
        self.budget = budget
        self.use_table = table
        self.ordering = ordering
        self.shortcuts = shortcuts and gravity
        self.all_best = True
        self.nodes = self.table_hits = self.cutoffs = 0
        self.terminals = self.evaluations = self.horizon = self.longest = 0
        self.mate = max_ply + 1
        self.batch_mask = node_batch - 1
        self.node_units = node_units
        # The key is mine + mask (Tromp) when stones fall; any board fits two 32-bit halves.
        self.pack_key = not gravity
        if self.pack_key and columns * (rows + 1) > 32:
            raise ValueError("the board does not fit the compiled search")
        cdef int c, i, length
        self.full = 0
        for c in range(columns):
            self.full |= ((<uint64_t>1 << rows) - 1) << (c * self.height)
        self.bottom_row = 0
        for c in range(columns):
            self.bottom_row |= <uint64_t>1 << (c * self.height)
        self.move_count = len(moves)
        for i in range(self.move_count):
            self.game_move[i] = moves[i]
            self.order[i] = i
            self.move_bit[i] = move_bits[i]
            self.move_top[i] = (<uint64_t>move_bits[i]) << (rows - 1)
        self.shifts[0] = 1
        self.shifts[1] = self.height
        self.shifts[2] = self.height + 1
        self.shifts[3] = self.height - 1
        for i in range(4):
            # run doubling: runs of 1, 2, 4, ... then one overlapping step to k
            self.step_count[i] = 0
            length = 1
            while 2 * length <= k:
                self.steps[i][self.step_count[i]] = length * self.shifts[i]
                self.step_count[i] += 1
                length *= 2
            if k > length:
                self.steps[i][self.step_count[i]] = (k - length) * self.shifts[i]
                self.step_count[i] += 1
        # a cell completes k in a row when, for some direction and some place j of the cell
        # in the line, the k - 1 cells at (i - j) * shift hold stones
        cdef int d, j, n
        self.offset_groups = 0
        for d in range(4):
            for j in range(k):
                n = 0
                for i in range(k):
                    if i != j:
                        self.offsets[self.offset_groups][n] = (i - j) * self.shifts[d]
                        n += 1
                self.offset_groups += 1
        self.line_count = len(lines)
        for i in range(self.line_count):
            self.lines[i] = lines[i]
        self.weights[0] = 0
        self.weights[1] = 1
        for i in range(2, MOST_MOVES):
            self.weights[i] = self.weights[i - 1] * 3 if i <= 30 else self.weights[30]
        kinds = {None: NO_EVALUATION, "open_lines": OPEN_LINES,
                 "weighted_lines": WEIGHTED_LINES, "threats": THREATS}
        self.kind = kinds[evaluation_kind]
        if self.kind == NO_EVALUATION:
            self.scale = 1
            self.unit = 0
            self.tie_margin = 1
        else:
            # Every score is a multiple of 1 / denominator; the root's tie margin only has to
            # be smaller than that (the Python engine's 1 / 2^20 and this 1 / (2 denominator)
            # decide every comparison alike), so scores stay small enough for the table's
            # 32 bits: n / denominator becomes 2n, the margin 1.
            self.scale = 2 * denominator
            self.unit = 2
            self.tie_margin = 1
        if self.scale * (max_ply + 3) >= (<int64_t>1 << 31):
            raise ValueError("the evaluation's denominator is too large for the compiled search")
        self.win = self.scale
        self.infinity = self.scale * (1 + max_ply + 2)
        for i in range(MOST_PLIES):
            self.killers[i][0] = -1
            self.killers[i][1] = -1
        for i in range(MOST_MOVES):
            self.history[0][i] = 0
            self.history[1][i] = 0
        # the fewest slots (a power of two) that hold table_entries at most 3/4 full
        self.most_entries = table_entries
        self.most_slots = 4
        while 3 * self.most_slots < 4 * self.most_entries:
            self.most_slots *= 2
        self.slots = 0
        self.used = 0
        self.newest_wins = False

    def __dealloc__(self):
        free(self.table)

    # -- the table --------------------------------------------------------------------------

    cdef inline uint64_t key_of(self, uint64_t mine, uint64_t mask) noexcept:
        if self.pack_key:
            return (mask << 32) | mine
        return mine + mask

    cdef int grow(self) except -1:
        cdef size_t old_slots = self.slots, i, slot
        cdef Entry* old = self.table
        cdef size_t slots = min(1 << 16, self.most_slots) if old_slots == 0 else old_slots * 2
        cdef Entry* fresh = <Entry*>calloc(slots, sizeof(Entry))
        if fresh == NULL:
            raise MemoryError
        cdef size_t huge = 1 << 21, start = (<size_t>fresh + huge - 1) & ~(huge - 1)
        if slots * sizeof(Entry) >= 4 * huge:
            # ask for 2 MB pages where the kernel leaves it to the program: a probe lands
            # anywhere in the table, and with 4 kB pages most probes also miss the TLB
            madvise(<void*>start, (<size_t>fresh + slots * sizeof(Entry) - start) & ~(huge - 1),
                    MADV_HUGEPAGE)
        self.table = fresh
        self.slots = slots
        self.slot_bits = 0
        while (<size_t>1 << self.slot_bits) < slots:
            self.slot_bits += 1
        for i in range(old_slots):
            if old[i].key:
                slot = self.home(old[i].key - 1)
                while fresh[slot].key:
                    slot = (slot + 1) & (slots - 1)
                fresh[slot] = old[i]
        free(old)
        return 0

    cdef inline size_t home(self, uint64_t key) noexcept:
        return <size_t>((key * GOLDEN) >> (64 - self.slot_bits))

    cdef inline Entry* find(self, uint64_t key) noexcept:
        """The entry of ``key``, or NULL."""
        if self.slots == 0:
            return NULL
        cdef size_t slot = self.home(key)
        cdef uint64_t stored = key + 1
        while self.table[slot].key:
            if self.table[slot].key == stored:
                return &self.table[slot]
            slot = (slot + 1) & (self.slots - 1)
        return NULL

    cdef inline bint table_full(self) noexcept:
        """Whether a new key must replace an entry: ``most_entries`` are held, or the slots
        are three quarters full."""
        return self.used >= self.most_entries or 4 * (self.used + 1) > 3 * self.slots

    cdef int store(self, uint64_t key, int depth, int64_t score, int bound, int move) except -1:
        """Keep an entry unless one of greater depth is there (with ``newest_wins``, in any
        case). A full table replaces the shallowest of the first 32 entries on the key's probe
        path (so ``find`` still reaches it), or keeps nothing when that path starts at a free
        slot: a free slot is never taken past the bound, which also leaves ``find`` a free
        slot to stop at."""
        if 2 * (self.used + 1) > self.slots and self.slots < self.most_slots:
            self.grow()
        cdef size_t slot = self.home(key), probe
        cdef size_t victim = self.slots  # none yet
        cdef uint64_t stored = key + 1
        for probe in range(self.slots):
            if self.table[slot].key == stored:
                if depth >= self.table[slot].depth or self.newest_wins:
                    self.write(slot, stored, depth, score, bound, move)
                return 0
            if not self.table[slot].key:
                if not self.table_full():
                    self.used += 1
                    self.write(slot, stored, depth, score, bound, move)
                    return 0
                break
            if probe < 32 and (
                victim == self.slots or self.table[slot].depth < self.table[victim].depth
            ):
                victim = slot
            if probe >= 32 and self.table_full():
                break
            slot = (slot + 1) & (self.slots - 1)
        if victim != self.slots:
            self.write(victim, stored, depth, score, bound, move)
        return 0

    cdef inline void write(
        self, size_t slot, uint64_t stored, int depth, int64_t score, int bound, int move
    ) noexcept:
        self.table[slot].key = stored
        self.table[slot].depth = depth
        self.table[slot].score = score
        self.table[slot].bound = bound
        self.table[slot].move = move

    cdef inline int64_t to_table(self, int64_t score, int ply) noexcept:
        if score > self.win:
            return score + ply * self.scale
        if score < -self.win:
            return score - ply * self.scale
        return score

    cdef inline int64_t from_table(self, int64_t score, int ply) noexcept:
        if score > self.win:
            return score - ply * self.scale
        if score < -self.win:
            return score + ply * self.scale
        return score

    # -- the rules ---------------------------------------------------------------------------

    cdef inline bint complete(self, uint64_t stones) noexcept:
        """Whether ``stones`` hold k in a row."""
        cdef int d, s
        cdef uint64_t run
        for d in range(4):
            run = stones
            for s in range(self.step_count[d]):
                run &= run >> self.steps[d][s]
            if run:
                return True
        return False

    cdef inline bint legal(self, uint64_t mask, int index) noexcept:
        if self.gravity:
            return not (mask & self.move_top[index])
        return not (mask & self.move_bit[index])

    cdef inline uint64_t play(self, uint64_t mask, int index) noexcept:
        if self.gravity:
            return mask | (mask + self.move_bit[index])
        return mask | self.move_bit[index]

    cdef inline uint64_t completing(self, uint64_t stones) noexcept:
        """The cells (empty or not) where one more stone gives ``stones`` k in a row."""
        cdef uint64_t found = 0, cells, before, after
        cdef int g, i, offset, shift
        if self.k == 4:  # unrolled (as in Pons's solver): two stones on one side, one or two
            for g in range(4):  # on the other
                shift = self.shifts[g]
                before = (stones << shift) & (stones << 2 * shift)
                after = (stones >> shift) & (stones >> 2 * shift)
                found |= before & ((stones << 3 * shift) | (stones >> shift))
                found |= after & ((stones >> 3 * shift) | (stones << shift))
            return found & self.full
        for g in range(self.offset_groups):
            cells = self.full
            for i in range(self.k - 1):
                offset = self.offsets[g][i]
                cells &= stones >> offset if offset > 0 else stones << -offset
            found |= cells
        return found & self.full

    cdef int64_t evaluate(self, uint64_t own, uint64_t other) noexcept:
        """The evaluation of a position that is not over, scaled, for the side holding ``own``."""
        cdef int64_t total = 0
        cdef int i, mine, theirs
        cdef uint64_t line, found_own = 0, found_other = 0, empty
        if self.kind == OPEN_LINES:
            for i in range(self.line_count):
                line = self.lines[i]
                total += (not (other & line)) - (not (own & line))
        elif self.kind == WEIGHTED_LINES:
            for i in range(self.line_count):
                line = self.lines[i]
                mine = popcount(own & line)
                theirs = popcount(other & line)
                if mine and not theirs:
                    total += self.weights[mine]
                elif theirs and not mine:
                    total -= self.weights[theirs]
        else:
            for i in range(self.line_count):
                line = self.lines[i]
                if popcount(own & line) == self.k - 1:
                    found_own |= line & ~own
                if popcount(other & line) == self.k - 1:
                    found_other |= line & ~other
            empty = self.full & ~(own | other)
            total = popcount(found_own & empty) - popcount(found_other & empty)
        return total * self.unit

    # -- the search --------------------------------------------------------------------------

    cdef int charge(self) except -1:
        """Charge a batch of nodes to the budget (which raises when a limit has passed)."""
        self.budget.spend(self.node_units, 1)
        return 0

    cdef int ordered(self, int* moves, int count, int mover, int first, int ply) noexcept:
        """Put the table's move, then the ply's killers, then the rest by history, in place."""
        cdef int i, j, move, front = 0, killer
        cdef int64_t* weight = self.history[mover]
        # a stable sort by history, greatest first
        for i in range(1, count):
            move = moves[i]
            j = i - 1
            while j >= 0 and weight[moves[j]] < weight[move]:
                moves[j + 1] = moves[j]
                j -= 1
            moves[j + 1] = move
        if first >= 0:
            front = self.lift(moves, count, first, front)
        for i in range(2):
            killer = self.killers[ply][i]
            if killer >= 0 and killer != first:
                front = self.lift(moves, count, killer, front)
        return 0

    cdef inline int lift(self, int* moves, int count, int move, int front) noexcept:
        """Move ``move`` (if among ``moves[front:]``) to position ``front``, keeping the
        others' order; the new front."""
        cdef int i, j
        for i in range(front, count):
            if moves[i] == move:
                for j in range(i, front, -1):
                    moves[j] = moves[j - 1]
                moves[front] = move
                return front + 1
        return front

    cdef int legal_moves(self, uint64_t mask, int* moves, uint64_t allowed) noexcept:
        """The legal moves (with ``gravity``, those whose cell is in ``allowed``), in order."""
        cdef int i, count = 0
        for i in range(self.move_count):
            if self.legal(mask, i) and (
                not self.gravity or self.play(mask, i) & ~mask & allowed
            ):
                moves[count] = i
                count += 1
        return count

    cdef int64_t search(
        self, uint64_t mine, uint64_t mask, int depth, int64_t alpha, int64_t beta, int ply
    ) except? -1:
        """The fail-soft negamax score of the position for its mover (holding ``mine``)."""
        self.nodes += 1
        if not (self.nodes & self.batch_mask):
            self.charge()
        cdef uint64_t theirs = mine ^ mask
        cdef bint lost = self.complete(theirs)  # the player who just moved made a line
        if lost or mask == self.full:
            self.reached(ply)
            return -self.scale * (1 + self.mate - ply) if lost else 0
        if depth <= 0:
            self.horizon += 1
            self.evaluations += 1
            if self.kind == NO_EVALUATION:
                raise RuntimeError("a search to the end met the depth cutoff")
            return self.evaluate(mine, theirs)
        cdef int table_move = -1
        cdef uint64_t key = 0
        cdef Entry* entry
        cdef int64_t score
        cdef uint64_t allowed = self.full
        if self.shortcuts:
            allowed = self.non_losing(mine, theirs, mask)
            if allowed == WINS_AT_ONCE:
                self.reached(ply + 1)
                return self.scale * (self.mate - ply)
            if allowed == 0:  # every move lets the other player win at once
                self.reached(ply + 2)
                return -self.scale * (self.mate - ply - 1)
            # the best left is a win on the mover's next move
            if alpha >= self.scale * (self.mate - ply - 2):
                return self.scale * (self.mate - ply - 2)
        if self.use_table:
            key = self.key_of(mine, mask)
            entry = self.find(key)
            if entry != NULL:
                table_move = entry.move
                if entry.depth >= depth:
                    score = self.from_table(entry.score, ply)
                    if (
                        entry.bound == EXACT
                        or (entry.bound == LOWER and score >= beta)
                        or (entry.bound == UPPER and score <= alpha)
                    ):
                        self.table_hits += 1
                        if entry.depth != PROVEN_HERE:
                            self.horizon += 1
                        return score
        cdef int moves[MOST_MOVES]
        cdef int count = self.legal_moves(mask, moves, allowed)
        cdef int mover = popcount(mask) & 1
        if self.ordering and count > 1:
            self.ordered(moves, count, mover, table_move, ply)
        cdef int i
        if self.use_table and self.slots and depth > 1:
            # the children's entries are read next: fetch their cache lines now, so that the
            # memory waits overlap instead of adding up (they are most of a node's cost)
            for i in range(count):
                prefetch(&self.table[self.home(self.key_of(theirs, self.play(mask, moves[i])))])
        cdef long long horizon = self.horizon
        cdef int64_t window_low = alpha
        cdef int64_t best = -self.infinity
        cdef int best_move = -1, move, bound
        for i in range(count):
            move = moves[i]
            score = -self.search(theirs, self.play(mask, move), depth - 1, -beta, -alpha, ply + 1)
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
        if self.use_table:
            bound = UPPER if best <= window_low else LOWER if best >= beta else EXACT
            self.store(
                key,
                PROVEN_HERE if self.horizon == horizon else depth,
                self.to_table(best, ply),
                bound,
                best_move,
            )
        return best

    cdef inline void reached(self, int ply) noexcept:
        """A game's end ``ply`` plies below the root (found, or foreseen by a shortcut)."""
        self.terminals += 1
        if ply > self.longest:
            self.longest = ply

    cdef uint64_t non_losing(self, uint64_t mine, uint64_t theirs, uint64_t mask) noexcept:
        """With ``shortcuts``: :data:`WINS_AT_ONCE` if the mover wins at once; otherwise the playable cells that do
        not let the other player win at once (0: none).

        Every other move loses at the next ply, the earliest a loss can come, so skipping them
        never changes a score, its distance to the end included (Pons's non-losing moves).
        """
        cdef uint64_t playable = (mask + self.bottom_row) & self.full
        if self.completing(mine) & playable:
            return WINS_AT_ONCE
        return self.safe_cells(theirs, mask, playable)

    cdef inline uint64_t safe_cells(self, uint64_t theirs, uint64_t mask, uint64_t playable) noexcept:
        """The ``playable`` cells that do not let the holder of ``theirs`` win at once (0: none)."""
        cdef uint64_t threats = self.completing(theirs) & ~mask
        cdef uint64_t forced = playable & threats
        if forced:
            if forced & (forced - 1):  # two threats: one block is not enough
                return 0
            playable = forced
        # a stone right under a threat lets the other player take the threat's cell
        return playable & ~(threats >> 1)

    cdef inline void remember_cutoff(self, int move, int mover, int depth, int ply) noexcept:
        if self.killers[ply][0] != move:
            self.killers[ply][1] = self.killers[ply][0]
            self.killers[ply][0] = move
        self.history[mover][move] += depth * depth

    cdef int index_of(self, move) except -2:
        """The index of a game move (``None``: -1)."""
        if move is None:
            return -1
        cdef int i
        for i in range(self.move_count):
            if self.game_move[i] == move:
                return i
        return -1

    def root(self, uint64_t mine, uint64_t mask, int depth, previous):
        """One iteration: the root's score (scaled), every move achieving it (game moves, in
        the game's order), and whether the score is exact."""
        self.nodes += 1
        if not (self.nodes & self.batch_mask):
            self.charge()
        cdef long long horizon = self.horizon
        cdef int moves[MOST_MOVES]
        cdef int count = self.legal_moves(mask, moves, self.full)
        cdef int mover = popcount(mask) & 1
        if self.ordering and count > 1:
            self.ordered(moves, count, mover, self.index_of(previous), 0)
        cdef int64_t best = -self.infinity, alpha, score
        cdef int best_moves[MOST_MOVES]
        cdef int found = 0, i, j, move
        for i in range(count):
            move = moves[i]
            alpha = best - self.tie_margin if self.all_best else best
            score = -self.search(mine ^ mask, self.play(mask, move), depth - 1,
                                 -self.infinity, -alpha, 1)
            if score > best:
                best = score
                best_moves[0] = move
                found = 1
            elif score == best and self.all_best:
                best_moves[found] = move
                found += 1
        complete = self.horizon == horizon
        if self.use_table:
            self.store(self.key_of(mine, mask), PROVEN_HERE if complete else depth,
                       best, EXACT, best_moves[0])
        chosen = []
        for j in range(found):
            chosen.append(best_moves[j])
        chosen.sort()  # indices follow the game's order of moves
        return best, [self.game_move[j] for j in chosen], complete

    def principal_variation(self, uint64_t mine, uint64_t mask, first, int depth):
        """The line from the root: ``first``, then the table's moves while they are legal."""
        cdef int index = self.index_of(first)
        line = [first]
        cdef uint64_t theirs = mine ^ mask
        mask = self.play(mask, index)
        mine = theirs
        seen = set()
        cdef Entry* entry
        cdef uint64_t key
        while (
            self.use_table
            and len(line) < depth
            and not (mask == self.full or self.complete(mine ^ mask))
        ):
            key = self.key_of(mine, mask)
            entry = self.find(key)
            if entry == NULL or entry.move < 0 or key in seen or not self.legal(mask, entry.move):
                break
            seen.add(key)
            line.append(self.game_move[entry.move])
            theirs = mine ^ mask
            mask = self.play(mask, entry.move)
            mine = theirs
        return line

    @property
    def scale_factor(self):
        """What a scaled score is divided by to give the Python engine's score."""
        return self.scale

    @property
    def table_entries(self):
        return self.used


cdef class ScoreSearch(GridSearch):
    """:class:`analysis.search.score_search.ScoreSearch` compiled, move for move: null-window
    alpha-beta on the exact score of a gravity grid game, with the same non-losing moves, bounds
    from the board, threat ordering, table of bounds (an entry's ``score`` holds the bound, its
    ``bound`` which kind, its ``move`` the move that failed high or -1, its ``depth`` the work
    below it) and enhanced transposition cutoffs, one entry for a position and its mirror
    image, so the same scores and the same node counts while neither table fills. A full table
    replaces the entry of least work near a new one's place."""

    cdef readonly int cells
    cdef uint64_t column_mask[MOST_MOVES]
    cdef int mirror_move[MOST_MOVES]
    cdef int column_shift[MOST_MOVES]
    cdef uint64_t one_column
    cdef int etc_stones

    def __init__(
        self,
        *,
        int columns,
        int rows,
        int k,
        moves,
        move_bits,
        budget,
        int node_batch,
        int node_units,
        long long table_entries,
        int etc_stones,
    ):
        GridSearch.__init__(
            self, columns=columns, rows=rows, k=k, gravity=True, moves=moves,
            move_bits=move_bits, lines=(), evaluation_kind=None, denominator=1, table=True,
            ordering=False, shortcuts=True, budget=budget, max_ply=MOST_PLIES,
            node_batch=node_batch, node_units=node_units, table_entries=table_entries,
        )
        self.cells = columns * rows
        self.etc_stones = etc_stones
        # an entry's depth is the work it saves: a full table drops the cheapest to redo
        self.newest_wins = True
        self.one_column = (<uint64_t>1 << self.height) - 1
        cdef int i, j
        for i in range(self.move_count):
            self.column_mask[i] = ((<uint64_t>1 << rows) - 1) * self.move_bit[i]
        for i in range(self.move_count):
            self.column_shift[i] = (popcount(self.move_bit[i] - 1) // self.height) * self.height
            self.mirror_move[i] = -1
            for j in range(self.move_count):
                if self.move_bit[j] == self.mirrored(self.move_bit[i]):
                    self.mirror_move[i] = j
            if self.mirror_move[i] < 0:
                raise ValueError("the moves are not the board's columns")

    cdef inline uint64_t mirrored(self, uint64_t board) noexcept:
        """``board`` (or a key) reflected left to right: column ``c`` becomes ``columns - 1 - c``."""
        cdef uint64_t found = 0
        cdef int c, far = (self.columns - 1) * self.height
        for c in range(self.columns):
            found |= ((board >> (c * self.height)) & self.one_column) << (far - c * self.height)
        return found

    cdef inline uint64_t cell_of(self, uint64_t mask, int index) noexcept:
        return (mask + self.bottom_row) & self.full & self.column_mask[index]

    cdef inline bint wins_now(self, uint64_t mine, uint64_t mask) noexcept:
        return (self.completing(mine) & (mask + self.bottom_row) & self.full) != 0

    cdef int ordered_options(
        self, uint64_t mine, uint64_t mask, uint64_t options, int first, int* moves
    ) noexcept:
        """The table's move ``first`` (-1: none), then the moves among ``options`` by the
        threats each creates, most first, ties in the game's order; their count."""
        cdef int threats[MOST_MOVES]
        cdef int count = 0, front = 0, i, j, made
        cdef uint64_t cell
        if first >= 0 and options & self.column_mask[first]:
            moves[0] = first
            front = 1
        for i in range(self.move_count):
            cell = options & self.column_mask[i]
            if cell and i != first:
                made = popcount(self.completing(mine | cell) & ~(mask | cell))
                j = count
                while j > 0 and threats[j - 1] < made:
                    threats[j] = threats[j - 1]
                    moves[front + j] = moves[front + j - 1]
                    j -= 1
                threats[j] = made
                moves[front + j] = i
                count += 1
        return front + count

    cdef inline uint64_t reflected_cell(self, uint64_t cell, int index) noexcept:
        """The mirror image of ``cell``, a cell of move ``index``'s column."""
        return (cell >> self.column_shift[index]) << self.column_shift[self.mirror_move[index]]

    cdef inline uint64_t child_key(
        self, uint64_t theirs, uint64_t mask, uint64_t mirror_theirs, uint64_t mirror_mask,
        uint64_t cell, int index
    ) noexcept:
        """The table key of the position after move ``index`` takes ``cell``: the smaller of
        its key and its mirror image's (each board's sum with the new stone)."""
        return min(
            theirs + mask + cell, mirror_theirs + mirror_mask + self.reflected_cell(cell, index)
        )

    cdef inline int as_stored(self, int move, bint flipped) noexcept:
        """``move`` as the other side of a mirrored entry plays it (both ways alike)."""
        return self.mirror_move[move] if flipped and move >= 0 else move

    cdef int negamax(
        self, uint64_t mine, uint64_t mask, uint64_t mirror_mine, uint64_t mirror_mask,
        int alpha, int beta, int ply
    ) except? -32768:
        """The score of a position whose mover (holding ``mine``) cannot win at once;
        ``mirror_mine`` and ``mirror_mask`` are the boards reflected left to right."""
        self.nodes += 1
        if not (self.nodes & self.batch_mask):
            self.charge()
        cdef int stones = popcount(mask)
        cdef uint64_t theirs = mine ^ mask
        cdef uint64_t options = self.safe_cells(theirs, mask, (mask + self.bottom_row) & self.full)
        if not options:  # whatever the mover does, the opponent wins next
            self.reached(ply + 2)
            return -((self.cells - stones) // 2)
        if stones >= self.cells - 2:  # one or two cells left, and no one can take a line
            self.reached(ply + self.cells - stones)
            return 0
        cdef int low = -((self.cells - stones - 2) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        cdef int high = (self.cells - stones - 1) // 2
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        # a position and its mirror image have one score: one entry, under the smaller key
        cdef uint64_t key = mine + mask, other = mirror_mine + mirror_mask
        cdef bint flipped = other < key
        if flipped:
            key = other
        cdef int first = -1
        cdef Entry* entry = self.find(key)
        if entry != NULL:
            first = self.as_stored(entry.move, flipped)
            if entry.bound == LOWER and entry.score > alpha:
                alpha = entry.score
            elif entry.bound == UPPER and entry.score < beta:
                beta = entry.score
            if alpha >= beta:
                self.table_hits += 1
                return alpha if entry.bound == LOWER else beta
        cdef uint64_t mirror_theirs = mirror_mine ^ mirror_mask, cell
        cdef int i
        if self.slots:
            # the children's entries are read next: fetch their cache lines while the moves
            # are ordered, so that the memory waits (most of a node's cost) overlap
            for i in range(self.move_count):
                cell = options & self.column_mask[i]
                if cell:
                    prefetch(&self.table[self.home(
                        self.child_key(theirs, mask, mirror_theirs, mirror_mask, cell, i)
                    )])
        cdef int moves[MOST_MOVES]
        cdef int count = self.ordered_options(mine, mask, options, first, moves)
        cdef int score
        cdef long long before = self.nodes
        cdef Entry* known
        if self.slots and stones < self.etc_stones:
            # a child the table already bounds low enough cuts off without a search
            for i in range(count):
                cell = self.cell_of(mask, moves[i])
                known = self.find(
                    self.child_key(theirs, mask, mirror_theirs, mirror_mask, cell, moves[i])
                )
                if known != NULL and known.bound == UPPER and -known.score >= beta:
                    score = -known.score  # read before the store, which may move the table
                    self.table_hits += 1
                    self.cutoffs += 1
                    self.store(key, 0, score, LOWER, self.as_stored(moves[i], flipped))
                    return score
        for i in range(count):
            cell = self.cell_of(mask, moves[i])
            score = -self.negamax(
                theirs, mask | cell, mirror_theirs, mirror_mask | self.reflected_cell(cell, moves[i]),
                -beta, -alpha, ply + 1,
            )
            if score >= beta:  # beta cut-off
                self.cutoffs += 1
                self.store(key, work_of(self.nodes - before), score, LOWER,
                           self.as_stored(moves[i], flipped))
                return score
            if score > alpha:
                alpha = score
        self.store(key, work_of(self.nodes - before), alpha, UPPER, -1)
        return alpha

    cdef int negamax_from(
        self, uint64_t mine, uint64_t mask, int alpha, int beta, int ply
    ) except? -32768:
        """:meth:`negamax` of a position, its mirror image found here."""
        return self.negamax(mine, mask, self.mirrored(mine), self.mirrored(mask), alpha, beta, ply)

    def solve(self, uint64_t mine, uint64_t mask, on_probe=None):
        """The exact score of a position that is not over, by null-window probes;
        ``on_probe(low, high)`` after each."""
        cdef int stones_left = self.cells - popcount(mask)
        self.nodes += 1
        if not (self.nodes & self.batch_mask):
            self.charge()
        if self.wins_now(mine, mask):
            self.reached(1)
            return (stones_left + 1) // 2
        cdef int low = -(stones_left // 2), high = (stones_left + 1) // 2, guess, found
        while low < high:
            guess = probe(low, high)
            found = self.negamax_from(mine, mask, guess, guess + 1, 0)
            if found <= guess:
                high = found
            else:
                low = found
            if on_probe is not None:
                on_probe(low, high)
        return low

    def move_score(self, uint64_t mine, uint64_t mask, int index):
        """The exact score of playing legal move ``index``, for the mover."""
        cdef uint64_t cell = self.cell_of(mask, index)
        if self.completing(mine) & cell:
            return (self.cells - popcount(mask) + 1) // 2
        return -self.solve(mine ^ mask, mask | cell)

    def reaches(self, uint64_t mine, uint64_t mask, int index, int score):
        """Whether legal move ``index`` scores at least ``score``."""
        cdef uint64_t cell = self.cell_of(mask, index)
        if self.completing(mine) & cell:
            return True
        cdef uint64_t after = mask | cell, theirs = mine ^ mask
        if self.wins_now(theirs, after):
            return score <= -((self.cells - popcount(mask)) // 2)
        return self.negamax_from(theirs, after, -score, -score + 1, 1) <= -score

    def search_order(self, uint64_t mine, uint64_t mask):
        """The legal moves: those that win at once, then the search's order of the
        non-losing moves, then the rest."""
        cdef int moves[MOST_MOVES]
        cdef uint64_t completes = self.completing(mine)
        legal = self.legal_indices(mask)
        front = [i for i in legal if completes & self.cell_of(mask, i)]
        cdef uint64_t key = mine + mask, other = self.mirrored(key)
        cdef Entry* entry = self.find(min(key, other))
        cdef int first = self.as_stored(entry.move, other < key) if entry != NULL else -1
        cdef uint64_t options = self.safe_cells(
            mine ^ mask, mask, (mask + self.bottom_row) & self.full
        )
        cdef int count = self.ordered_options(mine, mask, options, first, moves)
        front += [moves[i] for i in range(count) if moves[i] not in front]
        return front + [i for i in legal if i not in front]

    def legal_indices(self, uint64_t mask):
        return [i for i in range(self.move_count) if self.cell_of(mask, i)]

    def cell(self, uint64_t mask, int index):
        """The cell move ``index`` takes (0: its column is full)."""
        return self.cell_of(mask, index)


cdef inline int toward_zero_half(int score) noexcept:
    return -((-score) // 2) if score < 0 else score // 2


cdef inline int probe(int low, int high) noexcept:
    """:func:`analysis.search.score_search.probe`."""
    cdef int middle = low + (high - low) // 2
    if middle <= 0 and toward_zero_half(low) < middle:
        return toward_zero_half(low)
    if middle >= 0 and toward_zero_half(high) > middle:
        return toward_zero_half(high)
    return middle


cdef inline int work_of(long long nodes) noexcept:
    """The bit length of ``nodes``: how much searching an entry saves."""
    return 64 - clz(<unsigned long long>nodes) if nodes else 0
