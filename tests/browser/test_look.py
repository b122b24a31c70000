"""One look across the workbench: every page titled "Arbiter · <page>" under a heading of
the same name; the shared rules in style.css and nowhere else; every text on the pages and
every label in the drawings readable (WCAG AA contrast, drawing labels at least 11 px); and
/docs leading with the API, the HTML pages last."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser import screenshot

WORKBENCH = Path(__file__).resolve().parents[2] / "api" / "workbench"
PAGES = {
    "/": "Trees",
    "/practice": "Practice",
    "/matrices": "Matrices",
    "/lotteries": "Lotteries",
    "/games": "Games",
    "/mcts": "Monte Carlo tree search",
    "/extensive": "Information sets",
}
AA = 4.5
"""WCAG 2.x level AA, 1.4.3: the least contrast of normal text with its background."""
AA_LARGE = 3.0
"""The same for large text: at least 24 px, or 18.66 px (14 pt) and bold."""
SMALLEST_LABEL = 11.0
"""The least font size, in px, of a label in a drawing."""

READINGS = r"""
(scope) => {
  const parse = (colour) => {
    const found = /rgba?\(([^)]*)\)/.exec(colour || "");
    if (!found) return null;
    const parts = found[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) =>
    [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const luminance = (colour) => {
    const linear = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * linear(colour[0]) + 0.7152 * linear(colour[1]) + 0.0722 * linear(colour[2]);
  };
  const contrast = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  // an HTML element's background: its own and its ancestors' colours, over white
  const backdrop = (element) => {
    const layers = [];
    for (let at = element; at; at = at.parentElement) {
      const colour = parse(getComputedStyle(at).backgroundColor);
      if (colour && colour[3] > 0) { layers.push(colour); if (colour[3] === 1) break; }
    }
    return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const opacity = (element) => {
    let product = 1;
    for (let at = element; at; at = at.parentElement) {
      product *= Number(getComputedStyle(at).opacity);
    }
    return product;
  };
  const SHAPES = new Set(["rect", "polygon", "circle", "ellipse", "path"]);
  // an SVG text's background: its halo if it has one, else what is drawn under its middle
  const svgBackdrop = (text) => {
    const style = getComputedStyle(text);
    const halo = parse(style.stroke);
    const haloed = style.paintOrder.startsWith("stroke") && parseFloat(style.strokeWidth) >= 2;
    if (halo && haloed) return halo;
    const box = text.getBoundingClientRect();
    const under = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    for (const element of under) {
      if (element === text || element.closest("text")) continue;
      if (SHAPES.has(element.localName)) {
        const fill = parse(getComputedStyle(element).fill);
        if (fill && fill[3] > 0) return over(fill, [255, 255, 255, 1]);
        continue;
      }
      if (element instanceof SVGElement) continue;
      return backdrop(element);
    }
    return [255, 255, 255, 1];
  };
  const shown = (element) =>
    element.getClientRects().length > 0 && element.checkVisibility({ visibilityProperty: true });
  const where = (element) => {
    const node = element.closest("[data-node-id]");
    const id = element.id ? `#${element.id}` : "";
    const first = (element.getAttribute("class") || "").split(" ")[0];
    const cls = first ? `.${first}` : "";
    return (node ? `node ${node.dataset.nodeId} ` : "") + element.localName + id + cls;
  };
  const readings = [];
  const read = (element, text, background, label) => {
    const style = getComputedStyle(element);
    const ink = parse(label ? style.fill : style.color);
    if (!ink) return;
    const seen = over([ink[0], ink[1], ink[2], ink[3] * opacity(element)], background);
    readings.push({
      where: where(element), text: text.trim().slice(0, 40), label,
      size: parseFloat(style.fontSize), bold: Number(style.fontWeight) >= 700,
      contrast: Math.round(contrast(seen, background) * 100) / 100,
    });
  };
  const root = document.querySelector(scope);
  for (const element of root.querySelectorAll("*")) {
    if (!shown(element)) continue;
    if (element.closest(".visually-hidden, :disabled, [aria-disabled='true']")) continue;
    if (element instanceof SVGElement) {
      const label = element.localName === "text" && element.textContent.trim();
      if (label && element.closest("#drawing")) {
        read(element, element.textContent, svgBackdrop(element), true);
      }
      continue;
    }
    const own = [...element.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join("");
    const value = element.matches("input:not([type=checkbox], [type=radio]), textarea, select")
      ? element.value || "" : "";
    const text = own.trim() ? own : value;
    if (text.trim()) read(element, text, backdrop(element), false);
  }
  return readings;
}
"""


def solved_tree(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("solve").click()
    page.get_by_test_id("step-explanation").wait_for()


def solved_tree_mid_replay(page: Page, base_url: str) -> None:
    solved_tree(page, base_url)
    for _ in range(5):
        page.get_by_test_id("step-next").click()
    page.locator("#drawing [data-state~='current']").wait_for()


def solved_tree_replayed_to_the_end(page: Page, base_url: str) -> None:
    solved_tree(page, base_url)
    page.get_by_test_id("step-last").click()
    page.locator("#drawing.replay [data-node-id][data-state~='pruned']").first.wait_for()


def solved_tree_answer(page: Page, base_url: str) -> None:
    solved_tree(page, base_url)
    page.get_by_test_id("show-answer").check()
    page.locator("#drawing [data-state~='pruned']").first.wait_for()


def started_game(page: Page, base_url: str) -> None:
    page.goto(base_url + "/games")
    expect(page.get_by_test_id("games-position")).not_to_have_value("")
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")


def mcts_mid_replay(page: Page, base_url: str) -> None:
    """The MCTS page at simulation 11's selection: the path, the UCB1 labels, the tree."""
    page.goto(base_url + "/mcts")
    expect(page.get_by_test_id("mcts-summary")).to_be_visible()
    for _ in range(41):
        page.get_by_test_id("mcts-next").click()
    page.locator("#drawing text.ucb").first.wait_for()


STATES: dict[str, Callable[[Page, str], None]] = {
    "trees, mid replay": solved_tree_mid_replay,
    "trees, replay's end": solved_tree_replayed_to_the_end,
    "trees, the answer": solved_tree_answer,
    # the README's pictures: an answer checked with its mistakes marked, the battle of the
    # sexes analysed, a lottery on its utility curve
    "practice, checked": screenshot.practice,
    "matrices, analysed": screenshot.matrices,
    "lotteries, evaluated": screenshot.lotteries,
    "games, started": started_game,
    "mcts, mid replay": mcts_mid_replay,
}


def readings(page: Page, base_url: str, state: str) -> list[dict[str, object]]:
    STATES[state](page, base_url)
    found: list[dict[str, object]] = page.evaluate(READINGS, "body")
    return found


def unreadable(found: list[dict[str, object]]) -> list[str]:
    """Each reading below AA, as "<where> 'text': <contrast> at <size>px"."""
    low = []
    for reading in found:
        size, contrast = float(str(reading["size"])), float(str(reading["contrast"]))
        large = size >= 24 or (size >= 18.66 and reading["bold"])
        if contrast < (AA_LARGE if large else AA):
            low.append(f"{reading['where']} {reading['text']!r}: {contrast}:1 at {size}px")
    return low


@pytest.mark.parametrize("path", list(PAGES))
def test_every_page_is_titled_arbiter_and_its_name(page: Page, base_url: str, path: str) -> None:
    page.goto(base_url + path)
    expect(page).to_have_title(f"Arbiter · {PAGES[path]}")
    expect(page.locator("h1")).to_have_text(PAGES[path])


def test_the_docs_are_titled_and_lead_with_the_api(page: Page, base_url: str) -> None:
    page.goto(base_url + "/docs")
    expect(page).to_have_title("Arbiter · API docs")
    page.locator(".opblock").first.wait_for()
    tags = page.locator(".opblock-tag-section .opblock-tag").evaluate_all(
        "(tags) => tags.map((tag) => tag.dataset.tag)"
    )
    assert tags[0] == "trees", tags
    assert tags[-2:] == ["service", "workbench"], tags
    first = page.locator(".opblock .opblock-summary-path").first
    expect(first).to_have_attribute("data-path", re.compile(r"^/v1/trees/"))


@pytest.mark.parametrize("state", list(STATES))
def test_every_text_on_the_page_meets_aa(page: Page, base_url: str, state: str) -> None:
    found = readings(page, base_url, state)
    assert len(found) > 20, found
    assert unreadable(found) == []


@pytest.mark.parametrize(
    "state", [state for state in STATES if "trees" in state or "practice" in state]
)
def test_every_label_in_a_drawing_is_11px_and_meets_aa(
    page: Page, base_url: str, state: str
) -> None:
    labels = [reading for reading in readings(page, base_url, state) if reading["label"]]
    assert any(str(label["where"]).endswith("text.node-id") for label in labels), labels
    small = [
        f"{label['where']} {label['text']!r}: {label['size']}px"
        for label in labels
        if float(str(label["size"])) < SMALLEST_LABEL
    ]
    assert small == []
    assert unreadable(labels) == []


def rules(sheet: Path) -> dict[str, str]:
    """A style sheet's rules outside @media, as {selector: declarations}, spaces folded."""
    text = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
    text = re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", text)
    found = {}
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        for one in selector.split(","):
            found[" ".join(one.split())] = " ".join(body.split())
    return found


MINE = ["games.css", "lotteries.css", "matrices.css", "practice.css", "mcts.css"]
"""The page style sheets whose shared rules have moved to style.css."""


def test_no_rule_of_style_css_or_another_page_is_repeated_in_a_page_sheet() -> None:
    shared = rules(WORKBENCH / "style.css")
    seen: dict[str, str] = {}
    repeated = []
    for name in MINE:
        for selector, body in rules(WORKBENCH / name).items():
            if selector in shared and shared[selector] == body:
                repeated.append(f"{name}: {selector} repeats style.css")
            elif selector in seen and not selector.startswith("#"):
                repeated.append(f"{name}: {selector} also in {seen[selector]}")
            seen.setdefault(selector, name)
    assert repeated == []
    for duplicated in (
        ".stale-note",
        ".hint",
        ".note",
        ".visually-hidden",
        ".answer-table",
        "legend",
    ):
        assert duplicated in shared
