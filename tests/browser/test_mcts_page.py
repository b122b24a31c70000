"""The MCTS page in a real browser: run UCT, step through the four phases of each simulation
on the growing tree, with buttons and arrow keys, at a desktop's and a phone's width.

Hand derivation: in tic-tac-toe "xxoooxx.." (x x o / o o x / x . .) o is to move with two
squares left, and both lines end in a draw (no row, column or diagonal is one player's), so
every reward is 1/2. The first two simulations each add one of the root's two children (the
root has a move without a child, so selection stops at once); the third selects between two
children of one visit and mean 1/2 each under a root of two visits: UCB1 = 1/2 + c sqrt(ln 2)
= 0.5 + 1.414 x 0.8326 = 1.677 for both, and the tie goes to the game's first move, 3,2.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from playwright.sync_api import Page, expect

DRAWN = {
    "game": "tic_tac_toe",
    "params": {"rows": 3, "columns": 3, "k": 3},
    "position": "xxoooxx..",
    "simulations": 3,
    "seed": 0,
    "exploration": 1.414,
}


def open_search(page: Page, base_url: str, state: dict[str, object] | None = None) -> None:
    """Open the page (on the search ``state`` names, through the URL) and wait for its answer."""
    fragment = "" if state is None else "#" + quote(json.dumps(state))
    page.goto(f"{base_url}/mcts{fragment}")
    expect(page.get_by_test_id("mcts-summary")).to_be_visible()
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")


def nodes(page: Page) -> int:
    return page.locator("#drawing svg [data-node-id]").count()


def test_the_page_is_titled_and_runs_the_first_search(page: Page, base_url: str) -> None:
    open_search(page, base_url)
    expect(page).to_have_title("Arbiter · Monte Carlo tree search")
    expect(page.get_by_test_id("mcts-position")).to_have_value(".........")
    # 20 simulations from the empty board: the visits of the nine moves add up to 20
    cells = page.locator("#root-moves tbody tr td:nth-child(2)").all_text_contents()
    assert len(cells) == 9 and sum(int(cell) for cell in cells) == 20
    expect(page.get_by_test_id("mcts-step-count")).to_contain_text("Before the first simulation")
    assert nodes(page) == 1


def test_the_four_phases_grow_the_tree(page: Page, base_url: str) -> None:
    open_search(page, base_url, DRAWN)
    expect(page.get_by_test_id("mcts-chosen")).to_contain_text("3,2")
    explanation = page.get_by_test_id("mcts-explanation")
    page.get_by_test_id("mcts-next").click()
    expect(page.get_by_test_id("mcts-step-count")).to_have_text("Simulation 1 of 3: selection.")
    expect(explanation).to_contain_text("selection stops at the root")
    expect(page.locator('#phases li[aria-current="step"]')).to_have_text("Selection")
    assert nodes(page) == 1
    page.get_by_test_id("mcts-next").click()
    expect(explanation).to_contain_text("Expansion: #1 is added under #0")
    assert nodes(page) == 2
    expect(page.locator('#drawing [data-node-id="1"]')).to_have_attribute("data-state", "path new")
    page.get_by_test_id("mcts-next").click()
    # one move left after the new node: o's, then x fills the last square, a draw
    expect(explanation).to_contain_text("Playout: 1 random move")
    expect(explanation).to_contain_text("a draw: each player gets 1/2")
    expect(page.get_by_test_id("mcts-playout-end")).to_have_text("draw")
    page.get_by_test_id("mcts-next").click()
    expect(explanation).to_contain_text("#0 gets 1/2 for o: 1 visit, mean 1/2")
    expect(page.locator('#drawing [data-node-id="0"] text.mean')).to_have_text("1/2")
    expect(page.locator('#drawing [data-node-id="1"]')).to_have_attribute(
        "data-state", "path new updated"
    )


def test_the_third_selection_shows_ucb1_and_breaks_the_tie_by_move_order(
    page: Page, base_url: str
) -> None:
    open_search(page, base_url, DRAWN)
    for _ in range(9):  # two whole simulations, then the third's selection
        page.get_by_test_id("mcts-next").click()
    expect(page.get_by_test_id("mcts-step-count")).to_have_text("Simulation 3 of 3: selection.")
    labels = page.locator("#drawing text.ucb").all_text_contents()
    assert labels == ["UCB 1.68", "UCB 1.68"]
    explanation = page.get_by_test_id("mcts-explanation")
    expect(explanation).to_contain_text("3,2 (#")
    expect(explanation).to_contain_text("UCB1 1.677 = 0.500 + 1.414 · √(ln 2 / 1)")
    chosen = page.locator("#drawing text.ucb.chosen")
    expect(chosen).to_have_count(1)
    # the bold label is on the node reached by 3,2: its edge is outlined as the path
    expect(page.locator("#drawing line.edge.path")).to_have_count(1)


def test_arrow_keys_and_the_ends_step_and_stop(page: Page, base_url: str) -> None:
    open_search(page, base_url, DRAWN)
    count = page.get_by_test_id("mcts-step-count")
    page.locator("body").press("ArrowRight")
    page.locator("body").press("ArrowRight")
    expect(count).to_have_text("Simulation 1 of 3: expansion.")
    page.locator("body").press("ArrowLeft")
    expect(count).to_have_text("Simulation 1 of 3: selection.")
    page.locator("body").press("End")
    expect(count).to_have_text("Simulation 3 of 3: back-propagation.")
    expect(page.get_by_test_id("mcts-next")).to_be_disabled()
    assert nodes(page) == 4  # the root, its two children, and the third simulation's node
    page.get_by_test_id("mcts-first").click()
    expect(count).to_contain_text("Before the first simulation")
    expect(page.get_by_test_id("mcts-prev")).to_be_disabled()
    # typing in a field does not step
    page.get_by_test_id("mcts-seed").press("ArrowRight")
    expect(count).to_contain_text("Before the first simulation")


def test_chance_nodes_draw_their_outcomes(page: Page, base_url: str) -> None:
    state = {"game": "pig", "params": {"goal": 10, "die": 6}, "position": "1 0 0 0 rolling",
             "simulations": 5, "seed": 0, "exploration": 1.414}  # fmt: skip
    open_search(page, base_url, state)
    expect(page.get_by_test_id("mcts-chosen")).to_contain_text("Chance moves at this position")
    page.get_by_test_id("mcts-next").click()
    page.get_by_test_id("mcts-next").click()
    expect(page.get_by_test_id("mcts-explanation")).to_contain_text("(probability 1/6)")
    expect(page.locator('#drawing [data-node-id="0"]')).to_have_class("node player-0 chance")


def test_bad_inputs_are_named(page: Page, base_url: str) -> None:
    open_search(page, base_url, DRAWN)
    page.get_by_test_id("mcts-simulations").fill("501")
    page.get_by_test_id("mcts-run").click()
    error = page.get_by_test_id("mcts-error")
    expect(error).to_contain_text("at most 500 simulations")
    expect(page.get_by_test_id("mcts-simulations")).to_have_attribute("aria-invalid", "true")
    page.get_by_test_id("mcts-simulations").fill("10")
    page.get_by_test_id("mcts-exploration").fill("-1")
    page.get_by_test_id("mcts-run").click()
    expect(error).to_contain_text("(at /exploration)")
    expect(page.get_by_test_id("mcts-exploration")).to_have_attribute("aria-invalid", "true")


def test_the_page_fits_a_phone_and_a_desktop(page: Page, base_url: str) -> None:
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto("about:blank")  # a new load, not a change of the fragment
        open_search(page, base_url, {**DRAWN, "position": ".........", "simulations": 30})
        for _ in range(41):
            page.get_by_test_id("mcts-next").click()
        expect(page.get_by_test_id("mcts-step-count")).to_contain_text("Simulation 11 of 30")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        box = page.locator("#drawing svg").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
