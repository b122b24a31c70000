"""The practice page's errors at the field they concern, the last problem kept dimmed while
the settings are refused, and the bare problem exported for a handout, in a real browser.

The practice problem of seed 4 (depth 2, three children, AIMA's rule, see
test_practice_page.py) is ``[[3, 12, 15], [2, 2, 0], [17, 9, 1]]``: the MIN nodes are worth
3, 2 (a bound: root.1.1 and root.1.2 are pruned) and 1, the root 3. The handout shows the
nine leaves and none of these.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.test_practice_page import SETTINGS, generate, shape

SVG = "{http://www.w3.org/2000/svg}"


def tikz_values(text: str) -> dict[str, str]:
    """The value written in each node of a TikZ drawing, by the node id labelled beside it."""
    node = r"\\node\[[^\n]*above right:([^}\]]*)\}\] \(n\d+\) at [^{]*\{([^}]*)\};"
    return dict(re.findall(node, text))


def drawn_values(drawing: Path) -> dict[str, list[str | None]]:
    """The value labels of each node of an SVG drawing, by node id."""
    return {
        g.attrib["data-node-id"]: [
            t.text for t in g.iter(f"{SVG}text") if t.get("class") == "value"
        ]
        for g in ET.parse(drawing).getroot().iter(f"{SVG}g")
        if "data-node-id" in g.attrib
    }


def test_a_depth_the_page_does_not_offer_is_refused_at_the_depth_field(
    page: Page, base_url: str
) -> None:
    generate(page, base_url, SETTINGS)
    refused = page.get_by_test_id("practice-generate-error")
    for depth, words in [("8", "from 1 to 5"), ("", "from 1 to 5"), ("2.5", "whole number")]:
        page.get_by_test_id("practice-depth").fill(depth)
        page.get_by_test_id("practice-generate").click()
        expect(refused).to_contain_text("Depth: give a whole number")
        expect(refused).to_contain_text(words)
        assert "(at /depth)" in refused.inner_text()
        assert page.get_by_test_id("practice-depth").get_attribute("aria-invalid") == "true"
        for other in ("branching-min", "branching-max", "least-pruned", "seed"):
            assert page.get_by_test_id(f"practice-{other}").get_attribute("aria-invalid") is None
        assert page.evaluate("document.activeElement.id") == "depth"
    # the last problem stays, dimmed, under a line saying why, until the depth is fixed
    stale = page.get_by_test_id("practice-stale")
    expect(stale).to_be_visible()
    opacity = page.get_by_test_id("drawing").evaluate("e => getComputedStyle(e).opacity")
    assert float(opacity) < 1
    page.get_by_test_id("practice-depth").fill("2")
    expect(stale).to_be_hidden()
    assert refused.is_hidden()
    assert page.get_by_test_id("practice-depth").get_attribute("aria-invalid") is None


def test_every_generator_setting_is_refused_at_its_own_field(page: Page, base_url: str) -> None:
    page.goto(base_url + "/practice")
    refused = page.get_by_test_id("practice-generate-error")
    cases = [
        ("branching-min", "0", "/branching/0", "Fewest children"),
        ("branching-max", "9", "/branching/1", "Most children"),
        ("least-pruned", "-1", "/min_pruned_leaves", "At least this many pruned leaves"),
        ("seed", "-3", "/seed", "Seed"),
    ]
    for field, value, pointer, label in cases:
        control = page.get_by_test_id(f"practice-{field}")
        before = control.input_value()
        control.fill(value)
        page.get_by_test_id("practice-generate").click()
        expect(refused).to_contain_text(f"(at {pointer})")
        assert refused.inner_text().startswith(label)
        assert control.get_attribute("aria-invalid") == "true"
        control.fill(before)
    # the fewest above the most: the most is named
    page.get_by_test_id("practice-branching-min").fill("4")
    page.get_by_test_id("practice-branching-max").fill("2")
    page.get_by_test_id("practice-generate").click()
    expect(refused).to_contain_text("(at /branching/1)")
    assert page.get_by_test_id("practice-branching-max").get_attribute("aria-invalid") == "true"
    # no problem was ever generated: nothing to dim
    assert page.get_by_test_id("practice-stale").is_hidden()


def test_the_handout_export_is_the_bare_problem(page: Page, base_url: str, tmp_path: Path) -> None:
    generate(page, base_url, SETTINGS)
    # the student's marks on the page never reach the handout
    shape(page, "root.1.1").click()
    with page.expect_request("**/v1/trees/render") as sent, page.expect_download() as tikz:
        page.get_by_test_id("practice-export-tikz").click()
    posted = sent.value.post_data_json
    assert posted is not None and posted["bare"] is True
    saved = tmp_path / "problem.tex"
    tikz.value.save_as(saved)
    assert tikz.value.suggested_filename == "practice-seed-4.tex"
    text = saved.read_text()
    values = tikz_values(text)
    assert [values[f"root.{i}.{j}"] for i in range(3) for j in range(3)] == [
        "3", "12", "15", "2", "2", "0", "17", "9", "1"
    ]  # fmt: skip
    assert [values[n] for n in ("root", "root.0", "root.1", "root.2")] == ["", "", "", ""]
    assert not re.search(r"\\(node|draw)\[[^\]]*\b(best|pruned)\b", text)
    with page.expect_download() as svg:
        page.get_by_test_id("practice-export-svg").click()
    drawn = tmp_path / "problem.svg"
    svg.value.save_as(drawn)
    labels = drawn_values(drawn)
    assert [labels[n] for n in ("root", "root.0", "root.1", "root.2")] == [[], [], [], []]
    assert labels["root.1.1"] == ["2"] and "marked" not in drawn.read_text()
