"""The utility curve and the risk profile as matplotlib draws them: marks where the
arithmetic puts them, read back through the picture's own axis ticks.

Under ``sqrt`` the lottery ``{0: 1/2, 100: 1/2}`` has EMV 50, EU = (0 + 10)/2 = 5 and
CE = 5^2 = 25 (risk premium 25). Under ``1 - exp(-2x)`` the lottery ``{1: 1/2, 3: 1/2}``
has CE = -(1/2) ln((e^-2 + e^-6)/2) = 1.3375. The risk profile of ``{0: 1/4, 2: 1/2,
4: 1/4}`` steps 0 -> 1/4 -> 3/4 -> 1 at 0, 2 and 4.
"""

from __future__ import annotations

import dataclasses
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import matplotlib as mpl
import pytest

from utility.evaluate import evaluate_lottery
from utility.function import UtilityFunction, read_utility
from utility.lottery import Lottery, from_pairs
from utility.plot import MARKED_OUTCOMES, risk_profile_svg, utility_curve_svg

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
HALF = Fraction(1, 2)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def curve(lottery: Lottery, utility: UtilityFunction) -> str:
    return utility_curve_svg(lottery, utility, evaluate_lottery(lottery, utility))


def group(root: ET.Element, gid: str) -> ET.Element:
    (found,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == gid]
    return found


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


class Axis:
    """Data <-> SVG coordinates of one axis, from the picture's own tick marks and labels."""

    def __init__(self, root: ET.Element, name: str, coordinate: str):
        self.ticks: list[tuple[float, float]] = []
        for tick in root.iter(f"{SVG}g"):
            if not (tick.get("id") or "").startswith(f"{name}tick_"):
                continue
            (label,) = texts(tick)
            mark = next(tick.iter(f"{SVG}use"))
            self.ticks.append((float(label.replace("\u2212", "-")), float(mark.attrib[coordinate])))
        (v0, p0), (v1, p1) = self.ticks[0], self.ticks[-1]
        self.scale = (p1 - p0) / (v1 - v0)
        self.origin = p0 - v0 * self.scale

    def value(self, position: float) -> float:
        return (position - self.origin) / self.scale


def marker(root: ET.Element, gid: str) -> tuple[float, float]:
    (use,) = group(root, gid).iter(f"{SVG}use")
    return float(use.attrib["x"]), float(use.attrib["y"])


def path_points(element: ET.Element) -> list[tuple[float, float]]:
    (path,) = element.iter(f"{SVG}path")
    numbers = [float(n) for n in NUMBER.findall(path.attrib["d"])]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def test_the_ce_and_emv_marks_stand_at_the_hand_derived_values() -> None:
    svg = curve(from_pairs({0: HALF, 100: HALF}), read_utility("sqrt(x)", {}))
    root = ET.fromstring(svg)
    x, y = Axis(root, "x", "x"), Axis(root, "y", "y")
    assert [v for v, _ in x.ticks] == [0, 20, 40, 60, 80, 100]
    assert [v for v, _ in y.ticks] == [0, 2, 4, 6, 8, 10]
    ce_x, ce_y = marker(root, "ce-point")
    assert x.value(ce_x) == pytest.approx(25, abs=1e-4)
    assert y.value(ce_y) == pytest.approx(5, abs=1e-4)
    emv_x, emv_y = marker(root, "emv-eu-point")
    assert x.value(emv_x) == pytest.approx(50, abs=1e-4)
    assert y.value(emv_y) == pytest.approx(5, abs=1e-4)
    # the premium is the segment from CE to EMV at height EU
    (start, end) = path_points(group(root, "risk-premium"))
    assert [x.value(start[0]), x.value(end[0])] == pytest.approx([25, 50], abs=1e-4)
    assert y.value(start[1]) == pytest.approx(5, abs=1e-4) == y.value(end[1])
    # the chord joins (0, 0) and (100, 10)
    chord = [(x.value(a), y.value(b)) for a, b in path_points(group(root, "chord"))]
    assert chord == [pytest.approx((0, 0), abs=1e-4), pytest.approx((100, 10), abs=1e-4)]


def test_the_legend_names_every_mark_and_fits_inside_the_figure() -> None:
    svg = curve(from_pairs({0: HALF, 100: HALF}), read_utility("sqrt(x)", {}))
    root = ET.fromstring(svg)
    legend = group(root, "legend_1")
    assert texts(legend) == [
        "U(w + x)",
        "outcomes (x, U(w + x))",
        "chord",
        "risk premium EMV - CE = 25",
        "(EMV, EU) = (50, 5)",
        "CE = 25, U(w + CE) = EU",
    ]
    assert inside(root, legend_frame(root))
    assert "U(x) = sqrt(x): risk averse" in texts(root)
    assert {"money x", "utility U(w + x)"} <= set(texts(root))


def legend_frame(root: ET.Element) -> list[tuple[float, float]]:
    legend = group(root, "legend_1")
    return path_points(
        next(g for g in legend.iter(f"{SVG}g") if g.get("id", "").startswith("patch"))
    )


def inside(root: ET.Element, points: list[tuple[float, float]]) -> bool:
    _, _, width, height = map(float, root.attrib["viewBox"].split())
    return all(0 <= a <= width and 0 <= b <= height for a, b in points)


def test_long_exact_forms_keep_the_legend_inside_the_figure() -> None:
    lottery = from_pairs({Fraction(1, 3): Fraction(1, 7), Fraction(123, 11): Fraction(6, 7)})
    utility = read_utility("sqrt(x)", {})
    # exact forms of the longest length shown (24 characters) in every label
    result = dataclasses.replace(
        evaluate_lottery(lottery, utility),
        emv=Fraction(123456789012, 1000000001),
        expected_utility_exact="sqrt(3)/21 + 6*sqrt(13)",
        certainty_equivalent_exact="(sqrt(3)/21 + sqrt(13))**2",
        risk_premium_exact="123456/7 - sqrt(3)**2/21",
    )
    root = ET.fromstring(utility_curve_svg(lottery, utility, result))
    assert inside(root, legend_frame(root))
    assert "(EMV, EU) = (123456789012/1000000001 ≈ 123.46," in texts(root)


def test_exact_forms_appear_beside_their_decimals() -> None:
    # sqrt on {4: 1/2, 25: 1/2}: EU = 7/2, CE = 49/4, EMV = 29/2, premium 9/4
    svg = curve(from_pairs({4: HALF, 25: HALF}), read_utility("sqrt(x)", {}))
    legend = texts(group(ET.fromstring(svg), "legend_1"))
    assert "CE = 49/4 ≈ 12.25, U(w + CE) = EU" in legend
    assert "(EMV, EU) = (29/2 ≈ 14.5, 7/2 ≈ 3.5)" in legend
    assert "risk premium EMV - CE = 9/4 ≈ 2.25" in legend


def test_cara_curve_marks_the_hand_derived_ce() -> None:
    lottery = from_pairs({1: HALF, 3: HALF})
    utility = read_utility({"family": "cara"}, {"R": HALF})
    root = ET.fromstring(curve(lottery, utility))
    ce = -math.log((math.exp(-2) + math.exp(-6)) / 2) / 2
    assert round(ce, 4) == 1.3375
    ce_x, _ = marker(root, "ce-point")
    assert Axis(root, "x", "x").value(ce_x) == pytest.approx(ce, abs=1e-5)
    assert any(t.startswith("CE = 1.3375") for t in texts(root))


def test_labels_from_a_piecewise_formula_are_escaped() -> None:
    # the formula of a piecewise utility prints with "<" and "&" in it; CE = 400 (hand: EU =
    # (0 + 400 + 2*600/3)/2 = 400 and U(400) = 400)
    pieces = {
        "piecewise": [
            {"from": 0, "to": 400, "formula": "x"},
            {"from": 400, "to": 1000, "formula": "400 + 2*(x - 400)/3"},
        ]
    }
    lottery = from_pairs({0: HALF, 1000: HALF})
    root = ET.fromstring(curve(lottery, read_utility(pieces, {})))
    (title,) = [t for t in texts(root) if t.startswith("U(x) = Piecewise")]
    assert "x < 400" in title
    assert any(t.startswith("CE = 400") for t in texts(root))


def test_a_large_lottery_marks_only_its_extreme_outcomes() -> None:
    n = MARKED_OUTCOMES + 1
    lottery = from_pairs({k: Fraction(1, n) for k in range(n)})
    root = ET.fromstring(curve(lottery, read_utility("x", {})))
    x = Axis(root, "x", "x")
    marks = [x.value(float(u.attrib["x"])) for u in group(root, "outcomes").iter(f"{SVG}use")]
    assert marks == [pytest.approx(0, abs=1e-3), pytest.approx(n - 1, abs=1e-3)]
    assert "lowest and highest outcome" in texts(group(root, "legend_1"))


def test_the_drawing_is_deterministic_and_ignores_the_callers_settings() -> None:
    lottery = from_pairs({0: HALF, 100: HALF})
    utility = read_utility("sqrt(x)", {})
    first = curve(lottery, utility)
    with mpl.rc_context({"lines.linewidth": 7, "font.size": 30, "svg.fonttype": "path"}):
        assert curve(lottery, utility) == first
    assert "<dc:date>" not in first
    # text is text, not glyph outlines
    assert "DejaVuSans-" not in first and "<text" in first


def test_pyplot_is_never_loaded() -> None:
    code = (
        "import sys; from fractions import Fraction as F; from utility.plot import *; "
        "from utility.lottery import from_pairs; risk_profile_svg(from_pairs({0: F(1)})); "
        "print('matplotlib.pyplot' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_risk_profile_rises_to_the_cumulative_probabilities() -> None:
    lottery = from_pairs({0: Fraction(1, 4), 2: HALF, 4: Fraction(1, 4)})
    root = ET.fromstring(risk_profile_svg(lottery))
    x, y = Axis(root, "x", "x"), Axis(root, "y", "y")
    points = [(x.value(a), y.value(b)) for a, b in path_points(group(root, "risk-profile"))]
    rises = [
        (round(a0, 4), round(b0, 4), round(b1, 4))
        for (a0, b0), (a1, b1) in zip(points, points[1:], strict=False)
        if abs(a0 - a1) < 1e-6 and abs(b0 - b1) > 1e-6
    ]
    assert rises == [(0, 0, 0.25), (2, 0.25, 0.75), (4, 0.75, 1)]
    dots = [y.value(float(u.attrib["y"])) for u in group(root, "outcomes").iter(f"{SVG}use")]
    assert dots == pytest.approx([0.25, 0.75, 1], abs=1e-4)
    assert "Cumulative risk profile P(X <= x)" in texts(root)
    assert [v for v, _ in y.ticks] == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1])
