"""Deviation gains, worked by hand on the prisoner's dilemma and matching pennies.

Prisoner's dilemma with payoffs (C,C) = (-1,-1), (C,D) = (-3,0), (D,C) = (0,-3),
(D,D) = (-2,-2): at (C,C) each player gains 0 - (-1) = 1 by defecting; at (D,D) nobody
gains (cooperating pays -3 < -2), so it is the equilibrium. Against a 50/50 opponent,
C pays (-1 - 3)/2 = -2 and D pays (0 - 2)/2 = -1; the 50/50 mix itself pays -3/2, so the
gain is 1/2. In matching pennies 50/50 against 50/50 pays 0 and every gain is 0.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.equilibria.deviation import (
    DeviationCheck,
    deviation_check,
    float_deviation_check,
    pure_payoffs_against,
)
from games.matrices.model import bimatrix, zero_sum_game
from games.matrices.parser import parse_game

HALF = Fraction(1, 2)
DILEMMA = bimatrix([[-1, -3], [0, -2]], [[-1, 0], [-3, -2]])
PENNIES = zero_sum_game([[1, -1], [-1, 1]])


@pytest.mark.parametrize(
    ("profile", "payoffs", "gains"),
    [
        ([[1, 0], [1, 0]], (-1, -1), (1, 1)),
        ([[0, 1], [0, 1]], (-2, -2), (0, 0)),
        ([[1, 0], [0, 1]], (-3, 0), (1, 0)),
        ([[HALF, HALF], [HALF, HALF]], (Fraction(-3, 2), Fraction(-3, 2)), (HALF, HALF)),
    ],
    ids=["both-cooperate", "both-defect", "sucker", "coin-flips"],
)
def test_prisoners_dilemma_gains(
    profile: list[list[Fraction | int]], payoffs: tuple[Fraction, ...], gains: tuple[Fraction, ...]
) -> None:
    check = deviation_check(DILEMMA, profile)
    assert check == DeviationCheck(payoffs, gains)
    assert check.max_gain == max(gains)


def test_pure_payoffs_against_a_mixed_opponent() -> None:
    assert pure_payoffs_against(DILEMMA, 0, [[HALF, HALF], [HALF, HALF]]) == [-2, -1]
    # the column player against a row that cooperates for sure: C pays -1, D pays 0
    assert pure_payoffs_against(DILEMMA, 1, [[1, 0], [HALF, HALF]]) == [-1, 0]


def test_matching_pennies_equilibrium_has_no_gain() -> None:
    check = deviation_check(PENNIES, [[HALF, HALF], [HALF, HALF]])
    assert check.payoffs == (0, 0) and check.gains == (0, 0)
    # row plays R1 for sure against 50/50: the row player still earns 0 whatever it plays
    # (gain 0), but the column player's mix earns 0 where C2 earns 1 (gain 1)
    assert deviation_check(PENNIES, [[1, 0], [HALF, HALF]]).gains == (0, 1)


def test_exact_answers_are_normalised_integers_where_whole() -> None:
    check = deviation_check(DILEMMA, [[0, 1], [0, 1]])
    assert all(type(value) is int for value in (*check.payoffs, *check.gains))


def test_three_players_coordination() -> None:
    # everyone gets 1 when all three match, else 0: (0,0,0) is an equilibrium; when the
    # third player alone deviates to strategy 1 it loses 1, so at (0,0,1) it gains 1
    same = [[[1, 0], [0, 0]], [[0, 0], [0, 1]]]
    game = parse_game({"payoff_arrays": [same, same, same]})
    assert deviation_check(game, [[1, 0], [1, 0], [1, 0]]).gains == (0, 0, 0)
    assert deviation_check(game, [[1, 0], [1, 0], [0, 1]]).gains == (0, 0, 1)


def test_float_check_agrees_with_the_exact_one() -> None:
    check = float_deviation_check(DILEMMA, [[0.5, 0.5], [0.5, 0.5]])
    assert check.payoffs == (-1.5, -1.5)
    assert check.gains == (0.5, 0.5)
    # rounding never reports a negative gain
    assert float_deviation_check(PENNIES, [[0.5, 0.5], [0.5, 0.5]]).gains == (0.0, 0.0)
