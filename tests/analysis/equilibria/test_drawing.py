"""SVG plots of 2xn games: well-formed XML, equilibria where the theory puts them, and the
exact envelopes they are drawn from.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from analysis.equilibria.drawing import _envelope, matrix_plot_svg
from games.errors import DomainError
from games.limits import Deadline
from games.matrices.model import bimatrix, zero_sum_game


def _brute_envelope(
    lines: list[tuple[str, Fraction, Fraction]], lower: bool, t: Fraction
) -> Fraction:
    pick = min if lower else max
    return pick(u1 * t + u2 * (1 - t) for _, u1, u2 in lines)


SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("lower", [False, True])
def test_envelope_corners_lie_on_the_envelope_and_bound_it(seed: int, lower: bool) -> None:
    rng = random.Random(seed)
    count = rng.randint(1, 12)
    values = [-3, -1, 0, 1, 2, 5]  # few values: parallel and coincident lines, shared crossings
    lines = [
        (f"L{k}", Fraction(rng.choice(values)), Fraction(rng.choice(values))) for k in range(count)
    ]
    corners = _envelope(lines, lower, Deadline(None))
    assert corners[0][0] == 0 and corners[-1][0] == 1
    assert [t for t, _ in corners] == sorted({t for t, _ in corners})
    for t, value in corners:
        assert value == _brute_envelope(lines, lower, t)
    # between corners the envelope is one line: the polyline matches it everywhere
    for (t0, v0), (t1, v1) in zip(corners, corners[1:], strict=False):
        for k in range(1, 5):
            t = t0 + (t1 - t0) * Fraction(k, 5)
            assert v0 + (v1 - v0) * Fraction(k, 5) == _brute_envelope(lines, lower, t)


def test_envelope_of_crossing_lines_has_the_known_corners() -> None:
    # u = t, u = 1 - t, u = 1/4: the lower envelope is t up to 1/4, then 1/4 up to 3/4,
    # then 1 - t; the upper one is 1 - t up to 1/2, then t
    lines = [("a", Fraction(1), Fraction(0)), ("b", Fraction(0), Fraction(1))]
    lines.append(("c", Fraction(1, 4), Fraction(1, 4)))
    corners = _envelope(lines, True, Deadline(None))
    assert corners == [
        (0, 0),
        (Fraction(1, 4), Fraction(1, 4)),
        (Fraction(3, 4), Fraction(1, 4)),
        (1, 0),
    ]
    assert _envelope(lines, False, Deadline(None)) == [
        (0, 1),
        (Fraction(1, 2), Fraction(1, 2)),
        (1, 1),
    ]


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
