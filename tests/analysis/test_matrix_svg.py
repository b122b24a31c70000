"""SVG plots: well-formed XML, equilibria where the theory puts them."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from analysis.equilibria.drawing import matrix_plot_svg
from games.errors import DomainError
from games.matrices.model import bimatrix, zero_sum_game

SVG = "{http://www.w3.org/2000/svg}"


def test_battle_of_the_sexes_best_response_diagram_marks_three_crossings() -> None:
    game = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    third = Fraction(1, 3)
    equilibria = [((1, 0), (1, 0)), ((0, 1), (0, 1)), ((2 * third, third), (third, 2 * third))]
    root = ET.fromstring(matrix_plot_svg(game, equilibria))
    titles = [c.findtext(f"{SVG}title") for c in root.iter(f"{SVG}circle")]
    assert titles == [
        "equilibrium p = 1, q = 1",
        "equilibrium p = 0, q = 0",
        "equilibrium p = 2/3, q = 1/3",
    ]
    # Each staircase: two flat pieces and the jump at the indifference point.
    assert len(list(root.iter(f"{SVG}polyline"))) == 6


def test_zero_sum_2xn_lower_envelope_marks_the_maxmin_mix() -> None:
    # Row mixes p on R1: columns give 2p - (1-p), -p + (1-p), 3(1-p); maxmin at p = 2/5.
    game = zero_sum_game([[2, -1, 0], [-1, 1, 3]], (("U", "D"), ("L", "M", "<R&>")))
    svg = matrix_plot_svg(game, [((Fraction(2, 5), Fraction(3, 5)), (0, 1, 0))])
    root = ET.fromstring(svg)
    assert "Lower envelope" in root.findtext(f"{SVG}title", "")
    assert "equilibrium at 0.4" in svg
    assert "&lt;R&amp;&gt;" in svg  # labels are escaped


def test_plot_needs_a_player_with_two_strategies() -> None:
    with pytest.raises(DomainError):
        matrix_plot_svg(bimatrix([[0] * 3] * 3, [[0] * 3] * 3))
