"""Pig's fast path: exact values for small goals, checked against the optimality equations
by the game's own rules; the generic value iteration agrees; goal 100 as published."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from analysis.search.pig_values import PigTable, pig_table
from analysis.search.results import GameSolution
from analysis.search.solve import solve_game
from analysis.search.value_iteration import StateGraph, value_iteration_solution
from games.errors import ExactSizeError, TimeLimitError
from games.limits import Limits, limited
from games.rules.game import CHANCE
from games.rules.pig import Pig, Position


def worth(table: PigTable, game: Pig, state: Position, player: int) -> Any:
    """The table's value of ``state`` for ``player`` (any state the rules reach)."""
    side, mine, theirs, turn, rolling = state
    if game.is_terminal(state):
        return game.utility(state, player)
    mover = table.rolling(mine, theirs, turn) if rolling else table.value(mine, theirs, turn)
    return mover if side == player else 1 - mover


def reachable(game: Pig) -> list[Position]:
    """Every state the rules reach from the start, breadth first."""
    states = [game.initial_state()]
    seen = set(states)
    for state in states:
        moves = list(game.actions(state)) + [face for face, _ in game.chance_outcomes(state)]
        for move in moves:
            child = game.result(state, move)
            if child not in seen:
                seen.add(child)
                states.append(child)
    return states


@pytest.mark.parametrize(
    ("goal", "probability"),
    [
        # goal 2: a 1 hands the same position over, any other face wins: P = 5/6 + (1 - P)/6
        (2, Fraction(6, 7)),
        (5, Fraction(216, 271)),
        (10, Fraction(7776, 10961)),
        (20, Fraction(15116544, 24557443)),
    ],
)
def test_exact_first_player_chances(goal: int, probability: Fraction) -> None:
    table = pig_table(goal, 6, exact=True)
    assert table.exact and table.residual == 0
    assert table.value(0, 0, 0) == probability


@pytest.mark.parametrize(("goal", "die"), [(5, 6), (10, 6), (7, 3), (6, 2)])
def test_exact_values_satisfy_the_optimality_equations(goal: int, die: int) -> None:
    """Plug the exact values into the Bellman equations written with the rules: a player's
    state is worth the best of its moves, a throw the mean of its faces, exactly."""
    game = Pig(goal, die)
    table = pig_table(goal, die, exact=True)
    checked = 0
    for state in reachable(game):
        if game.is_terminal(state):
            continue
        mover = game.to_move(state)
        player = state[0]
        value = worth(table, game, state, player)
        assert isinstance(value, Fraction)
        if mover == CHANCE:
            expected = sum(
                p * worth(table, game, game.result(state, face), player)
                for face, p in game.chance_outcomes(state)
            )
        else:
            expected = max(
                worth(table, game, game.result(state, move), player) for move in game.actions(state)
            )
        assert value == expected, game.position_text(state)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize(("goal", "die"), [(8, 6), (6, 3), (9, 2), (1, 6)])
def test_the_generic_value_iteration_agrees_on_every_state(goal: int, die: int) -> None:
    game = Pig(goal, die)
    graph = StateGraph(game, game.initial_state(), 0)
    values, _, _ = graph.solve(1e-13)
    table = pig_table(goal, die)
    for state, value in zip(graph.states, values, strict=True):
        assert float(worth(table, game, state, 0)) == pytest.approx(value, abs=1e-10), state


@pytest.mark.parametrize("position", ["1 0 0 0", "2 4 6 3", "1 6 2 2 rolling", "2 0 8 0"])
def test_positions_match_the_generic_solution(position: str) -> None:
    game = Pig(10, 6)
    state = game.parse_position(position)
    tolerance = Fraction(1, 10**9)
    fast = value_iteration_solution(game, state, tolerance=tolerance)
    generic = value_iteration_solution(game, state, tolerance=tolerance, compact=False)
    assert abs(fast.value - generic.value) <= 2 * tolerance
    assert fast.best_moves == generic.best_moves


def test_the_published_value_of_pig_to_100() -> None:
    # Neller and Presser (2004): the first player wins with probability 0.530592725
    game = Pig()
    solution = solve_game(game, game.initial_state(), algorithm="value_iteration")
    assert isinstance(solution, GameSolution)
    assert solution.value == Fraction("0.530592725")
    assert solution.best_moves == ("roll",) and not solution.complete
    assert solution.residual is not None and solution.residual <= 1e-9


def test_the_deadline_stops_a_big_table() -> None:
    with limited(Limits(time_limit=0.05)), pytest.raises(TimeLimitError):
        pig_table(200, 6)


def test_exact_fractions_stop_at_the_size_limit() -> None:
    with limited(Limits(max_exact_digits=4)), pytest.raises(ExactSizeError):
        pig_table(20, 6, exact=True)
