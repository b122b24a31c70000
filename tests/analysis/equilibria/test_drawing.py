"""Plots of small two-player games: the exact envelopes they are drawn from, and what the
SVG shows, read back from it: ticks, legend entries, the staircases and the equilibrium
markers at the coordinates the theory gives (mapped from pixels through the axis ticks).
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from analysis.equilibria.drawing import _envelope, matrix_plot_svg
from games.errors import DomainError, TimeLimitError
from games.limits import Deadline, Limits, limited
from games.matrices.model import bimatrix, zero_sum_game


def _brute_envelope(
    lines: list[tuple[str, Fraction, Fraction]], lower: bool, t: Fraction
) -> Fraction:
    pick = min if lower else max
    return pick(u1 * t + u2 * (1 - t) for _, u1, u2 in lines)


SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"

BATTLE = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]], (("Opera", "Fight"), ("Opera", "Fight")))
THIRD = Fraction(1, 3)
BATTLE_EQUILIBRIA = [((1, 0), (1, 0)), ((0, 1), (0, 1)), ((2 * THIRD, THIRD), (THIRD, 2 * THIRD))]
# Row mixes p on U: columns give 2p - (1-p), -p + (1-p), 3(1-p); maxmin at p = 2/5, value 1/5.
MAXMIN = zero_sum_game([[2, -1, 0], [-1, 1, 3]], (("U", "D"), ("L", "M", "<R&>")))
MAXMIN_EQUILIBRIA = [((Fraction(2, 5), Fraction(3, 5)), (Fraction(2, 5), Fraction(3, 5), 0))]


def _group(root: ET.Element, gid: str) -> ET.Element:
    found = root.find(f".//{SVG}g[@id='{gid}']")
    assert found is not None, gid
    return found


def _number(text: str) -> float:
    return float(Fraction(text.replace("\u2212", "-")))


def _ticks(root: ET.Element, axis: str) -> dict[str, float]:
    """Tick label -> pixel position along the axis (``x`` or ``y``)."""
    ticks = {}
    for tick in root.iter(f"{SVG}g"):
        if not re.fullmatch(f"{axis}tick_\\d+", tick.get("id", "")):
            continue
        mark = tick.find(f".//{SVG}use")
        label = tick.find(f".//{SVG}text")
        assert mark is not None and label is not None and label.text
        ticks[label.text] = float(mark.get(axis, "nan"))
    return ticks


def _to_data(root: ET.Element, x: float, y: float) -> tuple[float, float]:
    """Pixel ``(x, y)`` in data coordinates, by the linear map through two ticks per axis."""
    out = []
    for axis, pixel in (("x", x), ("y", y)):
        (low_label, low), *_, (high_label, high) = sorted(
            _ticks(root, axis).items(), key=lambda item: _number(item[0])
        )
        a, b = _number(low_label), _number(high_label)
        out.append(a + (pixel - low) / (high - low) * (b - a))
    return out[0], out[1]


def _marker(root: ET.Element, gid: str) -> tuple[float, float]:
    use = _group(root, gid).find(f".//{SVG}use")
    assert use is not None
    return _to_data(root, float(use.get("x", "nan")), float(use.get("y", "nan")))


def _legend(root: ET.Element) -> list[str]:
    return [text.text or "" for text in _group(root, "legend_1").iter(f"{SVG}text")]


def _segments(root: ET.Element, gid: str) -> set[tuple[tuple[float, float], ...]]:
    """The polylines drawn in group ``gid``, in data coordinates rounded to 1e-3."""
    found = set()
    for path in _group(root, gid).iter(f"{SVG}path"):
        for piece in re.split(r"M", path.get("d", ""))[1:]:
            numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", piece)]
            points = [
                _to_data(root, x, y) for x, y in zip(numbers[::2], numbers[1::2], strict=True)
            ]
            found.add(tuple((round(x, 3) + 0.0, round(y, 3) + 0.0) for x, y in points))
    return found


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


def test_battle_of_the_sexes_diagram_marks_the_three_crossings_where_theory_puts_them() -> None:
    root = ET.fromstring(matrix_plot_svg(BATTLE, BATTLE_EQUILIBRIA))
    # ticks at the indifference points, written exactly: p* = 2/3 across, q* = 1/3 up
    assert set(_ticks(root, "x")) == {"0", "1/2", "2/3", "1"}
    assert set(_ticks(root, "y")) == {"0", "1/3", "1/2", "1"}
    for index, (p, q) in enumerate([(1, 1), (0, 0), (2 / 3, 1 / 3)]):
        assert _marker(root, f"equilibrium-{index}") == pytest.approx((p, q), abs=1e-6)
    texts = [text.text for text in root.iter(f"{SVG}text")]
    assert {"(1, 1)", "(0, 0)", "(2/3, 1/3)"} <= set(texts)
    assert _legend(root) == [
        "row player's best response p(q)",
        "column player's best response q(p)",
        "Nash equilibrium (p, q)",
    ]
    assert "Best-response diagram" in texts
    assert "p = P(row player plays Opera)" in texts
    assert "q = P(column player plays Opera)" in texts
    # the row player plays Fight (p = 0) below q = 1/3, Opera above, anything at q = 1/3;
    # the column player plays Fight (q = 0) below p = 2/3, Opera above
    assert _segments(root, "row-best-response") == {
        ((0, 0), (0, 0.333)),
        ((1, 0.333), (1, 1)),
        ((0, 0.333), (1, 0.333)),
    }
    assert _segments(root, "column-best-response") == {
        ((0, 0), (0.667, 0)),
        ((0.667, 1), (1, 1)),
        ((0.667, 0), (0.667, 1)),
    }


def test_zero_sum_2xn_lower_envelope_marks_the_maxmin_mix_and_the_value() -> None:
    svg = matrix_plot_svg(MAXMIN, MAXMIN_EQUILIBRIA)
    root = ET.fromstring(svg)
    texts = [text.text for text in root.iter(f"{SVG}text")]
    assert "Lower envelope of the row player's payoff against P(U)" in texts
    assert "t = P(row player plays U)" in texts and "row player's payoff" in texts
    assert _legend(root) == [
        "L",
        "M",
        "<R&>",
        "lower envelope",
        "optimal mix t = 2/5, payoff 1/5",
    ]
    assert "&lt;R&amp;&gt;" in svg  # labels are escaped
    assert _marker(root, "equilibrium-0") == pytest.approx((0.4, 0.2), abs=1e-6)
    # the envelope: column L (2p - (1-p)) up to 2/5, then M (1 - 2p)
    assert _segments(root, "envelope") == {((0, -1), (0.4, 0.2), (1, -1))}
    assert len(_ticks(root, "x")) >= 5 and len(_ticks(root, "y")) >= 3


def test_many_lines_colour_the_envelope_and_share_one_grey_path() -> None:
    # 2x40: the column player's payoff from column k is k/40 whatever the row player
    # does, except column 0 (10 at t = 0) and column 1 (10 at t = 1): the upper envelope
    # is made of columns 0 and 1 and the constant line 39/40 does not reach it
    row = [[0] * 40, [0] * 40]
    col = [[Fraction(k, 40) for k in range(40)] for _ in range(2)]
    col[1][0], col[0][1] = 10, 10
    root = ET.fromstring(matrix_plot_svg(bimatrix(row, col)))
    assert _legend(root) == ["other strategies (38)", "C1", "C2", "upper envelope"]
    grey = _group(root, "other-strategies").find(f".//{SVG}path")
    assert grey is not None and grey.get("d", "").count("M") == 38
    assert _segments(root, "strategy-0") == {((0, 10), (1, 0))}


def test_labels_are_text_as_written() -> None:
    # "$" is no mathtext, "_" no hidden legend entry, a long name is cut with an ellipsis
    game = bimatrix(
        [[1, 0, 2], [0, 1, 0]],
        [[0, 0, 0], [0, 0, 0]],
        (("$5", "D"), ("_left", "a" * 40, "R")),
    )
    root = ET.fromstring(matrix_plot_svg(game))
    assert _legend(root)[:3] == ["_left", "a" * 29 + "…", "R"]
    assert "t = P(row player plays $5)" in [text.text for text in root.iter(f"{SVG}text")]


def test_any_name_is_drawn_without_a_warning() -> None:
    # names DejaVu Sans lacks are kept (the reader's fonts show them); control characters
    # and a lone surrogate (valid in JSON, unusable in XML and by fonts) are replaced
    game = bimatrix(
        [[1, 0, 2], [0, 1, 0]],
        [[0, 1, 0], [1, 0, 0]],
        (("中文", "a\x00b"), ("\ud800", "x\ny", "R")),
    )
    root = ET.fromstring(matrix_plot_svg(game))
    assert _legend(root)[:3] == ["\ufffd", "x y", "R"]
    assert "t = P(row player plays 中文)" in [text.text for text in root.iter(f"{SVG}text")]


def test_the_same_game_gives_the_same_bytes_in_another_process() -> None:
    svg = matrix_plot_svg(BATTLE, BATTLE_EQUILIBRIA)
    assert svg == matrix_plot_svg(BATTLE, BATTLE_EQUILIBRIA)
    program = (
        "import sys\n"
        "from tests.analysis.equilibria.test_drawing import BATTLE, BATTLE_EQUILIBRIA\n"
        "from analysis.equilibria.drawing import matrix_plot_svg\n"
        "sys.stdout.write(matrix_plot_svg(BATTLE, BATTLE_EQUILIBRIA))\n"
    )
    again = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    ).stdout
    assert again == svg
    # text is text (no glyph outlines), and no date
    assert "DejaVuSans-" not in svg and "<dc:date>" not in svg


def test_a_spent_deadline_stops_the_plot() -> None:
    with limited(Limits(time_limit=0.0)), pytest.raises(TimeLimitError):
        matrix_plot_svg(MAXMIN, MAXMIN_EQUILIBRIA)


def test_plot_needs_a_player_with_two_strategies() -> None:
    with pytest.raises(DomainError):
        matrix_plot_svg(bimatrix([[0] * 3] * 3, [[0] * 3] * 3))
