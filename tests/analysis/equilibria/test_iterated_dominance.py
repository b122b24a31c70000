"""Iterated elimination of dominated strategies (pure and mixed dominators, weak on request)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings

from analysis.equilibria.iterated_dominance import iterated_elimination
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from games.matrices.model import bimatrix
from games.matrices.parser import parse_game
from tests.strategies import bimatrices

Matrix = list[list[int]]


LECTURE = {"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]}


@settings(max_examples=100, deadline=None)
@given(bimatrices())
def test_strictly_dominated_strategies_are_never_played(game: tuple[Matrix, Matrix]) -> None:
    first, second = game
    g = bimatrix(first, second)
    surviving = iterated_elimination(g).surviving
    for e in extreme_equilibria(g).equilibria:
        assert all(i in surviving[0] for i, p in enumerate(e.row) if p)
        assert all(j in surviving[1] for j, q in enumerate(e.col) if q)


def test_mixed_dominance_with_payoffs_past_the_float_range_once_scaled() -> None:
    # scaled to integers by a 200-digit denominator, the payoffs reach 1e500: the LP runs on
    # their ratios. R3 pays b/3 against both columns; 1/2 R1 + 1/2 R2 pays b/2 (Fudenberg
    # and Tirole's example of domination by a mixed strategy, scaled)
    big = Fraction(10**300) + Fraction(1, 10**199 + 7)
    row = [[big, 0], [0, big], [big / 3, big / 3]]
    game = bimatrix(row, [[0, 0], [0, 0], [0, 0]])
    result = iterated_elimination(game, mixed=True)
    assert result.steps[0].strategy == 2
    assert result.steps[0].dominated_by == ((0, Fraction(1, 2)), (1, Fraction(1, 2)))


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


def test_dominance_explanations_quote_the_payoffs() -> None:
    game = bimatrix([[3, 0], [0, 3], [1, 1]], [[0, 0], [0, 0], [0, 0]])
    (step,) = iterated_elimination(game).steps
    assert step.explanation.endswith("(C1, C2): 1/2 R1 + 1/2 R2 pays 3/2, 3/2; R3 pays 1, 1.")
    lecture = iterated_elimination(parse_game(LECTURE)).steps
    assert lecture[1].explanation.endswith("(R2): C2 pays 3; C1 pays 1.")
