"""The matrix-game page shows the welfare-extreme correlated equilibria when asked.

Chicken ``((6,6),(2,7);(7,2),(0,0))``, derived by hand in
tests/analysis/equilibria/test_correlated.py: the best correlated equilibrium puts 1/2 on
(chicken, chicken) and 1/4 on each single dare, 21/4 each (total 21/2), and a player told
"chicken" is indifferent to daring; the worst puts 2/5 on each single dare and 1/5 on the
crash, 18/5 each. With two strategies each, the coarse ones are the same.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

CHICKEN = {
    "payoffs": [[[6, 6], [2, 7]], [[7, 2], [0, 0]]],
    "labels": [["chicken", "dare"], ["chicken", "dare"]],
}


def test_correlated_equilibria_of_chicken(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    page.get_by_test_id("matrix-input").fill(json.dumps(CHICKEN))
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("equilibrium").first.wait_for()
    # not asked: not shown
    expect(page.get_by_test_id("correlated-table")).to_be_hidden()
    page.get_by_test_id("correlated").check()
    page.get_by_test_id("matrix-solve").click()
    rows = page.get_by_test_id("correlated-row")
    expect(rows).to_have_count(4)
    best = rows.nth(0)
    expect(best.locator("th")).to_have_text("correlated, highest total")
    assert best.locator(".distribution").inner_text() == (
        "1/2 (chicken, chicken) + 1/4 (chicken, dare) + 1/4 (dare, chicken)"
    )
    assert best.locator(".payoffs").inner_text() == "21/4, 21/4"
    assert best.locator(".welfare").inner_text() == "21/2"
    assert best.locator(".binding").inner_text() == (
        "row player told chicken: dare; column player told chicken: dare"
    )
    worst = rows.nth(1)
    assert worst.locator(".payoffs").inner_text() == "18/5, 18/5"
    assert "1/5 (dare, dare)" in worst.locator(".distribution").inner_text()
    coarse = rows.nth(2)
    assert coarse.locator(".welfare").inner_text() == "21/2"
    assert "regardless" in coarse.locator(".binding").inner_text()
    # the equilibria are still listed beside them
    expect(page.get_by_test_id("equilibrium")).to_have_count(3)
