"""Nim: take any number of objects from one pile; normal play or misère (Bouton 1901).

A state is ``(side, piles)``: the player to move (0 moves first) and the pile sizes as a tuple.
The table key is the state itself (moves name piles by position, so piles are not sorted
into a canonical order). A move is ``(pile, take)``, written ``"pile:take"`` from 1 (``"3:2"``
takes 2 objects from the third pile); legal moves come pile by pile, fewest taken first.
Under normal play whoever takes the last object wins; under misère play that player loses.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

from games.errors import InvalidInputError
from games.rules.game import EvaluationInfo, GameSpec, Parameter, natural, quoted

Position = tuple[int, tuple[int, ...]]
"""``(side, piles)``: the player to move (0 or 1) and the pile sizes."""

Move = tuple[int, int]
"""``(pile, take)``: a pile index from 0 and how many objects to take (at least 1)."""

SECOND_TO_MOVE = " / 2"
"""The position's suffix when the second player is to move."""


def mover_wins(piles: tuple[int, ...], misere: bool) -> bool:
    """Bouton's rule: whether the player to move wins with perfect play."""
    nim_sum = 0
    for pile in piles:
        nim_sum ^= pile
    if misere and all(pile <= 1 for pile in piles):
        # Only single objects left: the mover wins iff an even number of piles remain.
        return sum(piles) % 2 == 0
    return nim_sum != 0


class Nim:
    """Nim on the given piles; ``misere`` makes taking the last object lose."""

    name = "nim"
    players = 2
    has_chance = False
    win = Fraction(1)
    loss = Fraction(-1)

    def __init__(self, piles: tuple[int, ...] | list[int] = (3, 4, 5), misere: bool = False):
        self.piles = tuple(piles)
        self.misere = misere
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "bouton": EvaluationInfo(
                "bouton",
                "Bouton's rule as an estimate: +1/2 if the player to move can win (nim-sum not "
                "zero; in misère with only piles of 0 or 1, an even count of 1-piles), else "
                "-1/2; from the other player's view the opposite. Exact in sign, kept inside "
                "(-1, 1) as every evaluation is.",
                self.bouton,
            ),
        }

    def initial_state(self) -> Position:
        return (0, self.piles)

    def to_move(self, state: Position) -> int:
        return state[0]

    def actions(self, state: Position) -> tuple[Move, ...]:
        return tuple(
            (index, take) for index, pile in enumerate(state[1]) for take in range(1, pile + 1)
        )

    def result(self, state: Position, move: Move) -> Position:
        side, piles = state
        index, take = move
        return (1 - side, piles[:index] + (piles[index] - take,) + piles[index + 1 :])

    def chance_outcomes(self, state: Position) -> tuple[tuple[Move, Fraction], ...]:
        return ()

    def is_terminal(self, state: Position) -> bool:
        return not any(state[1])

    def utility(self, state: Position, player: int) -> Fraction:
        # At the end the player to move faces no objects: the other took the last one.
        mover_won = self.misere
        return self.win if (state[0] == player) == mover_won else self.loss

    def key(self, state: Position) -> Hashable:
        return state

    def is_noisy(self, state: Position, move: Move) -> bool:
        return False

    def bouton(self, state: Position, player: int) -> Fraction:
        """+1/2 for the side Bouton's rule says wins, -1/2 for the other."""
        if self.is_terminal(state):
            return self.utility(state, player)
        good = mover_wins(state[1], self.misere) == (state[0] == player)
        return Fraction(1, 2) if good else Fraction(-1, 2)

    def move_text(self, state: Position, move: Move) -> str:
        return f"{move[0] + 1}:{move[1]}"

    def parse_move(self, state: Position, text: str) -> Move:
        pile, _, take = text.strip().partition(":")
        index, count = natural(pile), natural(take)
        if index is not None and count is not None:
            move = (index - 1, count)
            if move in self.actions(state):
                return move
        raise InvalidInputError(
            f"{quoted(text)} is not a legal move in {self.position_text(state)!r} (a move is "
            "'pile:take' from 1, e.g. '1:2' takes 2 from the first pile)",
            parameter="move",
        )

    def position_text(self, state: Position) -> str:
        side, piles = state
        return " ".join(str(p) for p in piles) + (SECOND_TO_MOVE if side else "")

    def parse_position(self, text: str) -> Position:
        body, slash, mover = text.partition("/")
        sizes = body.split()
        if (
            (slash and mover.strip() != "2")
            or len(sizes) != len(self.piles)
            or any(natural(s) is None for s in sizes)
        ):
            raise InvalidInputError(
                f"{quoted(text)} is not a position of nim on {len(self.piles)} piles: write the "
                f"pile sizes separated by spaces ({self.position_text(self.initial_state())!r}), "
                "followed by ' / 2' when the second player is to move",
                parameter="position",
            )
        piles = tuple(int(s) for s in sizes)  # checked: short runs of ASCII digits
        side = 1 if slash else 0
        taken = sum(self.piles) - sum(piles)
        if any(now > start for now, start in zip(piles, self.piles, strict=True)):
            problem = f"a pile is larger than at the start ({self.position_text((0, self.piles))})"
        elif (side == 1 and taken == 0) or (side == 0 and taken == 1):
            # Every move takes at least one object: after one move at least 1 is gone, after
            # two at least 2.
            problem = f"{taken} objects taken cannot leave player {side + 1} to move"
        else:
            return (side, piles)
        raise InvalidInputError(f"{quoted(text)}: {problem}", parameter="position")


PARAMETERS = (
    Parameter(
        "piles",
        list,
        (3, 4, 5),
        0,
        50,
        "Pile sizes at the start (1 to 8 piles of 0 to 50 objects).",
        min_length=1,
        max_length=8,
    ),
    Parameter("misere", bool, False, description="Whoever takes the last object loses."),
)

SPEC: GameSpec[Position, Move] = GameSpec(
    name="nim",
    title="Nim (Bouton 1901)",
    description=(
        "Players take turns removing one or more objects from a single pile. Normal play: whoever"
        " takes the last object wins; misère: whoever takes it loses."
    ),
    parameters=PARAMETERS,
    notation=(
        "The pile sizes separated by spaces, with ' / 2' appended when the second player is to"
        " move: '3 4 5' (the first player to move), '2 4 5 / 2'. Moves are 'pile:take' from 1:"
        " '3:2' takes 2 objects from the third pile."
    ),
    build=Nim,
)
