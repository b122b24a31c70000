"""Tic-tac-toe and its k-in-a-row generalisations on a rows x columns board (AIMA 5.1).

A state is a pair of bitboards ``(x, o)``: cell ``r * columns + c`` (row ``r`` from the top,
column ``c`` from the left, both from 0) is bit ``r * columns + c``. ``x`` moves first, so the
player to move is read off the counts of marks. A move is a cell index, written ``"row,column"``
counted from 1 (``"2,2"`` is the centre of the 3 x 3 board), as AIMA numbers squares. Legal moves
come in row-major order. A position is the board row by row: ``"xx.oo...."``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

from games.errors import InvalidInputError
from games.rules.game import EvaluationInfo, GameSpec, GridForm, Parameter, natural, quoted

Board = tuple[int, int]
"""``(x, o)``: the cells holding each player's marks, as bitboards."""

MARKS = "xo"

CACHED_CELLS = 16
"""Boards up to this many cells keep each set of empty cells' move list (2^16 at most)."""


def k_in_a_row_lines(rows: int, columns: int, k: int) -> tuple[int, ...]:
    """Every line of ``k`` cells (across, down and both diagonals) as a bit mask, row-major bits."""
    lines: list[int] = []
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < columns:
                    mask = 0
                    for i in range(k):
                        mask |= 1 << ((r + dr * i) * columns + c + dc * i)
                    lines.append(mask)
    return tuple(lines)


def weighted_line_score(mine: int, theirs: int, lines: tuple[int, ...]) -> int:
    """Sum over lines of 3^(n-1) for n >= 1 own marks and no other, minus the same for theirs."""
    score = 0
    for line in lines:
        own, other = (mine & line).bit_count(), (theirs & line).bit_count()
        if own and not other:
            score += 3 ** (own - 1)
        elif other and not own:
            score -= 3 ** (other - 1)
    return score


class TicTacToe:
    """k in a row on a rows x columns board; ``x`` (player 0) moves first."""

    name = "tic_tac_toe"
    players = 2
    has_chance = False
    win = Fraction(1)
    loss = Fraction(-1)
    draw = Fraction(0)

    def __init__(self, rows: int = 3, columns: int = 3, k: int = 3) -> None:
        if k > max(rows, columns):
            raise InvalidInputError(
                f"k = {k} is longer than the {rows} x {columns} board allows", parameter="params.k"
            )
        self.rows = rows
        self.columns = columns
        self.k = k
        self.cells = rows * columns
        self.full = (1 << self.cells) - 1
        self.lines = k_in_a_row_lines(rows, columns, k)
        self._empty_cells: dict[int, tuple[int, ...]] = {}
        # The largest weighted count one side can have below a win: every line k - 1 full.
        self._weight_bound = len(self.lines) * 3 ** max(k - 2, 0)
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "open_lines": EvaluationInfo(
                "open_lines",
                "AIMA's evaluation: lines of k cells holding no opponent mark that are open to the "
                "player, minus those open to the opponent, divided by (number of lines + 1).",
                self.open_lines,
            ),
            "weighted_lines": EvaluationInfo(
                "weighted_lines",
                "AIMA exercise 5.9 generalised: each line holding n >= 1 of the player's marks and "
                "none of the opponent's counts 3^(n-1) (3 X2 + X1 on the 3 x 3 board), minus the "
                "same for the opponent, divided by (lines x 3^(k-2) + 1).",
                self.weighted_lines,
            ),
        }
        # Cell r * columns + c is bit c * (rows + 1) + r of the compiled search's layout.
        self._grid_bits = tuple(
            (cell % columns) * (rows + 1) + cell // columns for cell in range(self.cells)
        )
        self.grid = GridForm(
            columns=columns,
            rows=rows,
            k=k,
            gravity=False,
            moves=tuple(range(self.cells)),
            move_bits=tuple(1 << bit for bit in self._grid_bits),
            lines=tuple(self._in_grid_layout(line) for line in self.lines),
            evaluations={
                "open_lines": ("open_lines", len(self.lines) + 1),
                "weighted_lines": ("weighted_lines", self._weight_bound + 1),
            },
            position=self._grid_position,
        )
        """The form the compiled search reads."""

    def _in_grid_layout(self, marks: int) -> int:
        return sum(1 << bit for cell, bit in enumerate(self._grid_bits) if marks >> cell & 1)

    def _grid_position(self, state: Board) -> tuple[int, int]:
        x, o = state
        mine = x if self.to_move(state) == 0 else o
        return self._in_grid_layout(mine), self._in_grid_layout(x | o)

    def initial_state(self) -> Board:
        return (0, 0)

    def to_move(self, state: Board) -> int:
        x, o = state
        return 0 if x.bit_count() == o.bit_count() else 1

    def _complete(self, marks: int) -> bool:
        for line in self.lines:
            if marks & line == line:
                return True
        return False

    def _last_mover_won(self, state: Board) -> bool:
        x, o = state
        # Only the player who just moved can have completed a line.
        return self._complete(o if x.bit_count() == o.bit_count() else x)

    def actions(self, state: Board) -> tuple[int, ...]:
        if self.is_terminal(state):
            return ()
        taken = state[0] | state[1]
        moves = self._empty_cells.get(taken)
        if moves is None:
            moves = tuple(i for i in range(self.cells) if not taken >> i & 1)
            if self.cells <= CACHED_CELLS:
                self._empty_cells[taken] = moves
        return moves

    def result(self, state: Board, move: int) -> Board:
        x, o = state
        if x.bit_count() == o.bit_count():
            return (x | 1 << move, o)
        return (x, o | 1 << move)

    def chance_outcomes(self, state: Board) -> tuple[tuple[int, Fraction], ...]:
        return ()

    def is_terminal(self, state: Board) -> bool:
        return (state[0] | state[1]) == self.full or self._last_mover_won(state)

    def utility(self, state: Board, player: int) -> Fraction:
        if not self._last_mover_won(state):
            return self.draw
        return self.loss if self.to_move(state) == player else self.win

    def key(self, state: Board) -> Hashable:
        return state

    def is_noisy(self, state: Board, move: int) -> bool:
        return False

    def open_lines(self, state: Board, player: int) -> Fraction:
        """AIMA's open-lines evaluation from ``player``'s view, scaled into (-1, 1)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        mine, theirs = state if player == 0 else (state[1], state[0])
        difference = 0
        for line in self.lines:
            difference += (not theirs & line) - (not mine & line)
        return Fraction(difference, len(self.lines) + 1)

    def weighted_lines(self, state: Board, player: int) -> Fraction:
        """AIMA's 3 X2 + X1 - (3 O2 + O1), generalised to k, scaled into (-1, 1)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        mine, theirs = state if player == 0 else (state[1], state[0])
        return Fraction(weighted_line_score(mine, theirs, self.lines), self._weight_bound + 1)

    def move_text(self, state: Board, move: int) -> str:
        row, column = divmod(move, self.columns)
        return f"{row + 1},{column + 1}"

    def parse_move(self, state: Board, text: str) -> int:
        parts = text.split(",")
        numbers = [natural(part.strip(), 2) for part in parts]
        if len(numbers) == 2 and numbers[0] is not None and numbers[1] is not None:
            row, column = numbers[0] - 1, numbers[1] - 1
            move = row * self.columns + column
            if 0 <= row < self.rows and 0 <= column < self.columns and move in self.actions(state):
                return move
        raise InvalidInputError(
            f"{quoted(text)} is not a legal move in {self.position_text(state)!r} "
            f"(moves are 'row,column' from 1: {self._legal_texts(state)})",
            parameter="move",
        )

    def _legal_texts(self, state: Board) -> str:
        return ", ".join(self.move_text(state, m) for m in self.actions(state)) or "none"

    def position_text(self, state: Board) -> str:
        x, o = state
        return "".join("x" if x >> i & 1 else "o" if o >> i & 1 else "." for i in range(self.cells))

    def parse_position(self, text: str) -> Board:
        if len(text) != self.cells or set(text) - set("xo."):
            raise InvalidInputError(
                f"{quoted(text)} is not a {self.rows} x {self.columns} board: write its "
                f"{self.cells} cells row by row as 'x', 'o' or '.'",
                parameter="position",
            )
        x = sum(1 << i for i, mark in enumerate(text) if mark == "x")
        o = sum(1 << i for i, mark in enumerate(text) if mark == "o")
        crosses, noughts = x.bit_count(), o.bit_count()
        if crosses not in (noughts, noughts + 1):
            raise InvalidInputError(
                f"{quoted(text)} has {crosses} x and {noughts} o: x moves first, so x has as many "
                "marks as o or one more",
                parameter="position",
            )
        last, other = (x, o) if crosses > noughts else (o, x)
        if self._complete(other):
            raise InvalidInputError(
                f"{quoted(text)}: {MARKS[1 if crosses > noughts else 0]} has k in a row, "
                "but the game would have ended before the last move",
                parameter="position",
            )
        complete = [line for line in self.lines if last & line == line]
        common = self.full
        for line in complete:
            common &= line
        if complete and not common:
            raise InvalidInputError(
                f"{quoted(text)}: the winning lines share no cell, so no single last move "
                "made them",
                parameter="position",
            )
        return (x, o)


PARAMETERS = (
    Parameter("rows", int, 3, 1, 5, "Rows of the board."),
    Parameter("columns", int, 3, 1, 5, "Columns of the board."),
    Parameter("k", int, 3, 1, 5, "Marks in a row (across, down or diagonal) that win."),
)

SPEC: GameSpec[Board, int] = GameSpec(
    name="tic_tac_toe",
    title="Tic-tac-toe (k in a row)",
    description=(
        "Players x and o take turns marking an empty cell; x moves first; k marks in a row across,"
        " down or diagonally win; a full board without one is a draw (AIMA section 5.1)."
    ),
    parameters=PARAMETERS,
    notation=(
        "The board row by row from the top-left, 'x', 'o' or '.' for an empty cell: "
        "'xx.oo....' (x to move, since the counts are equal). Moves are 'row,column' from 1: '2,2'."
    ),
    build=TicTacToe,
)
