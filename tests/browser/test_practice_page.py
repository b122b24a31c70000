"""The practice page in a real browser: generate a problem, answer it, have it graded.

Seed 4 with depth 2, three children per node, AIMA's convention and at least one pruned
leaf gives the tree below (the test checks it), AIMA's figure 5.2 in all but the leaves:

    root (MAX)
      root.0 (MIN): 3, 12, 15
      root.1 (MIN): 2, 2, 0
      root.2 (MIN): 17, 9, 1

By hand, left to right, pruning when alpha >= beta: root.0 = min(3, 12, 15) = 3, so
alpha = 3 at the root. At root.1 the first leaf gives v = 2 <= alpha = 3: root.1 returns
2 and root.1.1, root.1.2 are never evaluated. root.2 reads 17, 9 (both above 3) and 1,
returning 1. The root is worth 3 by the move to root.0.

Right to left (the classic mistake): root.2 reads 1, 9, 17 and returns 1 (alpha = 1);
root.1 reads 0 <= 1 first, returns 0 and prunes root.1.1, root.1.0; root.0 reads 15, 12,
3 and returns 3. Same value and move, but root.1 = 0 and the pruned leaves differ.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, unquote

from playwright.sync_api import Locator, Page, expect

from analysis.trees.solve import solve_tree
from games.trees.parser import parse_tree
from tests.browser.held import FirstHeld

TREE = [[3, 12, 15], [2, 2, 0], [17, 9, 1]]
SETTINGS = {"depth": "2", "low": "3", "high": "3", "seed": "4"}
RIGHT = {"root": "3", "root.0": "3", "root.1": "2", "root.2": "1"}
PRUNED = ["root.1.1", "root.1.2"]


def generate(
    page: Page,
    base_url: str,
    settings: dict[str, str],
    chance: bool = False,
    convention: str = "aima",
) -> dict[str, Any]:
    """Open the page, fill in the generator's settings, generate; the problem it got."""
    page.goto(base_url + "/practice")
    page.get_by_test_id("practice-convention").select_option(convention)
    page.get_by_test_id("practice-depth").fill(settings["depth"])
    page.get_by_test_id("practice-branching-min").fill(settings["low"])
    page.get_by_test_id("practice-branching-max").fill(settings["high"])
    page.get_by_test_id("practice-chance").set_checked(chance)
    page.get_by_test_id("practice-seed").fill(settings["seed"])
    with page.expect_response("**/v1/problems/generate") as response:
        page.get_by_test_id("practice-generate").click()
    problem: dict[str, Any] = response.value.json()["problem"]
    page.get_by_test_id("value-root").wait_for()
    return problem


def answer(page: Page, values: dict[str, str], best: str, pruned: list[str]) -> None:
    for node, value in values.items():
        page.get_by_test_id(f"value-{node}").fill(value)
    page.get_by_test_id("practice-best-move").select_option(best)
    for leaf in pruned:
        shape(page, leaf).click()
    page.get_by_test_id("practice-check").click()
    page.get_by_test_id("practice-score").wait_for()


def shape(page: Page, node: str) -> Locator:
    """The node's drawn shape (a click on its box may land beside a triangle)."""
    return page.locator(f'#drawing [data-node-id="{node}"]').locator("polygon, rect, circle")


def classes(page: Page, node: str) -> list[str]:
    found = page.locator(f'#drawing [data-node-id="{node}"]').get_attribute("class") or ""
    return found.split()


def test_the_seeded_problem_is_the_hand_derived_tree_drawn_without_its_answer(
    page: Page, base_url: str
) -> None:
    problem = generate(page, base_url, SETTINGS)
    asked = ["value", "best_move", "nodes", "principal_variation", "pruned_leaves"]
    assert problem == {
        "type": "alphabeta",
        "tree": TREE,
        "root": "max",
        "prune_on_equality": True,
        "questions": asked,
    }
    # the independent check of the hand derivation in the module's docstring
    solved = solve_tree(parse_tree(TREE), "alphabeta", prune_on_equality=True)
    assert {n: str(v) for n, v in solved.values.items() if n.count(".") < 2} == RIGHT
    assert list(solved.pruned_leaves) == PRUNED
    drawn = page.locator("#drawing [data-node-id]")
    assert drawn.count() == 13
    # leaf values only: no internal node carries a value, nothing is marked solved
    values = page.locator("#drawing .value").all_text_contents()
    assert values == ["3", "12", "15", "2", "2", "0", "17", "9", "1"]
    assert all(not (node.get_attribute("data-state") or "") for node in drawn.all())
    assert "seed 4" in page.get_by_test_id("practice-statement").inner_text().lower()
    assert page.get_by_test_id("practice-score").is_hidden()


def test_the_right_answer_gets_full_marks(page: Page, base_url: str) -> None:
    generate(page, base_url, SETTINGS)
    answer(page, RIGHT, "root.0", PRUNED)
    assert page.get_by_test_id("practice-score").inner_text() == "8 / 8"
    assert page.get_by_test_id("practice-wrong").inner_text() == "Nothing: every part is right."
    assert page.get_by_test_id("practice-departure").inner_text() == ""
    rows = page.get_by_test_id("practice-parts").locator("tbody tr")
    assert rows.count() == 4
    assert page.get_by_test_id("practice-marked").inner_text() == (
        "Marked as pruned (2): root.1.1, root.1.2"
    )


def test_a_wrong_value_and_a_missed_leaf_get_partial_credit_naming_both(
    page: Page, base_url: str
) -> None:
    generate(page, base_url, SETTINGS)
    # root.1 given 4 (alpha-beta returns 2 there), and only root.1.1 of the two pruned
    # leaves marked
    answer(page, {**RIGHT, "root.1": "4"}, "root.0", ["root.1.1"])
    # value 1 + best move 1 + nodes 4 * 3/4 = 3 + pruned leaves 2 * 2 * 1 / (2 + 1) = 4/3
    assert page.get_by_test_id("practice-score").inner_text() == "6.33 / 8"
    parts = page.get_by_test_id("practice-parts")
    assert parts.locator('tr[data-field="nodes"] td').nth(1).inner_text() == "3 / 4"
    assert parts.locator('tr[data-field="pruned_leaves"] td').nth(1).inner_text() == "1.33 / 2"
    assert "root.1" in parts.locator('tr[data-field="nodes"] td').nth(2).inner_text()
    wrong = page.get_by_test_id("practice-wrong").locator("li").all_inner_texts()
    assert wrong == ["root.1: wrong value", "root.1.2: pruned, but not marked"]
    assert "wrong" in classes(page, "root.1")
    assert "missed" in classes(page, "root.1.2")
    assert "marked" in classes(page, "root.1.1")
    assert page.get_by_test_id("value-root.1").get_attribute("aria-invalid") == "true"
    assert page.get_by_test_id("value-root.0").get_attribute("aria-invalid") is None
    # the cut at root.1 is the first step of the search the answer contradicts
    assert page.get_by_test_id("practice-departure").inner_text() == (
        "First departure: at node root.1, after leaf root.1.0 = 2, MIN has v = 2 <= alpha = 3, "
        "so root.1.1, root.1.2 are never evaluated"
    )


def test_the_right_to_left_mistake_is_diagnosed(page: Page, base_url: str) -> None:
    generate(page, base_url, SETTINGS)
    answer(page, {**RIGHT, "root.1": "0"}, "root.0", ["root.1.0", "root.1.1"])
    # nodes 3 of 4 right (3), pruned leaves 2 * 2 * 1 / (2 + 2) = 1, value and move right
    assert page.get_by_test_id("practice-score").inner_text() == "6 / 8"
    codes = page.get_by_test_id("practice-diagnosis").locator("li")
    assert codes.first.get_attribute("data-code") == "right_to_left"
    assert "searched children from right to left" in codes.first.inner_text()
    wrong = page.get_by_test_id("practice-wrong").locator("li").all_inner_texts()
    assert wrong == [
        "root.1: wrong value",
        "root.1.2: pruned, but not marked",
        "root.1.0: marked, but evaluated",
    ]
    assert "wrongly-marked" in classes(page, "root.1.0")
    # left to right, root.1.0 is read with alpha = 3 from root.0 and nothing cut yet
    assert page.get_by_test_id("practice-departure").inner_text() == (
        "First departure: leaf root.1.0 is evaluated, not pruned: when the search reaches it, "
        "root.1 has alpha = 3 and beta = +inf and no cutoff has happened"
    )


def test_leaves_are_marked_by_keyboard_and_nodes_focus_their_inputs(
    page: Page, base_url: str
) -> None:
    generate(page, base_url, SETTINGS)
    page.get_by_test_id("drawing").focus()  # the drawing itself (zoom keys), then its leaves
    reached = []
    for _ in range(12):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.dataset.nodeId"))
        if reached[-1] == "root.1.1":
            break
    # only leaves take the focus in the drawing (internal nodes have their inputs)
    assert reached == ["root.0.0", "root.0.1", "root.0.2", "root.1.0", "root.1.1"]
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    leaf = page.locator('#drawing [data-node-id="root.1.2"]')
    assert leaf.get_attribute("aria-pressed") == "true"
    assert "marked" in classes(page, "root.1.1") and "marked" in classes(page, "root.1.2")
    assert page.get_by_test_id("practice-marked").inner_text() == (
        "Marked as pruned (2): root.1.1, root.1.2"
    )
    page.keyboard.press("Enter")  # unmarks root.1.2
    assert leaf.get_attribute("aria-pressed") == "false"
    assert "marked" not in classes(page, "root.1.2")
    shape(page, "root.2").click()
    assert page.evaluate("document.activeElement.id") == "value-root.2"


def test_every_control_is_labelled(page: Page, base_url: str) -> None:
    generate(page, base_url, SETTINGS)
    controls = page.locator("main input, main select")
    assert controls.count() == 7 + 4 + 1  # the generator's, one per internal node, the move
    for control in controls.all():
        assert control.evaluate("c => c.labels.length > 0"), control.get_attribute("id")
    assert page.get_by_label("root.1 (MIN)").get_attribute("data-testid") == "value-root.1"
    assert page.get_by_label("root (MAX)").get_attribute("data-testid") == "value-root"
    leaf = page.locator('#drawing [data-node-id="root.1.2"]')
    assert leaf.get_attribute("aria-label") == "leaf root.1.2, value 0: mark as pruned"


def test_show_solution_opens_the_step_through_on_the_trees_page(page: Page, base_url: str) -> None:
    generate(page, base_url, SETTINGS)
    # the new tab is watched as the fixture watches the page
    problems: list[str] = []
    page.context.on(
        "console",
        lambda message: (
            problems.append(message.text) if message.type in ("error", "warning") else None
        ),
    )
    page.context.on("weberror", lambda error: problems.append(str(error.error)))
    with page.context.expect_page() as opened:
        page.get_by_test_id("practice-solution").click()
    solution = opened.value
    solution.get_by_test_id("result-value").wait_for()
    assert solution.get_by_test_id("result-value").inner_text() == "3"
    assert json.loads(solution.get_by_test_id("tree-input").input_value()) == TREE
    assert solution.get_by_test_id("algorithm").input_value() == "alphabeta"
    pruned = {
        node.get_attribute("data-node-id")
        for node in solution.locator("[data-node-id]").all()
        if "pruned" in (node.get_attribute("data-state") or "").split()
    }
    assert pruned == set(PRUNED)
    explanation = solution.get_by_test_id("step-explanation")
    assert explanation.inner_text() == "Press Next step to start."
    solution.get_by_test_id("step-next").click()
    assert solution.get_by_test_id("step-count").inner_text().startswith("step 1 of ")
    assert explanation.inner_text() == "MAX at root is entered with alpha = -inf and beta = inf."
    solution.close()
    assert problems == []


def test_a_link_reproduces_the_problem_and_an_empty_seed_is_drawn_and_shown(
    page: Page, base_url: str
) -> None:
    state = {"depth": "2", "branching": ["3", "3"], "chance": False, "convention": "aima"}
    state |= {"least": "1", "seed": "4"}
    with page.expect_response("**/v1/problems/generate") as response:
        page.goto(base_url + "/practice#" + quote(json.dumps(state)))
    assert response.value.json()["problem"]["tree"] == TREE
    assert page.get_by_test_id("practice-seed").input_value() == "4"
    # no seed: the page draws one, shows it and puts it in the link
    page.get_by_test_id("practice-seed").fill("")
    with page.expect_response("**/v1/problems/generate"):
        page.get_by_test_id("practice-generate").click()
    seed = page.get_by_test_id("practice-seed").input_value()
    assert seed.isdigit()
    assert f'"seed":"{seed}"' in page.evaluate("decodeURIComponent(location.hash)")
    expect(page.get_by_test_id("practice-statement")).to_contain_text(f"Seed {seed}:")


def test_an_older_problem_answering_late_does_not_replace_the_newer_one(
    page: Page, base_url: str
) -> None:
    # the page's own first problem (seed 4) is held back until the student's (seed 5) is shown
    first = FirstHeld(page, "**/v1/trees/render")
    state = {"depth": "2", "branching": ["3", "3"], "chance": False, "convention": "aima"}
    page.goto(base_url + "/practice#" + quote(json.dumps(state | {"least": "1", "seed": "4"})))
    first.wait()
    page.get_by_test_id("practice-seed").fill("5")
    page.get_by_test_id("practice-generate").click()
    statement = page.get_by_test_id("practice-statement")
    expect(statement).to_contain_text("Seed 5:")
    first.release()
    expect(statement).to_contain_text("Seed 5:")
    assert page.get_by_test_id("practice-seed").input_value() == "5"


def test_an_expectimax_problem_is_graded_in_exact_fractions(page: Page, base_url: str) -> None:
    problem = generate(
        page, base_url, {"depth": "2", "low": "2", "high": "2", "seed": "1"}, chance=True
    )
    # root (MAX) over two chance nodes: 8 w.p. 2/3, 3 w.p. 1/3 and 20, 12 w.p. 1/2 each
    assert problem["tree"] == {
        "children": [
            {"kind": "chance", "children": [{"value": 8, "p": "2/3"}, {"value": 3, "p": "1/3"}]},
            {"kind": "chance", "children": [{"value": 20, "p": "1/2"}, {"value": 12, "p": "1/2"}]},
        ]
    }
    assert page.get_by_test_id("practice-convention").is_disabled()
    assert page.locator("#pruning").is_hidden()
    # 8 * 2/3 + 3 * 1/3 = 19/3; 20/2 + 12/2 = 16; MAX takes 16 by root.1
    answer(page, {"root": "16", "root.0": "19/3", "root.1": "16"}, "root.1", [])
    assert page.get_by_test_id("practice-score").inner_text() == "6 / 6"
    # 6.33 is not 19/3: graded exactly
    answer(page, {"root.0": "6.33"}, "root.1", [])
    # value 1 + best move 1 + nodes 4 * 2/3
    assert page.get_by_test_id("practice-score").inner_text() == "4.67 / 6"
    assert page.get_by_test_id("practice-wrong").inner_text() == "root.0: wrong value"


def test_errors_are_shown_beside_the_input_they_concern(page: Page, base_url: str) -> None:
    generate(page, base_url, SETTINGS)
    page.get_by_test_id("value-root.0").fill("three")
    page.get_by_test_id("practice-check").click()
    message = page.locator('[id="value-root.0-error"]')
    message.wait_for()
    assert "'three' is not a number" in message.inner_text()
    assert "/answer/nodes/root.0" in message.inner_text()
    assert page.get_by_test_id("value-root.0").get_attribute("aria-invalid") == "true"
    page.get_by_test_id("practice-depth").fill("9")
    page.get_by_test_id("practice-generate").click()
    refused = page.get_by_test_id("practice-generate-error")
    refused.wait_for()
    assert "(at /depth)" in refused.inner_text()
    assert page.get_by_test_id("practice-depth").get_attribute("aria-invalid") == "true"


def test_the_cs188_convention_is_posed_and_pruning_on_equality_is_diagnosed(
    page: Page, base_url: str
) -> None:
    settings = {"depth": "2", "low": "3", "high": "3", "seed": "9"}
    problem = generate(page, base_url, settings, convention="cs188")
    # CS188 cuts only on v < alpha: root.0 = 5 (alpha = 5); root.1 reads 5 and 7 (no cut,
    # 5 < 5 is false), then 1, returning 1; root.2 reads 4 < 5 and prunes root.2.1, root.2.2.
    assert problem["tree"] == [[5, 14, 13], [5, 7, 1], [4, 16, 18]]
    assert problem["prune_on_equality"] is False
    assert "pruning only when alpha > beta (CS188)" in (
        page.get_by_test_id("practice-statement").inner_text()
    )
    # the AIMA habit: root.1 cut at 5 <= 5, returning 5 and pruning its last two leaves too
    aima = ["root.1.1", "root.1.2", "root.2.1", "root.2.2"]
    answer(page, {"root": "5", "root.0": "5", "root.1": "5", "root.2": "4"}, "root.0", aima)
    # nodes 3 of 4 (3), pruned leaves 2 * 2 * 2 / (2 + 4) = 4/3, value and move right
    assert page.get_by_test_id("practice-score").inner_text() == "6.33 / 8"
    codes = page.get_by_test_id("practice-diagnosis").locator("li")
    assert codes.first.get_attribute("data-code") == "prune_on_equality"
    link = page.get_by_test_id("practice-solution").get_attribute("href") or ""
    assert json.loads(unquote(link.removeprefix("/#")))["equality"] is False
