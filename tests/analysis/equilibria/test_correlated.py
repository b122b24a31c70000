"""Correlated and coarse correlated equilibria: textbook games derived by hand, Nash
equilibria inside the polytope, CE inside CCE, and a float LP written here as a second method.

The incentive constraints are checked by :func:`incentive_gains`, written here from the
definitions (Aumann 1974; Hart and Mas-Colell 2000) with Fractions, independent of the
module's integer LP rows.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from analysis.equilibria.correlated import (
    MAX_COEFFICIENTS,
    CorrelatedEquilibrium,
    IncentiveConstraint,
    correlated_equilibria,
    welfare_extreme_equilibrium,
)
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from games.errors import LimitExceededError
from games.matrices.model import NormalFormGame, bimatrix, default_labels, exact_array
from tests.strategies import bimatrices

Profile = tuple[int, ...]
F = Fraction

# Chicken: strategies (chicken, dare). Write a = p(C,C), b = p(C,D), c = p(D,C), d = p(D,D).
# Row told C: 6a + 2b >= 7a (dare instead), i.e. a <= 2b; told D: 7c >= 6c + 2d, i.e. c >= 2d;
# the column likewise a <= 2c, b >= 2d. Welfare 12a + 9b + 9c.
# Max: d = 0 costs nothing, welfare = 9 + 3a with a <= 2 min(b, c) <= 1 - a, so a <= 1/2:
#   21/2 at a = 1/2, b = c = 1/4 (unique), 21/4 each.
# Min: welfare >= 9(a + b + c) = 9(1 - d) and 4d <= b + c <= 1 - d, so d <= 1/5:
#   36/5 at b = c = 2/5, d = 1/5 (unique), 18/5 each.
CHICKEN = bimatrix([[6, 2], [7, 0]], [[6, 7], [2, 0]], (("C", "D"), ("C", "D")))

# Aumann (1974), rows T, B, columns L, R: ((5,1),(0,0);(4,4),(1,5)). With a, b, c, d on
# TL, TR, BL, BR: row told T: 5a >= 4a + b, i.e. a >= b; told B: 4c + d >= 5c, i.e. d >= c;
# column told L: a + 4c >= 5c, i.e. a >= c; told R: 5d >= b + 4d, i.e. d >= b.
# Welfare 6a + 0b + 8c + 6d.
# Max: b = 0 only helps; 6 + 2c with a, d >= c and a + c + d = 1, so c <= 1/3:
#   20/3 at a = c = d = 1/3 (unique), 10/3 each (Aumann's "better than any Nash" point).
# Min: 6 - 6b + 2c: c = 0, and b <= a, b <= d, a + b + d = 1, so b <= 1/3:
#   4 at a = b = d = 1/3 (unique), 2 each.
AUMANN = bimatrix([[5, 0], [4, 1]], [[1, 0], [4, 5]], (("T", "B"), ("L", "R")))

# Shapley's game: a win is worth 1 to the winner, a draw (the diagonal) 0 to both; every
# off-diagonal cell has welfare 1, so welfare <= 1, reached by 1/6 on each off-diagonal
# cell (a correlated equilibrium, checked below), but not only by it.
SHAPLEY = bimatrix([[0, 0, 1], [1, 0, 0], [0, 1, 0]], [[0, 1, 0], [0, 0, 1], [1, 0, 0]], None)


def payoff(game: NormalFormGame, player: int, profile: Profile) -> Fraction:
    return F(game.payoffs[player][profile])


def incentive_gains(
    game: NormalFormGame, p: dict[Profile, Fraction], coarse: bool
) -> dict[tuple[int, int | None, int], Fraction]:
    """Expected loss from each deviation (>= 0 for an equilibrium), from the definitions."""
    gains: dict[tuple[int, int | None, int], Fraction] = {}
    for player, size in enumerate(game.shape):
        for deviation in range(size):
            for recommended in [None] if coarse else range(size):
                if recommended == deviation:
                    continue
                total = F(0)
                for profile, weight in p.items():
                    if recommended is not None and profile[player] != recommended:
                        continue
                    moved = profile[:player] + (deviation,) + profile[player + 1 :]
                    total += weight * (payoff(game, player, profile) - payoff(game, player, moved))
                gains[(player, recommended, deviation)] = total
    return gains


def as_map(found: CorrelatedEquilibrium) -> dict[Profile, Fraction]:
    return {profile: F(q) for profile, q in found.distribution}


def check_equilibrium(game: NormalFormGame, found: CorrelatedEquilibrium) -> None:
    """Exact: a distribution, every incentive constraint holds, payoffs and binding as stated."""
    assert found.exact
    p = as_map(found)
    assert all(q > 0 for q in p.values()) and sum(p.values()) == 1
    gains = incentive_gains(game, p, found.coarse)
    assert all(g >= 0 for g in gains.values())
    expected = [sum(q * payoff(game, i, s) for s, q in p.items()) for i in range(game.players)]
    assert list(found.payoffs) == expected
    assert found.welfare == sum(expected)
    recommended = {(i, s[i]) for s in p for i in range(game.players)}
    binding = {
        IncentiveConstraint(*key)
        for key, g in gains.items()
        if g == 0 and (key[1] is None or (key[0], key[1]) in recommended)
    }
    assert set(found.binding) == binding


def float_optimum(game: NormalFormGame, coarse: bool, maximise: bool) -> float:
    """The same LP written densely from the definitions and solved by scipy in floats."""
    profiles = list(itertools.product(*(range(m) for m in game.shape)))
    rows = []
    for player, size in enumerate(game.shape):
        for deviation in range(size):
            for recommended in [None] if coarse else range(size):
                if recommended == deviation:
                    continue
                row = []
                for profile in profiles:
                    if recommended is not None and profile[player] != recommended:
                        row.append(0.0)
                        continue
                    moved = profile[:player] + (deviation,) + profile[player + 1 :]
                    row.append(float(payoff(game, player, profile) - payoff(game, player, moved)))
                rows.append(row)
    welfare = np.array(
        [float(sum(payoff(game, i, s) for i in range(game.players))) for s in profiles]
    )
    result = linprog(
        -welfare if maximise else welfare,
        A_ub=-np.array(rows) if rows else None,
        b_ub=np.zeros(len(rows)) if rows else None,
        A_eq=np.ones((1, len(profiles))),
        b_eq=[1.0],
        bounds=(0, None),
        method="highs",
    )
    assert result.status == 0
    return float(welfare @ result.x)


def test_chicken_maximum_welfare() -> None:
    found = welfare_extreme_equilibrium(CHICKEN, "max_welfare")
    check_equilibrium(CHICKEN, found)
    assert as_map(found) == {(0, 0): F(1, 2), (0, 1): F(1, 4), (1, 0): F(1, 4)}
    assert found.payoffs == (F(21, 4), F(21, 4))
    assert found.welfare == F(21, 2)
    # a <= 2b and a <= 2c bind: each player told "chicken" is indifferent to daring
    assert set(found.binding) == {IncentiveConstraint(0, 0, 1), IncentiveConstraint(1, 0, 1)}


def test_chicken_minimum_welfare() -> None:
    found = welfare_extreme_equilibrium(CHICKEN, "min_welfare")
    check_equilibrium(CHICKEN, found)
    assert as_map(found) == {(0, 1): F(2, 5), (1, 0): F(2, 5), (1, 1): F(1, 5)}
    assert found.payoffs == (F(18, 5), F(18, 5))


def test_aumann_game() -> None:
    both = correlated_equilibria(AUMANN)
    check_equilibrium(AUMANN, both.max_welfare)
    third = F(1, 3)
    assert as_map(both.max_welfare) == {(0, 0): third, (1, 0): third, (1, 1): third}
    assert both.max_welfare.payoffs == (F(10, 3), F(10, 3))
    # d >= c (row told B) and a >= c (column told L) bind
    assert set(both.max_welfare.binding) == {
        IncentiveConstraint(0, 1, 0),
        IncentiveConstraint(1, 0, 1),
    }
    check_equilibrium(AUMANN, both.min_welfare)
    assert as_map(both.min_welfare) == {(0, 0): third, (0, 1): third, (1, 1): third}
    assert both.min_welfare.payoffs == (2, 2)
    # above every Nash equilibrium: (5, 1), (1, 5) and (5/2, 5/2) all have welfare 6 or 5
    assert both.max_welfare.welfare > 6


def test_shapley_game_reaches_welfare_one() -> None:
    sixth = F(1, 6)
    off_diagonal = {(r, c): sixth for r in range(3) for c in range(3) if r != c}
    assert all(g >= 0 for g in incentive_gains(SHAPLEY, off_diagonal, coarse=False).values())
    found = correlated_equilibria(SHAPLEY)
    check_equilibrium(SHAPLEY, found.max_welfare)
    assert found.max_welfare.welfare == 1
    assert found.coarse_max_welfare.welfare == 1
    check_equilibrium(SHAPLEY, found.coarse_max_welfare)


@pytest.mark.parametrize("game", [CHICKEN, AUMANN, SHAPLEY], ids=["chicken", "aumann", "shapley"])
def test_every_nash_equilibrium_is_correlated(game: NormalFormGame) -> None:
    found = correlated_equilibria(game)
    for nash in extreme_equilibria(game).equilibria:
        product = {
            (r, c): F(x) * F(y)
            for (r, x), (c, y) in itertools.product(enumerate(nash.row), enumerate(nash.col))
            if x and y
        }
        assert all(g >= 0 for g in incentive_gains(game, product, coarse=False).values())
        welfare = sum(nash.payoffs)
        assert found.min_welfare.welfare <= welfare <= found.max_welfare.welfare


def test_three_players_dummy_added_to_chicken() -> None:
    # a third player with two strategies, paid 1 whatever happens: his constraints are all
    # 0 >= 0, so the optimum is Chicken's plus 1
    shape = (2, 2, 2)
    first = np.empty(shape, dtype=object)
    second = np.empty(shape, dtype=object)
    third = np.empty(shape, dtype=object)
    for r, c, k in itertools.product(range(2), repeat=3):
        first[r, c, k] = CHICKEN.payoffs[0][r, c]
        second[r, c, k] = CHICKEN.payoffs[1][r, c]
        third[r, c, k] = 1
    game = NormalFormGame((first, second, third), default_labels(shape))
    found = correlated_equilibria(game)
    for answer in (found.max_welfare, found.min_welfare):
        check_equilibrium(game, answer)
    assert found.max_welfare.welfare == F(21, 2) + 1
    assert found.min_welfare.welfare == F(36, 5) + 1
    assert found.max_welfare.payoffs[:2] == (F(21, 4), F(21, 4))


def test_three_player_coordination() -> None:
    # 1 to everyone when all three choose alike: the pure profile (0, 0, 0) is a Nash
    # equilibrium of welfare 3, the most any profile has
    shape = (2, 2, 2)
    arrays = []
    for _ in range(3):
        array = np.empty(shape, dtype=object)
        for s in itertools.product(range(2), repeat=3):
            array[s] = int(len(set(s)) == 1)
        arrays.append(array)
    game = NormalFormGame(tuple(arrays), default_labels(shape))
    found = correlated_equilibria(game)
    check_equilibrium(game, found.max_welfare)
    assert found.max_welfare.welfare == 3
    check_equilibrium(game, found.min_welfare)
    assert found.min_welfare.welfare <= F(3, 4)  # the uniform mixed equilibrium's welfare


def _three_player_games() -> st.SearchStrategy[NormalFormGame]:
    entries = st.integers(-3, 3)
    shape = (2, 2, 2)

    def build(values: list[int]) -> NormalFormGame:
        arrays = tuple(
            exact_array(np.array(values[i * 8 : i * 8 + 8]).reshape(shape).tolist())
            for i in range(3)
        )
        return NormalFormGame(arrays, default_labels(shape))

    return st.lists(entries, min_size=24, max_size=24).map(build)


def _bimatrix_games() -> st.SearchStrategy[NormalFormGame]:
    return bimatrices().map(lambda pair: bimatrix(pair[0], pair[1]))


@settings(max_examples=60, deadline=None)
@given(st.one_of(_bimatrix_games(), _three_player_games()))
def test_certified_optimum_is_an_equilibrium_and_beats_a_float_lp(game: NormalFormGame) -> None:
    found = correlated_equilibria(game)
    answers = {
        (False, True): found.max_welfare,
        (False, False): found.min_welfare,
        (True, True): found.coarse_max_welfare,
        (True, False): found.coarse_min_welfare,
    }
    for (coarse, maximise), answer in answers.items():
        check_equilibrium(game, answer)
        other = float_optimum(game, coarse, maximise)
        scale = 1 + max(abs(float(v)) for a in game.payoffs for v in a.flat)
        if maximise:
            assert other <= float(answer.welfare) + 1e-7 * scale
        else:
            assert other >= float(answer.welfare) - 1e-7 * scale
    # CE inside CCE
    assert found.coarse_max_welfare.welfare >= found.max_welfare.welfare
    assert found.coarse_min_welfare.welfare <= found.min_welfare.welfare


@settings(max_examples=30, deadline=None)
@given(_bimatrix_games(), st.integers(1, 7), st.integers(-4, 4))
def test_positive_affine_payoffs_keep_the_distribution_feasible(
    game: NormalFormGame, factor: int, shift: int
) -> None:
    # u -> factor * u + shift changes no incentive constraint: the optimum welfare moves along
    found = welfare_extreme_equilibrium(game)
    moved = bimatrix(
        (game.payoffs[0] * factor + shift).tolist(), (game.payoffs[1] * factor + shift).tolist()
    )
    again = welfare_extreme_equilibrium(moved)
    assert again.welfare == found.welfare * factor + 2 * shift


def test_float_arithmetic_is_flagged() -> None:
    found = welfare_extreme_equilibrium(CHICKEN, exact=False)
    assert not found.exact
    assert found.welfare == pytest.approx(10.5)
    assert dict(found.distribution)[(0, 0)] == pytest.approx(0.5)


def test_fractional_payoffs() -> None:
    # Chicken with every payoff divided by 7: the same distribution, welfare 3/2
    game = bimatrix((CHICKEN.payoffs[0] / F(7)).tolist(), (CHICKEN.payoffs[1] / F(7)).tolist())
    found = welfare_extreme_equilibrium(game)
    check_equilibrium(game, found)
    assert found.welfare == F(3, 2)


@pytest.mark.parametrize("seed", range(6))
def test_payoffs_with_many_denominators_are_exact(seed: int) -> None:
    # payoffs k/d with d up to 49: scaled to integers by their lcm (about 2^40), the LP's
    # integer coefficients dwarf the normalisation's ones; still certified exactly
    rng = np.random.default_rng(seed)
    shape = (4, 3)
    arrays = tuple(
        exact_array(
            [
                [F(int(rng.integers(-20, 20)), int(rng.integers(1, 50))) for _ in range(shape[1])]
                for _ in range(shape[0])
            ]
        )
        for _ in shape
    )
    game = NormalFormGame(arrays, default_labels(shape))
    found = correlated_equilibria(game)
    for coarse, answer in ((False, found.max_welfare), (True, found.coarse_max_welfare)):
        check_equilibrium(game, answer)
        assert abs(float_optimum(game, coarse, True) - float(answer.welfare)) < 1e-7


def test_payoffs_floats_cannot_tell_apart_are_solved_exactly() -> None:
    # Chicken plus 10^25 in every cell: no incentive constraint changes, so the optima are
    # Chicken's plus 2 * 10^25; in doubles the welfare is the same in every cell, the float
    # vertex cannot be certified and the exact simplex answers
    big = 10**25
    game = bimatrix((CHICKEN.payoffs[0] + big).tolist(), (CHICKEN.payoffs[1] + big).tolist())
    found = correlated_equilibria(game)
    for answer in (found.max_welfare, found.coarse_max_welfare):
        check_equilibrium(game, answer)
        assert answer.welfare == F(21, 2) + 2 * big
        assert as_map(answer) == {(0, 0): F(1, 2), (0, 1): F(1, 4), (1, 0): F(1, 4)}
    for answer in (found.min_welfare, found.coarse_min_welfare):
        check_equilibrium(game, answer)
        assert answer.welfare == F(36, 5) + 2 * big


def test_large_games_are_refused() -> None:
    side = math.isqrt(MAX_COEFFICIENTS // 2) + 1
    big = bimatrix(
        np.zeros((side, side), dtype=int).tolist(), np.zeros((side, side), dtype=int).tolist()
    )
    with pytest.raises(LimitExceededError) as caught:
        correlated_equilibria(big)
    assert caught.value.errors[0].parameter == "parts"
