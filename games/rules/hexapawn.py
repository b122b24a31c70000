"""Hexapawn, Martin Gardner's game of pawns (Scientific American, March 1962), on any board.

White's pawns fill the first row and Black's the last; White (player 0) moves first. A pawn
moves one square straight forward onto an empty square, or one square diagonally forward onto
an enemy pawn, capturing it. A player wins by reaching the far row, by capturing every enemy
pawn, or when the opponent, to move, has no move; so at every end the player to move has lost.

A state is ``(white, black, side)``: bitboards of the pawns (square ``row * columns + column``,
row 0 White's first row) and the side to move (0 White, 1 Black). A move is ``(from, to)``
squares, written as in chess, ``"b1-b2"`` for a step and ``"a2xb3"`` for a capture (files
``a``, ``b``, ... from the left, ranks from 1 at White's side). Legal moves come by the moving
pawn's square (a1, b1, ..., a2, ...), and for each pawn: capture towards file a, step, capture
away from file a.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

from games.errors import InvalidInputError
from games.rules.game import EvaluationInfo, GameSpec, Parameter, quoted

Position = tuple[int, int, int]
"""``(white, black, side)``: each side's pawns as bitboards and the side to move (0 White)."""

Move = tuple[int, int]
"""``(from, to)`` squares."""

SIDES = "wb"


class Hexapawn:
    """Gardner's hexapawn on a columns x rows board."""

    name = "hexapawn"
    players = 2
    has_chance = False
    win = Fraction(1)
    loss = Fraction(-1)

    def __init__(self, columns: int = 3, rows: int = 3) -> None:
        self.columns = columns
        self.rows = rows
        self.squares = columns * rows
        self.first_row = (1 << columns) - 1
        self.last_row = self.first_row << (rows - 1) * columns
        # Material counts most; advancement breaks ties (a pawn short of the far row is worth
        # less than a whole pawn more).
        self._pawn_worth = rows
        self._bound = columns * (rows + rows - 2)
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "material_advancement": EvaluationInfo(
                "material_advancement",
                "Each pawn is worth rows (material) plus the rows it has advanced; the player's "
                "total minus the opponent's, divided by (columns x (2 rows - 2) + 1).",
                self.material_advancement,
            ),
            "material": EvaluationInfo(
                "material",
                "Pawns the player has minus pawns the opponent has, divided by (columns + 1).",
                self.material,
            ),
        }

    def initial_state(self) -> Position:
        return (self.first_row, self.last_row, 0)

    def to_move(self, state: Position) -> int:
        return state[2]

    def _moves(self, state: Position) -> list[Move]:
        white, black, side = state
        own, enemy = (white, black) if side == 0 else (black, white)
        forward = self.columns if side == 0 else -self.columns
        empty = ~(white | black)
        moves: list[Move] = []
        for square in range(self.squares):
            if not own >> square & 1:
                continue
            ahead = square + forward
            if not 0 <= ahead < self.squares:
                continue
            column = square % self.columns
            if column > 0 and enemy >> (ahead - 1) & 1:
                moves.append((square, ahead - 1))
            if empty >> ahead & 1:
                moves.append((square, ahead))
            if column < self.columns - 1 and enemy >> (ahead + 1) & 1:
                moves.append((square, ahead + 1))
        return moves

    def _mover_lost(self, state: Position) -> bool:
        """Whether the side to move has lost already: the side that just moved reached the far
        row or took every enemy pawn (a side without a move is found by generating moves)."""
        white, black, side = state
        if side == 1:
            return bool(white & self.last_row) or not black
        return bool(black & self.first_row) or not white

    def actions(self, state: Position) -> tuple[Move, ...]:
        if self._mover_lost(state):
            return ()
        return tuple(self._moves(state))

    def result(self, state: Position, move: Move) -> Position:
        white, black, side = state
        start, end = move
        if side == 0:
            return (white & ~(1 << start) | 1 << end, black & ~(1 << end), 1)
        return (white & ~(1 << end), black & ~(1 << start) | 1 << end, 0)

    def chance_outcomes(self, state: Position) -> tuple[tuple[Move, Fraction], ...]:
        return ()

    def is_terminal(self, state: Position) -> bool:
        return self._mover_lost(state) or not self._moves(state)

    def utility(self, state: Position, player: int) -> Fraction:
        # Every way the game ends leaves the side to move the loser.
        return self.loss if state[2] == player else self.win

    def key(self, state: Position) -> Hashable:
        return state

    def is_noisy(self, state: Position, move: Move) -> bool:
        return move[1] % self.columns != move[0] % self.columns

    def material_advancement(self, state: Position, player: int) -> Fraction:
        """Pawns (worth ``rows`` each) plus rows advanced, the difference scaled into (-1, 1)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        white, black, _ = state
        score = 0
        for square in range(self.squares):
            row = square // self.columns
            if white >> square & 1:
                score += self._pawn_worth + row
            elif black >> square & 1:
                score -= self._pawn_worth + self.rows - 1 - row
        return Fraction(score if player == 0 else -score, self._bound + 1)

    def material(self, state: Position, player: int) -> Fraction:
        """Pawn count difference scaled into (-1, 1)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        difference = state[0].bit_count() - state[1].bit_count()
        return Fraction(difference if player == 0 else -difference, self.columns + 1)

    def square_name(self, square: int) -> str:
        row, column = divmod(square, self.columns)
        return f"{chr(ord('a') + column)}{row + 1}"

    def move_text(self, state: Position, move: Move) -> str:
        start, end = move
        joint = "x" if self.is_noisy(state, move) else "-"
        return f"{self.square_name(start)}{joint}{self.square_name(end)}"

    def parse_move(self, state: Position, text: str) -> Move:
        for move in self.actions(state):
            if text.strip() == self.move_text(state, move):
                return move
        legal = ", ".join(self.move_text(state, m) for m in self.actions(state)) or "none"
        raise InvalidInputError(
            f"{quoted(text)} is not a legal move in {self.position_text(state)!r} (legal: {legal})",
            parameter="move",
        )

    def position_text(self, state: Position) -> str:
        white, black, side = state
        rows = []
        for row in reversed(range(self.rows)):
            cells = []
            for column in range(self.columns):
                square = row * self.columns + column
                cells.append("w" if white >> square & 1 else "b" if black >> square & 1 else ".")
            rows.append("".join(cells))
        return "/".join(rows) + " " + SIDES[side]

    def parse_position(self, text: str) -> Position:
        board, _, side = text.partition(" ")
        rows = board.split("/")
        if (
            side not in ("w", "b")
            or len(rows) != self.rows
            or any(len(r) != self.columns or set(r) - set("wb.") for r in rows)
        ):
            raise InvalidInputError(
                f"{quoted(text)} is not a {self.columns} x {self.rows} hexapawn position: "
                "write the "
                f"rows from Black's side down, joined by '/', each {self.columns} of 'w', 'b' "
                "or '.', then a space and the side to move, 'w' or 'b' (start: "
                f"{self.position_text(self.initial_state())!r})",
                parameter="position",
            )
        white = black = 0
        for index, row in enumerate(rows):
            for column, cell in enumerate(row):
                square = (self.rows - 1 - index) * self.columns + column
                if cell == "w":
                    white |= 1 << square
                elif cell == "b":
                    black |= 1 << square
        state = (white, black, SIDES.index(side))
        problem = ""
        if white.bit_count() > self.columns or black.bit_count() > self.columns:
            problem = f"a side has more than {self.columns} pawns"
        elif not white and not black:
            problem = "no pawns are left"
        elif (white & self.last_row and black & self.first_row) or (
            self._mover_lost((white, black, 1 - state[2]))
        ):
            problem = f"the game ended before {'White' if side == 'w' else 'Black'} was to move"
        if problem:
            raise InvalidInputError(f"{quoted(text)}: {problem}", parameter="position")
        return state


PARAMETERS = (
    Parameter(
        "columns",
        int,
        3,
        1,
        8,
        "Columns (files a to h at most); each side has one pawn per column.",
    ),
    Parameter("rows", int, 3, 3, 8, "Rows (ranks 1 to 8 at most)."),
)

SPEC: GameSpec[Position, Move] = GameSpec(
    name="hexapawn",
    title="Hexapawn (Gardner 1962)",
    description=(
        "Each side has a row of pawns; White moves first; a pawn steps straight forward onto an"
        " empty square or captures diagonally forward. Reaching the far row, capturing every"
        " enemy pawn, or leaving the opponent without a move wins."
    ),
    parameters=PARAMETERS,
    notation=(
        "Rows from Black's side (the top) down, joined by '/', 'w', 'b' or '.' per square, then"
        " the side to move: 'bbb/.../www w' is the start of 3 x 3 hexapawn. Moves as in chess:"
        " 'b1-b2' (a step), 'a2xb3' (a capture)."
    ),
    build=Hexapawn,
)
