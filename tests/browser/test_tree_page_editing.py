"""The trees page in a real browser: a refused input keeps the last drawing, dimmed; an edit
keeps the form the tree was written in; the handout export; readable node labels; the
drawing and the step-through in view together after Solve.

AIMA figure 5.2, [[3, 12, 8], [2, 4, 6], [14, 5, 2]], is worth 3: MIN nodes 3, 2 and 2.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.test_errors_and_export import drawn_values, tikz_values
from tests.browser.test_tree_page import click_node, settled, solve

AIMA = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
SVG = "{http://www.w3.org/2000/svg}"


def test_an_error_keeps_the_last_drawing_dimmed_until_the_input_is_fixed(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/")
    assert solve(page, AIMA) == "3"
    drawn = page.locator("#drawing svg").inner_html()
    # a string where a leaf's number belongs: the API blames /tree/1/2, the node root.1.2
    page.get_by_test_id("tree-input").fill('[[3, 12, 8], [2, 4, "x"], [14, 5, 2]]')
    page.get_by_test_id("solve").click()
    message = page.get_by_test_id("tree-error")
    expect(message).to_contain_text("(at /tree/1/2)")
    assert page.get_by_test_id("tree-input").get_attribute("aria-invalid") == "true"
    expect(page.get_by_test_id("stale-note")).to_be_visible()
    assert page.locator("#drawing.stale svg").count() == 1
    opacity = page.locator("#drawing svg").evaluate("svg => Number(getComputedStyle(svg).opacity)")
    assert opacity < 0.6
    assert page.locator("[data-blamed]").get_attribute("data-node-id") == "root.1.2"
    assert page.locator("#drawing svg").inner_html().replace(' data-blamed=""', "") == drawn
    # the answer and the step-through of the older tree are put away
    assert page.get_by_test_id("result-value").is_hidden()
    assert page.get_by_test_id("step-next").is_hidden()
    # JSON that does not parse keeps it too
    page.get_by_test_id("tree-input").fill("[[3, 12, 8], [2, 4")
    page.get_by_test_id("solve").click()
    expect(message).to_contain_text("not valid JSON")
    assert page.locator("#drawing.stale svg").count() == 1
    # fixed: drawn afresh, not dimmed, no error
    assert solve(page, "[[3, 12, 8], [2, 4, 6]]") == "3"
    expect(page.get_by_test_id("stale-note")).to_be_hidden()
    assert page.locator("#drawing.stale").count() == 0
    assert message.is_hidden()
    assert page.get_by_test_id("tree-input").get_attribute("aria-invalid") is None
    assert page.locator("[data-node-id]").count() == 9


def edit_leaf(page: Page, node_id: str, value: str) -> None:
    click_node(page, node_id)
    page.get_by_test_id("editor-value").fill(value)
    page.get_by_test_id("editor-apply").click()
    settled(page)


def test_an_edit_keeps_a_shorthand_tree_shorthand(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    assert solve(page, AIMA) == "3"
    edit_leaf(page, "root.1.0", "5")
    text = page.get_by_test_id("tree-input")
    expect(text).to_have_value("[[3, 12, 8], [5, 4, 6], [14, 5, 2]]")
    click_node(page, "root.2")
    page.get_by_test_id("editor-add-child").click()
    expect(text).to_have_value("[[3, 12, 8], [5, 4, 6], [14, 5, 2, 0]]")
    settled(page)
    # a chance node is no longer shorthand: that node alone becomes an object
    click_node(page, "root.0")
    page.get_by_test_id("editor-kind").select_option("chance")
    page.get_by_test_id("editor-apply").click()
    expect(text).to_have_value(
        '[{"kind": "chance", "children": [3, 12, 8]}, [5, 4, 6], [14, 5, 2, 0]]'
    )


def test_an_objects_tree_stays_compact_and_as_written(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    written = (
        '{"kind": "max", "children": [\n'
        '  {"move": "L", "children": [{"value": 3}, {"value": 12}, {"value": 8}]},\n'
        '  {"move": "R", "children": [{"value": 2}, {"value": 4}, {"value": 6}]}\n'
        "]}"
    )
    assert solve(page, written) == "3"
    edit_leaf(page, "root.1.0", "5")
    expected = written.replace('{"value": 2}', '{"value": 5}')
    expect(page.get_by_test_id("tree-input")).to_have_value(expected)
    assert settled(page) == "4"


def test_the_handout_export_is_the_bare_problem(page: Page, base_url: str, tmp_path: Path) -> None:
    page.goto(base_url + "/")
    assert solve(page, AIMA) == "3"
    with page.expect_request("**/v1/trees/render") as sent, page.expect_download() as tikz:
        page.get_by_test_id("export-bare-tikz").click()
    posted = sent.value.post_data_json
    assert posted["bare"] is True and posted["format"] == "tikz"
    assert posted["tree"] == [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    saved = tmp_path / "problem.tex"
    tikz.value.save_as(saved)
    assert tikz.value.suggested_filename == "problem.tex"
    text = saved.read_text()
    values = tikz_values(text)
    leaves = [values[f"root.{i}.{j}"] for i in range(3) for j in range(3)]
    assert leaves == ["3", "12", "8", "2", "4", "6", "14", "5", "2"]
    assert [values[n] for n in ("root", "root.0", "root.1", "root.2")] == ["", "", "", ""]
    assert not re.search(r"\\(node|draw)\[[^\]]*\b(best|pruned)\b", text)
    with page.expect_request("**/v1/trees/render") as sent, page.expect_download() as svg:
        page.get_by_test_id("export-bare-svg").click()
    assert sent.value.post_data_json["bare"] is True
    assert sent.value.post_data_json["format"] == "svg"
    drawn = tmp_path / "problem.svg"
    svg.value.save_as(drawn)
    labels = drawn_values(drawn)
    assert [labels[n] for n in ("root", "root.0", "root.1", "root.2")] == [[], [], [], []]
    assert [labels[f"root.{i}.{j}"] for i in range(3) for j in range(3)] == [
        ["3"], ["12"], ["8"], ["2"], ["4"], ["6"], ["14"], ["5"], ["2"]
    ]  # fmt: skip


# The contrast of each node label against what lies under it: the node's own fill for its
# value, the white page for a name beside it (WCAG 2's relative luminance).
CONTRASTS = """() => {
  const rgb = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const channel = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (colour) => {
    const [r, g, b] = rgb(colour).map(channel);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const found = [];
  for (const text of document.querySelectorAll("#drawing [data-node-id] > text")) {
    if (text.textContent.trim() === "" || text.classList.contains("step-window")) continue;
    const shape = text.parentElement.querySelector(":scope > :is(polygon, rect, circle, path)");
    const inside = text.classList.contains("value");
    const under = inside ? getComputedStyle(shape).fill : "rgb(255, 255, 255)";
    const style = getComputedStyle(text);
    found.push({
      text: text.textContent, kind: text.getAttribute("class"),
      size: parseFloat(style.fontSize), contrast: ratio(style.fill, under),
    });
  }
  return found;
}"""


def test_node_labels_are_at_least_11px_with_aa_contrast(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    assert solve(page, AIMA) == "3"
    for labels in ("ids", "letters"):
        page.get_by_test_id("node-labels").select_option(labels)
        settled(page)
        for shown in (False, True):  # the replay at its start, and the solved drawing
            page.get_by_test_id("show-answer").set_checked(shown)
            found = page.evaluate(CONTRASTS)
            assert any(label["kind"] == "node-id" for label in found)
            small = [label for label in found if label["size"] < 11]
            faint = [label for label in found if label["contrast"] < 4.5]
            assert small == [] and faint == [], (labels, shown, small, faint)
    # mid-replay too, with pruned nodes greyed
    page.get_by_test_id("show-answer").set_checked(False)
    page.get_by_test_id("step-last").click()
    faint = [label for label in page.evaluate(CONTRASTS) if label["contrast"] < 4.5]
    assert faint == []


def test_the_drawing_and_the_step_controls_are_in_view_after_solve(
    page: Page, base_url: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base_url + "/")
    page.get_by_test_id("solve").click()
    settled(page)
    page.get_by_test_id("step-next").wait_for()
    inside = page.evaluate(
        """() => [document.querySelector('#drawing svg'), document.getElementById('step-next'),
                  document.getElementById('step-explanation')].map((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= innerHeight && box.height > 0;
        })"""
    )
    assert inside == [True, True, True]
