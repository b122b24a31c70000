"""The page of games with information sets in a real browser (headless Chromium).

Answers checked against known results:

- Kuhn poker (Kuhn 1950) is worth -1/18 to player 1. Player 2's equilibrium strategy is
  unique: with the queen, call a bet one time in three and check after a check; with the
  jack, bet after a check one time in three and fold to a bet; with the king, always bet and
  call. Player 1's strategies form a family: bet the jack with some alpha in [0, 1/3], the king
  with 3 alpha, check the queen and call a bet after checking it with alpha + 1/3. Each of the
  12 information sets holds two nodes (one per card the player cannot see), so the tree has 12
  dashed links: 6 of each player.
- Myerson's card game (Myerson 1991, section 2.1; worked by hand in docs/extensive.md): value
  1/3; player 1 raises red always and black with 1/3; player 2 meets with 2/3. One set of two
  nodes (player 2 after a raise): one dashed link.
- The entry game of docs/extensive.md (out: (1, 0); in, then fight (-1, -1) or share
  (2, 2)): Lemke's algorithm started from the first actions ends at (out, fight), an
  equilibrium whose threat an incumbent who was asked would not carry out (3 better off
  sharing).
- Matching pennies written as a tree in which player 2 does not see the first coin: value 0,
  each player 1/2 on each side, one dashed link.
- Leduc hold'em has 936 information sets (Southey et al. 2005, as OpenSpiel counts them) and
  9457 nodes, too many to draw.
"""

from __future__ import annotations

import json
from fractions import Fraction

from playwright.sync_api import Page, expect


def solve(page: Page) -> None:
    page.get_by_test_id("solve").click()
    expect(page.get_by_test_id("busy")).to_be_hidden(timeout=60_000)
    expect(page.locator("#results")).to_be_visible()


def strategy(page: Page, player: str, infoset: str) -> dict[str, str]:
    """The table's probabilities at one information set: action -> text."""
    table = page.locator(f'table.strategy[data-player="{player}"]')
    row = table.locator(f'tr[data-infoset="{infoset}"] td.mix')
    pairs = [part.rsplit(" ", 1) for part in row.inner_text().split(", ")]
    return {action: probability for action, probability in pairs}


def edge_labels(page: Page) -> list[tuple[str, str]]:
    """Every edge label of the tree: (action, probability)."""
    found = page.locator("#tree text.edge-label").evaluate_all(
        """(labels) => labels.map((label) => [label.querySelector(".action").textContent,
                                              label.querySelector(".probability").textContent])"""
    )
    return [(action, probability) for action, probability in found]


def no_page_overflow(page: Page) -> bool:
    return bool(
        page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


def test_kuhn_poker_is_solved_exactly_and_drawn_with_its_information_sets(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/extensive")
    expect(page.get_by_test_id("sample")).to_have_value("kuhn")
    solve(page)
    expect(page.get_by_test_id("value")).to_have_text("-1/18")
    # the certificate: each side's best reply earns exactly what it gets; NashConv 0
    rows = page.get_by_test_id("certificate").locator("li")
    expect(rows.nth(0)).to_contain_text("Player 1 gets -1/18; the best reply")
    expect(rows.nth(0)).to_contain_text("would get -1/18: no more")
    expect(rows.nth(1)).to_contain_text("Player 2 gets 1/18")
    expect(rows.nth(1)).to_contain_text("would get 1/18: no more")
    expect(page.get_by_test_id("certificate-verdict")).to_contain_text("NashConv is 0")
    # player 2's unique strategy, in the table and on the tree's edges
    assert strategy(page, "Player 2", "Q, bet") == {"fold": "2/3", "call": "1/3"}
    assert strategy(page, "Player 2", "Q, check") == {"check": "1", "bet": "0"}
    assert strategy(page, "Player 2", "J, check") == {"check": "2/3", "bet": "1/3"}
    assert strategy(page, "Player 2", "J, bet") == {"fold": "1", "call": "0"}
    assert strategy(page, "Player 2", "K, bet") == {"fold": "0", "call": "1"}
    # player 1: one member of the family (jack alpha, king 3 alpha, queen call alpha + 1/3)
    alpha = Fraction(strategy(page, "Player 1", "J")["bet"])
    assert 0 <= alpha <= Fraction(1, 3)
    assert Fraction(strategy(page, "Player 1", "K")["bet"]) == 3 * alpha
    assert strategy(page, "Player 1", "Q")["bet"] == "0"
    assert Fraction(strategy(page, "Player 1", "Q, check, bet")["call"]) == alpha + Fraction(1, 3)
    # the tree: 12 sets of two nodes, each joined by one dashed link
    links = page.locator("#tree path.infoset-link")
    assert links.count() == 12
    assert page.locator('#tree path.infoset-link[data-player="Player 2"]').count() == 6
    assert links.first.evaluate("(link) => getComputedStyle(link).strokeDasharray") != "none"
    sets = links.evaluate_all("(all) => all.map((link) => link.dataset.infoset)")
    assert sorted(sets) == sorted(
        ["J", "Q", "K", "J, check, bet", "Q, check, bet"]
        + ["K, check, bet", "J, check", "Q, check", "K, check"]
        + ["J, bet", "Q, bet", "K, bet"]
    )
    labels = edge_labels(page)
    assert labels.count(("call", "1/3")) == 2  # player 2 with the queen, facing JQ and KQ bets
    assert [p for a, p in labels if a in {"JQ", "JK", "QJ", "QK", "KJ", "KQ"}] == ["1/6"] * 6
    assert page.locator("#tree .node.terminal").count() == 30
    # played edges are drawn thick, the rest thin
    played = page.locator("#tree line.edge.played").first
    unplayed = page.locator("#tree line.edge:not(.played)").first
    assert float(played.evaluate("(e) => parseFloat(getComputedStyle(e).strokeWidth)")) > float(
        unplayed.evaluate("(e) => parseFloat(getComputedStyle(e).strokeWidth)")
    )
    expect(page.get_by_test_id("plot")).to_be_hidden()


def test_the_page_fits_a_phone_and_a_desktop_the_tree_scrolling_in_its_box(
    page: Page, base_url: str
) -> None:
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(base_url + "/extensive")
        solve(page)
        expect(page.get_by_test_id("value")).to_have_text("-1/18")
        assert no_page_overflow(page), width
        tree = page.get_by_test_id("tree")
        box = tree.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        if width == 390:  # the tree is wider than a phone: it scrolls inside its own box
            assert tree.evaluate("(box) => box.scrollWidth > box.clientWidth")


def test_samples_and_a_typed_json_game_give_their_values_and_show_names_as_text(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/extensive")
    page.get_by_test_id("sample").select_option("myerson")
    solve(page)
    expect(page.get_by_test_id("stale-note")).to_be_hidden()
    expect(page.get_by_test_id("value")).to_have_text("1/3")
    assert strategy(page, "1", "black") == {"raise": "1/3", "fold": "2/3"}
    assert strategy(page, "1", "red") == {"raise": "1", "fold": "0"}
    assert strategy(page, "2", "raised") == {"meet": "2/3", "pass": "1/3"}
    assert page.locator("#tree path.infoset-link").count() == 1
    expect(page.get_by_test_id("sequential")).to_contain_text("Sequentially rational")
    # the entry game by Lemke from the first actions: (out, fight), paying (1, 0), an
    # equilibrium whose threat is not sequentially rational (sharing gains 2 - (-1) = 3)
    page.get_by_test_id("sample").select_option("entry")
    page.get_by_test_id("method").select_option("lemke")
    solve(page)
    expect(page.get_by_test_id("value")).to_have_text("none")
    expect(page.get_by_test_id("value-line")).to_contain_text("the payoffs are (1, 0)")
    expect(page.get_by_test_id("certificate-verdict")).to_contain_text("NashConv is 0")
    expect(page.get_by_test_id("sequential")).to_contain_text('"entered" (incumbent, gain 3)')
    # matching pennies typed in the JSON form, with names that look like markup
    sneaky = "<img src=x onerror=alert(1)>"
    pennies = {
        "players": ["Row", "Column"],
        "root": {
            "player": 0,
            "infoset": sneaky,
            "actions": [
                [
                    "<b>heads</b>",
                    {
                        "player": 1,
                        "infoset": "guess",
                        "actions": [
                            ["heads", {"payoffs": [1, -1]}],
                            ["tails", {"payoffs": [-1, 1]}],
                        ],
                    },
                ],
                [
                    "tails",
                    {
                        "player": 1,
                        "infoset": "guess",
                        "actions": [
                            ["heads", {"payoffs": [-1, 1]}],
                            ["tails", {"payoffs": [1, -1]}],
                        ],
                    },
                ],
            ],
        },
    }
    page.get_by_test_id("game-input").fill(json.dumps(pennies))
    solve(page)
    expect(page.get_by_test_id("value")).to_have_text("0")
    assert strategy(page, "Row", sneaky) == {"<b>heads</b>": "1/2", "tails": "1/2"}
    assert strategy(page, "Column", "guess") == {"heads": "1/2", "tails": "1/2"}
    links = page.locator("#tree path.infoset-link")
    assert links.count() == 1 and links.get_attribute("data-infoset") == "guess"
    assert ("<b>heads</b>", "1/2") in edge_labels(page)
    assert page.locator("#results img, #results b").count() == 0
    assert page.locator("#tree text.infoset-name").first.text_content() == sneaky


def test_a_refused_game_is_explained_beside_the_input_with_its_pointer(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/extensive")
    solve(page)
    text = page.get_by_test_id("game-input").input_value()
    # the first deal at 1/5: the six probabilities sum to 31/30
    page.get_by_test_id("game-input").fill(text.replace('"JQ" 1/6', '"JQ" 1/5', 1))
    expect(page.get_by_test_id("stale-note")).to_be_visible()  # the answer is to the old game
    page.get_by_test_id("solve").click()
    error = page.get_by_test_id("game-error")
    expect(error).to_contain_text("line 4")
    expect(error).to_contain_text("sum to 31/30")
    expect(error).to_contain_text("(at /efg)")
    expect(page.get_by_test_id("game-input")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#results")).to_be_hidden()  # no answer to the old game left
    # the JSON form: the pointer names the field
    page.get_by_test_id("game-input").fill(
        '{"players": ["A", "B"], "root": {"player": 0, "actions": '
        '[["L", {"payoffs": [1, "one"]}], ["R", {"payoffs": [0, 0]}]]}}'
    )
    page.get_by_test_id("solve").click()
    expect(error).to_contain_text("'one' is not a number")
    expect(error).to_contain_text("(at /game/root/actions/0/1/payoffs/1)")
    page.get_by_test_id("game-input").fill('{"players": [')
    page.get_by_test_id("solve").click()
    expect(error).to_contain_text("The JSON form is not valid JSON")
    # a parameter's error goes beside the parameter
    page.get_by_test_id("sample").select_option("kuhn")
    expect(error).to_be_hidden()
    page.get_by_test_id("method").select_option("cfr")
    page.get_by_test_id("iterations").fill("2000000")
    page.get_by_test_id("solve").click()
    expect(page.get_by_test_id("iterations-error")).to_contain_text("(at /iterations)")
    expect(page.get_by_test_id("iterations")).to_have_attribute("aria-invalid", "true")
    expect(error).to_be_hidden()


def test_cfr_plus_plots_its_exploitability_and_leduc_is_solved_but_not_drawn(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/extensive")
    page.get_by_test_id("method").select_option("cfr_plus")
    page.get_by_test_id("iterations").fill("300")
    solve(page)
    value = float(page.get_by_test_id("value").inner_text())
    assert abs(value - (-1 / 18)) < 0.005  # CFR+ near Kuhn's value after 300 iterations
    expect(page.get_by_test_id("summary")).to_contain_text("ran 300 iterations")
    expect(page.get_by_test_id("certificate-verdict")).to_contain_text("exploitability")
    plot = page.get_by_test_id("plot")
    expect(plot.locator("svg #curve-0")).to_have_count(1)
    assert plot.locator("script, foreignObject").count() == 0
    assert page.locator("#tree path.infoset-link").count() == 12
    # Leduc: solved by CFR+, its 936 sets in the tables, the tree not drawn
    page.get_by_test_id("sample").select_option("leduc")
    expect(page.get_by_test_id("method")).to_have_value("cfr_plus")
    page.get_by_test_id("iterations").fill("20")
    solve(page)
    expect(page.get_by_test_id("tree-note")).to_contain_text("9457 nodes, too many to draw")
    assert page.locator("#tree svg").count() == 0
    assert page.locator('[data-testid="strategy-row"]').count() == 936
    expect(plot.locator("svg #curve-0")).to_have_count(1)
