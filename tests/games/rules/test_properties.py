"""Properties of every game of the catalogue along random playouts (hypothesis).

Each playout checks, at every state: notation round trips (positions and moves), evaluations
strictly between loss and win before the end and equal to the utility at the end, chance
probabilities summing to 1, zero-sum utilities; for the k-in-a-row games, the end found by
the bitboards agrees with a plain scan of the board; and every playout ends within the
game's bound on its length.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.catalogue import make_game
from games.rules.game import CHANCE, Game

CONFIGURATIONS: list[tuple[str, dict[str, object], int]] = [
    # (game, parameters, the most moves a game can last: every cell filled; every pawn
    # advanced to the far row; one object taken per move)
    ("tic_tac_toe", {}, 9),
    ("tic_tac_toe", {"rows": 4, "columns": 4, "k": 3}, 16),
    ("tic_tac_toe", {"rows": 3, "columns": 5, "k": 4}, 15),
    ("connect_four", {}, 42),
    ("connect_four", {"columns": 4, "rows": 4}, 16),
    ("connect_four", {"columns": 5, "rows": 3, "k": 3}, 15),
    ("connect_four", {"columns": 3, "rows": 3, "k": 2}, 9),  # k other than 3 and 4: the
    ("connect_four", {"columns": 6, "rows": 5, "k": 5}, 30),  # general run test
    ("hexapawn", {}, 2 * 3 * 2),
    ("hexapawn", {"columns": 4, "rows": 5}, 2 * 4 * 4),
    ("nim", {}, 12),
    ("nim", {"piles": [2, 0, 6, 1], "misere": True}, 9),
    ("pig", {"goal": 10}, 0),  # no bound: players may roll 1s forever
    ("pig", {"goal": 20, "die": 3}, 0),
]


def lines_by_scan(grid: list[str], k: int) -> set[str]:
    """The marks with k in a row on ``grid`` (rows of characters), found cell by cell."""
    found = set()
    rows, columns = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= y < rows and 0 <= x < columns for y, x in cells):
                    marks = {grid[y][x] for y, x in cells}
                    if len(marks) == 1 and "." not in marks:
                        found |= marks
    return found


def grid_of(name: str, game: Any, state: Any) -> list[str]:
    """The board as rows of marks, rebuilt from the position's notation alone."""
    text = game.position_text(state)
    if name == "tic_tac_toe":
        return [text[r * game.columns : (r + 1) * game.columns] for r in range(game.rows)]
    grid = [["."] * game.columns for _ in range(game.rows)]
    heights = [0] * game.columns
    for ply, symbol in enumerate(text):
        column = int(symbol) - 1
        grid[heights[column]][column] = "xo"[ply % 2]
        heights[column] += 1
    return ["".join(row) for row in grid]


def hexapawn_loser_by_scan(text: str) -> int | None:
    """The side (0 White, 1 Black) that has lost, read off the notation, or None if the game
    goes on: Gardner's three ways to win, checked square by square."""
    board, side = text.split(" ")
    rows = board.split("/")  # rows[0] is Black's home row, the far row for White
    for winner, pawn, enemy, far in ((0, "w", "b", 0), (1, "b", "w", len(rows) - 1)):
        if pawn in rows[far] or not any(enemy in row for row in rows):
            return 1 - winner
    mover = "wb".index(side)
    pawn, enemy, step = ("w", "b", -1) if mover == 0 else ("b", "w", 1)
    for r, row in enumerate(rows):
        for c, square in enumerate(row):
            if square != pawn:
                continue
            ahead = rows[r + step]
            if ahead[c] == "." or any(
                0 <= c + dc < len(row) and ahead[c + dc] == enemy for dc in (-1, 1)
            ):
                return None
    return mover


def check_state(name: str, game: Game[Any, Any], state: Any) -> None:
    text = game.position_text(state)
    assert game.parse_position(text) == state
    assert game.position_text(game.parse_position(text)) == text
    terminal = game.is_terminal(state)
    mover = game.to_move(state)
    if mover == CHANCE:
        outcomes = game.chance_outcomes(state)
        assert game.has_chance and outcomes and not terminal
        assert sum(p for _, p in outcomes) == 1
    else:
        assert mover in (0, 1)
        for move in game.actions(state):
            assert game.parse_move(state, game.move_text(state, move)) == move
    if name in ("tic_tac_toe", "connect_four"):
        grid = grid_of(name, game, state)
        winners = lines_by_scan(grid, game.k)  # type: ignore[attr-defined]
        full = all("." not in row for row in grid)
        assert terminal == bool(winners or full)
        if winners:
            assert game.utility(state, "xo".index(winners.pop())) == 1
    if name == "hexapawn":
        loser = hexapawn_loser_by_scan(text)
        assert terminal == (loser is not None)
        if loser is not None:
            assert game.utility(state, loser) == -1
    if terminal:
        assert list(game.actions(state)) == []
        u0, u1 = game.utility(state, 0), game.utility(state, 1)
        assert u0 + u1 == game.win + game.loss
        assert {u0, u1} <= {game.win, game.loss, Fraction(0)}
    for info in game.evaluations.values():
        for player in (0, 1):
            value = info.function(state, player)
            assert isinstance(value, Fraction)
            if terminal:
                assert value == game.utility(state, player)
            else:
                assert game.loss < value < game.win


@pytest.mark.parametrize(("name", "params", "bound"), CONFIGURATIONS)
@settings(max_examples=60, deadline=None)
@given(choices=st.lists(st.integers(0, 2**16), max_size=120))
def test_random_playouts(
    name: str, params: dict[str, object], bound: int, choices: list[int]
) -> None:
    game = make_game(name, params)
    state = game.initial_state()
    check_state(name, game, state)
    moves = 0
    for choice in choices:
        if game.is_terminal(state):
            break
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.result(state, outcomes[choice % len(outcomes)][0])
        else:
            actions = game.actions(state)
            state = game.result(state, actions[choice % len(actions)])
            moves += 1
        check_state(name, game, state)
    if bound:
        assert moves <= bound
        if len(choices) > 2 * bound:  # enough choices for any game: it must have ended
            assert game.is_terminal(state)


@pytest.mark.parametrize(("name", "params", "bound"), CONFIGURATIONS)
def test_seeded_random_games_end(name: str, params: dict[str, object], bound: int) -> None:
    game = make_game(name, params)
    for seed in range(30):
        rng = random.Random(seed)
        state = game.initial_state()
        moves = 0
        while not game.is_terminal(state) and moves < 10_000:
            if game.to_move(state) == CHANCE:
                faces, weights = zip(*game.chance_outcomes(state), strict=True)
                state = game.result(state, rng.choices(faces, [float(w) for w in weights])[0])
            else:
                state = game.result(state, rng.choice(list(game.actions(state))))
                moves += 1
        assert game.is_terminal(state)
        assert moves <= (bound or 10_000)
