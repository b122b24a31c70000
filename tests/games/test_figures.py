"""The one figure writer: deterministic SVG, the process's settings left alone, and
plots of both kinds drawn from many threads at once byte-identical to one at a time."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import matplotlib as mpl

from analysis.equilibria.drawing import matrix_plot_svg
from games.figures import svg_figure, svg_text
from games.matrices.model import bimatrix
from utility.evaluate import evaluate_lottery
from utility.function import read_utility
from utility.lottery import from_pairs
from utility.plot import utility_curve_svg

SVG = "{http://www.w3.org/2000/svg}"


def small_figure(label: str) -> str:
    with svg_figure(2.0, 1.5) as figure:
        axes = figure.add_subplot()
        axes.plot([0, 1], [0, 1], label=label)
        axes.legend()
        return svg_text(figure, tight=True)


def test_the_same_figure_gives_the_same_bytes_as_text_without_the_prolog() -> None:
    first = small_figure("$5 <b>")
    assert first == small_figure("$5 <b>")
    assert first.startswith("<svg")
    # text stays text, escaped, and never read as mathtext
    assert "$5 &lt;b&gt;" in first


def test_figures_carry_their_css_as_attributes_for_a_page_that_allows_no_inline_style() -> None:
    root = ET.fromstring(small_figure("x"))
    assert [e.tag for e in root.iter() if "style" in e.attrib or e.tag == f"{SVG}style"] == []
    # matplotlib's sheet *{stroke-linejoin: round; stroke-linecap: butt}: inherited from the root
    assert (root.get("stroke-linejoin"), root.get("stroke-linecap")) == ("round", "butt")
    # the plotted line and its legend entry, in matplotlib's first colour
    lines = [p.attrib for p in root.iter(f"{SVG}path") if p.get("stroke") == "#1f77b4"]
    assert len(lines) == 2
    assert {(a["fill"], a["stroke-width"], a["stroke-linecap"]) for a in lines} == {
        ("none", "1.5", "square")
    }
    label = next(t for t in root.iter(f"{SVG}text") if t.text == "x")
    assert label.get("font-size") == "10px" and "DejaVu Sans" in label.get("font-family", "")


def test_the_process_settings_are_untouched_and_do_not_leak_in() -> None:
    before = mpl.rcParams["font.size"]
    with mpl.rc_context({"font.size": 31, "svg.fonttype": "path"}):
        drawn = small_figure("x")
        assert mpl.rcParams["font.size"] == 31
    assert mpl.rcParams["font.size"] == before
    assert drawn == small_figure("x")


def test_plots_of_both_kinds_drawn_in_threads_match_those_drawn_one_at_a_time() -> None:
    game = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    lottery = from_pairs({0: Fraction(1, 2), 100: Fraction(1, 2)})
    utility = read_utility("sqrt(x)", {})
    result = evaluate_lottery(lottery, utility)

    def matrix() -> str:
        return matrix_plot_svg(game)

    def curve() -> str:
        return utility_curve_svg(lottery, utility, result)

    alone = {"matrix": matrix(), "curve": curve()}
    jobs = [matrix, curve] * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        drawn = list(pool.map(lambda job: job(), jobs))
    assert drawn == [alone["matrix"], alone["curve"]] * 4
