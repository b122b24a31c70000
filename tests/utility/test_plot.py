"""SVG drawings of a utility curve and of a risk profile: well-formed, marks where the
arithmetic puts them.

Under ``sqrt`` the lottery ``{0: 1/2, 100: 1/2}`` has EMV 50, EU 5 and CE 25 (risk premium
25). The curve is drawn over [0, 100] into x pixels 60..580, so the CE mark stands at
60 + 25/100 * 520 = 190 and the EMV mark at 320. The risk profile of
``{0: 1/4, 2: 1/2, 4: 1/4}`` steps 0 -> 1/4 -> 3/4 -> 1.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from fractions import Fraction

from utility.evaluate import evaluate_lottery
from utility.function import read_utility
from utility.lottery import from_pairs
from utility.plot import HEIGHT, MARGIN, risk_profile_svg, utility_curve_svg

SVG = "{http://www.w3.org/2000/svg}"
HALF = Fraction(1, 2)


def texts(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {element.text or "": element for element in root.iter(f"{SVG}text")}


def test_utility_curve_marks_ce_emv_and_the_risk_premium() -> None:
    lottery = from_pairs({0: HALF, 100: HALF})
    utility = read_utility("sqrt(x)", {})
    svg = utility_curve_svg(lottery, utility, evaluate_lottery(lottery, utility))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    labels = texts(svg)
    assert float(labels["CE 25"].attrib["x"]) == 190
    assert float(labels["EMV 50"].attrib["x"]) == 320
    titles = [element.text for element in root.iter(f"{SVG}title")]
    assert "risk premium 25" in titles
    assert "chord" in titles
    assert "U(x) = sqrt(x): EMV 50, CE 25, risk premium 25" in titles


def test_cara_curve_marks_the_hand_derived_ce() -> None:
    # U = 1 - exp(-2x) on 1 or 3: CE = -(1/2) ln((e^-2 + e^-6)/2) = 1.3375
    lottery = from_pairs({1: HALF, 3: HALF})
    utility = read_utility({"family": "cara"}, {"R": HALF})
    svg = utility_curve_svg(lottery, utility, evaluate_lottery(lottery, utility))
    ce = -math.log((math.exp(-2) + math.exp(-6)) / 2) / 2
    assert f"CE {ce:.5g}" in texts(svg)
    assert f"CE {ce:.5g}" == "CE 1.3375"


def test_labels_from_a_piecewise_formula_are_escaped() -> None:
    # the formula of a piecewise utility prints with "<" in it
    pieces = {
        "piecewise": [
            {"from": 0, "to": 400, "formula": "x"},
            {"from": 400, "to": 1000, "formula": "400 + 2*(x - 400)/3"},
        ]
    }
    lottery = from_pairs({0: HALF, 1000: HALF})
    utility = read_utility(pieces, {})
    svg = utility_curve_svg(lottery, utility, evaluate_lottery(lottery, utility))
    assert ET.fromstring(svg).tag == f"{SVG}svg"
    assert any(text.startswith("CE 400") for text in texts(svg))


def test_risk_profile_is_a_step_function_up_to_one() -> None:
    lottery = from_pairs({0: Fraction(1, 4), 2: HALF, 4: Fraction(1, 4)})
    root = ET.fromstring(risk_profile_svg(lottery))
    (line,) = root.iter(f"{SVG}polyline")
    points = [tuple(map(float, pair.split(","))) for pair in line.attrib["points"].split()]
    # start, then a rise at each of the 3 outcomes, then the end: 2 + 2 * 3 points
    assert len(points) == 8
    heights = [(HEIGHT - MARGIN - y) / (HEIGHT - 2 * MARGIN) for _, y in points]
    assert heights == [0, 0, 0.25, 0.25, 0.75, 0.75, 1, 1]
    xs = [x for x, _ in points]
    assert xs == sorted(xs)
