"""Monte Carlo tree search (UCT): checked against exact solutions, hand derivations and the
sign bug it must not have."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from analysis.search.budget import SearchBudget
from analysis.search.mcts import MAX_EVENTS, Uct, mcts_solution
from analysis.search.results import MctsSolution
from analysis.search.solve import solve_game
from games.errors import InvalidInputError, TimeLimitError
from games.limits import Limits, limited
from games.rules.catalogue import make_game
from games.rules.game import CHANCE, Game

TTT = make_game("tic_tac_toe", {})
HALF = Fraction(1, 2)


def exact_move_values(game: Game[Any, Any], state: Any) -> dict[str, Fraction]:
    """Each move's exact value to the mover, by the exact solver (alpha-beta to the end)."""
    mover = game.to_move(state)
    values = {}
    for move in game.actions(state):
        child = game.result(state, move)
        if game.is_terminal(child):
            values[game.move_text(state, move)] = game.utility(child, mover)
        else:
            values[game.move_text(state, move)] = -solve_game(game, child).value
    return values


# Positions where exactly one move does not lose (found with the exact solver, and by hand:
# in each, o must take the square named or x completes a line or a fork).
ONLY_MOVES = [
    ("x.x.o....", "1,2"),  # x threatens the top row
    ("....x..xo", "1,2"),  # x threatens the middle column
    ("o..xx....", "2,3"),  # x threatens the middle row
    ("x....xo..", "3,3"),  # x threatens to fork at 3,3
    (".o...xx..", "2,2"),  # x threatens the diagonal and forks
]


@pytest.mark.parametrize(("position", "only_move"), ONLY_MOVES)
def test_finds_the_only_move_that_does_not_lose(position: str, only_move: str) -> None:
    state = TTT.parse_position(position)
    values = exact_move_values(TTT, state)
    assert [move for move, value in values.items() if value >= 0] == [only_move]
    solution = mcts_solution(TTT, state, simulations=3000, time_limit=None)
    assert TTT.move_text(state, solution.move) == only_move


class OnePointOfView(Uct):
    """The classic sign bug: every node scores the reward of the root's player, so the
    opponent is simulated as helping."""

    def new_node(self, state: Any, move: Any, player: int) -> Any:
        return super().new_node(state, move, player if self.size == 0 else self.root.player)


@pytest.mark.parametrize("position", ["....x..xo", "o..xx....", "x....xo.."])
def test_rewards_are_the_movers_and_one_point_of_view_fails(position: str) -> None:
    """o must block; with every node scored for o, x seems to cooperate and o plays on."""
    state = TTT.parse_position(position)
    right = mcts_solution(TTT, state, simulations=3000, time_limit=None)
    assert TTT.move_text(state, right.move) == dict(ONLY_MOVES)[position]
    wrong = OnePointOfView(
        TTT,
        state,
        exploration=math.sqrt(2),
        seed=0,
        max_nodes=100_000,
        events=0,
        budget=SearchBudget(None),
    )
    for number in range(1, 3001):
        wrong.simulate(number)
    chosen = max(wrong.root.children.values(), key=lambda child: child.visits)
    assert chosen.move != right.move


def test_an_immediate_win_is_taken_and_valued_a_win() -> None:
    state = TTT.parse_position("xx.oo....")  # x completes the top row at 1,3
    solution = mcts_solution(TTT, state, simulations=500, time_limit=None)
    assert TTT.move_text(state, solution.move) == "1,3"
    first = solution.root_moves[0]
    assert TTT.move_text(state, first.move) == "1,3" and first.mean == 1  # every visit a win
    assert solution.reward == 1 and solution.value == 1


def test_draws_score_one_half() -> None:
    """x x o / o o x / x . . with o to move: every ending is a draw (checked by hand: o at
    3,2 or 3,3, then x fills the other square, and no row, column or diagonal is one
    player's)."""
    state = TTT.parse_position("xxoooxx..")
    assert set(exact_move_values(TTT, state).values()) == {0}
    solution = mcts_solution(TTT, state, simulations=40, time_limit=None)
    for child in solution.root_moves:
        assert child.mean == HALF and child.total == Fraction(child.visits, 2)
    assert solution.reward == HALF and solution.value == 0


def test_the_mean_approaches_the_exact_value_as_simulations_grow() -> None:
    """Hexapawn 3x3 is a win for the second player (Gardner 1962): the first player's best
    mean reward falls toward 0 (a loss) as the tree grows."""
    game = make_game("hexapawn", {})
    state = game.initial_state()
    assert solve_game(game, state).value == -1
    few, many = (
        mcts_solution(game, state, simulations=n, time_limit=None).reward for n in (100, 10_000)
    )
    assert many < few and many < Fraction(1, 20)


def test_a_drawn_position_converges_to_one_half() -> None:
    state = TTT.parse_position("x...o....")  # a draw with best play
    assert solve_game(TTT, state).value == 0
    few = mcts_solution(TTT, state, simulations=200, time_limit=None)
    many = mcts_solution(TTT, state, simulations=20_000, time_limit=None)
    assert abs(many.reward - HALF) < abs(few.reward - HALF)
    assert abs(many.reward - HALF) < Fraction(1, 20)


def test_pig_samples_its_die_and_estimates_the_win_probability() -> None:
    """Pig to 2: the first roll wins unless it is a 1, so P = 5/6 + P(1) * (1 - P) gives
    6/7; random play is optimal here (roll is the only move at a turn total of 0)."""
    game = make_game("pig", {"goal": 2})
    solution = mcts_solution(game, game.initial_state(), simulations=4000, time_limit=None)
    assert game.move_text(game.initial_state(), solution.move) == "roll"
    assert abs(solution.reward - Fraction(6, 7)) < Fraction(3, 100)  # 5 standard errors


def test_a_chance_root_draws_each_face_about_equally() -> None:
    game = make_game("pig", {"goal": 10})
    state = game.parse_position("1 0 0 0 rolling")
    assert game.to_move(state) == CHANCE
    solution = mcts_solution(game, state, simulations=6000, time_limit=None)
    assert solution.move is None and solution.player == 0
    assert [child.move for child in solution.root_moves] == [1, 2, 3, 4, 5, 6]
    for child in solution.root_moves:
        assert abs(child.visits - 1000) < 150  # binomial: sd 29
    face_one = solution.root_moves[0]
    # a 1 passes the die with nothing banked: the opponent starts, so player 0 is behind
    assert face_one.mean < HALF


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("tic_tac_toe", {}),
        ("connect_four", {"columns": 5, "rows": 4}),
        ("hexapawn", {}),
        ("nim", {}),
        ("pig", {"goal": 10}),
    ],
)
def test_every_catalogue_game_runs(name: str, params: dict[str, Any]) -> None:
    game = make_game(name, params)
    state = game.initial_state()
    solution = mcts_solution(game, state, simulations=300, time_limit=None, events=3)
    assert solution.simulations == 300 and solution.stopped_by == "simulations"
    assert sum(child.visits for child in solution.root_moves) == 300
    assert solution.move in game.actions(state)
    assert 0 <= solution.reward <= 1 and len(solution.events) == 3


def test_the_same_seed_gives_the_same_answer() -> None:
    game = make_game("connect_four", {"columns": 5, "rows": 4})
    state = game.initial_state()
    runs = [
        mcts_solution(game, state, simulations=500, time_limit=None, seed=seed, events=5)
        for seed in (7, 7, 8)
    ]
    assert runs[0].root_moves == runs[1].root_moves and runs[0].events == runs[1].events
    assert runs[0].root_moves != runs[2].root_moves


def test_the_most_visited_move_is_chosen_ties_by_move_order() -> None:
    """Two simulations from the empty board expand two moves, one visit each: the first of
    the game's order among them is chosen."""
    state = TTT.initial_state()
    solution = mcts_solution(TTT, state, simulations=2, time_limit=None)
    assert [child.visits for child in solution.root_moves] == [1, 1]
    assert solution.move == solution.root_moves[0].move
    order = list(TTT.actions(state))
    assert order.index(solution.root_moves[0].move) < order.index(solution.root_moves[1].move)


def test_events_follow_the_four_phases() -> None:
    state = TTT.parse_position("xxoooxx..")  # two moves left, both draws
    solution = mcts_solution(TTT, state, simulations=3, time_limit=None, events=3)
    first, second, third = solution.events
    # the first two simulations expand the root's two moves, with no selection step
    assert first.selection == () and second.selection == ()
    assert first.expansion is not None and first.expansion.parent == 0
    assert {first.expansion.move, second.expansion.move} == set(TTT.actions(state))  # type: ignore[union-attr]
    assert first.expansion.player == 1  # o moved into it
    assert len(first.playout.moves) == 1 and first.playout.rewards == (HALF, HALF)
    assert [b.node for b in first.backpropagation] == [0, 1]
    assert [b.visits for b in second.backpropagation] == [2, 1]
    # the third selects by UCB1: both children have mean 1/2 and one visit, equal bounds
    (step,) = third.selection
    assert step.ucb == pytest.approx(0.5 + math.sqrt(2) * math.sqrt(math.log(2)))
    assert step.move == TTT.actions(state)[0]  # the tie goes to the game's order


def test_the_tree_stops_growing_at_its_cap() -> None:
    solution = mcts_solution(
        TTT, TTT.initial_state(), simulations=200, time_limit=None, max_nodes=20
    )
    assert solution.tree_nodes == 20 and solution.tree_full
    assert solution.simulations == 200


def test_a_time_limit_stops_the_search() -> None:
    game = make_game("connect_four", {})
    solution = mcts_solution(game, game.initial_state(), simulations=10_000_000, time_limit=0.2)
    assert solution.stopped_by == "time_limit" and 0 < solution.simulations < 10_000_000
    assert solution.seconds < 0.5


def test_the_request_deadline_stops_the_search() -> None:
    game = make_game("connect_four", {})
    with limited(Limits(time_limit=0.2)), pytest.raises(TimeLimitError):
        mcts_solution(game, game.initial_state(), simulations=10_000_000, time_limit=None)


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"simulations": None, "time_limit": None}, "simulations"),
        ({"simulations": 0, "time_limit": None}, "simulations"),
        ({"simulations": 10, "time_limit": 0.0}, "time_limit"),
        ({"simulations": 10, "time_limit": None, "exploration": -1.0}, "exploration"),
        ({"simulations": 10, "time_limit": None, "exploration": math.nan}, "exploration"),
        ({"simulations": 10, "time_limit": None, "seed": -1}, "seed"),
        ({"simulations": 10, "time_limit": None, "events": MAX_EVENTS + 1}, "events"),
    ],
)
def test_refused_options_name_their_parameter(options: dict[str, Any], parameter: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        mcts_solution(TTT, TTT.initial_state(), **options)
    assert caught.value.errors[0].parameter == parameter


def test_a_finished_game_is_refused() -> None:
    with pytest.raises(InvalidInputError) as caught:
        mcts_solution(TTT, TTT.parse_position("xxxoo...."), simulations=5, time_limit=None)
    assert caught.value.errors[0].parameter == "position"


def test_solve_game_runs_mcts_with_its_options() -> None:
    state = TTT.parse_position("xx.oo....")
    solution = solve_game(TTT, state, algorithm="mcts", simulations=100, seed=3, exploration=1.0)
    assert isinstance(solution, MctsSolution)
    assert (solution.simulations, solution.seed, solution.exploration) == (100, 3, 1.0)
    assert TTT.move_text(state, solution.move) == "1,3"


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"algorithm": "mcts", "simulations": 10, "depth": 3}, "depth"),
        ({"algorithm": "mcts", "simulations": 10, "evaluation": "open_lines"}, "evaluation"),
        ({"algorithm": "mcts", "simulations": 10, "table": False}, "table"),
        ({"algorithm": "mcts", "simulations": 10, "ordering": False}, "ordering"),
        ({"algorithm": "mcts", "simulations": 10, "quiescence": True}, "quiescence"),
        ({"algorithm": "mcts", "simulations": 10, "tolerance": Fraction(1, 10)}, "tolerance"),
        ({"algorithm": "mcts", "simulations": 10, "all_best_moves": False}, "all_best_moves"),
        ({"algorithm": "mcts", "simulations": 10, "table_entries": 1000}, "table_entries"),
        ({"algorithm": "mcts"}, "simulations"),
        ({"simulations": 10}, "simulations"),
        ({"algorithm": "expectimax", "seed": 1}, "seed"),
        ({"algorithm": "minimax", "exploration": 1.0}, "exploration"),
        ({"events": 1}, "events"),
    ],
)
def test_solve_game_refuses_what_does_not_apply(options: dict[str, Any], parameter: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve_game(TTT, TTT.initial_state(), **options)
    assert caught.value.errors[0].parameter == parameter
