"""Pig's rules: roll, hold, bust, the goal, the chance states, and win probabilities."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.errors import InvalidInputError
from games.rules.game import CHANCE
from games.rules.pig import Pig, Position


def test_a_turn_starts_with_a_roll() -> None:
    game = Pig()
    start = game.initial_state()
    assert game.position_text(start) == "1 0 0 0"
    assert game.to_move(start) == 0
    assert list(game.actions(start)) == ["roll"]  # holding a turn total of 0 is no move
    rolling = game.result(start, "roll")
    assert game.to_move(rolling) == CHANCE
    assert list(game.actions(rolling)) == []
    assert list(game.chance_outcomes(rolling)) == [(face, Fraction(1, 6)) for face in range(1, 7)]
    assert game.position_text(rolling) == "1 0 0 0 rolling"
    assert list(game.chance_outcomes(start)) == []


def test_roll_hold_and_bust() -> None:
    game = Pig()
    state = game.parse_position("1 10 7 5")
    assert list(game.actions(state)) == ["roll", "hold"]
    rolling = game.result(state, "roll")
    assert game.position_text(game.result(rolling, 4)) == "1 10 7 9"
    # A 1 loses the turn total and passes the die: player 2 to move, 7 to 10.
    assert game.position_text(game.result(rolling, 1)) == "2 7 10 0"
    # Holding banks 10 + 5 and passes the die.
    assert game.position_text(game.result(state, "hold")) == "2 7 15 0"


def test_reaching_the_goal_wins_at_once() -> None:
    game = Pig(goal=10)
    rolling = game.parse_position("1 6 3 2 rolling")
    assert not game.is_terminal(rolling)
    end = game.result(rolling, 2)  # 6 + 2 + 2 = 10
    assert game.position_text(end) == "2 3 10 0"
    assert game.is_terminal(end) and list(game.actions(end)) == []
    assert game.utility(end, 0) == 1 and game.utility(end, 1) == 0
    assert game.win == 1 and game.loss == 0
    short = game.result(rolling, 1)
    assert not game.is_terminal(short)


def win_probabilities(game: Pig, tolerance: float) -> dict[Position, float]:
    """Value iteration over every state reachable in ``game``, moving by its own rules."""
    states: list[Position] = [game.initial_state()]
    seen = set(states)
    for state in states:
        children = [game.result(state, m) for m in game.actions(state)]
        children += [game.result(state, face) for face, _ in game.chance_outcomes(state)]
        for child in children:
            if child not in seen:
                seen.add(child)
                states.append(child)
    value = dict.fromkeys(states, 0.5)

    def seen_by(state: Position, child: Position) -> float:
        """The child's value for the player who owns ``state``'s turn."""
        return value[child] if child[0] == state[0] else 1 - value[child]

    change = 1.0
    while change > tolerance:
        change = 0.0
        for state in states:
            if game.is_terminal(state):
                new = float(game.utility(state, state[0]))
            elif game.to_move(state) == CHANCE:
                new = sum(
                    float(p) * seen_by(state, game.result(state, f))
                    for f, p in game.chance_outcomes(state)
                )
            else:
                new = max(seen_by(state, game.result(state, m)) for m in game.actions(state))
            change = max(change, abs(new - value[state]))
            value[state] = new
    return value


def neller_presser(goal: int, die: int, tolerance: float) -> dict[tuple[int, int, int], float]:
    """P[i, j, k], the mover's chance of winning with score i, the opponent's j, turn total k,
    by Neller and Presser's equations, written without the game:
    P[i, j, k] = max(P_roll, P_hold), P_roll = ((1 - P[j, i, 0]) + sum over faces r >= 2 of
    P[i, j, k + r]) / die, P_hold = 1 - P[j, i + k, 0] (k > 0), and 1 once i + k >= goal."""
    p = {(i, j, k): 0.5 for i in range(goal) for j in range(goal) for k in range(goal - i)}

    def at(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else p[i, j, k]

    change = 1.0
    while change > tolerance:
        change = 0.0
        for i, j, k in p:
            roll = (1 - at(j, i, 0) + sum(at(i, j, k + r) for r in range(2, die + 1))) / die
            new = max(roll, 1 - at(j, i + k, 0)) if k else roll
            change = max(change, abs(new - p[i, j, k]))
            p[i, j, k] = new
    return p


def win_probability(game: Pig, tolerance: float) -> float:
    return win_probabilities(game, tolerance)[game.initial_state()]


@pytest.mark.parametrize(
    ("goal", "die", "probability"),
    [
        # The mover rolls: a 1 (probability 1/die) passes the same position over, any other
        # face wins: P = (die - 1)/die + (1 - P)/die, so P = die / (die + 1).
        (2, 2, Fraction(2, 3)),
        (2, 6, Fraction(6, 7)),
    ],
)
def test_win_probabilities_of_tiny_games(goal: int, die: int, probability: Fraction) -> None:
    assert win_probability(Pig(goal, die), 1e-12) == pytest.approx(float(probability))


@pytest.mark.parametrize(("goal", "die"), [(10, 6), (7, 3)])
def test_the_rules_give_neller_and_pressers_values(goal: int, die: int) -> None:
    by_rules = win_probabilities(Pig(goal, die), 1e-12)
    by_equations = neller_presser(goal, die, 1e-12)
    decisions = 0
    for (_, mine, theirs, turn, rolling), value in by_rules.items():
        if not rolling and theirs < goal:
            assert value == pytest.approx(by_equations[mine, theirs, turn], abs=1e-9)
            decisions += 1
    assert decisions > 50


def test_the_score_difference_evaluation() -> None:
    game = Pig()
    state = game.parse_position("1 10 7 5")
    assert game.score_difference(state, 0) == Fraction(1, 2) + Fraction(8, 200)
    assert game.score_difference(state, 1) == Fraction(1, 2) - Fraction(8, 200)
    assert game.score_difference(game.initial_state(), 1) == Fraction(1, 2)
    end = Pig(goal=10).parse_position("2 3 10 0")
    assert Pig(goal=10).score_difference(end, 0) == 1
    assert list(game.evaluations) == ["score_difference"]


def test_moves_round_trip() -> None:
    game = Pig()
    state = game.parse_position("1 10 7 5")
    assert game.parse_move(state, "hold") == "hold"
    rolling = game.result(state, "roll")
    assert game.parse_move(rolling, "6") == 6
    assert game.move_text(rolling, 6) == "6"


@pytest.mark.parametrize(
    ("position", "text"),
    [
        ("1 0 0 0", "hold"),
        ("1 10 7 5", "3"),
        ("1 10 7 5", "pass"),
        ("1 0 0 0 rolling", "7"),
        ("1 0 0 0 rolling", "0"),
        ("1 0 0 0 rolling", "roll"),
    ],
)
def test_illegal_moves_are_refused(position: str, text: str) -> None:
    game = Pig()
    with pytest.raises(InvalidInputError) as caught:
        game.parse_move(game.parse_position(position), text)
    assert caught.value.errors[0].parameter == "move"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1 0 0", "not a Pig position"),
        ("3 0 0 0", "not a Pig position"),
        ("1 0 0 0 rolled", "not a Pig position"),
        ("1 -2 0 0", "not a Pig position"),
        ("1 0  0 0", "not a Pig position"),
        ("1 1 0 0", "sums of faces 2 and up"),
        ("1 0 0 1", "sums of faces 2 and up"),
        ("1 100 0 0", "already has the goal"),
        ("1 0 106 0", "no score can pass 105"),
        ("1 0 100 5", "the game is over"),
        ("1 0 100 0 rolling", "the game is over"),
        ("1 90 0 10", "ends the game at once"),
        ("12 0 0 0", "not a Pig position"),
        ("1 \u00b2 0 0", "not a Pig position"),  # a superscript two is a digit to isdigit
        ("1 " + "9" * 5000 + " 0 0", "not a Pig position"),
    ],
)
def test_impossible_positions_are_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidInputError, match=why) as caught:
        Pig().parse_position(text)
    assert caught.value.errors[0].parameter == "position"


def test_a_two_sided_die_only_ever_adds_even_points() -> None:
    game = Pig(goal=20, die=2)
    assert game.parse_position("2 4 6 2") == (1, 4, 6, 2, False)
    with pytest.raises(InvalidInputError, match="sums of faces"):
        game.parse_position("1 3 0 0")
