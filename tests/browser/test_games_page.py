"""The games page in a real browser: play against the engine, solve, open the tree.

Hand-derived answers: in tic-tac-toe with x on 1,1 and 1,2 and o on 2,2 ("xx..o...."), o is
to move (x has one mark more) and must take 1,3, or x completes the top row next move: the
engine plays 1,3. In connect four a disc dropped into an empty column lands in its bottom
row. Nim on piles 1, 2 and 3 has nim-sum 1 xor 2 xor 3 = 0, so by Bouton's theorem the player
to move loses with best play: value -1.
"""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

from playwright.sync_api import Page, expect


def open_game(
    page: Page, base_url: str, game: str, position: str, params: dict[str, object]
) -> None:
    """Open the page on a game and position through the URL's fragment."""
    state = {"game": game, "params": params, "position": position, "engine": "1"}
    page.goto(f"{base_url}/games#{quote(json.dumps(state))}")
    expect(page.get_by_test_id("games-position")).to_have_value(position)


def open_page(page: Page, base_url: str) -> None:
    """Open the page and wait for its first game: a click while it loads is ignored by design."""
    page.goto(base_url + "/games")
    expect(page.get_by_test_id("games-position")).not_to_have_value("")
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")


def test_the_engine_blocks_the_open_row(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    page.get_by_test_id("games-game").select_option("tic_tac_toe")
    page.get_by_test_id("games-position").fill("xx..o....")
    page.get_by_test_id("games-set-position").click()
    expect(page.get_by_test_id("games-status")).to_have_text("o (the engine) to move.")
    page.get_by_test_id("games-engine-move").click()
    expect(page.get_by_test_id("games-position")).to_have_value("xxo.o....")
    assert "plays 1,3" in page.get_by_test_id("games-engine").inner_text()
    expect(page.get_by_test_id("cell-1,3")).to_have_text("o")
    # the cells already marked are no moves any more
    expect(page.get_by_test_id("cell-1,1")).to_be_disabled()
    expect(page.get_by_test_id("cell-3,3")).to_be_enabled()


def test_the_engine_replies_to_a_move_and_the_end_is_detected(page: Page, base_url: str) -> None:
    # x to move with 1,3 open: x wins at once by completing the top row
    open_game(page, base_url, "tic_tac_toe", "xx.oo....", {"rows": 3, "columns": 3, "k": 3})
    page.get_by_test_id("cell-1,3").click()
    expect(page.get_by_test_id("games-status")).to_have_text("Game over: x wins.")
    expect(page.get_by_test_id("games-position")).to_have_value("xxxoo....")
    expect(page.get_by_test_id("games-engine-move")).to_be_disabled()
    # taking the move back gives x the move again
    page.get_by_test_id("games-undo").click()
    expect(page.get_by_test_id("games-position")).to_have_value("xx.oo....")
    # a quiet move: the engine (o) answers at once, completing its middle row
    page.get_by_test_id("cell-3,3").click()
    expect(page.get_by_test_id("games-status")).to_have_text("Game over: o wins.")
    expect(page.get_by_test_id("games-position")).to_have_value("xx.ooo..x")


def test_a_column_click_drops_a_disc(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    page.get_by_test_id("games-game").select_option("connect_four")
    page.get_by_test_id("games-engine-side").select_option("none")
    page.get_by_test_id("games-new").click()
    expect(page.get_by_test_id("games-position")).to_have_value("")
    expect(page.get_by_test_id("column-4")).to_be_enabled()
    page.get_by_test_id("column-4").click()
    expect(page.get_by_test_id("games-position")).to_have_value("4")
    expect(page.get_by_test_id("disc-1,4")).to_have_attribute("data-colour", "red")
    page.get_by_test_id("column-4").click()
    expect(page.get_by_test_id("games-position")).to_have_value("44")
    expect(page.get_by_test_id("disc-2,4")).to_have_attribute("data-colour", "yellow")
    expect(page.get_by_test_id("disc-1,3")).to_have_attribute("data-colour", "empty")


def test_solve_shows_bouton_loss_for_nim_1_2_3(page: Page, base_url: str) -> None:
    open_game(page, base_url, "nim", "1 2 3", {"piles": [1, 2, 3], "misere": False})
    page.get_by_test_id("games-solve").click()
    expect(page.get_by_test_id("solution-value")).to_have_text("-1 for player 1 (a loss)")
    expect(page.get_by_test_id("solution-proven")).to_contain_text("yes")


def test_nim_take_from_a_pile(page: Page, base_url: str) -> None:
    open_game(page, base_url, "nim", "3 4 5", {"piles": [3, 4, 5], "misere": False})
    page.get_by_label("Pile", exact=True).select_option("1")
    page.get_by_label("Objects to take").fill("2")
    page.get_by_test_id("games-engine-side").select_option("none")
    page.get_by_test_id("nim-take").click()
    # 1 xor 4 xor 5 = 0: the winning move of docs/games.md, the second player to move
    expect(page.get_by_test_id("games-position")).to_have_value("1 4 5 / 2")


def test_open_the_tree_draws_it_on_the_trees_page(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", "xxo.o.x..", {"rows": 3, "columns": 3, "k": 3})
    page.get_by_test_id("games-tree-depth").fill("2")
    page.get_by_test_id("games-open-tree").click()
    page.wait_for_url(base_url + "/#*")
    page.locator("#drawing svg").wait_for()
    state = json.loads(unquote(page.url.split("#", 1)[1]))
    tree = json.loads(state["tree"])
    # o must block at 2,1: the four moves of docs/games.md, in the game's order
    assert [child["move"] for child in tree["children"]] == ["2,1", "2,3", "3,2", "3,3"]
    assert state["algorithm"] == "alphabeta"


def test_a_bad_position_is_reported_at_position(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", "x........", {"rows": 3, "columns": 3, "k": 3})
    page.get_by_test_id("games-position").fill("xxxooo...")
    page.get_by_test_id("games-set-position").click()
    error = page.get_by_test_id("games-position-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("(at /position)")
    expect(page.get_by_test_id("games-position")).to_have_attribute("aria-invalid", "true")
    # the board stays on the last good position
    expect(page.get_by_test_id("cell-1,1")).to_have_text("x")
    expect(page.get_by_test_id("cell-1,2")).to_have_text("")


def test_a_bad_parameter_is_reported_beside_it(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    page.get_by_test_id("games-game").select_option("nim")
    page.get_by_test_id("param-piles").fill("3 99")
    page.get_by_test_id("games-new").click()
    expect(page.get_by_test_id("games-params-error")).to_contain_text("/params/piles")
    expect(page.get_by_test_id("param-piles")).to_have_attribute("aria-invalid", "true")


def test_every_control_is_labelled_and_reachable_by_keyboard(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    page.get_by_test_id("games-game").select_option("nim")
    page.get_by_test_id("games-new").click()
    expect(page.get_by_test_id("games-position")).to_have_value("3 4 5")
    controls = page.locator("main input, main select")
    for index in range(controls.count()):
        control = controls.nth(index)
        assert control.evaluate("c => c.labels.length > 0"), control.evaluate("c => c.outerHTML")
    # Tab reaches the game's select, then New game plays from the keyboard
    page.locator("body").focus()
    seen = []
    for _ in range(40):
        page.keyboard.press("Tab")
        seen.append(
            page.evaluate("document.activeElement.id || document.activeElement.dataset.testid")
        )
    for wanted in (
        "game",
        "param-piles",
        "new-game",
        "position",
        "move-list",
        "engine-move",
        "solve",
        "open-tree",
    ):
        assert wanted in seen, (wanted, seen)
    page.get_by_test_id("games-solve").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("solution-best-moves")).to_have_text("1:2")


def test_hexapawn_moves_by_clicking_from_and_to(page: Page, base_url: str) -> None:
    open_game(page, base_url, "hexapawn", "bbb/.../www w", {"columns": 3, "rows": 3})
    page.get_by_test_id("games-engine-side").select_option("none")
    page.get_by_test_id("square-b1").click()
    page.get_by_test_id("square-b2").click()
    # docs/games.md: the position after White's b1-b2
    expect(page.get_by_test_id("games-position")).to_have_value("bbb/.w./w.w b")
    expect(page.get_by_test_id("games-status")).to_have_text("Black to move.")
    # Black's a3 pawn may take on b2: the capture is among the legal moves
    assert "a3xb2" in page.get_by_test_id("games-move-list").inner_text()


def test_pig_hold_banks_the_turn_total(page: Page, base_url: str) -> None:
    open_game(page, base_url, "pig", "1 10 7 6", {"goal": 100, "die": 6})
    page.get_by_test_id("games-engine-side").select_option("none")
    page.get_by_test_id("pig-hold").click()
    # player 1 banks 10 + 6 = 16; player 2 (7 points) is to roll
    expect(page.get_by_test_id("games-position")).to_have_value("2 7 16 0")
    expect(page.get_by_test_id("pig-hold")).to_be_disabled()
    page.get_by_test_id("pig-roll").click()
    expect(page.get_by_test_id("games-position")).to_have_value("2 7 16 0 rolling")
    page.get_by_test_id("pig-die").click()
    expect(page.get_by_test_id("games-position")).not_to_have_value("2 7 16 0 rolling")
    # any face: a 1 hands the die back with nothing banked, 2 to 6 add to the turn total
    after = page.get_by_test_id("games-position").input_value()
    assert after == "1 16 7 0" or after in {f"2 7 16 {face}" for face in range(2, 7)}, after


def test_a_link_pasted_over_the_page_loads_its_position(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", "x........", {"rows": 3, "columns": 3, "k": 3})
    # only the fragment changes: no reload, the page follows the link all the same
    open_game(page, base_url, "nim", "1 2 3", {"piles": [1, 2, 3], "misere": False})
    expect(page.get_by_test_id("games-status")).to_have_text("player 1 to move.")
    expect(page.get_by_test_id("param-piles")).to_have_value("1 2 3")


def test_take_back_undoes_the_engine_reply_too(page: Page, base_url: str) -> None:
    open_game(page, base_url, "nim", "1 2 3", {"piles": [1, 2, 3], "misere": False})
    page.get_by_test_id("games-move-list").select_option("3:3")
    page.get_by_test_id("games-play-move").click()
    # 1 2 0 to the engine: nim-sum 1 xor 2 = 3, and its one winning move 2:1 leaves 1 1 0, xor 0
    expect(page.get_by_test_id("games-position")).to_have_value("1 1 0")
    page.get_by_test_id("games-undo").click()
    expect(page.get_by_test_id("games-position")).to_have_value("1 2 3")
    expect(page.get_by_test_id("games-undo")).to_be_disabled()


def test_pig_to_two_points_is_won_six_times_in_seven(page: Page, base_url: str) -> None:
    # goal 2: any face but 1 wins at once, a 1 hands the same position over, so the mover
    # wins with P = 5/6 + (1 - P)/6, P = 6/7 (docs/games.md); value iteration gets within 1e-9
    open_game(page, base_url, "pig", "1 0 0 0", {"goal": 2, "die": 6})
    page.get_by_test_id("games-solve").click()
    value = page.get_by_test_id("solution-value")
    expect(value).to_contain_text("a probability of winning")
    numerator, denominator = value.inner_text().split(" ")[0].split("/")
    assert abs(int(numerator) / int(denominator) - 6 / 7) <= 1e-9
    expect(page.get_by_test_id("solution-best-moves")).to_have_text("roll")
    expect(page.get_by_test_id("solution-proven")).to_contain_text("value iteration")


def test_the_engine_moving_first_opens_a_new_game(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    page.get_by_test_id("games-game").select_option("nim")
    page.get_by_test_id("param-piles").fill("0 3")
    page.get_by_test_id("games-engine-side").select_option("0")
    page.get_by_test_id("games-new").click()
    # one pile of 3 (normal play): taking all of it wins, the only winning move
    expect(page.get_by_test_id("games-position")).to_have_value("0 0 / 2")
    expect(page.get_by_test_id("games-status")).to_have_text("Game over: player 1 wins.")
    assert "plays 2:3" in page.get_by_test_id("games-engine").inner_text()


def test_taking_more_than_a_pile_holds_is_refused(page: Page, base_url: str) -> None:
    open_game(page, base_url, "nim", "1 2 3", {"piles": [1, 2, 3], "misere": False})
    page.get_by_label("Pile", exact=True).select_option("2")
    page.get_by_label("Objects to take").fill("3")
    page.get_by_test_id("nim-take").click()
    error = page.get_by_test_id("games-position-error")
    expect(error).to_contain_text("2:3 is not a legal move here")
    expect(error).to_contain_text("(at /move)")
    expect(page.get_by_test_id("games-position")).to_have_value("1 2 3")
