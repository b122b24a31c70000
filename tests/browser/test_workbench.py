"""The web workbench in a real browser (headless Chromium driven by Playwright).

Each test loads the page from a live app, checks the answer against the textbook (AIMA
figure 5.2: value 3 by the left move; alpha-beta never evaluates B's last two leaves),
that nothing is requested from outside the server and that the console stays clean.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page


def test_solving_the_aima_tree_draws_it_with_the_pruned_leaves(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-input").fill("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    page.get_by_test_id("algorithm").select_option("alphabeta")
    page.get_by_test_id("solve").click()
    # the answer waits for the step-through's last step, or for "show the answer"
    page.get_by_test_id("answer-later").wait_for()
    assert page.get_by_test_id("result-value").is_hidden()
    page.get_by_test_id("show-answer").check()  # the solved drawing, not the step-through's
    assert page.get_by_test_id("answer-later").is_hidden()
    assert page.get_by_test_id("result-value").inner_text() == "3"
    states = {
        node.get_attribute("data-node-id"): node.get_attribute("data-state")
        for node in page.locator("[data-node-id]").all()
    }
    assert len(states) == 13
    assert {n for n, s in states.items() if "pruned" in (s or "").split()} == {
        "root.1.1",
        "root.1.2",
    }
    assert {n for n, s in states.items() if "best" in (s or "").split()} == {
        "root",
        "root.0",
        "root.0.0",
    }


def test_an_error_is_shown_beside_the_input_with_its_pointer(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-input").fill('[[3, "x"], [1]]')
    page.get_by_test_id("solve").click()
    message = page.get_by_test_id("tree-error")
    message.wait_for()
    assert "/tree/0/1" in message.inner_text()
    assert page.get_by_test_id("tree-input").get_attribute("aria-invalid") == "true"


def test_a_link_reproduces_the_page_and_the_tikz_export_downloads(
    page: Page, base_url: str, tmp_path: Path
) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-input").fill('{"kind": "chance", "children": [4, 0, 0]}')
    page.get_by_test_id("algorithm").select_option("expectimax")
    page.get_by_test_id("solve").click()
    page.get_by_test_id("answer-later").wait_for()
    page.get_by_test_id("step-last").click()  # the answer shows at the last step
    page.get_by_test_id("result-value").wait_for()
    assert page.get_by_test_id("result-value").inner_text() == "4/3"
    page.get_by_test_id("show-answer").check()  # kept in the link
    link = page.url
    fresh = page.context.new_page()
    fresh.goto(link)
    fresh.get_by_test_id("result-value").wait_for()
    assert fresh.get_by_test_id("result-value").inner_text() == "4/3"
    assert fresh.get_by_test_id("algorithm").input_value() == "expectimax"
    with fresh.expect_download() as download:
        fresh.get_by_test_id("export-tikz").click()
    saved = tmp_path / "tree.tex"
    download.value.save_as(saved)
    assert "\\begin{tikzpicture}" in saved.read_text()
    fresh.close()


def test_every_control_is_labelled_and_reachable_by_keyboard(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    for test_id in ("tree-input", "algorithm", "depth", "prune-on-equality"):
        control = page.get_by_test_id(test_id)
        assert control.evaluate("c => c.labels.length > 0"), test_id
    page.get_by_test_id("tree-input").focus()
    reached = []
    for _ in range(6):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.dataset.testid"))
    assert "solve" in reached and "algorithm" in reached


def test_stepping_through_alpha_beta_explains_the_cutoff(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-input").fill("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    page.get_by_test_id("algorithm").select_option("alphabeta")
    page.get_by_test_id("solve").click()
    explanation = page.get_by_test_id("step-explanation")
    explanation.wait_for()
    # never started by itself
    assert explanation.inner_text() == "Press Next step to start."
    assert page.get_by_test_id("cut-rule").inner_text() == "prune when alpha >= beta (AIMA)"
    seen = []
    for _ in range(26):
        page.get_by_test_id("step-next").click()
        seen.append(explanation.inner_text())
        if "pruned" in seen[-1]:
            break
    assert seen[-1] == (
        "MIN at root.1: v = 2 <= alpha = 3, so root.1's remaining children are pruned "
        "(root.1.1, root.1.2)."
    )
    current = page.locator('[data-node-id="root.1"]')
    assert "current" in (current.get_attribute("data-state") or "").split()
    assert page.get_by_test_id("step-window").inner_text() == "alpha = 3, beta = inf"
    # two steps back: the leaf B read before the cut is the current node
    page.get_by_test_id("step-prev").click()
    assert explanation.inner_text() == seen[-2]
    page.get_by_test_id("step-prev").click()
    assert explanation.inner_text() == "root.1.0 is evaluated: 2."
    leaf = page.locator('[data-node-id="root.1.0"]')
    assert "current" in (leaf.get_attribute("data-state") or "").split()
    assert "current" not in (current.get_attribute("data-state") or "").split()
