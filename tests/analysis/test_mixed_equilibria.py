"""Extreme equilibria of classic games, against their published (hand-derived) equilibria."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from analysis.equilibria.vertex_enumeration import extreme_equilibria
from games.errors import DomainError, LimitExceededError
from games.matrices.model import bimatrix
from games.matrices.parser import parse_game

CASES = json.loads((Path(__file__).with_name("classic_games.json")).read_text())["games"]


def as_set(found: Any) -> set[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    return {
        (
            tuple(str(p) for p in e.row),
            tuple(str(q) for q in e.col),
            tuple(str(u) for u in e.payoffs),
        )
        for e in found.equilibria
    }


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_classic_games_have_their_published_equilibria(case: dict[str, Any]) -> None:
    game = parse_game(case)
    found = extreme_equilibria(game)
    expected = {(tuple(r), tuple(c), tuple(u)) for r, c, u in case["equilibria"]}
    assert as_set(found) == expected
    assert found.degenerate is case["degenerate"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_float_mode_finds_the_same_equilibria(case: dict[str, Any]) -> None:
    found = extreme_equilibria(parse_game(case), exact=False)
    expected = sorted(
        (tuple(float(Fraction(p)) for p in r), tuple(float(Fraction(q)) for q in c))
        for r, c, _ in case["equilibria"]
    )
    got = sorted((e.row, e.col) for e in found.equilibria)
    assert len(got) == len(expected)
    for (row, col), (want_row, want_col) in zip(got, expected, strict=True):
        assert row == pytest.approx(want_row) and col == pytest.approx(want_col)


def test_degenerate_game_reports_its_continuum_of_equilibria() -> None:
    # von Stengel's degenerate 3x2 game: against T the column player is indifferent, so
    # (T, (y, 1-y)) is an equilibrium for every y in [2/3, 1] (hand-checked: T pays 3,
    # M pays 5 - 3y, B pays 6 - 6y).
    found = extreme_equilibria(bimatrix([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]]))
    continua = [c for c in found.components if c.continuum]
    assert len(continua) == 1
    (subset,) = continua[0].subsets
    rows = {found.row_vertices[r] for r in subset.row}
    cols = {found.col_vertices[c] for c in subset.col}
    assert rows == {(1, 0, 0)}
    assert cols == {(1, 0), (Fraction(2, 3), Fraction(1, 3))}


def test_all_indifferent_game_is_one_square_of_equilibria() -> None:
    found = extreme_equilibria(bimatrix([[1, 1], [1, 1]], [[5, 5], [5, 5]]))
    assert found.degenerate
    assert len(found.equilibria) == 4
    (component,) = found.components
    (subset,) = component.subsets
    assert len(subset.row) == 2 and len(subset.col) == 2


def test_single_row_game_lists_every_best_response() -> None:
    found = extreme_equilibria(bimatrix([[1, 2, 2]], [[0, 1, 1]]))
    assert {e.col for e in found.equilibria} == {(0, 1, 0), (0, 0, 1)}
    assert found.degenerate


def test_fractional_payoffs_are_exact() -> None:
    game = parse_game({"A": [["1/2", 0], [0, "1/4"]], "B": [["0.25", 0], [0, "0.5"]]})
    found = extreme_equilibria(game)
    mixed = [e for e in found.equilibria if 0 < e.row[0] < 1]
    # Scaling BoS by 1/4 keeps the mixed equilibrium (2/3, 1/3), (1/3, 2/3); payoffs 1/6.
    assert [(e.row, e.col, e.payoffs) for e in mixed] == [
        (
            (Fraction(2, 3), Fraction(1, 3)),
            (Fraction(1, 3), Fraction(2, 3)),
            (Fraction(1, 6), Fraction(1, 6)),
        )
    ]


def test_limits_and_domain() -> None:
    with pytest.raises(LimitExceededError):
        extreme_equilibria(
            bimatrix(np.zeros((16, 2), dtype=int).tolist(), np.zeros((16, 2), dtype=int).tolist())
        )
    three = parse_game({"payoff_arrays": [[[[0]]], [[[0]]], [[[0]]]]})
    with pytest.raises(DomainError):
        extreme_equilibria(three)


def test_badly_scaled_game_falls_back_to_exact_enumeration() -> None:
    # Battle of the sexes with a payoff of 10^30: the row player's 10^30 against 1 gives
    # p = 10^30 / (10^30 + 1), q = 1 / (10^30 + 1) by the indifference conditions.
    big = 10**30
    found = extreme_equilibria(bimatrix([[big, 0], [0, 1]], [[1, 0], [0, big]]))
    p, q = Fraction(big, big + 1), Fraction(1, big + 1)
    assert {(e.row, e.col) for e in found.equilibria} == {
        ((0, 1), (0, 1)),
        ((1, 0), (1, 0)),
        ((p, 1 - p), (q, 1 - q)),
    }
    assert not found.degenerate
