"""The games page's analysis: every move's exact value, and the search shown depth by depth.

Independently known answers:

- connect four (7 x 6) after "3457775715145141771", yellow to move: Pascal Pons' solver
  values the columns 1..7 as a loss in 12 plies, a loss in 16, a draw, a win in 15, a loss in
  12, a loss in 14, and column 7 is full.
- tic-tac-toe "xx..ox.oo" (x on 1,1 1,2 2,3; o on 2,2 3,2 3,3; x to move), by hand: 1,3
  completes the top row, a win in 1 ply; 2,1 leaves o's bottom row open at 3,1, a loss in 2
  plies; 3,1 blocks it and threatens both 1,3 (top row) and 2,1 (first column), which o cannot
  both stop and o has no line to complete, so x wins on the third ply. The best move is 1,3.
- tic-tac-toe "xoxoxxo.o" (one empty cell, 3,2): x there blocks o's bottom row and completes
  no line of its own, the board is full: a draw.
- the empty tic-tac-toe board: every one of the nine first moves draws with best play.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_games_page import open_game as open_page_on
from tests.browser.test_games_page import settled
from tests.browser.test_look import READINGS, unreadable

WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.violations.push(`${event.effectiveDirective} blocked ${event.blockedURI}`);
});
"""

PONS = "3457775715145141771"
PONS_COLUMNS = {
    "1": "loses in 12",
    "2": "loses in 16",
    "3": "draw",
    "4": "wins in 15",
    "5": "loses in 12",
    "6": "loses in 14",
    "7": "full",
}
TIC_TAC_TOE = {"rows": 3, "columns": 3, "k": 3}
CONNECT_FOUR = {"columns": 7, "rows": 6, "k": 4}


def open_game(
    page: Page, base_url: str, game: str, position: str, params: dict[str, object]
) -> None:
    """The page on a game and position, two people at the board (the engine never replies)."""
    open_page_on(page, base_url, game, position, params, engine="none")
    settled(page)


def analyse(page: Page) -> None:
    page.get_by_test_id("games-analyse").click()
    expect(page.get_by_test_id("games-move-values")).to_be_visible()
    settled(page)


def test_every_connect_four_column_is_valued_as_pons_solver_does(page: Page, base_url: str) -> None:
    page.add_init_script(WATCH)
    open_game(page, base_url, "connect_four", PONS, CONNECT_FOUR)
    analyse(page)
    for column, words in PONS_COLUMNS.items():
        value = page.get_by_test_id(f"column-value-{column}")
        expect(value).to_contain_text(words)
        # in words for a screen reader too, not in colour only
        expect(value).to_contain_text(f"column {column}:")
    best = page.locator("#board .value[data-best]")
    expect(best).to_have_count(1)
    expect(best).to_have_attribute("data-testid", "column-value-4")
    expect(best).to_contain_text("★")
    # the table beside the board says the same, in plies, for yellow who is to move
    expect(page.get_by_test_id("move-value-4")).to_contain_text("wins in 15 plies ★ best")
    expect(page.get_by_test_id("move-value-2")).to_contain_text("loses in 16 plies")
    expect(page.get_by_test_id("move-value-3")).to_contain_text("draws")
    expect(page.locator("#move-values-outcome")).to_have_text("Outcome for yellow, who plays it")
    # the probes on the score narrow to the value: a win in 15 plies for yellow
    probes = page.get_by_test_id("games-probes-rows").locator("tr")
    expect(probes.last).to_contain_text("exactly a win in 15 plies for yellow")
    assert probes.count() >= 2
    expect(probes.first).to_contain_text("between")
    assert page.evaluate("window.violations") == []
    # another position is not this one's: the values go
    page.get_by_test_id("column-4").click()
    expect(page.get_by_test_id("games-move-values")).to_be_hidden()
    expect(page.get_by_test_id("column-value-4")).to_have_count(0)


def test_a_hand_solved_tic_tac_toe_position_is_valued_move_by_move(
    page: Page, base_url: str
) -> None:
    open_game(page, base_url, "tic_tac_toe", "xx..ox.oo", TIC_TAC_TOE)
    analyse(page)
    rows = page.get_by_test_id("games-move-values-rows").locator("tr")
    expect(rows).to_have_text(
        ["1,3wins in 1 ply ★ best", "2,1loses in 2 plies", "3,1wins in 3 plies"]
    )
    expect(page.get_by_test_id("move-value-1,3")).to_have_attribute("data-best", "true")
    expect(page.locator("#move-values tr[data-best]")).to_have_count(1)


def test_a_forced_last_move_draws_and_every_first_move_draws(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", "xoxoxxo.o", TIC_TAC_TOE)
    analyse(page)
    expect(page.get_by_test_id("games-move-values-rows").locator("tr")).to_have_text(
        ["3,2draws ★ best"]
    )
    open_game(page, base_url, "tic_tac_toe", ".........", TIC_TAC_TOE)
    analyse(page)
    rows = page.get_by_test_id("games-move-values-rows").locator("tr")
    expect(rows).to_have_count(9)
    expect(page.locator("#move-values tr[data-best]")).to_have_count(9)
    for index in range(9):
        expect(rows.nth(index)).to_contain_text("draws ★ best")


def depths(page: Page) -> list[int]:
    rows = page.get_by_test_id("games-deepening-rows").locator("tr")
    return [
        int(str(depth)) for depth in rows.evaluate_all("(rows) => rows.map((r) => r.dataset.depth)")
    ]


def test_solving_deepens_depth_by_depth_until_it_is_proven(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", "xx..ox.oo", TIC_TAC_TOE)
    page.get_by_test_id("games-time-limit").fill("5")
    page.get_by_test_id("games-solve").click()
    status = page.get_by_test_id("games-deepening-status")
    expect(status).to_have_attribute("data-done", "true")
    expect(status).to_contain_text("the value is proven")
    found = depths(page)
    # one row per depth, from 1 up; x wins at once, so the first depth already proves it
    assert found == list(range(1, len(found) + 1)), found
    last = page.get_by_test_id("games-deepening-rows").locator("tr").last
    expect(last).to_contain_text("wins in 1 ply (proven)")
    expect(last).to_contain_text("1,3")
    # proven within the budget: every move is valued too
    expect(page.get_by_test_id("move-value-2,1")).to_contain_text("loses in 2 plies")
    expect(page.get_by_test_id("games-stop")).to_be_disabled()


def test_the_engine_deepens_within_its_budget_and_stops(page: Page, base_url: str) -> None:
    open_game(page, base_url, "connect_four", "", CONNECT_FOUR)
    # one request per depth: under CI load a round trip can take a few tenths of a second
    page.get_by_test_id("games-time-limit").fill("2")
    page.get_by_test_id("games-engine-move").click()
    settled(page)
    status = page.get_by_test_id("games-deepening-status")
    expect(status).to_contain_text("the time budget of 2 s ran out")
    found = depths(page)
    assert len(found) >= 3 and found == list(range(1, len(found) + 1)), found
    # the engine played: one disc on the board, and the table says what each column means
    expect(page.get_by_test_id("games-position")).to_have_value(
        page.get_by_test_id("games-history").locator("li").first.inner_text().split()[-1]
    )
    header = page.get_by_test_id("games-deepening").locator("th")
    expect(header).to_have_text(
        ["Depth", "Value for red", "Best move", "Nodes", "Nodes/s", "Elapsed"]
    )
    elapsed = page.get_by_test_id("games-deepening-rows").locator("tr td:last-child")
    seconds = [float(text.split()[0]) for text in elapsed.all_inner_texts()]
    assert seconds == sorted(seconds) and seconds[-1] <= 2 + 0.5, seconds


def test_stop_ends_the_deepening_after_the_request_under_way(page: Page, base_url: str) -> None:
    open_game(page, base_url, "connect_four", "", CONNECT_FOUR)
    page.get_by_test_id("games-time-limit").fill("30")
    page.get_by_test_id("games-solve").click()
    rows = page.get_by_test_id("games-deepening-rows").locator("tr")
    expect(rows.nth(2)).to_be_attached()
    page.get_by_test_id("games-stop").click()
    status = page.get_by_test_id("games-deepening-status")
    expect(status).to_have_text("Done: you pressed Stop.", timeout=15_000)
    settled(page)
    shown = depths(page)
    page.wait_for_timeout(500)
    assert depths(page) == shown  # nothing more after the stop
    assert shown == list(range(1, len(shown) + 1)), shown
    # the answer shown is the deepest finished depth's, an estimate
    expect(page.get_by_test_id("solution-depth-completed")).to_have_text(str(shown[-1]))
    expect(page.get_by_test_id("games-stop")).to_be_disabled()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_analysis_fits_and_reads_at_aa(page: Page, base_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.add_init_script(WATCH)
    open_game(page, base_url, "connect_four", PONS, CONNECT_FOUR)
    analyse(page)
    page.get_by_test_id("games-time-limit").fill("0.3")
    page.get_by_test_id("games-solve").click()
    expect(page.get_by_test_id("games-deepening-status")).to_have_attribute("data-done", "true")
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.get_by_test_id("games-board").bounding_box()
    assert board is not None
    right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#board .value')]"
        ".map((element) => element.getBoundingClientRect().right))"
    )
    assert right <= board["x"] + board["width"] + 0.5, (right, board)
    found = page.evaluate(READINGS, "main")
    assert unreadable(found) == []
    small = [reading for reading in found if float(str(reading["size"])) < 11]
    assert small == [], small
    assert page.evaluate("window.violations") == []
