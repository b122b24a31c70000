"""Pig, the jeopardy dice game, as Neller and Presser (2004) analyse it.

On a turn the player rolls a die again and again: a 1 loses the turn total and ends the turn;
any other face adds to the turn total. The player may instead hold, banking the turn total and
passing the die. The first to bank ``goal`` points wins; as in Neller and Presser, a player whose
score plus turn total reaches the goal has won at once (holding then is the only sensible move).
A turn starts with a roll: holding at a turn total of 0 is not a move.

Utilities are win probabilities: a win is worth 1 and a loss 0 (``win = 1``, ``loss = 0``),
unlike the +1/0/-1 games, so a state's value is the mover's probability of winning. The state
graph has cycles (two players can roll 1s forever), so Pig is solved by value iteration.

A state is ``(side, mine, theirs, turn, rolling)``: the player to move, their banked score, the
opponent's, the turn total, and whether the die is in the air (a chance state, reached by the
move ``"roll"``, whose outcomes are the faces ``1`` to ``die``, each with probability 1/die).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

from games.errors import InvalidInputError
from games.rules.game import CHANCE, EvaluationInfo, GameSpec, Parameter, natural, quoted

Position = tuple[int, int, int, int, bool]
"""``(side, mine, theirs, turn, rolling)``: scores are the mover's and the opponent's."""

Move = str | int
"""``"roll"`` or ``"hold"`` for a player; a face ``1`` to ``die`` for chance."""

ROLLING = " rolling"
"""The position's suffix at a chance state (after ``"roll"``, before the die shows)."""


class Pig:
    """Two-player Pig to ``goal`` points with a ``die``-sided die."""

    name = "pig"
    players = 2
    has_chance = True
    states_repeat = True
    """Both players may roll 1s for ever: the state graph has cycles (``auto`` solves Pig by
    value iteration)."""
    win = Fraction(1)
    loss = Fraction(0)

    def __init__(self, goal: int = 100, die: int = 6) -> None:
        self.goal = goal
        self.die = die
        self._faces: tuple[tuple[Move, Fraction], ...] = tuple(
            (face, Fraction(1, die)) for face in range(1, die + 1)
        )
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "score_difference": EvaluationInfo(
                "score_difference",
                "1/2 + (the player's score - the opponent's) / (2 goal), the turn total counted "
                "for the player to move: an estimate of the probability of winning, strictly "
                "between 0 and 1 before the end.",
                self.score_difference,
            ),
        }

    def initial_state(self) -> Position:
        return (0, 0, 0, 0, False)

    def to_move(self, state: Position) -> int:
        return CHANCE if state[4] else state[0]

    def actions(self, state: Position) -> tuple[Move, ...]:
        if state[4] or state[2] >= self.goal:
            return ()
        return ("roll", "hold") if state[3] else ("roll",)

    def result(self, state: Position, move: Move) -> Position:
        side, mine, theirs, turn, rolling = state
        if move == "roll":
            return (side, mine, theirs, turn, True)
        if move == "hold":
            return (1 - side, theirs, mine + turn, 0, False)
        assert isinstance(move, int)
        if move == 1:
            return (1 - side, theirs, mine, 0, False)
        if mine + turn + move >= self.goal:
            return (1 - side, theirs, mine + turn + move, 0, False)
        return (side, mine, theirs, turn + move, False)

    def chance_outcomes(self, state: Position) -> tuple[tuple[Move, Fraction], ...]:
        return self._faces if state[4] else ()

    def is_terminal(self, state: Position) -> bool:
        return state[2] >= self.goal

    def utility(self, state: Position, player: int) -> Fraction:
        # Only the player who just moved can have reached the goal: the mover has lost.
        return self.loss if state[0] == player else self.win

    def key(self, state: Position) -> Hashable:
        return state

    def is_noisy(self, state: Position, move: Move) -> bool:
        return False

    def score_difference(self, state: Position, player: int) -> Fraction:
        """The score difference (turn total included for the mover) scaled into (0, 1)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        side, mine, theirs, turn, _ = state
        difference = mine + turn - theirs
        return Fraction(1, 2) + Fraction(
            difference if side == player else -difference, 2 * self.goal
        )

    def move_text(self, state: Position, move: Move) -> str:
        return str(move)

    def parse_move(self, state: Position, text: str) -> Move:
        word = text.strip()
        if state[4]:
            face = natural(word)
            if face is not None and 1 <= face <= self.die:
                return face
        elif word in self.actions(state):
            return word
        legal = (
            f"a face 1 to {self.die}"
            if state[4]
            else " or ".join(repr(m) for m in self.actions(state))
        )
        raise InvalidInputError(
            f"{quoted(text)} is not a legal move in {self.position_text(state)!r} (legal: {legal})",
            parameter="move",
        )

    def position_text(self, state: Position) -> str:
        side, mine, theirs, turn, rolling = state
        return f"{side + 1} {mine} {theirs} {turn}" + (ROLLING if rolling else "")

    def _banked(self, points: int) -> bool:
        """Whether ``points`` is a sum of faces 2 to die (what a score or turn total can be)."""
        return points == 0 or (points >= 2 and (self.die > 2 or points % 2 == 0))

    def parse_position(self, text: str) -> Position:
        fields = text.split(" ")
        rolling = fields[-1] == ROLLING.strip()
        numbers = fields[:-1] if rolling else fields
        values = [natural(n) for n in numbers]
        if len(values) != 4 or None in values or numbers[0] not in ("1", "2"):
            raise InvalidInputError(
                f"{quoted(text)} is not a Pig position: write the player to move (1 or 2), their "
                "score, the opponent's score and the turn total, separated by spaces, then "
                "' rolling' if the die is in the air: '1 12 7 5', '2 0 0 0 rolling'",
                parameter="position",
            )
        side, mine, theirs, turn = (int(n) for n in numbers)  # checked: short ASCII digits
        side -= 1
        top = self.goal + self.die - 1  # the most a final roll can bring
        if not all(self._banked(points) for points in (mine, theirs, turn)):
            problem = "scores and turn totals are sums of faces 2 and up"
        elif mine >= self.goal:
            problem = f"the player to move already has the goal, {self.goal}"
        elif theirs > top:
            problem = f"no score can pass {top} (goal {self.goal}, die {self.die})"
        elif theirs >= self.goal and (turn or rolling):
            problem = "the game is over: no turn goes on"
        elif mine + turn >= self.goal:
            problem = f"a turn total reaching the goal ({mine} + {turn}) ends the game at once"
        else:
            return (side, mine, theirs, turn, rolling)
        raise InvalidInputError(f"{quoted(text)}: {problem}", parameter="position")


PARAMETERS = (
    Parameter("goal", int, 100, 1, 200, "Points needed to win."),
    Parameter("die", int, 6, 2, 20, "Sides of the die (faces 1 to die)."),
)

SPEC: GameSpec[Position, Move] = GameSpec(
    name="pig",
    title="Pig (Neller and Presser 2004)",
    description=(
        "A dice game: roll to grow the turn total, or hold to bank it; a 1 loses the turn total"
        " and passes the die; the first to goal points wins. The value is the probability of"
        " winning (a win is 1, a loss 0)."
    ),
    parameters=PARAMETERS,
    notation=(
        "The player to move (1 or 2), their score, the opponent's score, the turn total, and"
        " ' rolling' while the die is in the air: '1 0 0 0' is the start, '2 12 7 5 rolling'."
        " Moves are 'roll' and 'hold'; a die's outcome is its face, '1' to '6'."
    ),
    build=Pig,
)
