"""The engine on the catalogue's games against published results.

- Tic-tac-toe is a draw, whichever square x opens on (every square draws).
- Hexapawn on 3x3 is a win for the second player (Gardner 1962).
- Connect four on 4 columns x 4 rows and 5 x 4 is a draw, and 6 x 4 a win for the second
  player, whatever the first plays (Tromp's table of solved sizes).
- Nim by Bouton's rule (1901): normal play, the mover wins iff the piles' xor is not 0;
  misere play, the same except when every pile is at most 1, where the mover wins iff the
  number of 1-piles is even.
- Pig (Neller and Presser 2004): the value iteration of the engine over the game's own rules
  matches the paper's equations, solved here without the game.
- Alpha-beta, with and without its table and ordering, gives minimax's value on random
  positions of real games.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import reduce
from operator import xor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.search.alpha_beta import alpha_beta_solution
from analysis.search.solve import solve_game
from games.rules.catalogue import make_game
from games.rules.game import Game
from tests.games.rules.test_pig import neller_presser


def play_randomly(game: Game[Any, Any], plies: int, seed: int) -> Any:
    """A position ``plies`` random moves from the start (fewer if the game ends first)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(list(game.actions(state))))
    return state


def test_tic_tac_toe_is_a_draw_whatever_x_opens_with() -> None:
    game = make_game("tic_tac_toe", {})
    solution = solve_game(game, game.initial_state())
    assert (solution.value, solution.complete) == (0, True)
    assert len(solution.best_moves) == 9


def test_hexapawn_3x3_is_a_second_player_win() -> None:
    game = make_game("hexapawn", {"columns": 3, "rows": 3})
    solution = solve_game(game, game.initial_state())
    assert (solution.value, solution.complete) == (-1, True)


@pytest.mark.parametrize("columns", [4, 5])
def test_connect_four_on_four_rows_is_a_draw_for_four_and_five_columns(columns: int) -> None:
    game = make_game("connect_four", {"columns": columns, "rows": 4})
    solution = solve_game(game, game.initial_state(), all_best_moves=False)
    assert (solution.value, solution.complete) == (0, True)


def test_connect_four_4x4_is_a_draw_for_the_python_engine_too() -> None:
    game = make_game("connect_four", {"columns": 4, "rows": 4})
    solution = alpha_beta_solution(
        game,
        game.initial_state(),
        depth=None,
        time_limit=None,
        evaluation=None,
        table=True,
        ordering=True,
        quiescence_plies=0,
        compiled=False,
    )
    assert (solution.value, solution.complete) == (0, True)


@pytest.mark.slow
def test_connect_four_6x4_is_a_second_player_win_whatever_the_first_plays() -> None:
    game = make_game("connect_four", {"columns": 6, "rows": 4})
    solution = solve_game(game, game.initial_state())
    assert (solution.value, solution.complete) == (-1, True)
    # every opening loses, so every column is a best move (the slowest loss)
    assert sorted(solution.best_moves) == list(range(6))
    assert solution.plies_to_end is not None and solution.plies_to_end % 2 == 0


@settings(max_examples=40, deadline=None)
@given(
    piles=st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=3),
    misere=st.booleans(),
)
def test_nim_follows_boutons_rule(piles: list[int], misere: bool) -> None:
    game = make_game("nim", {"piles": piles, "misere": misere})
    state = game.initial_state()
    if game.is_terminal(state):
        return
    if misere and max(piles) <= 1:
        mover_wins = piles.count(1) % 2 == 0
    else:
        mover_wins = reduce(xor, piles) != 0
    value = solve_game(game, state).value
    assert value == (1 if mover_wins else -1), (piles, misere)


@pytest.mark.parametrize(("goal", "die"), [(8, 6), (6, 3)])
def test_pig_by_value_iteration_matches_neller_and_pressers_equations(goal: int, die: int) -> None:
    game = make_game("pig", {"goal": goal, "die": die})
    tolerance = Fraction(1, 10**10)
    solution = solve_game(
        game, game.initial_state(), algorithm="value_iteration", tolerance=tolerance
    )
    expected = neller_presser(goal, die, 1e-12)[0, 0, 0]
    assert float(solution.value) == pytest.approx(expected, abs=1e-6)
    assert not solution.complete  # a fixed point to a tolerance, never exact


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(["tic_tac_toe", "connect_four", "hexapawn"]),
    plies=st.integers(min_value=0, max_value=8),
    seed=st.integers(min_value=0, max_value=10**6),
    table=st.booleans(),
    ordering=st.booleans(),
)
def test_alpha_beta_agrees_with_minimax_on_random_positions(
    name: str, plies: int, seed: int, table: bool, ordering: bool
) -> None:
    params = {"connect_four": {"columns": 4, "rows": 4}}.get(name, {})
    game = make_game(name, params)
    # deep enough into connect four that minimax (no pruning, no table) stays small
    state = play_randomly(game, plies + (7 if name == "connect_four" else 0), seed)
    if game.is_terminal(state):
        return
    exact = solve_game(game, state, algorithm="minimax")
    searched = solve_game(game, state, table=table, ordering=ordering)
    assert searched.value == exact.value
    assert searched.complete and exact.complete
