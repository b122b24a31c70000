"""Indifference equations behind mixed equilibria, derived by hand.

Matching pennies (row wins 1 on a match, loses 1 otherwise): with the column player
playing C1 with probability q, R1 pays q - (1 - q) and R2 pays -q + (1 - q); equal when
q = 1/2, and by symmetry p = 1/2. Battle of the sexes (payoffs (2,1) and (1,2) on the
diagonal, 0 off it): the row player's R1 pays 2q and R2 pays 1 - q, so q = 1/3; the
column player's C1 pays p and C2 pays 2(1 - p), so p = 2/3 (Osborne, An Introduction to
Game Theory, 2004, 4.3).
"""

from __future__ import annotations

from fractions import Fraction

from analysis.equilibria.indifference import explainable, indifference_equations
from games.matrices.model import bimatrix, zero_sum_game
from games.matrices.parser import parse_game

HALF = Fraction(1, 2)
PENNIES = zero_sum_game([[1, -1], [-1, 1]])
BATTLE = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])


def test_matching_pennies_each_mix_makes_the_other_indifferent() -> None:
    column_mix, row_mix = indifference_equations(PENNIES, [HALF, HALF], [HALF, HALF])
    assert (column_mix.mixer, column_mix.indifferent) == (1, 0)
    assert column_mix.equations_text == ("q - (1 - q) = -q + (1 - q)",)
    assert column_mix.solution_text == "q = 1/2"
    assert column_mix.solution_latex == "q = \\frac{1}{2}"
    assert (row_mix.mixer, row_mix.indifferent) == (0, 1)
    assert row_mix.solution_text == "p = 1/2"


def test_the_words_say_who_mixes_and_who_is_kept_indifferent() -> None:
    column_mix, row_mix = indifference_equations(PENNIES, [HALF, HALF], [HALF, HALF])
    assert column_mix.words == (
        "The column player plays C1 with probability q, C2 with probability 1 - q, chosen so "
        "that the row player gets the same expected payoff from each of R1, R2; otherwise "
        "the row player would drop the worse ones."
    )
    assert row_mix.words.startswith("The row player plays R1 with probability p, R2 with")
    assert "the column player gets the same expected payoff from each of C1, C2" in row_mix.words


def test_battle_of_the_sexes_mixed_equilibrium() -> None:
    column_mix, row_mix = indifference_equations(
        BATTLE, [Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(2, 3)]
    )
    # payoffs of 1 are written as the bare weight, others as an unexpanded product
    assert column_mix.equations_text == ("2*q = 1 - q",)
    assert column_mix.solution_text == "q = 1/3"
    assert row_mix.equations_text == ("p = 2*(1 - p)",)
    assert row_mix.solution_text == "p = 2/3"
    assert row_mix.equations_latex == ("p = 2 \\left(1 - p\\right)",)


def test_labels_of_the_game_name_the_strategies() -> None:
    game = parse_game(
        {
            "payoffs": [[[2, 0], [0, 1]], [[1, 0], [0, 2]]],
            "labels": [["Opera", "Football"], ["Opera", "Football"]],
        }
    )
    column_mix, _ = indifference_equations(
        game, [Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(2, 3)]
    )
    assert "plays Opera with probability q, Football with probability 1 - q" in column_mix.words


def test_a_pure_equilibrium_needs_no_equations() -> None:
    assert indifference_equations(BATTLE, [1, 0], [1, 0]) == []


def test_only_the_mixing_side_gets_equations() -> None:
    # the row player mixes, the column player plays C1 for sure: only the row player must be
    # kept indifferent, so only the column player's (degenerate) mix is explained
    (only,) = indifference_equations(zero_sum_game([[1, 1], [1, 1]]), [HALF, HALF], [1, 0])
    assert (only.mixer, only.indifferent) == (1, 0)


def test_explainable_needs_two_players_one_with_two_strategies() -> None:
    assert explainable(PENNIES)
    assert explainable(zero_sum_game([[1, 2, 3], [3, 2, 1]]))
    assert not explainable(zero_sum_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
    same = [[[1, 0], [0, 0]], [[0, 0], [0, 1]]]
    assert not explainable(parse_game({"payoff_arrays": [same, same, same]}))
