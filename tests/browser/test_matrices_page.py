"""The matrix-game page in a real browser (headless Chromium driven by Playwright).

Answers are checked against hand derivations:

- battle of the sexes, ``A = [[2, 0], [0, 1]]``, ``B = [[1, 0], [0, 2]]``: the pure
  equilibria (Opera, Opera) paying (2, 1) and (Football, Football) paying (1, 2), and the
  mixed one where each player makes the other indifferent: the column player's ``q``
  solves ``2q = 1 - q`` (q = 1/3), the row player's ``p`` solves ``p = 2(1 - p)``
  (p = 2/3), each player getting ``2 * 1/3 = 2/3``;
- matching pennies: the only equilibrium is (1/2, 1/2) for both, value 0;
- Gibbons' figure 1.1.1: Right is dominated by Middle (2 > 1, 1 > 0), then Down by Up
  (1 > 0, 1 > 0), then Left by Middle (2 > 0): (Up, Middle) survives;
- the coordination game ``(0, 0) (1, 1) / (1, 1) (0, 0)``: the pure equilibria are the
  off-diagonal cells (R1, C2) and (R2, C1), each paying (1, 1) (a player alone who switches
  gets 0); the mixed one has each player make the other indifferent, ``q = 1 - q``, so
  (1/2, 1/2) for both, paying (1/2, 1/2). The API lists (R2, C1) first; the page lists the
  pure ones in the grid's order (R1 before R2), then the mixed one.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.held import FirstHeld

BATTLE = [["2, 1", "0, 0"], ["0, 0", "1, 2"]]
COORDINATION = '{"payoffs": [[[0, 0], [1, 1]], [[1, 1], [0, 0]]]}'


def _equilibria(page: Page) -> list[tuple[str, str, str, str]]:
    rows = page.get_by_test_id("equilibrium")
    return [
        (
            row.locator("td").nth(1).inner_text(),
            row.locator(".vector").nth(0).inner_text(),
            row.locator(".vector").nth(1).inner_text(),
            row.locator(".payoffs").inner_text(),
        )
        for row in rows.all()
    ]


def _enter_battle_of_the_sexes(page: Page) -> None:
    for i, row in enumerate(BATTLE):
        for j, text in enumerate(row):
            page.get_by_test_id(f"cell-{i}-{j}").fill(text)
    for k, name in enumerate(["Opera", "Football"]):
        page.get_by_test_id(f"row-label-{k}").fill(name)
        page.get_by_test_id(f"col-label-{k}").fill(name)


def test_battle_of_the_sexes_entered_in_the_grid_gives_its_three_equilibria_exactly(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/matrices")
    _enter_battle_of_the_sexes(page)
    # the JSON follows the grid
    body = json.loads(page.get_by_test_id("matrix-input").input_value())
    assert body["payoffs"] == [[[2, 1], [0, 0]], [[0, 0], [1, 2]]]
    assert body["labels"] == [["Opera", "Football"], ["Opera", "Football"]]
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("equilibrium").first.wait_for()
    assert sorted(_equilibria(page)) == [
        ("mixed", "(2/3, 1/3)", "(1/3, 2/3)", "2/3, 2/3"),
        ("pure", "(0, 1)", "(0, 1)", "1, 2"),
        ("pure", "(1, 0)", "(1, 0)", "2, 1"),
    ]
    mixed = page.get_by_test_id("equilibrium").filter(has_text="mixed")
    assert "2/3 Opera + 1/3 Football" in mixed.inner_text()
    # why it mixes: the two indifference equations, solved
    words = page.get_by_test_id("indifference").inner_text()
    assert "2*q = 1 - q" in words and "q = 1/3" in words
    assert "p = 2*(1 - p)" in words and "p = 2/3" in words
    assert "so that the row player gets the same expected payoff" in words
    # the best-response picture: the mixed equilibrium's dot where the staircases cross
    svg = page.get_by_test_id("plot").inner_html()
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "(2/3, 1/3)" in texts and "Nash equilibrium (p, q)" in texts
    assert "Best-response diagram" in page.get_by_test_id("plot-reading").inner_text()


def test_matching_pennies_pasted_as_json_has_the_unique_mixed_equilibrium(
    page: Page, base_url: str, tmp_path: Path
) -> None:
    page.goto(base_url + "/matrices")
    page.get_by_test_id("matrix-input").fill(
        '{"A": [[1, -1], [-1, 1]], "zero_sum": true, "labels": [["H", "T"], ["H", "T"]]}'
    )
    # the grid follows the JSON: one payoff per cell, zero-sum ticked
    assert page.get_by_test_id("zero-sum").is_checked()
    assert page.get_by_test_id("cell-0-1").input_value() == "-1"
    assert page.get_by_test_id("row-label-1").input_value() == "T"
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("equilibrium").first.wait_for()
    assert _equilibria(page) == [("mixed", "(1/2, 1/2)", "(1/2, 1/2)", "0, 0")]
    assert "value of the game is 0" in page.get_by_test_id("zero-sum-value").inner_text()
    # the picture downloads as SVG and as PNG (drawn into a canvas)
    with page.expect_download() as svg_download:
        page.get_by_test_id("export-svg").click()
    saved = tmp_path / "game.svg"
    svg_download.value.save_as(saved)
    assert ET.parse(saved).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    assert "optimal mix t = 1/2, payoff 0" in saved.read_text()
    with page.expect_download() as png_download:
        page.get_by_test_id("export-png").click()
    png = tmp_path / "game.png"
    png_download.value.save_as(png)
    header = png.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(header[16:20], "big")
    assert width > 800  # twice the SVG's size


def test_a_dominance_solvable_game_shows_its_steps_in_order(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    example = "Dominance solvable 2x3 (Gibbons, fig. 1.1.1)"
    page.get_by_test_id("example").select_option(label=example)
    steps = page.get_by_test_id("dominance-steps").locator("li")
    steps.first.wait_for()
    texts = steps.all_inner_texts()
    assert len(texts) == 3
    assert texts[0].startswith("Right (column player) is strictly dominated by Middle")
    assert texts[1].startswith("Down (row player) is strictly dominated by Up")
    assert texts[2].startswith("Left (column player) is strictly dominated by Middle")
    assert page.get_by_test_id("dominance-result").inner_text() == (
        "Dominance solvable: only (Up, Middle) survives."
    )
    assert _equilibria(page) == [("pure", "(1, 0)", "(0, 1, 0)", "1, 2")]


def test_a_bad_cell_shows_the_error_at_the_cell_with_its_pointer(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    page.get_by_test_id("cell-1-0").fill("5, x")
    page.get_by_test_id("matrix-solve").click()
    message = page.get_by_test_id("grid-error")
    message.wait_for()
    assert "'x' is not a number" in message.inner_text()
    assert "(at /payoffs/1/0/1)" in message.inner_text()
    cell = page.get_by_test_id("cell-1-0")
    assert cell.get_attribute("aria-invalid") == "true"
    assert cell.get_attribute("aria-describedby") == "grid-error"
    assert page.evaluate("document.activeElement.id") == "cell-1-0"
    # fixing the cell clears the error
    cell.fill("5, 0")
    assert cell.get_attribute("aria-invalid") is None and message.is_hidden()
    # an empty strategy name is refused at that name
    name = page.get_by_test_id("col-label-0")
    name.fill("")
    page.get_by_test_id("matrix-solve").click()
    message.wait_for()
    assert "(at /labels/1/0)" in message.inner_text()
    assert name.get_attribute("aria-invalid") == "true"


def test_every_control_is_labelled_and_reachable_by_keyboard(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    page.get_by_test_id("add-row").click()
    page.get_by_test_id("add-column").click()
    assert page.get_by_test_id("cell-2-2").input_value() == "0, 0"
    controls = page.locator("main input, main select, main textarea, main button")
    unlabelled = controls.evaluate_all(
        "cs => cs.filter(c => c.tagName !== 'BUTTON' && c.labels.length === 0).map(c => c.id)"
    )
    assert unlabelled == []
    ids = set(controls.evaluate_all("cs => cs.map(c => c.dataset.testid)"))
    page.get_by_test_id("example").focus()
    reached = set()
    for _ in range(len(ids) + 5):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.dataset.testid"))
    # every control of the form, grid cells included, is reached in turn
    assert ids - {"export-svg", "export-png", "example"} <= reached
    # the grid's buttons work from the keyboard
    page.get_by_test_id("remove-column").focus()
    page.keyboard.press("Enter")
    assert page.get_by_test_id("cell-2-2").count() == 0
    page.get_by_test_id("matrix-solve").focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("equilibrium").first.wait_for()


def test_the_link_reproduces_the_page(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    _enter_battle_of_the_sexes(page)
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("equilibrium").first.wait_for()
    link = page.url
    assert "#" in link
    fresh = page.context.new_page()
    fresh.goto(link)
    fresh.get_by_test_id("equilibrium").first.wait_for()
    assert fresh.get_by_test_id("cell-1-1").input_value() == "1, 2"
    assert fresh.get_by_test_id("row-label-0").input_value() == "Opera"
    assert sorted(_equilibria(fresh)) == sorted(_equilibria(page))
    fresh.close()


def test_a_three_player_game_is_solved_from_the_json(page: Page, base_url: str) -> None:
    # each player gets 1 when all three choose alike, else 0: the two unanimous profiles are
    # the pure equilibria (in any other profile the odd one out gains 1 by joining the others)
    page.goto(base_url + "/matrices")
    unanimous = [
        [[[1, 1, 1], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]]],
        [[[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [1, 1, 1]]],
    ]
    page.get_by_test_id("matrix-input").fill(json.dumps({"payoffs": unanimous}))
    assert page.get_by_test_id("grid-note").is_visible()
    assert page.get_by_test_id("cell-0-0").is_disabled()
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("equilibrium").first.wait_for()
    rows = page.get_by_test_id("equilibrium").all_inner_texts()
    assert [row.split("\t") for row in rows] == [
        ["1", "pure", "P1S1", "P2S1, P3S1", "1, 1, 1"],
        ["2", "pure", "P1S2", "P2S2, P3S2", "1, 1, 1"],
    ]
    assert page.get_by_test_id("plot").is_hidden()
    assert "two players only" in page.get_by_test_id("notes").inner_text()


@pytest.mark.parametrize(
    ("second", "kinds"),
    [
        # the battle of the sexes, solved and shown: three equilibria
        ('{"A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}', ["mixed", "pure", "pure"]),
        # not JSON, refused by the page itself: the late answer must not show under the error
        ('{"A": [[1, -1], [-1, 1]]', []),
    ],
)
def test_an_older_game_answering_late_does_not_replace_the_newer_input(
    page: Page, base_url: str, second: str, kinds: list[str]
) -> None:
    # matching pennies (one mixed equilibrium) is held back while the second input is handled
    page.goto(base_url + "/matrices")
    first = FirstHeld(page, "**/v1/matrices/analyze")
    page.get_by_test_id("matrix-input").fill('{"A": [[1, -1], [-1, 1]], "zero_sum": true}')
    page.get_by_test_id("matrix-solve").click()
    first.wait()
    page.get_by_test_id("matrix-input").fill(second)
    page.get_by_test_id("matrix-solve").click()
    if kinds:
        expect(page.get_by_test_id("equilibrium")).to_have_count(len(kinds))
    else:
        expect(page.get_by_test_id("matrix-error")).to_be_visible()
    first.release()
    assert sorted(kind for kind, *_ in _equilibria(page)) == kinds
    assert page.get_by_test_id("matrix-error").is_visible() == (not kinds)


def _solve(page: Page) -> None:
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("equilibrium").first.wait_for()


def test_a_cell_that_is_not_two_payoffs_is_blamed_itself_and_clears_the_analysis(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/matrices")
    _solve(page)  # the prisoner's dilemma, loaded at start
    page.get_by_test_id("cell-0-0").fill("2; x")
    page.get_by_test_id("matrix-solve").click()
    message = page.get_by_test_id("grid-error")
    message.wait_for()
    assert '"2; x" is not two payoffs' in message.inner_text()
    assert "(at /payoffs/0/0)" in message.inner_text()
    assert page.get_by_test_id("cell-0-0").get_attribute("aria-invalid") == "true"
    assert page.get_by_test_id("cell-0-1").get_attribute("aria-invalid") is None
    assert page.evaluate("document.activeElement.id") == "cell-0-0"
    # no analysis of the older game stands under the error
    expect(page.locator("#results")).to_be_hidden()
    assert page.get_by_test_id("equilibrium").count() == 0
    # a cell further on is blamed the same way, and a bad number in a good cell at its entry
    page.get_by_test_id("cell-0-0").fill("2, 1")
    page.get_by_test_id("cell-1-1").fill("7")
    page.get_by_test_id("matrix-solve").click()
    expect(message).to_contain_text("(at /payoffs/1/1)")
    page.get_by_test_id("cell-1-1").fill("7, x")
    page.get_by_test_id("matrix-solve").click()
    expect(message).to_contain_text("'x' is not a number")
    expect(message).to_contain_text("(at /payoffs/1/1/1)")
    assert page.get_by_test_id("cell-1-1").get_attribute("aria-invalid") == "true"
    # fixed: solved again
    page.get_by_test_id("cell-1-1").fill("7, 0")
    _solve(page)
    assert message.is_hidden()


def test_a_ragged_cell_pasted_as_json_is_blamed_on_that_cell(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    page.get_by_test_id("matrix-input").fill('{"payoffs": [[[1], [0, 0]], [[0, 0], [1, 2]]]}')
    page.get_by_test_id("matrix-solve").click()
    # the grid cannot show a ragged game: the error is at the JSON, naming the cell
    message = page.get_by_test_id("matrix-error")
    expect(message).to_contain_text("this cell has 1 entry, not 2 payoffs, one per player")
    expect(message).to_contain_text("(at /payoffs/0/0)")


def test_an_edit_dims_the_analysis_until_it_is_solved_again(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    _solve(page)
    note = page.get_by_test_id("stale-note")
    assert note.is_hidden()
    page.get_by_test_id("cell-1-1").fill("2, 2")
    expect(note).to_be_visible()
    assert "Out of date" in note.inner_text()
    assert "stale" in (page.locator("#results").get_attribute("class") or "")
    opacity = page.get_by_test_id("equilibria").evaluate(
        "e => getComputedStyle(e.closest('#results > section')).opacity"
    )
    assert float(opacity) < 1
    page.get_by_test_id("matrix-solve").click()
    expect(note).to_be_hidden()
    assert "stale" not in (page.locator("#results").get_attribute("class") or "")


def test_equilibria_are_listed_in_the_order_the_page_states(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    page.get_by_test_id("matrix-input").fill(COORDINATION)
    _solve(page)
    rows = [row.split("\t") for row in page.get_by_test_id("equilibrium").all_inner_texts()]
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("1", "pure", "(1, 0) R1", "(0, 1) C2"),
        ("2", "pure", "(0, 1) R2", "(1, 0) C1"),
        ("3", "mixed", "(1/2, 1/2) 1/2 R1 + 1/2 R2", "(1/2, 1/2) 1/2 C1 + 1/2 C2"),
    ]
    summary = page.get_by_test_id("equilibria-summary").inner_text()
    assert "Listed pure equilibria first, then mixed ones by how many strategies they mix" in (
        summary
    )
    # the explanation names the mixed equilibrium by the number it is listed under
    assert page.get_by_test_id("indifference").locator("h4").all_inner_texts() == ["Equilibrium #3"]


def test_a_degenerate_games_continuum_names_the_equilibria_as_listed(
    page: Page, base_url: str
) -> None:
    # every payoff 1: every profile is an equilibrium, one continuum of the four pure ones
    page.goto(base_url + "/matrices")
    page.get_by_test_id("matrix-input").fill('{"A": [[1, 1], [1, 1]], "B": [[1, 1], [1, 1]]}')
    _solve(page)
    rows = [row.split("\t")[2:4] for row in page.get_by_test_id("equilibrium").all_inner_texts()]
    assert rows == [
        ["(1, 0) R1", "(1, 0) C1"],
        ["(1, 0) R1", "(0, 1) C2"],
        ["(0, 1) R2", "(1, 0) C1"],
        ["(0, 1) R2", "(0, 1) C2"],
    ]
    assert "#1, #2, #3, #4 lie in a continuum" in (
        page.get_by_test_id("equilibria-summary").inner_text()
    )


def test_the_api_notes_are_not_shown_raw(page: Page, base_url: str) -> None:
    page.goto(base_url + "/matrices")
    _solve(page)  # the prisoner's dilemma: not zero-sum, and the page asks for zero_sum
    results = page.locator("#results").inner_text()
    assert "is null" not in results and "zero_sum" not in results
    assert page.get_by_test_id("notes").locator("li").count() == 0
