"""The tree view in a real browser: zoom and pan, collapsing and expanding subtrees, a
tree too big to draw at once, ties, and the PNG export.

Answers come from hand-solved trees: AIMA figure 5.2 (value 3; MIN nodes 3, 2, 2), and
[[3, 5], [3, 4], [1, 9]] where both first MIN nodes are worth 3, so the second ties."""

from __future__ import annotations

import json
import struct
from pathlib import Path

from playwright.sync_api import Page

from tests.analysis.trees.test_drawing_options import LONG

AIMA = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"


def solve(page: Page, base_url: str, tree: str, algorithm: str = "minimax") -> None:
    """Solve ``tree`` and show the answer: the solved drawing these tests look at (the
    step-through's replay is tested in test_step_replay.py)."""
    page.goto(base_url + "/")
    page.get_by_test_id("tree-input").fill(tree)
    page.get_by_test_id("algorithm").select_option(algorithm)
    page.get_by_test_id("solve").click()
    page.locator("#drawing svg").wait_for()
    page.locator('section[aria-busy="false"]').wait_for()
    page.get_by_test_id("show-answer").check()


def view_box(page: Page) -> list[float]:
    return [float(v) for v in page.locator("#drawing svg").get_attribute("viewBox").split()]


def drawn_ids(page: Page) -> set[str]:
    return set(
        page.eval_on_selector_all("#drawing [data-node-id]", "ns => ns.map(n => n.dataset.nodeId)")
    )


def test_zoom_buttons_and_the_wheel_change_the_view_box(page: Page, base_url: str) -> None:
    solve(page, base_url, AIMA)
    whole = view_box(page)
    assert whole[:2] == [0, 0]
    page.get_by_test_id("zoom-in").click()
    zoomed = view_box(page)
    assert abs(zoomed[2] - whole[2] / 1.25) < 0.2 and abs(zoomed[3] - whole[3] / 1.25) < 0.2
    # zooming keeps the centre where it was
    assert abs(zoomed[0] + zoomed[2] / 2 - whole[2] / 2) < 0.2
    page.get_by_test_id("zoom-out").click()
    page.get_by_test_id("zoom-out").click()
    assert view_box(page)[2] > whole[2]
    page.get_by_test_id("zoom-reset").click()
    assert view_box(page) == whole
    # the wheel zooms in; dragging moves the view by the distance dragged
    page.locator("#drawing svg").scroll_into_view_if_needed()
    box = page.locator("#drawing svg").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 30)
    page.mouse.wheel(0, -100)
    wheeled = view_box(page)
    assert wheeled[2] < whole[2]
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 40, box["y"] + 30, steps=4)
    page.mouse.up()
    assert view_box(page)[0] < wheeled[0] and view_box(page)[2] == wheeled[2]


def test_collapse_a_subtree_then_expand_it(page: Page, base_url: str) -> None:
    solve(page, base_url, AIMA)
    assert len(drawn_ids(page)) == 13
    button = page.get_by_test_id("collapse-node")
    assert button.is_disabled()  # nothing selected yet
    page.locator('#drawing [data-node-id="root.1"] > text.value').click()
    assert button.inner_text() == "Collapse"
    button.click()
    page.locator('#drawing [data-node-id="root.1"][data-collapsed="true"]').wait_for()
    assert drawn_ids(page) == {"root", "root.0", "root.1", "root.2"} | {
        f"root.{k}.{j}" for k in (0, 2) for j in range(3)
    }
    node = page.locator('#drawing [data-node-id="root.1"]')
    assert node.get_attribute("data-hidden") == "3"
    assert node.get_attribute("data-state") == "visited"  # keeps its state
    assert button.inner_text() == "Expand"
    # the server's + beside the collapsed node opens it again
    page.locator('#drawing [data-toggle="root.1"]').click()
    page.locator('#drawing [data-node-id="root.1.2"]').wait_for()
    assert len(drawn_ids(page)) == 13
    # and the keyboard reaches the toggles: Enter on root.2's collapses it
    page.locator('#drawing [data-toggle="root.2"]').focus()
    page.keyboard.press("Enter")
    page.locator('#drawing [data-node-id="root.2"][data-collapsed="true"]').wait_for()
    assert len(drawn_ids(page)) == 10


def test_a_tree_too_big_to_draw_is_drawn_to_a_depth_and_says_so(page: Page, base_url: str) -> None:
    # 1 + 50 + 2,500 nodes: more than the page draws; the first two levels fit
    tree = json.dumps([[k] * 50 for k in range(50)])
    solve(page, base_url, tree)
    assert page.get_by_test_id("result-value").inner_text() == "49"  # MIN node k is worth k
    note = page.get_by_test_id("view-note")
    assert note.is_visible()
    assert "2,551 nodes" in note.inner_text() and "depth 1" in note.inner_text()
    assert len(drawn_ids(page)) == 51
    page.locator('#drawing [data-toggle="root.49"]').click()
    page.locator('#drawing [data-node-id="root.49.49"]').wait_for()
    assert len(drawn_ids(page)) == 101


def test_ties_are_drawn_and_explained(page: Page, base_url: str) -> None:
    solve(page, base_url, "[[3, 5], [3, 4], [1, 9]]")
    assert page.get_by_test_id("result-value").inner_text() == "3"
    state = page.locator('#drawing [data-node-id="root.1"]').get_attribute("data-state")
    assert state is not None and "tie" in state.split()
    best = page.locator('#drawing [data-node-id="root.0"]').get_attribute("data-state")
    assert best is not None and "best" in best.split()
    dashes = page.locator('#drawing [data-node-id="root.1"] > polygon').get_attribute(
        "stroke-dasharray"
    )
    assert dashes  # drawn dashed, unlike the chosen child
    assert page.locator('#drawing [data-legend="tie"]').is_visible()


def test_the_png_download_is_the_drawing_at_twice_its_size(
    page: Page, base_url: str, tmp_path: Path
) -> None:
    solve(page, base_url, AIMA, "alphabeta")
    svg = page.locator("#drawing svg")
    width, height = int(svg.get_attribute("data-width")), int(svg.get_attribute("data-height"))
    page.get_by_test_id("zoom-in").click()  # the export is the whole tree, not the view
    with page.expect_download() as caught:
        page.get_by_test_id("export-png").click()
    download = caught.value
    assert download.suggested_filename == "tree.png"
    target = tmp_path / "tree.png"
    download.save_as(target)
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (2 * width, 2 * height)
    assert len(data) > 5_000  # a picture, not an empty canvas


def test_a_big_tree_is_shown_whole_with_texts_hidden_until_zoomed_in(
    page: Page, base_url: str
) -> None:
    # 1 + 40 + 1,600 nodes: drawn whole, far too wide for its labels to be read at once
    solve(page, base_url, json.dumps([[k, k + 1] * 20 for k in range(40)]))
    assert len(drawn_ids(page)) == 1641
    drawing = page.get_by_test_id("drawing")
    assert "overview" in (drawing.get_attribute("class") or "")
    assert "zoom in" in page.get_by_test_id("view-note").inner_text()
    assert not page.locator('#drawing [data-node-id="root.0"] > text.value').is_visible()
    for _ in range(30):
        if "overview" not in (drawing.get_attribute("class") or ""):
            break
        page.get_by_test_id("zoom-in").click()
    assert "overview" not in (drawing.get_attribute("class") or "")
    assert page.get_by_test_id("view-note").is_hidden()
    value = page.locator('#drawing [data-node-id="root"] > text.value')
    assert value.is_visible() and value.text_content() == "39"  # MIN node k is worth k


# measured by the browser's own font: each text's box, and each edge's ends
GEOMETRY = """() => {
  const svg = document.querySelector("#drawing svg");
  const texts = [...svg.querySelectorAll("[data-node-id] text")].map((t) => {
    const b = t.getBBox();
    return [t.closest("[data-node-id]").dataset.nodeId, b.x, b.y, b.x + b.width, b.y + b.height];
  });
  const edges = [...svg.querySelectorAll("line.edge")].map((l) =>
    ["x1", "y1", "x2", "y2"].map((name) => l[name].baseVal.value));
  return { texts, edges };
}"""


def test_labels_keep_clear_of_edges_and_of_each_other_in_the_real_font(
    page: Page, base_url: str
) -> None:
    solve(page, base_url, json.dumps(LONG), "expectimax")  # moves and probabilities
    geometry = page.evaluate(GEOMETRY)
    texts, edges = geometry["texts"], geometry["edges"]
    assert len(texts) > 20 and len(edges) == 8
    for _, left, top, right, bottom in texts:
        for x1, y1, x2, y2 in edges:
            steps = int(max(abs(x2 - x1), abs(y2 - y1))) + 1
            points = [
                (x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps) for k in range(steps + 1)
            ]
            assert not any(left <= x <= right and top <= y <= bottom for x, y in points)
    for a, b in ((a, b) for a in texts for b in texts if a[0] < b[0]):
        assert a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2], (a, b)


def test_a_toggle_or_a_drag_never_opens_the_editor_and_a_redrawn_node_still_does(
    page: Page, base_url: str
) -> None:
    solve(page, base_url, AIMA)
    editor = page.get_by_test_id("editor")
    page.locator('#drawing [data-toggle="root.1"]').click()
    page.locator('#drawing [data-node-id="root.1"][data-collapsed="true"]').wait_for()
    assert not editor.is_visible()
    # a drag that ends on a node pans the view; the click that ends it opens nothing
    start = page.locator('#drawing [data-node-id="root.0"]').bounding_box()
    assert start is not None
    page.mouse.move(start["x"] + 5, start["y"] + 5)
    page.mouse.down()
    page.mouse.move(start["x"] + 60, start["y"] + 30, steps=5)
    page.mouse.up()
    assert not editor.is_visible()
    # the drawing the collapse asked for is annotated like any other: its nodes edit
    page.locator('#drawing [data-node-id="root.2"] > text.value').click()
    editor.wait_for()
    assert page.get_by_test_id("editor-node").inner_text() == "root.2"
    assert page.locator('#drawing [data-node-id="root.2"]').get_attribute("role") == "button"


def focus_drawing(page: Page) -> None:
    page.get_by_test_id("drawing").focus()


def test_keys_on_the_drawing_zoom_move_and_fit(page: Page, base_url: str) -> None:
    solve(page, base_url, AIMA)
    whole = view_box(page)
    assert page.get_by_test_id("view-scale").inner_text() == "100%"
    focus_drawing(page)
    page.keyboard.press("+")
    zoomed = view_box(page)
    assert abs(zoomed[2] - whole[2] / 1.25) < 0.2
    assert page.get_by_test_id("view-scale").inner_text() == "125%"
    page.keyboard.press("Shift+ArrowRight")
    moved = view_box(page)
    assert moved[0] > zoomed[0] and moved[1:] == zoomed[1:]
    page.keyboard.press("Shift+ArrowDown")
    assert view_box(page)[1] > moved[1]
    page.keyboard.press("-")
    assert abs(view_box(page)[2] - whole[2]) < 0.2
    page.keyboard.press("0")
    assert view_box(page) == whole
    # the tools have visible labels and say what the keys do
    for test_id in ("zoom-in", "zoom-out", "zoom-reset"):
        assert page.get_by_test_id(test_id).inner_text()
    assert "Shift+arrows" in page.locator(".view-hint").inner_text()


def test_a_pinch_zooms_in_and_out(page: Page, base_url: str) -> None:
    solve(page, base_url, AIMA)
    whole = view_box(page)
    page.locator("#drawing svg").scroll_into_view_if_needed()
    box = page.locator("#drawing svg").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, spread: float) -> None:
        points = [{"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 20)
    for spread in (30, 40, 50, 60):
        touch("touchMove", spread)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    pinched = view_box(page)
    assert abs(pinched[2] - whole[2] / 3) < 1  # the fingers went 3 times as far apart
    touch("touchStart", 60)
    touch("touchMove", 30)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert abs(view_box(page)[2] - whole[2] / 1.5) < 1


# the current node's box, and the view's, in the drawing's units
CURRENT_IN_VIEW = """() => {
  const svg = document.querySelector("#drawing svg");
  const [x, y, w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  const node = svg.querySelector('[data-state~="current"]');
  const b = node.querySelector("polygon, rect, circle, path").getBBox();
  return b.x >= x && b.y >= y && b.x + b.width <= x + w && b.y + b.height <= y + h;
}"""


def test_a_step_brings_its_node_into_a_zoomed_in_view(page: Page, base_url: str) -> None:
    solve(page, base_url, AIMA, "alphabeta")
    page.get_by_test_id("show-answer").uncheck()  # the replay
    for _ in range(6):
        page.get_by_test_id("zoom-in").click()  # the middle quarter of the tree
    zoomed = view_box(page)
    # 26 steps: the root, B's leaves on the left, ..., D's on the right, the root again
    for step in range(1, 27):
        page.get_by_test_id("step-next").click()
        assert page.get_by_test_id("step-count").inner_text() == f"step {step} of 26"
        assert page.evaluate(CURRENT_IN_VIEW), step
        assert view_box(page)[2] == zoomed[2]  # moved, never zoomed
