"""Connect four (k in a row on a vertical board of columns x rows) on Tromp's bitboards.

Bit ``column * (rows + 1) + row`` (row 0 at the bottom) stands for a cell; the extra bit on top
of each column stays empty, so shifting a board by 1 (up), ``rows + 1`` (across), ``rows + 2``
and ``rows`` (the diagonals) never wraps a line from one column into the next. A state is
``(mine, mask, moves)``: the stones of the player to move, all stones, and the columns played so
far (the position's notation); the table key is Tromp's ``mine + mask``, unique per board, so
transpositions meet. Playing in a column is ``mask | (mask + bottom)``; a win test is a few
shifts and ands. A move is a column index from 0, written from 1; legal moves come centre
first (for 7 columns: 4, 3, 5, 2, 6, 1, 7, the left one first on a tie), which alpha-beta
likes best.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

from games.errors import InvalidInputError
from games.rules.game import EvaluationInfo, GameSpec, GridForm, Parameter, natural, quoted
from games.rules.tic_tac_toe import weighted_line_score

Position = tuple[int, int, str]
"""``(mine, mask, moves)``: the mover's stones, all stones, the columns played (from 1)."""


def run_doubling(shift: int, k: int) -> tuple[int, ...]:
    """Shifts that turn a board into the starts of its runs of ``k`` along ``shift``.

    ``run &= run >> (length * shift)`` doubles the runs marked so far (1, 2, 4, ...); a last
    step of ``(k - length) * shift`` overlaps two runs into one of ``k``: log2(k) + 1 steps
    instead of k - 1 (two for connect four, as in Tromp's code).
    """
    steps = []
    length = 1
    while 2 * length <= k:
        steps.append(length * shift)
        length *= 2
    if k > length:
        steps.append((k - length) * shift)
    return tuple(steps)


class ConnectFour:
    """Drop stones into columns; k in a row across, up or diagonally wins; player 0 starts."""

    name = "connect_four"
    players = 2
    has_chance = False
    win = Fraction(1)
    loss = Fraction(-1)
    draw = Fraction(0)

    def __init__(self, columns: int = 7, rows: int = 6, k: int = 4) -> None:
        if k > max(rows, columns):
            raise InvalidInputError(
                f"k = {k} is longer than the {columns} x {rows} board allows", parameter="params.k"
            )
        self.columns = columns
        self.rows = rows
        self.k = k
        height = rows + 1
        self.cells = columns * rows
        self.bottom = tuple(1 << c * height for c in range(columns))
        self.top = tuple(1 << (c * height + rows - 1) for c in range(columns))
        self.full = sum(((1 << rows) - 1) << c * height for c in range(columns))
        self.shifts = (1, height, height + 1, height - 1)
        self._run_steps = tuple(run_doubling(shift, k) for shift in self.shifts)
        self._step_pairs = tuple(
            (steps[0], steps[1]) for steps in self._run_steps if len(steps) == 2
        )
        if len(self._step_pairs) != len(self._run_steps):
            self._step_pairs = ()
        self._tops = sum(self.top)
        self._playable: dict[int, tuple[int, ...]] = {}
        self._line_offsets = tuple(
            tuple((i - j) * shift for i in range(k) if i != j)
            for shift in self.shifts
            for j in range(k)
        )
        self.order = tuple(sorted(range(columns), key=lambda c: (abs(2 * c - columns + 1), c)))
        self.windows = self._windows()
        self._weight_bound = len(self.windows) * 3 ** max(k - 2, 0)
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "windows": EvaluationInfo(
                "windows",
                "Open windows: each line of k cells holding n >= 1 of the player's stones and none "
                "of the opponent's counts 3^(n-1), minus the same for the opponent, divided by "
                "(windows x 3^(k-2) + 1).",
                self.weighted_windows,
            ),
            "threats": EvaluationInfo(
                "threats",
                "Threats: empty cells that would complete k in a row for the player, minus those "
                "for the opponent, divided by (cells + 1).",
                self.threats,
            ),
        }
        self.grid = GridForm(
            columns=columns,
            rows=rows,
            k=k,
            gravity=True,
            moves=self.order,
            move_bits=tuple(self.bottom[c] for c in self.order),
            lines=self.windows,
            evaluations={
                "windows": ("weighted_lines", self._weight_bound + 1),
                "threats": ("threats", self.cells + 1),
            },
            position=lambda state: (state[0], state[1]),
        )
        """The form the compiled search reads (the states' bitboards are already in it)."""

    def _windows(self) -> tuple[int, ...]:
        height = self.rows + 1
        found = []
        for c in range(self.columns):
            for r in range(self.rows):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_c, end_r = c + dc * (self.k - 1), r + dr * (self.k - 1)
                    if 0 <= end_c < self.columns and 0 <= end_r < self.rows:
                        found.append(
                            sum(1 << ((c + dc * i) * height + r + dr * i) for i in range(self.k))
                        )
        return tuple(found)

    def _complete(self, stones: int) -> bool:
        if self._step_pairs:
            # k = 3 or 4 (two steps per direction): unrolled, a third faster.
            for first, second in self._step_pairs:
                run = stones & (stones >> first)
                if run & (run >> second):
                    return True
            return False
        for steps in self._run_steps:
            run = stones
            for step in steps:
                run &= run >> step
            if run:
                return True
        return False

    def initial_state(self) -> Position:
        return (0, 0, "")

    def to_move(self, state: Position) -> int:
        return state[1].bit_count() & 1

    def actions(self, state: Position) -> tuple[int, ...]:
        mine, mask, _ = state
        if mask == self.full or self._complete(mine ^ mask):
            return ()
        # The legal columns depend only on which columns are full: at most 2^columns lists.
        full_columns = mask & self._tops
        playable = self._playable.get(full_columns)
        if playable is None:
            playable = tuple(c for c in self.order if not mask & self.top[c])
            self._playable[full_columns] = playable
        return playable

    def result(self, state: Position, move: int) -> Position:
        mine, mask, moves = state
        return (mine ^ mask, mask | (mask + self.bottom[move]), moves + str(move + 1))

    def chance_outcomes(self, state: Position) -> tuple[tuple[int, Fraction], ...]:
        return ()

    def is_terminal(self, state: Position) -> bool:
        mine, mask, _ = state
        return mask == self.full or self._complete(mine ^ mask)

    def utility(self, state: Position, player: int) -> Fraction:
        mine, mask, _ = state
        if not self._complete(mine ^ mask):
            return self.draw
        # The player who just moved made the line: the player to move has lost.
        return self.loss if mask.bit_count() & 1 == player else self.win

    def key(self, state: Position) -> Hashable:
        return state[0] + state[1]

    def is_noisy(self, state: Position, move: int) -> bool:
        return False

    def _sides(self, state: Position, player: int) -> tuple[int, int]:
        mine, mask, _ = state
        if mask.bit_count() & 1 == player:
            return mine, mine ^ mask
        return mine ^ mask, mine

    def weighted_windows(self, state: Position, player: int) -> Fraction:
        """Open windows weighted 1, 3, 9, ... by stones in them, scaled into (-1, 1)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        own, other = self._sides(state, player)
        return Fraction(weighted_line_score(own, other, self.windows), self._weight_bound + 1)

    def completing_cells(self, stones: int) -> int:
        """The cells (empty or not) where one more stone would give ``stones`` k in a row.

        For each direction and each place ``j`` of the missing cell in the line, the cell
        qualifies when the k - 1 cells at offsets ``(i - j) * shift`` all hold a stone:
        k (k - 1) shifts per direction, the spare bits stopping lines at the board's edges.
        """
        found = 0
        for offsets in self._line_offsets:
            cells = -1  # every bit set
            for offset in offsets:
                cells &= stones >> offset if offset > 0 else stones << -offset
            found |= cells
        return found & self.full

    def threats(self, state: Position, player: int) -> Fraction:
        """Empty cells completing a line for the player minus the opponent's, scaled."""
        if self.is_terminal(state):
            return self.utility(state, player)
        own, other = self._sides(state, player)
        empty = ~state[1]
        difference = (self.completing_cells(own) & empty).bit_count() - (
            self.completing_cells(other) & empty
        ).bit_count()
        return Fraction(difference, self.cells + 1)

    def move_text(self, state: Position, move: int) -> str:
        return str(move + 1)

    def parse_move(self, state: Position, text: str) -> int:
        stripped = text.strip()
        column = natural(stripped, 1)
        if column is not None and column - 1 in self.actions(state):
            return column - 1
        legal = ", ".join(str(c + 1) for c in sorted(self.actions(state))) or "none"
        raise InvalidInputError(
            f"{quoted(text)} is not a legal move in {self.position_text(state)!r} "
            f"(a move is a column from 1; legal: {legal})",
            parameter="move",
        )

    def position_text(self, state: Position) -> str:
        return state[2]

    def parse_position(self, text: str) -> Position:
        state = self.initial_state()
        for index, symbol in enumerate(text):
            column = natural(symbol, 1)
            if column is None or not 1 <= column <= self.columns:
                raise InvalidInputError(
                    f"{quoted(text)}: move {index + 1} ({symbol!r}) is not a column "
                    f"1 to {self.columns}",
                    parameter="position",
                )
            if self.is_terminal(state):
                raise InvalidInputError(
                    f"{quoted(text)}: the game is over after {index} moves, yet the moves go on",
                    parameter="position",
                )
            column -= 1
            if state[1] & self.top[column]:
                raise InvalidInputError(
                    f"{quoted(text)}: move {index + 1} plays column {symbol}, which is full",
                    parameter="position",
                )
            state = self.result(state, column)
        return state


PARAMETERS = (
    Parameter("columns", int, 7, 1, 9, "Columns of the board (one digit each in the notation)."),
    Parameter("rows", int, 6, 1, 9, "Rows of the board."),
    Parameter("k", int, 4, 1, 9, "Stones in a row (across, up or diagonal) that win."),
)

SPEC: GameSpec[Position, int] = GameSpec(
    name="connect_four",
    title="Connect four",
    description=(
        "Players take turns dropping a stone into a column that is not full; it falls to the"
        " lowest empty cell; k in a row across, up or diagonally wins; a full board is a draw."
    ),
    parameters=PARAMETERS,
    notation=(
        "The columns played so far, from 1, first player first: '4453' (the empty board is '')."
        " Moves are a column from 1: '4'."
    ),
    build=ConnectFour,
)
