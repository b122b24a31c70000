"""Value iteration on a cyclic game whose fixed point is solved by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.search.solve import solve_game
from analysis.search.value_iteration import (
    FINEST_TOLERANCE,
    OPPONENT,
    PLAYER,
    StateGraph,
    value_iteration_solution,
)
from games.errors import InvalidInputError, LimitExceededError
from games.limits import Limits, limited
from tests.analysis.search.toy_games import CYCLE, DICE, Pig, Subtraction


def test_the_cycle_reaches_its_fixed_point() -> None:
    """x = 1/4 + x/4 at A (see toy_games.CYCLE): 1/3, by going; player 1 passes at B."""
    solution = solve_game(CYCLE, "A", algorithm="value_iteration")
    assert abs(solution.value - Fraction(1, 3)) < Fraction(1, 10**8)
    assert solution.best_moves == ("go",) and not solution.complete
    assert solution.tolerance == Fraction(1, 10**9)
    assert solution.residual is not None and solution.residual <= 1e-9
    # a sweep updates C, then A from the new C, then B from the new A: once round the cycle,
    # which shrinks the error fourfold; from 1/3 (all values start at 0) to 1e-9 takes
    # about log4(1e9), 15 sweeps
    assert solution.sweeps is not None and 13 <= solution.sweeps <= 17
    assert solution.stats.nodes == 7 and solution.stats.terminals == 4


def test_the_other_player_and_a_coarse_tolerance() -> None:
    b = solve_game(CYCLE, "B", algorithm="value_iteration")
    assert abs(b.value + Fraction(1, 3)) < Fraction(1, 10**8) and b.best_moves == ("pass",)
    coarse = value_iteration_solution(CYCLE, "A", tolerance=Fraction(1, 1000))
    assert abs(coarse.value - Fraction(1, 3)) < Fraction(1, 100)
    assert coarse.sweeps is not None and b.sweeps is not None and coarse.sweeps < b.sweeps


def test_acyclic_games_come_out_as_by_search() -> None:
    dice = solve_game(DICE, "root", algorithm="value_iteration")
    assert dice.value == Fraction("0.333333333") and dice.best_moves == ("gamble",)
    pile = Subtraction(8)
    assert solve_game(pile, pile.initial_state(), algorithm="value_iteration").value == -1


def test_the_state_graph() -> None:
    graph = StateGraph(CYCLE, "A", 0)
    assert len(graph.kinds) == 7 and len(graph.targets) == 2 + 3 + 2
    assert graph.root_moves == ["stop", "go"]
    chance, matrix = graph.chance_matrix()
    assert list(chance) == [2]  # A, draw, C, win, lose, B, half: breadth first
    assert matrix.toarray().tolist() == [[0, 0, 0, 0.5, 0.25, 0.25, 0]]
    assert [rows.tolist() for rows in graph.padded(PLAYER)] == [[0], [[1, 2]]]
    assert [rows.tolist() for rows in graph.padded(OPPONENT)] == [[5], [[6, 0]]]


def test_too_many_states() -> None:
    pile = Subtraction(30, history=True)
    with limited(Limits(max_nodes=1000)), pytest.raises(LimitExceededError) as caught:
        solve_game(pile, pile.initial_state(), algorithm="value_iteration")
    assert caught.value.errors[0].parameter == "position"


def pig_by_hand(goal: int, die: int) -> float:
    """Neller and Presser's equations for P(i, j, k), the chance that the player to move with
    score i, against j, turn total k, wins: max of rolling, (1 - P(j, i, 0) + sum of
    P(i, j, k + r) for r = 2..die) / die with P = 1 once i + k reaches the goal, and holding,
    1 - P(j, i + k, 0); solved by in-place value iteration, one state at a time."""
    p = {(i, j, k): 0.0 for i in range(goal) for j in range(goal) for k in range(goal - i)}

    def chance(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else p[i, j, k]

    while True:
        change = 0.0
        for i, j, k in p:
            roll = (1 - p[j, i, 0] + sum(chance(i, j, k + r) for r in range(2, die + 1))) / die
            hold = 1 - chance(j, i + k, 0) if i + k < goal else 1.0
            new = max(roll, hold)
            change = max(change, abs(new - p[i, j, k]))
            p[i, j, k] = new
        if change < 1e-13:
            return p[0, 0, 0]


@pytest.mark.parametrize(("goal", "die"), [(5, 3), (12, 6)])
def test_pig_against_its_equations(goal: int, die: int) -> None:
    game = Pig(goal, die)
    solution = solve_game(game, game.initial_state(), algorithm="value_iteration")
    assert abs(float(solution.value) - pig_by_hand(goal, die)) < 1e-7
    assert solution.best_moves == ("roll",)  # holding nothing only hands over the turn


@pytest.mark.parametrize(
    "tolerance",
    [Fraction(1, 10**400), Fraction(0), Fraction(-1, 10), Fraction(1, 10**16), Fraction(1)],
)
def test_a_tolerance_the_doubles_cannot_meet_is_refused(tolerance: Fraction) -> None:
    # 1e-400 is 0 as a double: it used to reach math.log10(0.0) (a ValueError, a 500)
    with pytest.raises(InvalidInputError) as caught:
        solve_game(CYCLE, "A", algorithm="value_iteration", tolerance=tolerance)
    assert [e.parameter for e in caught.value.errors] == ["tolerance"]
    with pytest.raises(InvalidInputError):
        value_iteration_solution(CYCLE, "A", tolerance=tolerance)


def test_the_finest_tolerance_reaches_the_fixed_point() -> None:
    solution = solve_game(CYCLE, "A", algorithm="value_iteration", tolerance=FINEST_TOLERANCE)
    assert abs(solution.value - Fraction(1, 3)) <= Fraction(1, 10**15)
    assert solution.residual is not None and solution.residual <= 1e-15
