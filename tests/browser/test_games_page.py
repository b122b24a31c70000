"""The games page in a real browser: play against the engine, solve, open the tree.

Hand-derived answers: in tic-tac-toe with x on 1,1 and 1,2 and o on 2,2 ("xx..o...."), o is
to move (x has one mark more) and must take 1,3, or x completes the top row next move: the
engine plays 1,3. In connect four a disc dropped into an empty column lands in its bottom
row. Nim on piles 1, 2 and 3 has nim-sum 1 xor 2 xor 3 = 0, so by Bouton's theorem the player
to move loses with best play: value -1.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote, unquote

import pytest
from playwright.sync_api import Page, expect

from tests.browser.held import FirstHeld

SET_UP = re.compile(r"to move|Game over|in the air")
"""What the status says once a position is set up."""


def open_game(
    page: Page,
    base_url: str,
    game: str,
    position: str,
    params: dict[str, object],
    engine: str = "1",
) -> None:
    """Open the page on a game and position through the URL's fragment (``engine``: the
    side the engine plays, "none" for two people at the board)."""
    state = {"game": game, "params": params, "position": position, "engine": engine}
    page.goto(f"{base_url}/games#{quote(json.dumps(state))}")
    # set up: the status says whose turn it is (the position alone cannot tell when it is
    # the initial "", and a click before the set-up ends is ignored by design)
    expect(page.get_by_test_id("games-status")).to_have_text(SET_UP)
    expect(page.get_by_test_id("games-position")).to_have_value(position)


def open_page(page: Page, base_url: str) -> None:
    """Open the page and wait for its first game: a click while it loads is ignored by design."""
    page.goto(base_url + "/games")
    expect(page.get_by_test_id("games-position")).not_to_have_value("")
    settled(page)


def unhurried(page: Page) -> None:
    """Give the engine 10 s: the page deepens one request per depth, and on a loaded machine
    the round trips alone can spend the default second before a small game is proven."""
    page.get_by_test_id("games-time-limit").fill("10")


def settled(page: Page) -> None:
    """Wait until the page has done what it was asked (a click meanwhile would be ignored)."""
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")


def choose(page: Page, game: str) -> None:
    """Choose a game, which sets up its initial position, and wait until it has."""
    page.get_by_test_id("games-game").select_option(game)
    settled(page)


def test_the_engine_blocks_the_open_row(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    choose(page, "tic_tac_toe")
    page.get_by_test_id("games-position").fill("xx..o....")
    page.get_by_test_id("games-set-position").click()
    expect(page.get_by_test_id("games-status")).to_have_text("o (the engine) to move.")
    unhurried(page)
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
    choose(page, "connect_four")
    page.get_by_test_id("games-engine-side").select_option("none")
    page.get_by_test_id("games-new").click()
    settled(page)
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
    unhurried(page)
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


def test_open_the_tree_draws_it_on_the_trees_page_in_a_new_tab(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", "xxo.o.x..", {"rows": 3, "columns": 3, "k": 3})
    page.get_by_test_id("games-tree-depth").fill("2")
    with page.expect_popup() as opened:
        page.get_by_test_id("games-open-tree").click()
    tab = opened.value
    tab.wait_for_url(base_url + "/#*")
    tab.locator("#drawing svg").wait_for()
    state = json.loads(unquote(tab.url.split("#", 1)[1]))
    tree = json.loads(state["tree"])
    # o must block at 2,1: the four moves of docs/games.md, in the game's order
    assert [child["move"] for child in tree["children"]] == ["2,1", "2,3", "3,2", "3,3"]
    assert state["algorithm"] == "alphabeta"
    # the edges are labelled by the moves, in the game's notation
    edges = tab.locator("#drawing svg text.edge-label").all_text_contents()
    assert edges[:4] == ["2,1", "2,3", "3,2", "3,3"], edges
    # the game stays where it was in its own tab, which says what the tree's numbers are:
    # o is MAX; 3 of the 12 leaves are x's wins (o did not block at 2,1), 9 evaluations
    expect(page.get_by_test_id("games-position")).to_have_value("xxo.o.x..")
    note = page.get_by_test_id("games-tree-note")
    expect(note).to_contain_text("17 nodes, 2 plies deep; o, to move here, is MAX")
    expect(note).to_contain_text("3 leaves are finished games")
    expect(note).to_contain_text("The other 9 leaves are where the unfolding stopped")
    expect(note).to_contain_text("the evaluation open_lines")
    tab.close()


def test_a_refused_pop_up_leaves_a_link_to_the_tree(page: Page, base_url: str) -> None:
    page.add_init_script("window.open = () => null;")  # as a browser blocking pop-ups answers
    open_game(page, base_url, "nim", "1 2", {"piles": [1, 2], "misere": False})
    page.get_by_test_id("games-open-tree").click()
    link = page.get_by_test_id("games-tree-link")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("target", "_blank")
    state = json.loads(unquote(str(link.get_attribute("href")).split("#", 1)[1]))
    assert [child["move"] for child in json.loads(state["tree"])["children"]] == [
        "1:1",
        "2:1",
        "2:2",
    ]


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
    choose(page, "nim")
    page.get_by_test_id("param-piles").fill("3 99")
    page.get_by_test_id("games-new").click()
    expect(page.get_by_test_id("games-params-error")).to_contain_text("/params/piles")
    expect(page.get_by_test_id("param-piles")).to_have_attribute("aria-invalid", "true")


def test_every_control_is_labelled_and_reachable_by_keyboard(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    choose(page, "nim")
    page.get_by_test_id("games-new").click()
    settled(page)
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
    # the move's two squares are marked; the history starts at the game's start
    for square in ("b1", "b2"):
        expect(page.get_by_test_id(f"square-{square}")).to_have_attribute("data-last", "true")
    expect(page.get_by_test_id("history-1")).to_have_text("1. White b1-b2")
    expect(page.locator("#history-from")).to_have_text("")
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
    choose(page, "nim")
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
    error = page.get_by_test_id("games-move-error")
    expect(error).to_contain_text("2:3 is not a legal move here")
    expect(error).to_contain_text("(at /move)")
    expect(page.get_by_test_id("games-move-list")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("games-position")).to_have_value("1 2 3")


def test_choosing_a_game_sets_up_its_initial_position(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", ".........", {"rows": 3, "columns": 3, "k": 3})
    page.get_by_test_id("games-engine-side").select_option("none")
    page.get_by_test_id("cell-2,2").click()
    expect(page.get_by_test_id("history-1")).to_have_text("1. x 2,2")
    expect(page.locator("#history-from")).to_have_text("")
    unhurried(page)
    page.get_by_test_id("games-solve").click()
    expect(page.get_by_test_id("solution-verdict")).to_have_text(
        "Proven: a draw with best play from both sides"
    )
    page.get_by_test_id("games-game").select_option("connect_four")
    # the empty 7 x 6 board at once: no tic-tac-toe cell, no move history, red to move
    expect(page.get_by_test_id("games-position")).to_have_value("")
    expect(page.get_by_test_id("column-7")).to_be_enabled()
    expect(page.get_by_test_id("cell-2,2")).to_have_count(0)
    expect(page.get_by_test_id("games-history")).to_be_hidden()
    expect(page.get_by_test_id("games-solution")).to_be_hidden()  # tic-tac-toe's
    expect(page.get_by_test_id("games-status")).to_have_text("first player (red) to move.")
    # a click plays connect four
    page.get_by_test_id("column-3").click()
    expect(page.get_by_test_id("games-position")).to_have_value("3")
    expect(page.get_by_test_id("disc-1,3")).to_have_attribute("data-colour", "red")


def test_a_game_chosen_while_the_engine_thinks_is_set_up_after(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", ".........", {"rows": 3, "columns": 3, "k": 3})
    held = FirstHeld(page, "**/v1/games/move")
    page.get_by_test_id("cell-1,1").click()
    held.wait()
    page.get_by_test_id("games-game").select_option("nim")
    held.release()
    # the engine's reply to tic-tac-toe came in first; then nim's initial position
    expect(page.get_by_test_id("games-position")).to_have_value("3 4 5")
    expect(page.get_by_test_id("games-status")).to_have_text("player 1 to move.")
    expect(page.get_by_test_id("games-history")).to_be_hidden()
    expect(page.get_by_test_id("cell-1,1")).to_have_count(0)


def test_the_last_move_and_the_winning_line_are_marked(page: Page, base_url: str) -> None:
    open_game(page, base_url, "tic_tac_toe", "xx.oo....", {"rows": 3, "columns": 3, "k": 3})
    page.get_by_test_id("cell-1,3").click()
    expect(page.get_by_test_id("games-status")).to_have_text("Game over: x wins.")
    for cell in ("1,1", "1,2", "1,3"):
        expect(page.get_by_test_id(f"cell-{cell}")).to_have_attribute("data-winning", "true")
    for cell in ("2,1", "2,2", "3,3"):
        expect(page.get_by_test_id(f"cell-{cell}")).not_to_have_attribute("data-winning", "true")
    last = page.get_by_test_id("cell-1,3")
    expect(last).to_have_attribute("data-last", "true")
    label = "row 1, column 3: x, the last move, in the winning line"
    expect(last).to_have_attribute("aria-label", label)
    expect(page.locator("[data-last]")).to_have_count(2)  # the cell and the history's last move
    # the game was set up in the middle: its history says where it starts
    expect(page.locator("#history-from")).to_have_text("From the position xx.oo....:")
    expect(page.get_by_test_id("history-1")).to_have_text("1. x 1,3")


def test_connect_four_marks_a_diagonal_four_and_the_last_disc(page: Page, base_url: str) -> None:
    # red: 1 (c1 r1), 2 (c2 r2), 3 (c3 r2), 3 (c3 r3), 4 (c4 r3), then 4 (c4 r4) completes the
    # diagonal from c1 r1 to c4 r4; yellow's c2, c3, c4 and c6 on row 1 make no four
    open_game(page, base_url, "connect_four", "12233434464", {"columns": 7, "rows": 6, "k": 4})
    expect(page.get_by_test_id("games-status")).to_have_text("Game over: first player (red) wins.")
    for row_column in ("1,1", "2,2", "3,3", "4,4"):
        expect(page.get_by_test_id(f"disc-{row_column}")).to_have_attribute("data-winning", "true")
    expect(page.locator("#board [data-winning]")).to_have_count(4)
    expect(page.get_by_test_id("disc-4,4")).to_have_attribute("data-last", "true")
    expect(page.locator("#board [data-last]")).to_have_count(1)
    # a connect-four position is its moves: the whole game is numbered
    expect(page.get_by_test_id("history-1")).to_have_text("1. red 1")
    expect(page.get_by_test_id("history-11")).to_have_text("11. red 4")


def test_the_history_is_numbered_in_the_game_notation(page: Page, base_url: str) -> None:
    open_page(page, base_url)
    page.get_by_test_id("games-engine-side").select_option("none")
    for cell in ("1,1", "2,2", "3,3"):
        page.get_by_test_id(f"cell-{cell}").click()
        expect(page.get_by_test_id(f"cell-{cell}")).to_be_disabled()
    expect(page.get_by_test_id("games-history").locator("li")).to_have_text(
        ["1. x 1,1", "2. o 2,2", "3. x 3,3"]
    )
    expect(page.locator("#history-notation")).to_contain_text("row,column")
    page.get_by_test_id("games-undo").click()
    history = page.get_by_test_id("games-history").locator("li")
    expect(history).to_have_text(["1. x 1,1", "2. o 2,2"])
    expect(page.get_by_test_id("cell-2,2")).to_have_attribute("data-last", "true")


def test_a_proven_win_is_worded_with_its_distance(page: Page, base_url: str) -> None:
    # x has two in the top row; o blocks at 1,3 and, with 2,3 and 3,1 (or 1,3 and 2,2 to come),
    # forces a win five plies on: the engine's search says so, and the solver agrees
    open_game(page, base_url, "tic_tac_toe", "xx...o...", {"rows": 3, "columns": 3, "k": 3})
    unhurried(page)
    page.get_by_test_id("games-solve").click()
    expect(page.get_by_test_id("solution-verdict")).to_have_text(
        "Proven: o wins in 5 plies with best play"
    )
    page.get_by_test_id("games-engine-move").click()
    expect(page.get_by_test_id("games-engine")).to_have_text(
        "The engine (o) plays 1,3. Proven: o wins in 5 plies with best play."
    )
    expect(page.get_by_test_id("games-engine-estimate")).to_be_hidden()


def test_an_estimate_names_the_evaluation_and_its_depth(page: Page, base_url: str) -> None:
    # two plies from 4453 the windows evaluation scores -5/622 for red (the API's answer):
    # a little better for yellow, and not a proof
    open_game(page, base_url, "connect_four", "4453", {"columns": 7, "rows": 6, "k": 4})
    page.get_by_test_id("games-depth").fill("2")
    page.get_by_test_id("games-solve").click()
    expect(page.get_by_test_id("solution-verdict")).to_have_text(
        "An estimate from the evaluation at depth 2: slightly better for yellow"
    )
    explained = page.get_by_test_id("games-solution-estimate")
    expect(explained).to_be_visible()
    explained.locator("summary").click()
    expect(explained).to_contain_text("looked 2 plies")
    expect(explained).to_contain_text("at its cutoff")
    expect(explained).to_contain_text("windows:")
    page.get_by_test_id("games-engine-side").select_option("0")
    page.get_by_test_id("games-engine-move").click()
    expect(page.get_by_test_id("games-engine")).to_have_text(
        "The engine (red) plays 4. An estimate from the evaluation at depth 2: "
        "slightly better for yellow."
    )
    expect(page.get_by_test_id("games-engine-detail")).to_contain_text("value -5/622 for red")


LARGEST = {
    "tic_tac_toe": {"rows": 5, "columns": 5, "k": 4},
    "connect_four": {"columns": 9, "rows": 9, "k": 4},
    "hexapawn": {"columns": 8, "rows": 8},
    "nim": {"piles": [50, 50, 50, 50, 50, 50, 50, 50], "misere": False},
}


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("game", list(LARGEST))
def test_the_largest_boards_fit_without_a_sideways_scroll(
    page: Page, base_url: str, game: str, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    open_page(page, base_url)
    page.get_by_test_id("games-game").select_option(game)
    expect(page.get_by_test_id("games-status")).to_contain_text("to move")
    page.get_by_test_id("games-engine-side").select_option("none")
    for name, value in LARGEST[game].items():
        field = page.get_by_test_id(f"param-{name}")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(" ".join(map(str, value)) if isinstance(value, list) else str(value))
    page.get_by_test_id("games-new").click()
    settled(page)
    expect(page.get_by_test_id("games-status")).to_contain_text("to move")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.get_by_test_id("games-board").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= width
    # every part of the board is inside the board's box (nothing spills out of it)
    right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#board *')]"
        ".map((element) => element.getBoundingClientRect().right))"
    )
    assert right <= board["x"] + board["width"] + 0.5, (right, board)


def test_the_board_is_in_view_beside_the_setup_at_1280(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    open_page(page, base_url)
    choose(page, "connect_four")
    expect(page.get_by_test_id("column-1")).to_be_visible()
    board = page.get_by_test_id("games-board").bounding_box()
    assert board is not None and board["y"] + board["height"] <= 900, board
