"""The step-through replays the search on the drawing (issue 28, item 1), in a real browser.

Every value is derived by hand from the textbook search, step by step:

- AIMA figure 5.2 ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`` under alpha-beta takes 26 steps:
  B = root.0 returns 3 at step 9 and the root's alpha becomes 3 at step 10; C = root.1 is
  entered at 11 with the window [3, +inf], reads its first leaf 2 at 12 (v = 2 at 13), and
  at 14 cuts its other two leaves (2 <= alpha = 3), returning the upper bound 2 at 15; D =
  root.2 reads 14, 5, 2 (steps 18-23, beta 14 then 5) and returns 2 at 24; the root
  returns 3 at 26, by root.0 and root.0.0 (the best line).
- Minimax on the same tree reads every leaf: 29 steps, C = min(2, 4, 6) returned at 18.
- Expectimax with Star1 bounds [0, 10] on the sample (MAX over two fair chance nodes,
  (6, 4) and (0, 9)): after 6, root.0 is worth 3 + [0, 10] / 2 = [3, 8] (step 4), then 5;
  after 0, root.1 is worth [0, 5] (step 11), at most 5 <= alpha = 5, so 9 is cut (step 12).
- Plain expectimax on a fair chance node over 3, 4 and 1/3: 1 + ... (step 3), 7/3 + ...
  (step 5), 22/9 (step 7).
- max^n on the sample (max_sum 10): player 1 at root.0 keeps (4, 3, 3) (3 > 2); at root.1
  it holds 7 after (2, 7, 1) (step 11), so player 0 can get at most 3 there, <= the 4 it
  holds: the other two leaves are cut at step 12.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.api.test_tree_render_bare import LEAVES
from tests.browser.test_tree_page import settled

AIMA = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"

# each drawn node: its state words, data-value, data-bound, window and shown value; the
# look of its shape and of the edge into it
DRAWN = """() => Object.fromEntries([...document.querySelectorAll("#drawing [data-node-id]")]
  .map((node) => {
    const shape = node.querySelector(":scope > :is(polygon, rect, circle, path)");
    const edge = document.querySelector(`#drawing line.edge[data-id="${node.dataset.nodeId}"]`);
    return [node.dataset.nodeId, {
      state: (node.dataset.state || "").split(" ").filter(Boolean),
      classes: [...node.classList],
      value: node.getAttribute("data-value"),
      bound: node.getAttribute("data-bound"),
      alpha: node.getAttribute("data-alpha"),
      beta: node.getAttribute("data-beta"),
      text: node.querySelector(":scope > text.value")?.textContent ?? null,
      window: node.querySelector("text.step-window")?.textContent ?? null,
      fill: getComputedStyle(shape).fill,
      stroke: getComputedStyle(shape).stroke,
      edge: edge && { classes: [...edge.classList], dashes: getComputedStyle(edge).strokeDasharray,
                      stroke: getComputedStyle(edge).stroke },
    }];
  }))"""

WHITE, GREY, RED = "rgb(255, 255, 255)", "rgb(238, 238, 238)", "rgb(214, 39, 40)"


def solve(page: Page, base_url: str, tree: str, algorithm: str, **options: str) -> int:
    """Solve ``tree`` on a fresh page; the number of steps of its trace."""
    page.goto(base_url + "/")
    page.get_by_test_id("tree-input").fill(tree)
    page.get_by_test_id("algorithm").select_option(algorithm)
    for test_id, value in options.items():
        page.get_by_test_id(test_id.replace("_", "-")).fill(value)
    page.get_by_test_id("solve").click()
    settled(page)
    return int(page.get_by_test_id("step-count").inner_text().split()[-1])


def load_sample(page: Page, base_url: str, name: str) -> int:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-sample").select_option(name)
    page.get_by_test_id("load-sample").click()
    settled(page)
    return int(page.get_by_test_id("step-count").inner_text().split()[-1])


def at_step(page: Page, step: int) -> dict[str, Any]:
    """The drawing at ``step`` (0: before step 1), reached with the keyboard."""
    page.evaluate("document.activeElement.blur()")  # the keys step from anywhere but a field
    page.keyboard.press("Home")
    for _ in range(step):
        page.keyboard.press("ArrowRight")
    assert page.get_by_test_id("step-count").inner_text().startswith(f"step {step} of ")
    drawn: dict[str, Any] = page.evaluate(DRAWN)
    return drawn


def valued(drawn: dict[str, Any]) -> dict[str, str]:
    return {node: look["value"] for node, look in drawn.items() if look["value"] is not None}


def marked(drawn: dict[str, Any], word: str) -> set[str]:
    return {node for node, look in drawn.items() if word in look["state"]}


def assert_nothing_pruned(drawn: dict[str, Any]) -> None:
    for node, look in drawn.items():
        assert "pruned" not in look["state"] and "pruned" not in look["classes"], node
        assert look["fill"] != GREY, node
        if look["edge"] is not None:
            assert "pruned" not in look["edge"]["classes"], node
            assert look["edge"]["dashes"] == "none", node


def test_at_a_middle_step_of_aima_5_2_only_what_alpha_beta_has_computed_shows(
    page: Page, base_url: str
) -> None:
    assert solve(page, base_url, AIMA, "alphabeta") == 26
    # step 12: C's first leaf is read; C's other leaves and all of D's are not yet
    drawn = at_step(page, 12)
    assert page.get_by_test_id("step-explanation").inner_text() == "root.1.0 is evaluated: 2."
    assert valued(drawn) == {
        "root.0": "3",
        "root.0.0": "3",
        "root.0.1": "12",
        "root.0.2": "8",
        "root.1.0": "2",
    }
    for leaf in ("root.1.1", "root.1.2", "root.2.0", "root.2.1", "root.2.2"):
        assert drawn[leaf]["value"] is None, leaf
        assert drawn[leaf]["text"] == LEAVES[leaf]  # the problem's value, still shown
    assert drawn["root"]["text"] == "≥ 3" and drawn["root"]["value"] is None
    assert drawn["root.1"]["text"] == "" and drawn["root.2"]["text"] == ""
    # the current node carries its window, as attributes and drawn beside it
    assert marked(drawn, "current") == {"root.1.0"}
    assert (drawn["root.1.0"]["alpha"], drawn["root.1.0"]["beta"]) == ("3", "inf")
    assert drawn["root.1.0"]["window"] == "[3, +inf]"
    assert page.get_by_test_id("step-window-label").is_visible()
    assert [n for n, look in drawn.items() if look["alpha"] is not None] == ["root.1.0"]
    # no pruned mark before the cut, no best line before the end
    assert_nothing_pruned(drawn)
    assert marked(drawn, "best") == set()
    edges = [look["edge"] for look in drawn.values() if look["edge"] is not None]
    assert all("pv" not in edge["classes"] for edge in edges)
    assert drawn["root.0.0"]["stroke"] != RED
    # the explanation sits beside the drawing
    beside = page.get_by_test_id("step-explanation").bounding_box()
    figure = page.get_by_test_id("drawing").bounding_box()
    assert beside is not None and figure is not None
    assert beside["x"] >= figure["x"] + figure["width"]


def test_alpha_beta_bounds_cut_and_best_line_appear_at_their_steps(
    page: Page, base_url: str
) -> None:
    solve(page, base_url, AIMA, "alphabeta")
    before = at_step(page, 0)
    assert valued(before) == {}
    assert {n: look["text"] for n, look in before.items() if look["text"]} == LEAVES
    assert marked(before, "visited") == set() and marked(before, "current") == set()
    assert_nothing_pruned(before)
    assert before["root.0.0"]["fill"] == WHITE and before["root"]["stroke"] != RED
    # step 13: C has seen 2, so C <= 2; still inside the window [3, +inf]
    drawn = at_step(page, 13)
    assert drawn["root.1"]["text"] == "≤ 2" and drawn["root.1"]["value"] is None
    assert drawn["root.1"]["window"] == "[3, +inf]"
    assert_nothing_pruned(drawn)
    # step 14: the cut; C's last two leaves are pruned from here on, never read
    drawn = at_step(page, 14)
    assert marked(drawn, "pruned") == {"root.1.1", "root.1.2"}
    assert drawn["root.1.1"]["fill"] == GREY and drawn["root.1.1"]["value"] is None
    assert drawn["root.1.2"]["edge"]["dashes"] != "none"
    assert drawn["root.1.0"]["fill"] == WHITE
    # step 15: C returns the upper bound 2
    drawn = at_step(page, 15)
    assert (drawn["root.1"]["value"], drawn["root.1"]["bound"]) == ("2", "upper")
    assert drawn["root.1"]["text"] == "≤ 2"
    # step 19: D's beta is its first leaf, 14
    drawn = at_step(page, 19)
    assert drawn["root.2"]["text"] == "≤ 14"
    assert (drawn["root.2"]["alpha"], drawn["root.2"]["beta"]) == ("3", "14")
    assert drawn["root.2"]["window"] == "[3, 14]"
    assert marked(drawn, "best") == set()
    # the last step (End): the value of the tree and the best line
    page.keyboard.press("End")
    assert page.get_by_test_id("step-count").inner_text() == "step 26 of 26"
    drawn = page.evaluate(DRAWN)
    assert marked(drawn, "best") == {"root", "root.0", "root.0.0"}
    assert drawn["root"]["value"] == "3" and drawn["root"]["text"] == "3"
    assert drawn["root.0"]["edge"]["stroke"] == RED
    assert marked(drawn, "pruned") == {"root.1.1", "root.1.2"}
    # Home goes back before step 1, ArrowLeft one step back
    page.keyboard.press("Home")
    assert valued(page.evaluate(DRAWN)) == {}
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    drawn = page.evaluate(DRAWN)
    assert marked(drawn, "best") == set() and drawn["root"]["text"] == "≥ 3"


def test_minimax_reads_every_leaf_and_prunes_nothing(page: Page, base_url: str) -> None:
    searched: list[str] = []
    page.on("request", lambda request: searched.append(request.url.rsplit("/", 1)[-1]))
    assert solve(page, base_url, AIMA, "minimax") == 29
    # minimax's own trace, in one request (no longer expectimax's beside it)
    assert [name for name in searched if name in ("minimax", "expectimax")] == ["minimax"]
    drawn = at_step(page, 13)
    assert page.get_by_test_id("step-explanation").inner_text() == (
        "MIN at root.1 takes root.1.0 into account: the best so far is 2."
    )
    assert drawn["root.1"]["text"] == "≤ 2" and drawn["root"]["text"] == "≥ 3"
    assert drawn["root.1.1"]["value"] is None
    assert drawn["root.1"]["window"] is None  # minimax has no window
    drawn = at_step(page, 14)
    assert drawn["root.1.1"]["value"] == "4"  # minimax reads the leaf alpha-beta cuts
    drawn = at_step(page, 18)
    assert (drawn["root.1"]["value"], drawn["root.1"]["bound"]) == ("2", None)
    assert valued(drawn).keys() == {"root.0", "root.1"} | {
        f"root.{i}.{j}" for i in (0, 1) for j in range(3)
    }
    drawn = at_step(page, 29)
    assert marked(drawn, "pruned") == set()
    assert valued(drawn) == {"root": "3", "root.0": "3", "root.1": "2", "root.2": "2"} | LEAVES


# Star1, plain expectimax and max^n at a few steps: {step: {node: {what: expected}}}, and
# the step of the cut with the nodes it prunes (nothing is pruned the step before)
REPLAYS: dict[str, tuple[dict[str, str], int, dict[int, dict[str, dict[str, Any]]], Any]] = {
    "expectimax with Star1": (
        {"sample": "expectimax"},
        15,
        {
            4: {"root.0": {"text": "[3, 8]", "value": None, "window": "[-inf, +inf]"}},
            7: {"root.0": {"text": "5", "value": "5"}},
            8: {"root": {"text": "≥ 5"}},
            10: {"root.1.0": {"window": "[0, 10]"}},  # Star1's window: A, B clipped to [0, 10]
            11: {"root.1": {"text": "[0, 5]"}, "root.1.1": {"text": "9", "value": None}},
            12: {"root.1": {"text": "≤ 5"}},
            13: {"root.1": {"value": "5", "bound": "upper"}},
        },
        (12, {"root.1.1"}),
    ),
    "expectimax": (
        {"tree": '{"kind": "chance", "children": [3, 4, "1/3"]}', "algorithm": "expectimax"},
        8,
        {
            3: {"root": {"text": "1 + …", "window": None}},
            5: {"root": {"text": "7/3 + …"}, "root.2": {"text": "1/3", "value": None}},
            7: {"root": {"text": "22/9", "value": None}},
            8: {"root": {"value": "22/9"}, "root.2": {"value": "1/3"}},
        },
        None,
    ),
    "max^n": (
        {"sample": "maxn"},
        15,
        {
            6: {"root.0": {"text": "(4, 3, 3)…", "value": None}},
            7: {"root.0": {"value": "(4, 3, 3)"}},
            11: {
                "root.1": {"text": "(2, 7, 1)…"},
                "root.1.1": {"text": "(6, 2, 2)", "value": None},
            },
            15: {"root": {"value": "(4, 3, 3)", "state": ["visited", "best", "current"]}},
        },
        (12, {"root.1.1", "root.1.2"}),
    ),
}


@pytest.mark.parametrize("name", REPLAYS)
def test_expectimax_star1_and_max_n_show_what_their_search_knows(
    page: Page, base_url: str, name: str
) -> None:
    given, steps, expected, cut = REPLAYS[name]
    if "sample" in given:
        assert load_sample(page, base_url, given["sample"]) == steps
    else:
        assert solve(page, base_url, given["tree"], given["algorithm"]) == steps
    for step, nodes in expected.items():
        drawn = at_step(page, step)
        for node, looks in nodes.items():
            assert {what: drawn[node][what] for what in looks} == looks, (step, node)
    if cut is not None:
        step, pruned = cut
        assert_nothing_pruned(at_step(page, step - 1))
        assert marked(at_step(page, step), "pruned") == pruned


def test_show_the_answer_and_back_and_other_names_keep_the_step(page: Page, base_url: str) -> None:
    solve(page, base_url, AIMA, "alphabeta")
    at_step(page, 12)
    page.get_by_test_id("show-answer").check()
    drawn = page.evaluate(DRAWN)
    assert marked(drawn, "pruned") == {"root.1.1", "root.1.2"}
    assert marked(drawn, "best") == {"root", "root.0", "root.0.0"}
    assert drawn["root"]["text"] == "3" and drawn["root.2"]["text"] == "2"
    assert drawn["root.1.1"]["fill"] == GREY and drawn["root.0.0"]["stroke"] == RED
    assert "current" in drawn["root.1.0"]["state"]  # the step goes on under the answer
    page.get_by_test_id("show-answer").uncheck()
    drawn = page.evaluate(DRAWN)
    assert marked(drawn, "pruned") == set() and drawn["root"]["text"] == "≥ 3"
    # letters (AIMA's names: C = root.1, its leaves H, I, J) redraw the tree at the same step
    page.get_by_test_id("node-labels").select_option("letters")
    page.locator('#drawing [data-node-id="root.1"] > text.node-id').wait_for()
    settled(page)
    assert page.get_by_test_id("step-count").inner_text() == "step 12 of 26"
    assert page.get_by_test_id("step-explanation").inner_text() == "H is evaluated: 2."
    drawn = page.evaluate(DRAWN)
    assert drawn["root.1.0"]["window"] == "[3, +inf]" and drawn["root.1.1"]["value"] is None
    assert drawn["root"]["text"] == "≥ 3"


def test_the_keys_step_unless_the_focus_is_in_a_text_field(page: Page, base_url: str) -> None:
    solve(page, base_url, AIMA, "alphabeta")
    count = page.get_by_test_id("step-count")
    page.get_by_test_id("step-next").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert count.inner_text() == "step 2 of 26"
    page.keyboard.press("ArrowLeft")
    assert count.inner_text() == "step 1 of 26"
    page.keyboard.press("End")
    assert count.inner_text() == "step 26 of 26"
    page.keyboard.press("Home")
    assert count.inner_text() == "step 0 of 26"
    for field in ("tree-input", "depth"):
        page.get_by_test_id(field).focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("End")
        assert count.inner_text() == "step 0 of 26", field
    page.get_by_test_id("node-labels").focus()  # a list takes its own arrows
    page.keyboard.press("ArrowRight")
    assert count.inner_text() == "step 0 of 26"


def test_the_drawing_and_the_step_controls_are_on_screen_together(
    page: Page, base_url: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    solve(page, base_url, AIMA, "alphabeta")
    page.evaluate("scrollTo(0, 0)")
    # the first key pressed after Solve brings the drawing into view, beside the controls
    page.get_by_test_id("solve").focus()
    page.keyboard.press("ArrowRight")
    assert page.get_by_test_id("step-count").inner_text() == "step 1 of 26"
    for _ in range(3):
        page.get_by_test_id("step-next").click()  # clicking keeps both where they are
    figure = page.locator("#drawing svg").bounding_box()
    assert figure is not None
    for test_id in ("step-next", "step-prev", "step-explanation", "show-answer"):
        box = page.get_by_test_id(test_id).bounding_box()
        assert box is not None
        assert 0 <= box["y"] and box["y"] + box["height"] <= 800, test_id
    assert 0 <= figure["y"] and figure["y"] + figure["height"] <= 800
    # the controls stay beside a drawing scrolled down (sticky)
    page.mouse.wheel(0, 200)
    page.wait_for_timeout(100)
    box = page.get_by_test_id("step-next").bounding_box()
    assert box is not None and 0 <= box["y"] <= 800 - box["height"]


def test_a_phone_s_page_does_not_scroll_sideways(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    solve(page, base_url, AIMA, "alphabeta")
    at_step(page, 12)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.get_by_test_id("step-window-label").text_content() == "[3, +inf]"
    page.get_by_test_id("step-next").click()
    assert page.get_by_test_id("step-next").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_answer_waits_for_the_replay_s_last_step(page: Page, base_url: str) -> None:
    """The root's value, the best move and the pruned leaves, above the drawing, would give
    the replay away: they show at the last step or with "show the answer"."""
    assert solve(page, base_url, AIMA, "alphabeta") == 26
    lines, later = page.get_by_test_id("answer-lines"), page.get_by_test_id("answer-later")

    def shown() -> bool:
        assert lines.is_visible() != later.is_visible()
        return lines.is_visible()

    assert not shown()
    at_step(page, 13)
    assert not shown()
    page.keyboard.press("End")
    assert shown()
    assert page.get_by_test_id("result-value").inner_text() == "3"
    assert page.get_by_test_id("best-move").inner_text() == "by moving to root.0"
    assert page.get_by_test_id("pruned-line").inner_text() == (
        "Leaves never evaluated (2): root.1.1 (4), root.1.2 (6)"
    )
    page.keyboard.press("ArrowLeft")
    assert not shown()
    page.get_by_test_id("show-answer").check()
    assert shown()
    page.get_by_test_id("show-answer").uncheck()
    assert not shown()


def test_a_labelled_best_move_is_named_by_its_label(page: Page, base_url: str) -> None:
    # max(min(3, 5), min(2, 9)) = 3 by the move "2,1" (the games page's notation)
    tree = {
        "kind": "max",
        "children": [
            {"move": "2,1", "kind": "min", "children": [3, 5]},
            {"move": "1,3", "kind": "min", "children": [2, 9]},
        ],
    }
    solve(page, base_url, json.dumps(tree), "minimax")
    page.get_by_test_id("show-answer").check()
    assert page.get_by_test_id("best-move").inner_text() == "by the move 2,1 (to root.0)"
    page.get_by_test_id("node-labels").select_option("none")
    page.locator("#drawing text.node-id").first.wait_for(state="detached")
    settled(page)
    assert page.get_by_test_id("best-move").inner_text() == "by the move 2,1"
