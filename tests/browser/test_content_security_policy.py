"""Every page under the app's Content-Security-Policy in a real browser: each page comes
with the policy and refuses framing, the browser reports no violation while the page
does its job (in the console or as a ``securitypolicyviolation`` event), the server's
plots keep their colours, and another site cannot frame a page."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)

WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.violations.push(`${event.effectiveDirective} blocked ${event.blockedURI} at ${where}`);
});
"""
"""Run in every document before its own scripts: keeps each violation the page reports."""

WHITE = "rgb(255, 255, 255)"


def figure_background(page: Page, figure: str) -> str:
    """The fill the browser gives the plot's background (black were its style blocked)."""
    path = page.locator(f"{figure} svg #patch_1 path")
    return str(path.evaluate("(element) => getComputedStyle(element).fill"))


def solve_the_default_tree(page: Page) -> None:
    page.get_by_test_id("solve").click()
    page.locator('section[aria-busy="false"]').wait_for()
    expect(page.get_by_test_id("result-value")).to_have_text("3")
    assert page.locator("#drawing svg [data-node-id]").count() == 13


def analyze_the_default_game(page: Page) -> None:
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("plot").locator("svg").wait_for()
    assert figure_background(page, "#plot") == WHITE


def generate_a_problem(page: Page) -> None:
    page.get_by_test_id("practice-generate").click()
    page.get_by_test_id("value-root").wait_for()


def evaluate_the_default_lottery(page: Page) -> None:
    page.get_by_test_id("lottery-solve").click()
    expect(page.get_by_test_id("certainty-equivalent")).to_have_text("25")
    page.locator("#curve svg").wait_for()
    assert figure_background(page, "#curve") == WHITE


def load_the_first_game(page: Page) -> None:
    expect(page.get_by_test_id("games-position")).not_to_have_value("")
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")


def try_the_health_check(page: Page) -> None:
    """Swagger UI lists the operations and runs one (try it out is on from the start);
    its answer is rendered too."""
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock").count() > 20
    health = page.locator("#operations-service-get_meta_health")
    health.locator(".opblock-summary").click()
    health.locator(".execute").click()
    status = health.locator(".live-responses-table tbody .response-col_status")
    expect(status).to_have_text("200")


def step_through_a_search(page: Page) -> None:
    expect(page.get_by_test_id("mcts-summary")).to_be_visible()
    for _ in range(6):
        page.get_by_test_id("mcts-next").click()
    page.locator("#drawing svg [data-node-id]").nth(1).wait_for()


def solve_kuhn_poker(page: Page) -> None:
    page.get_by_test_id("solve").click()
    expect(page.get_by_test_id("value")).to_have_text("-1/18")
    page.locator("#tree svg").wait_for()


PAGES: dict[str, Callable[[Page], None]] = {
    "/": solve_the_default_tree,
    "/matrices": analyze_the_default_game,
    "/practice": generate_a_problem,
    "/lotteries": evaluate_the_default_lottery,
    "/games": load_the_first_game,
    "/mcts": step_through_a_search,
    "/extensive": solve_kuhn_poker,
    "/docs": try_the_health_check,
}


@pytest.mark.parametrize("path", list(PAGES))
def test_the_page_works_under_the_policy_without_a_violation(
    page: Page, base_url: str, path: str
) -> None:
    reported: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            reported.append(message.text)

    page.on("console", console)
    page.add_init_script(WATCH)
    answer = page.goto(base_url + path)
    assert answer is not None and answer.ok
    assert answer.headers["content-security-policy"] == POLICY
    assert answer.headers["x-frame-options"] == "DENY"
    PAGES[path](page)
    assert page.evaluate("window.violations") == []
    assert reported == []


def test_another_site_cannot_frame_a_page(browser: Browser, base_url: str) -> None:
    context = browser.new_context()
    try:
        outside = context.new_page()
        with outside.expect_console_message(lambda m: "frame-ancestors 'none'" in m.text):
            outside.set_content(f'<iframe src="{base_url}/"></iframe>')
        framed = outside.frames[1]
        assert framed.locator("#tree-input").count() == 0
    finally:
        context.close()
