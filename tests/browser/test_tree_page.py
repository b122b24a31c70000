"""The tree page in a real browser: every input format, click-to-edit, each search's
options and the step-through of expectimax/Star1 and max^n.

Answers are hand-derived or textbook: AIMA figure 5.2 is worth 3; the CS188 sample
(A: Left to B = min(3, 5), Right to C = min(2, 9)) is worth 3 by Left; the .efg sample
(Max: L to min(3, 1), R to min(0, 5)) is worth 1 by L.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page

from api.views.tree_formats import _CS188_EXAMPLE
from tests.browser.held import FirstHeld


def solve(page: Page, text: str, fmt: str = "json", algorithm: str = "alphabeta") -> str:
    page.get_by_test_id("tree-format").select_option(fmt)
    page.get_by_test_id("tree-input").fill(text)
    page.get_by_test_id("algorithm").select_option(algorithm)
    page.get_by_test_id("solve").click()
    return settled(page)


def settled(page: Page) -> str:
    """The root value once the page has its answer (the section is busy until then); the
    page shows it at the step-through's last step (see test_the_answer_waits_for_the_replay)."""
    page.locator('section[aria-busy="false"]').wait_for()
    page.get_by_test_id("result-value").wait_for(state="attached")
    return str(page.get_by_test_id("result-value").text_content())


def node_states(page: Page) -> dict[str, list[str]]:
    """Each drawn node's state words: the step-through's replay at its step, or with
    "show the answer" ticked (:func:`answer_states`) the solved tree's."""
    return {
        str(node.get_attribute("data-node-id")): (node.get_attribute("data-state") or "").split()
        for node in page.locator("[data-node-id]").all()
    }


def answer_states(page: Page) -> dict[str, list[str]]:
    page.get_by_test_id("show-answer").check()
    return node_states(page)


def test_a_cs188_test_solves_to_its_value_as_the_autograder_plays_it(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/")
    assert solve(page, _CS188_EXAMPLE, "cs188", "minimax") == "3"
    assert page.locator("#best-move").inner_text() == "by the move Left (to B)"
    assert set(node_states(page)) == {"A", "B", "C", "D", "E", "F", "G"}
    answer = page.get_by_test_id("cs188-answer").inner_text()
    assert answer.startswith("CS188 minimax agent: action Left, value 3;")
    assert answer.endswith("generated states: A B C D E F G")
    # a click only opens the editor; the first edit turns the input into the JSON it was read
    # into: D = 10 makes B = min(10, 5) = 5 the better move
    click_node(page, "D")
    assert page.get_by_test_id("tree-format").input_value() == "cs188"
    set_leaf(page, "D", "10")
    assert settled(page) == "5"
    assert page.get_by_test_id("tree-format").input_value() == "json"
    tree = json.loads(page.get_by_test_id("tree-input").input_value())
    assert tree["children"][0]["children"][0] == {"id": "D", "move": "Left", "value": 10}


def test_an_efg_game_solves_to_its_value_and_a_syntax_error_names_its_line(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-sample").select_option("efg")
    page.get_by_test_id("load-sample").click()
    assert settled(page) == "1"
    assert page.get_by_test_id("tree-format").input_value() == "efg"
    efg = page.get_by_test_id("tree-input").input_value()
    assert efg.startswith('EFG 2 R "A sequential game"')
    assert solve(page, efg, "efg", "alphabeta") == "1"
    # alpha-beta: after L is worth 1, R's first reply 0 <= 1 cuts R's second reply
    assert "pruned" in answer_states(page)["n6"]
    assert solve(page, efg, "efg", "maxn") == "(1, -1)"
    broken = efg.replace("{ 1, -1 }", "{ 1, -1")
    page.get_by_test_id("tree-input").fill(broken)
    page.get_by_test_id("solve").click()
    message = page.get_by_test_id("tree-error")
    message.wait_for()
    assert message.inner_text().startswith("line 5: the { opened here is not closed")
    assert "(at /text)" in message.inner_text()
    assert page.get_by_test_id("tree-input").get_attribute("aria-invalid") == "true"


def test_every_sample_loads_and_solves_to_its_known_value(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    known = {"aima": "3", "expectimax": "5", "maxn": "(4, 3, 3)", "cs188": "3", "efg": "1"}
    for sample, value in known.items():
        page.get_by_test_id("tree-sample").select_option(sample)
        page.get_by_test_id("load-sample").click()
        assert settled(page) == value, sample


def click_node(page: Page, node_id: str) -> None:
    # on its shape: the middle of a node's box may fall between the shape and its name
    page.locator(f'[data-node-id="{node_id}"] > :is(polygon, rect, circle)').click()
    assert page.get_by_test_id("editor-node").inner_text() == node_id


def add_children(page: Page, node_id: str, count: int) -> None:
    click_node(page, node_id)
    for index in range(count):
        page.get_by_test_id("editor-add-child").click()
        page.locator('section[aria-busy="false"]').wait_for()
        page.locator(f'[data-node-id="{node_id}.{index}"]').wait_for()


def set_leaf(page: Page, node_id: str, value: str) -> None:
    click_node(page, node_id)
    page.get_by_test_id("editor-value").fill(value)
    page.get_by_test_id("editor-value").press("Enter")
    page.locator('section[aria-busy="false"]').wait_for()
    page.locator(f'[data-node-id="{node_id}"] text.value', has_text=value).wait_for()


def test_building_aima_figure_5_2_by_clicks_gives_3(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    assert solve(page, '{"value": 0}') == "0"
    add_children(page, "root", 3)
    leaves = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    for i, row in enumerate(leaves):
        add_children(page, f"root.{i}", 3)
        for j, value in enumerate(row):
            set_leaf(page, f"root.{i}.{j}", str(value))
    assert settled(page) == "3"
    tree = json.loads(page.get_by_test_id("tree-input").input_value())
    assert [[leaf["value"] for leaf in child["children"]] for child in tree["children"]] == leaves
    assert {n for n, s in answer_states(page).items() if "pruned" in s} == {"root.1.1", "root.1.2"}


def test_a_leaf_changed_in_the_editor_changes_the_text_and_the_value(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/")
    assert solve(page, "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]") == "3"
    # B's first leaf 2 -> 5: B = min(5, 4, 6) = 4 > 3, so the root moves to B
    set_leaf(page, "root.1.0", "5")
    assert settled(page) == "4"
    assert page.locator("#best-move").inner_text() == "by moving to root.1"
    # the shorthand stays shorthand (test_tree_page_editing.py has more)
    assert page.get_by_test_id("tree-input").input_value() == "[[3, 12, 8], [5, 4, 6], [14, 5, 2]]"
    # a removed leaf leaves the editor on its parent: C = min(14, 5) = 5 is the new best
    click_node(page, "root.2.2")
    page.get_by_test_id("editor-remove").click()
    assert settled(page) == "5"
    assert page.get_by_test_id("editor-node").inner_text() == "root.2"


def test_kinds_and_probabilities_are_edited_exactly(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    assert solve(page, "[[3, 12, 8], [2, 4, 6]]", algorithm="expectimax") == "3"
    # root.0 becomes a chance node: (3 + 12 + 8) / 3 = 23/3
    click_node(page, "root.0")
    page.get_by_test_id("editor-kind").select_option("chance")
    page.get_by_test_id("editor-apply").click()
    assert settled(page) == "23/3"
    # p(root.0.0) = 1/2: the other two share the rest, 1/2 * 3 + 1/4 * 12 + 1/4 * 8 = 13/2
    click_node(page, "root.0.0")
    page.get_by_test_id("editor-p").fill("1/2")
    page.get_by_test_id("editor-apply").click()
    assert settled(page) == "13/2"
    tree = json.loads(page.get_by_test_id("tree-input").input_value())
    assert [leaf["p"] for leaf in tree[0]["children"]] == ["1/2", "1/4", "1/4"]
    assert tree[1] == [2, 4, 6]  # the shorthand where the tree still is shorthand


def test_a_max_n_player_and_utility_list_are_edited(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    tree = "[[[1, 2, 3], [6, 1, 2]], [[2, 5, 0], [6, 1, 1]]]"
    assert solve(page, tree, algorithm="maxn") == "(2, 5, 0)"
    # root.1's mover becomes player 2: it takes (6, 1, 1) (1 > 0), and player 0 then 6 > 1
    click_node(page, "root.1")
    page.get_by_test_id("editor-kind").select_option("player")
    page.get_by_test_id("editor-player").fill("2")
    page.get_by_test_id("editor-apply").click()
    assert settled(page) == "(6, 1, 1)"
    set_leaf(page, "root.0.0", "7, 2, 1")
    assert settled(page) == "(7, 2, 1)"


def test_only_the_options_of_the_chosen_search_are_enabled(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    enabled = {
        "alphabeta": {"prune-on-equality"},
        "minimax": set(),
        "expectimax": {"prune-on-equality", "bound-low", "bound-high"},
        "maxn": {"tie-break", "max-sum"},
    }
    for algorithm, expected in enabled.items():
        page.get_by_test_id("algorithm").select_option(algorithm)
        found = {
            test_id
            for test_id in ("prune-on-equality", "bound-low", "bound-high", "tie-break", "max-sum")
            if page.get_by_test_id(test_id).is_enabled()
        }
        assert found == expected, algorithm
    labelled = ("tree-format", "tree-sample", "bound-low", "bound-high", "tie-break", "max-sum")
    for test_id in labelled:
        assert page.get_by_test_id(test_id).evaluate("c => c.labels.length > 0"), test_id


def test_an_option_error_is_shown_beside_the_option(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("algorithm").select_option("expectimax")
    page.get_by_test_id("bound-low").fill("0")
    page.get_by_test_id("bound-high").fill("5")
    page.get_by_test_id("tree-input").fill('{"kind": "chance", "children": [4, 9]}')
    page.get_by_test_id("solve").click()
    message = page.get_by_test_id("tree-error")
    message.wait_for()
    assert "outside the stated bounds [0, 5]" in message.inner_text()
    page.get_by_test_id("bound-high").fill("x")
    page.get_by_test_id("solve").click()
    options = page.get_by_test_id("options-error")
    options.wait_for()
    assert "(at /bounds/1)" in options.inner_text()
    assert page.get_by_test_id("bound-high").get_attribute("aria-invalid") == "true"


def test_the_keyboard_reaches_the_editor(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    assert solve(page, "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]") == "3"
    page.get_by_test_id("export-svg").focus()
    # back from the buttons under the drawing to its last node (past the collapse toggles the
    # drawing also holds), then Enter opens the editor
    focused = None
    for _ in range(8):
        page.keyboard.press("Shift+Tab")
        focused = page.evaluate("document.activeElement.dataset.nodeId")
        if focused is not None:
            break
    assert focused is not None
    page.keyboard.press("Enter")
    assert page.get_by_test_id("editor").is_visible()
    assert page.get_by_test_id("editor-node").inner_text() == focused
    assert page.evaluate("document.activeElement.dataset.testid") == "editor-add-child"
    page.keyboard.press("Enter")
    page.locator(f'[data-node-id="{focused}.0"]').wait_for()
    # Escape closes the editor and gives the keyboard back to the node
    page.keyboard.press("Escape")
    assert not page.get_by_test_id("editor").is_visible()
    assert page.evaluate("document.activeElement.dataset.nodeId") == focused


def step_until(page: Page, word: str, limit: int = 60) -> list[str]:
    """Press Next step until the explanation contains ``word``; the explanations seen."""
    explanation = page.get_by_test_id("step-explanation")
    assert explanation.inner_text() == "Press Next step to start."  # never started by itself
    seen: list[str] = []
    for _ in range(limit):
        page.get_by_test_id("step-next").click()
        seen.append(explanation.inner_text())
        if word in seen[-1]:
            return seen
    raise AssertionError(f"no step says {word!r}: {seen}")


def test_expectimax_with_bounds_steps_to_a_star1_cut(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-sample").select_option("expectimax")
    page.get_by_test_id("load-sample").click()
    assert settled(page) == "5"
    assert "(Star1)" in page.get_by_test_id("cut-rule").inner_text()
    seen = step_until(page, "pruned")
    # root.0 = (6 + 4) / 2 = 5 = alpha; after root.1's first outcome 0, the other half of
    # the probability can add at most 10 / 2: root.1 <= 5 <= alpha
    assert seen[-1] == (
        "chance at root.1: even if its remaining outcomes are all worth hi = 10, it is worth "
        "at most 5 <= alpha = 5, so they cannot lift it past alpha and are pruned (root.1.1)."
    )
    assert seen[-2].startswith("chance at root.1 takes root.1.0 (p = 1/2) into account")
    assert "current" in node_states(page)["root.1"]
    assert page.get_by_test_id("step-window").inner_text() == "alpha = 5, beta = inf"
    page.get_by_test_id("step-prev").click()
    assert page.get_by_test_id("step-window").inner_text() == (
        "alpha = 5, beta = inf; unseen probability = 1/2"
    )


def test_plain_expectimax_steps_through_each_value(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    assert solve(page, '{"kind": "chance", "children": [3, 4, "1/3"]}', algorithm="expectimax") == (
        "22/9"
    )
    assert page.get_by_test_id("cut-rule").inner_text() == (
        "no pruning: expectimax values every node"
    )
    seen = step_until(page, "value of the tree")
    assert seen[-1] == "root returns 22/9: the value of the tree."
    assert seen[4] == (
        "chance at root takes root.1 (p = 1/3) into account: the sum of p * v is 7/3 so far, "
        "with 1/3 of the probability still unseen."
    )


def test_max_n_with_max_sum_steps_to_a_shallow_cut(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("tree-sample").select_option("maxn")
    page.get_by_test_id("load-sample").click()
    assert settled(page) == "(4, 3, 3)"
    seen = step_until(page, "pruned")
    assert seen[-1] == (
        "player 1 already has 7 at root.1; with max_sum 10 player 0 can get at most 3 there, "
        "<= the 4 it already holds at root, so root.1's remaining children are pruned "
        "(root.1.1, root.1.2)."
    )
    assert "current" in node_states(page)["root.1"]
    assert page.get_by_test_id("step-window").inner_text() == (
        "player 1 to move, best so far (2, 7, 1); the parent holds (4, 3, 3)"
    )
    states = node_states(page)
    assert "pruned" in states["root.1.1"] and "pruned" in states["root.1.2"]


def test_every_control_of_the_page_has_a_label(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    unlabelled = page.evaluate(
        "[...document.querySelectorAll('input, select, textarea')]"
        ".filter(c => c.labels.length === 0).map(c => c.id)"
    )
    assert unlabelled == []
    assert page.locator("input, select, textarea").count() >= 14


def test_letters_name_the_nodes_in_the_drawing_and_in_every_sentence(
    page: Page, base_url: str
) -> None:
    """AIMA figure 5.2 names its nodes A (root), B, C, D (the MIN nodes), then the leaves
    breadth-first: C's leaves are H, I, J, and alpha-beta cuts I and J."""
    page.goto(base_url + "/")
    assert solve(page, "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]") == "3"
    page.get_by_test_id("node-labels").select_option("letters")
    page.locator('#drawing [data-node-id="root.1"] > text.node-id').wait_for()
    settled(page)
    names = {
        node: page.locator(f'#drawing [data-node-id="{node}"] > text.node-id').text_content()
        for node in ("root", "root.0", "root.1", "root.2", "root.1.1", "root.1.2")
    }
    assert names == {
        "root": "A",
        "root.0": "B",
        "root.1": "C",
        "root.2": "D",
        "root.1.1": "I",
        "root.1.2": "J",
    }
    assert page.locator("#best-move").inner_text() == "by moving to B"
    assert page.locator("#pruned-line").inner_text() == "Leaves never evaluated (2): I (4), J (6)"
    seen = step_until(page, "pruned")
    assert seen[-1] == "MIN at C: v = 2 <= alpha = 3, so C's remaining children are pruned (I, J)."
    # the legend goes when unticked, and the link keeps both choices
    assert page.locator("#drawing g.legend").count() == 1
    page.get_by_test_id("legend").uncheck()
    page.locator("#drawing g.legend").wait_for(state="detached")
    settled(page)
    fresh = page.context.new_page()
    fresh.goto(page.url)
    settled(fresh)
    assert fresh.get_by_test_id("node-labels").input_value() == "letters"
    assert fresh.locator("#drawing g.legend").count() == 0
    assert fresh.locator("#best-move").inner_text() == "by moving to B"
    fresh.close()


def test_an_older_solve_answering_late_does_not_replace_the_newer_one(
    page: Page, base_url: str
) -> None:
    # AIMA figure 5.2 (worth 3) is held back while [[7, 9], [1, 2]] (max(min(7, 9),
    # min(1, 2)) = 7) is solved and drawn; its late answer must not replace them
    page.goto(base_url + "/")
    first = FirstHeld(page, "**/v1/trees/alphabeta")
    page.get_by_test_id("tree-format").select_option("json")
    page.get_by_test_id("algorithm").select_option("alphabeta")
    page.get_by_test_id("tree-input").fill("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    page.get_by_test_id("solve").click()
    first.wait()
    assert solve(page, "[[7, 9], [1, 2]]") == "7"
    first.release()
    assert page.get_by_test_id("result-value").inner_text() == "7"
    assert len(node_states(page)) == 7
    assert page.locator("section[aria-busy]").get_attribute("aria-busy") == "false"
