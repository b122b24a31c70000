"""Tiny games written to the ``games.rules.game.Game`` protocol, so the engine is tested on its own.

- :class:`TicTacToe`: 3x3, states as 9-character strings of ``x``, ``o``, ``.``, and
  :func:`positions`, a hypothesis strategy of its positions;
- :class:`Subtraction`: one pile, take 1 to 3, taking the last counter wins (the mover loses
  exactly when the pile is a multiple of 4);
- :class:`GraphGame`: any small game written out state by state (chance, cycles, captures),
  with :data:`DICE`, :data:`CYCLE` and :data:`CAPTURES` derived by hand in the tests, and
  :func:`layered_games`, a hypothesis strategy of random ones;
- :class:`Pig`: the dice game with cycles, for value iteration.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from games.rules.game import CHANCE, EvaluationInfo

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class Protocolled:
    """What every toy game shares: keys, notation and an empty noisy set."""

    players = 2
    win = Fraction(1)
    loss = Fraction(-1)

    def key(self, state: Any) -> Hashable:
        return state  # type: ignore[no-any-return]

    def is_noisy(self, state: Any, move: Any) -> bool:
        return False

    def move_text(self, state: Any, move: Any) -> str:
        return str(move)

    def parse_move(self, state: Any, text: str) -> Any:
        return next(move for move in self.actions(state) if str(move) == text)

    def position_text(self, state: Any) -> str:
        return str(state)

    def actions(self, state: Any) -> Sequence[Any]:
        raise NotImplementedError  # every toy game defines it

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, Fraction]]:
        return ()


class TicTacToe(Protocolled):
    """Tic-tac-toe; AIMA's open-lines evaluation (lines open to me minus to the opponent) / 10."""

    name = "tic_tac_toe"
    has_chance = False

    def __init__(self) -> None:
        self.evaluations = {"open_lines": EvaluationInfo("open_lines", "AIMA", self.open_lines)}

    def initial_state(self) -> str:
        return "." * 9

    def to_move(self, state: str) -> int:
        return 0 if state.count("x") == state.count("o") else 1

    def winner(self, state: str) -> str | None:
        for a, b, c in LINES:
            if state[a] != "." and state[a] == state[b] == state[c]:
                return state[a]
        return None

    def is_terminal(self, state: str) -> bool:
        return self.winner(state) is not None or "." not in state

    def actions(self, state: str) -> Sequence[int]:
        return [] if self.is_terminal(state) else [i for i in range(9) if state[i] == "."]

    def result(self, state: str, move: int) -> str:
        return state[:move] + "xo"[self.to_move(state)] + state[move + 1 :]

    def utility(self, state: str, player: int) -> Fraction:
        won = self.winner(state)
        return Fraction(0) if won is None else Fraction(1 if won == "xo"[player] else -1)

    def open_lines(self, state: str, player: int) -> Fraction:
        mine, theirs = "xo"[player], "ox"[player]
        free = sum(1 for line in LINES if all(state[i] != theirs for i in line))
        other = sum(1 for line in LINES if all(state[i] != mine for i in line))
        return Fraction(free - other, 10)

    def parse_position(self, text: str) -> str:
        return text


def positions(max_plies: int = 9) -> st.SearchStrategy[str]:
    """Tic-tac-toe positions at least three plies in, reached by playing random squares."""

    def play(squares: list[int]) -> str:
        game = TicTacToe()
        state = game.initial_state()
        for square in squares:
            if game.is_terminal(state):
                break
            if state[square] == ".":
                state = game.result(state, square)
        return state

    return (
        st.lists(st.integers(0, 8), min_size=3, max_size=max_plies)
        .map(play)
        .filter(lambda s: s.count(".") <= 6)
    )


class Subtraction(Protocolled):
    """Take 1 to 3 from one pile; whoever takes the last counter wins. States: (pile, mover).

    With ``history`` the state also records the moves made, so no two lines meet (a tree with
    no transpositions, to make the budget bind).
    """

    name = "subtraction"
    has_chance = False

    def __init__(self, pile: int, *, history: bool = False) -> None:
        self.pile = pile
        self.history = history
        self.evaluations = {"zero": EvaluationInfo("zero", "knows nothing", self.zero)}

    def zero(self, state: tuple[int, int, tuple[int, ...]], player: int) -> Fraction:
        return Fraction(0)

    def initial_state(self) -> tuple[int, int, tuple[int, ...]]:
        return (self.pile, 0, ())

    def to_move(self, state: tuple[int, int, tuple[int, ...]]) -> int:
        return state[1]

    def is_terminal(self, state: tuple[int, int, tuple[int, ...]]) -> bool:
        return state[0] == 0

    def actions(self, state: tuple[int, int, tuple[int, ...]]) -> Sequence[int]:
        return [take for take in (1, 2, 3) if take <= state[0]]

    def result(self, state: tuple[int, int, tuple[int, ...]], move: int) -> Any:
        return (state[0] - move, 1 - state[1], (*state[2], move) if self.history else ())

    def utility(self, state: tuple[int, int, tuple[int, ...]], player: int) -> Fraction:
        # the mover faces an empty pile: the other player took the last counter
        return Fraction(-1 if player == state[1] else 1)

    def parse_position(self, text: str) -> Any:
        return (int(text), 0, ())


@dataclass(frozen=True)
class Spot:
    """One state of a :class:`GraphGame`: who moves, where each move goes, what it is worth.

    ``edges`` are ``(move, next state, probability or None, noisy)``; ``worth`` is the utility
    to player 0 at a terminal state, the evaluation for player 0 elsewhere.
    """

    mover: int
    edges: tuple[tuple[str, str, Fraction | None, bool], ...] = ()
    worth: Fraction = Fraction(0)


@dataclass
class GraphGame(Protocolled):
    """A zero-sum game written out state by state (utilities negate for player 1)."""

    name: str
    spots: Mapping[str, Spot]
    start: str
    has_chance: bool = False
    evaluations: dict[str, EvaluationInfo] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.evaluations = {"worth": EvaluationInfo("worth", "the state's worth", self.worth)}

    def worth(self, state: str, player: int) -> Fraction:
        value = self.spots[state].worth
        return value if player == 0 else -value

    def initial_state(self) -> str:
        return self.start

    def to_move(self, state: str) -> int:
        return self.spots[state].mover

    def is_terminal(self, state: str) -> bool:
        return not self.spots[state].edges

    def actions(self, state: str) -> Sequence[str]:
        spot = self.spots[state]
        return [] if spot.mover == CHANCE else [edge[0] for edge in spot.edges]

    def chance_outcomes(self, state: str) -> Sequence[tuple[str, Fraction]]:
        return [(edge[0], edge[2]) for edge in self.spots[state].edges if edge[2] is not None]

    def result(self, state: str, move: str) -> str:
        return next(edge[1] for edge in self.spots[state].edges if edge[0] == move)

    def utility(self, state: str, player: int) -> Fraction:
        return self.worth(state, player)

    def is_noisy(self, state: str, move: str) -> bool:
        return next(edge[3] for edge in self.spots[state].edges if edge[0] == move)

    def parse_position(self, text: str) -> str:
        return text


def end(worth: Fraction | int) -> Spot:
    """A terminal state worth ``worth`` to player 0."""
    return Spot(mover=0, worth=Fraction(worth))


def decide(
    mover: int, *moves: tuple[str, str], worth: Fraction = Fraction(0), noisy: str = ""
) -> Spot:
    """A player's state; ``noisy`` names its capture."""
    return Spot(mover, tuple((m, to, None, m == noisy) for m, to in moves), worth)


# player 0 plays safe (a draw) or gambles: a die shows 1 with 1/6 (a loss), 2 with 1/3 (player 1
# then picks between a win and a draw for player 0: the draw), 3 with 1/2 (a win). By hand:
# the gamble is worth -1/6 + 0 + 1/2 = 1/3. Every non-terminal state evaluates to 1/10.
TENTH = Fraction(1, 10)
DICE = GraphGame(
    "dice",
    {
        "root": decide(0, ("safe", "draw"), ("gamble", "roll"), worth=TENTH),
        "roll": Spot(
            CHANCE,
            (
                ("1", "lose", Fraction(1, 6), False),
                ("2", "pick", Fraction(1, 3), False),
                ("3", "win", Fraction(1, 2), False),
            ),
            TENTH,
        ),
        "pick": decide(1, ("give", "win"), ("hold", "draw"), worth=TENTH),
        "draw": end(0),
        "lose": end(-1),
        "win": end(1),
    },
    "root",
    has_chance=True,
)

# A cycle: at A player 0 stops (a draw) or goes to a chance state C: 1/2 a win, 1/4 a loss,
# 1/4 state B, where player 1 quits (worth 1/2 to player 0) or passes back to A. By hand, with
# x = V(A): x = max(0, 1/2 - 1/4 + min(x, 1/2)/4); x <= 1/2 gives x = 1/4 + x/4, x = 1/3,
# so V(A) = V(B) = V(C) = 1/3: player 1 passes, player 0 goes.
CYCLE = GraphGame(
    "cycle",
    {
        "A": decide(0, ("stop", "draw"), ("go", "C")),
        "C": Spot(
            CHANCE,
            (
                ("win", "win", Fraction(1, 2), False),
                ("loss", "lose", Fraction(1, 4), False),
                ("on", "B", Fraction(1, 4), False),
            ),
        ),
        "B": decide(1, ("quit", "half"), ("pass", "A")),
        "half": end(Fraction(1, 2)),
        "draw": end(0),
        "lose": end(-1),
        "win": end(1),
    },
    "A",
    has_chance=True,
)

# Captures: player 0 grabs a piece (material +1/2 to player 0) that player 1 can take back at
# once (net -1/4), or plays a quiet move (+1/10). Evaluated one ply deep, the grab looks best
# (1/2); with quiescence the pending recapture is seen: the grab is worth -1/4, the quiet move
# 1/10. Every line ends in a draw.
CAPTURES = GraphGame(
    "captures",
    {
        "root": decide(0, ("grab", "G"), ("quiet", "Q"), noisy="grab"),
        "G": decide(1, ("recapture", "R"), ("wait", "W"), worth=Fraction(1, 2), noisy="recapture"),
        "R": decide(0, ("slow", "draw"), worth=Fraction(-1, 4)),
        "W": decide(0, ("end", "draw"), worth=Fraction(1, 2)),
        "Q": decide(1, ("wait", "Q2"), worth=TENTH),
        "Q2": decide(0, ("end", "draw"), worth=TENTH),
        "draw": end(0),
    },
    "root",
)


@st.composite
def layered_games(draw: st.DrawFn, noisy: bool = False) -> GraphGame:
    """Random zero-sum games in layers: each state moves to one to three states of the next
    layer (so lines meet: transpositions), either player may move at each state (so a player
    may move twice in a row), the last layer ends the game with a loss, draw or win; every
    other state has a worth strictly inside (-1, 1)."""
    layers = draw(st.integers(2, 5))
    widths = [1] + [draw(st.integers(1, 4)) for _ in range(layers)]
    spots: dict[str, Spot] = {}
    for level in range(layers, -1, -1):
        for place in range(widths[level]):
            name = f"{level}.{place}"
            if level == layers:
                spots[name] = end(draw(st.integers(-1, 1)))
                continue
            targets = draw(
                st.lists(st.integers(0, widths[level + 1] - 1), min_size=1, max_size=3, unique=True)
            )
            worth = Fraction(draw(st.integers(-9, 9)), 10)
            spots[name] = Spot(
                draw(st.integers(0, 1)),
                tuple(
                    (f"m{t}", f"{level + 1}.{t}", None, noisy and draw(st.booleans()))
                    for t in targets
                ),
                worth,
            )
    return GraphGame("layered", spots, "0.0")


class Pig(Protocolled):
    """Pig (Neller and Presser): roll a die to add to the turn total, a 1 loses it and the
    turn; hold to bank it. Reaching ``goal`` wins at once. States: (mover's score, other's
    score, turn total, mover, whether the die is about to be rolled). A win is worth 1, a loss
    0 (the value is a probability of winning)."""

    name = "pig"
    has_chance = True
    loss = Fraction(0)
    evaluations: dict[str, EvaluationInfo] = {}

    def __init__(self, goal: int, die: int = 6) -> None:
        self.goal = goal
        self.die = die
        self.outcomes = [(face, Fraction(1, die)) for face in range(1, die + 1)]

    def initial_state(self) -> tuple[int, int, int, int, bool]:
        return (0, 0, 0, 0, False)

    def to_move(self, state: tuple[int, int, int, int, bool]) -> int:
        return CHANCE if state[4] else state[3]

    def is_terminal(self, state: tuple[int, int, int, int, bool]) -> bool:
        return state[1] >= self.goal  # the player who just moved reached the goal

    def actions(self, state: tuple[int, int, int, int, bool]) -> Sequence[str]:
        return [] if self.is_terminal(state) or state[4] else ["roll", "hold"]

    def chance_outcomes(
        self, state: tuple[int, int, int, int, bool]
    ) -> Sequence[tuple[int, Fraction]]:
        return self.outcomes

    def result(self, state: tuple[int, int, int, int, bool], move: Any) -> Any:
        mine, theirs, turn, mover, _ = state
        if move == "roll":
            return (mine, theirs, turn, mover, True)
        if move == "hold":
            return (theirs, mine + turn, 0, 1 - mover, False)
        if move == 1:
            return (theirs, mine, 0, 1 - mover, False)
        if mine + turn + move >= self.goal:
            return (theirs, mine + turn + move, 0, 1 - mover, False)
        return (mine, theirs, turn + move, mover, False)

    def utility(self, state: tuple[int, int, int, int, bool], player: int) -> Fraction:
        return Fraction(1 if player != state[3] else 0)

    def parse_position(self, text: str) -> Any:
        return self.initial_state()
