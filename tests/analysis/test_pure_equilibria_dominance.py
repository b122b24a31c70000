"""Pure equilibria, best responses, dominance, zero-sum values and Lemke-Howson on known games."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.equilibria.iterated_dominance import iterated_elimination
from analysis.equilibria.lemke_howson import lemke_howson
from analysis.equilibria.pure import best_responses, pure_nash_equilibria
from analysis.equilibria.zero_sum import security_levels, zero_sum_solution
from games.errors import DomainError, InvalidInputError
from games.matrices.model import bimatrix, zero_sum_game
from games.matrices.parser import parse_game

LECTURE = {"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]}


def test_lecture_game_pure_equilibrium_and_best_responses() -> None:
    game = parse_game(LECTURE)
    assert [(e.profile, e.payoffs) for e in pure_nash_equilibria(game)] == [((1, 1), (2, 3))]
    rows, cols = best_responses(game)
    assert rows.best == ((1,), (1,))  # R2 pays 4 > 3 and 2 > 1
    assert cols.best == ((0,), (1,))  # against R1: 4 > 2; against R2: 3 > 1


def test_battle_of_the_sexes_two_pure_equilibria() -> None:
    game = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    assert [e.profile for e in pure_nash_equilibria(game)] == [(0, 0), (1, 1)]


def test_three_player_pure_equilibria() -> None:
    # Three-player coordination: everyone gets 1 when all match, else 0.
    same = [[[1, 0], [0, 0]], [[0, 0], [0, 1]]]
    game = parse_game({"payoff_arrays": [same, same, same]})
    assert [e.profile for e in pure_nash_equilibria(game)] == [(0, 0, 0), (1, 1, 1)]


def test_prisoners_dilemma_dominance_leaves_defect() -> None:
    game = bimatrix([[-1, -3], [0, -2]], [[-1, 0], [-3, -2]])
    result = iterated_elimination(game)
    assert result.surviving == ((1,), (1,))
    assert [(s.player, s.strategy, s.dominated_by) for s in result.steps] == [
        (0, 0, ((1, 1),)),
        (1, 0, ((1, 1),)),
    ]


def test_domination_by_a_mixed_strategy_only() -> None:
    # R3 = (1, 1) is beaten by 1/2 R1 + 1/2 R2 = (3/2, 3/2) but by neither pure row.
    game = bimatrix([[3, 0], [0, 3], [1, 1]], [[0, 0], [0, 0], [0, 0]])
    (step,) = iterated_elimination(game).steps
    assert step.strategy == 2
    assert step.dominated_by == ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    assert iterated_elimination(game, mixed=False).steps == ()


def test_weak_dominance_only_on_request() -> None:
    game = bimatrix([[1, 0], [1, 1]], [[0, 0], [0, 0]])
    assert iterated_elimination(game).steps == ()
    weak = iterated_elimination(game, weak=True)
    assert [(s.strategy, s.weak) for s in weak.steps] == [(0, True)]


def test_rock_paper_scissors_value_zero_uniform() -> None:
    solution = zero_sum_solution(zero_sum_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
    third = Fraction(1, 3)
    assert solution.exact
    assert solution.value == 0
    assert solution.row_strategy == (third, third, third)
    assert solution.col_strategy == (third, third, third)


def test_matching_pennies_and_a_textbook_value() -> None:
    assert zero_sum_solution(zero_sum_game([[1, -1], [-1, 1]])).value == 0
    # A = [[2, -1], [-1, 1]]: p = 2/5, value 1/5 (by hand: 2p - (1-p) = -p + (1-p)).
    solution = zero_sum_solution(zero_sum_game([[2, -1], [-1, 1]]))
    assert solution.value == Fraction(1, 5)
    assert solution.row_strategy == (Fraction(2, 5), Fraction(3, 5))


def test_saddle_point_game_value() -> None:
    solution = zero_sum_solution(zero_sum_game([[3, 5], [1, 2]]))
    assert (solution.value, solution.row_strategy, solution.col_strategy) == (3, (1, 0), (1, 0))


def test_zero_sum_refuses_general_sum_games() -> None:
    with pytest.raises(DomainError):
        zero_sum_solution(bimatrix([[1, 0], [0, 1]], [[1, 0], [0, 1]]))


def test_security_levels_of_the_lecture_game() -> None:
    row, col = security_levels(parse_game(LECTURE))
    assert (row.pure, row.mixed, row.mixed_strategy) == (2, 2, (0, 1))
    # Column: 4y + 2(1-y) = y + 3(1-y) at y = 1/4, guaranteeing 5/2.
    assert (col.pure, col.mixed) == (2, Fraction(5, 2))
    assert col.mixed_strategy == (Fraction(1, 4), Fraction(3, 4))


def test_lemke_howson_on_battle_of_the_sexes() -> None:
    game = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    found = {
        (round(r.row[0], 9), round(r.col[0], 9))
        for r in (lemke_howson(game, label) for label in range(4))
    }
    assert found <= {(1.0, 1.0), (0.0, 0.0), (round(2 / 3, 9), round(1 / 3, 9))}
    with pytest.raises(InvalidInputError):
        lemke_howson(game, 4)


def test_dominance_explanations_quote_the_payoffs() -> None:
    game = bimatrix([[3, 0], [0, 3], [1, 1]], [[0, 0], [0, 0], [0, 0]])
    (step,) = iterated_elimination(game).steps
    assert step.explanation.endswith("(C1, C2): 1/2 R1 + 1/2 R2 pays 3/2, 3/2; R3 pays 1, 1.")
    lecture = iterated_elimination(parse_game(LECTURE)).steps
    assert lecture[1].explanation.endswith("(R2): C2 pays 3; C1 pays 1.")
