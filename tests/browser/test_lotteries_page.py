"""The lottery page in a real browser (headless Chromium driven by Playwright).

Hand-derived answers: the lottery [1/2, $0; 1/2, $100] under U = sqrt(x) has EMV 50,
EU = (0 + 10)/2 = 5, so CE = 5^2 = 25 and the risk premium 50 - 25 = 25 (risk averse);
[1/2, $4; 1/2, $25] has EU = (2 + 5)/2 = 7/2 and CE = 49/4. Under a linear utility the
CE is the EMV. Allais: choosing 1A = $1M over 1B = [0.89, $1M; 0.01, $0; 0.10, $5M] says
0.11 U(1M) > 0.01 U(0) + 0.10 U(5M); choosing 2B = [0.10, $5M; 0.90, $0] over
2A = [0.11, $1M; 0.89, $0] says the reverse, so no expected utility explains both.
"""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, expect

from tests.browser.held import FirstHeld

SQRT_LOTTERY = '[{"p": "1/2", "x": 0}, {"p": "1/2", "x": 100}]'


def evaluate(page: Page, lottery: str, utility: str) -> None:
    page.get_by_test_id("lottery-input").fill(lottery)
    page.get_by_test_id("utility-input").fill(utility)
    page.get_by_test_id("lottery-solve").click()
    page.locator("#curve svg").wait_for()


def test_sqrt_utility_gives_the_hand_derived_ce_and_premium(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    evaluate(page, SQRT_LOTTERY, "sqrt(x)")
    assert page.get_by_test_id("emv").inner_text() == "50"
    assert page.get_by_test_id("expected-utility").inner_text() == "5"
    assert page.get_by_test_id("certainty-equivalent").inner_text() == "25"
    assert page.get_by_test_id("risk-premium").inner_text() == "25"
    assert page.get_by_test_id("attitude").inner_text() == "risk averse"
    # the picture is the server's: its CE marker and legend are in the page
    assert page.locator("#curve #ce-point").count() == 1
    assert "CE = 25, U(w + CE) = EU" in page.locator("#curve").inner_text()


def test_an_exact_ce_is_shown_exactly(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    evaluate(page, '[{"p": "1/2", "x": 4}, {"p": "1/2", "x": 25}]', "sqrt(x)")
    assert page.get_by_test_id("certainty-equivalent").inner_text() == "49/4"
    assert page.get_by_test_id("expected-utility").inner_text() == "7/2"
    assert page.get_by_test_id("emv").inner_text() == "29/2"
    assert page.get_by_test_id("risk-premium").inner_text() == "9/4"
    assert "12.25" in page.locator("#ce-approx").inner_text()


def test_a_risk_neutral_utility_has_ce_equal_to_emv(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    page.get_by_test_id("utility-preset").select_option("x")
    assert page.get_by_test_id("utility-input").input_value() == "x"
    evaluate(page, '[{"p": "0.3", "x": 10}, {"p": "0.7", "x": 40}]', "x")
    assert page.get_by_test_id("emv").inner_text() == "31"
    assert page.get_by_test_id("certainty-equivalent").inner_text() == "31"
    assert page.get_by_test_id("risk-premium").inner_text() == "0"
    assert page.get_by_test_id("attitude").inner_text() == "risk neutral"


def test_the_table_and_the_json_stay_in_step(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    page.get_by_test_id("lottery-input").fill('[["1/4", 0], ["3/4", 8]]')
    page.get_by_test_id("lottery-input").dispatch_event("input")
    assert page.get_by_test_id("branch-1-x").input_value() == "8"
    assert page.get_by_test_id("branch-0-p").input_value() == "1/4"
    page.get_by_test_id("branch-1-x").fill("16")
    assert json.loads(page.get_by_test_id("lottery-input").input_value()) == [
        {"p": "1/4", "x": 0},
        {"p": "3/4", "x": 16},
    ]
    # sqrt: EU = 3/4 * 4 = 3, CE = 9, EMV = 12
    page.get_by_test_id("utility-input").fill("sqrt(x)")
    page.get_by_test_id("lottery-solve").click()
    page.locator("#curve svg").wait_for()
    assert page.get_by_test_id("certainty-equivalent").inner_text() == "9"
    assert page.get_by_test_id("emv").inner_text() == "12"
    page.get_by_test_id("lottery-input").fill('[{"p": 1, "x": [[0.5, 1], [0.5, 2]]}]')
    page.get_by_test_id("lottery-input").dispatch_event("input")
    assert page.get_by_test_id("branches-note").is_visible()


def test_the_allais_choices_are_inconsistent_with_the_argument(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    page.get_by_test_id("consistency-preset").select_option("allais")
    assert page.get_by_test_id("choices").input_value() == "1A > 1B\n2B > 2A"
    page.get_by_test_id("consistency-check").click()
    verdict = page.get_by_test_id("consistency-verdict")
    verdict.wait_for()
    assert verdict.inner_text().startswith("Inconsistent")
    argument = page.get_by_test_id("consistency-argument").inner_text()
    assert "(1) 1A > 1B: U(1000000) > 1/100*U(0) + 89/100*U(1000000) + 1/10*U(5000000)" in argument
    assert "(2) 2B > 2A" in argument
    assert "a number exceeds itself" in argument
    # choosing 1A and 2A is consistent: U(1M) = 1 = U(5M) above U(0) = 0 explains it
    page.get_by_test_id("choices").fill("1A > 1B\n2A > 2B")
    page.get_by_test_id("consistency-check").click()
    # "Inconsistent: ..." also contains "consistent:" to get_by_text, so wait on the verdict's start
    expect(verdict).to_have_text(re.compile(r"^Consistent:"))
    assert not page.get_by_test_id("consistency-argument").is_visible()
    rows = [row.inner_text().split("\t") for row in page.locator("#witness-rows tr").all()]
    assert rows == [["0", "0"], ["1000000", "1"], ["5000000", "1"]]


def test_a_bad_formula_is_reported_beside_the_utility(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    evaluate(page, SQRT_LOTTERY, "sqrt(x)")
    page.get_by_test_id("utility-input").fill("sqrt(x")
    page.get_by_test_id("lottery-solve").click()
    message = page.get_by_test_id("utility-error")
    message.wait_for()
    assert "'(' was never closed" in message.inner_text()
    # no answer and no picture of the earlier one
    assert not page.get_by_test_id("certainty-equivalent").is_visible()
    assert not page.get_by_test_id("curve").is_visible()
    assert "(at /utility)" in message.inner_text()
    assert page.get_by_test_id("utility-input").get_attribute("aria-invalid") == "true"
    assert not page.get_by_test_id("lottery-error").is_visible()
    # an outcome where the utility is undefined points at that outcome, in the table too
    evaluate_fails = '[{"p": "1/2", "x": 0}, {"p": "1/2", "x": 100}]'
    page.get_by_test_id("lottery-input").fill(evaluate_fails)
    page.get_by_test_id("lottery-input").dispatch_event("input")
    page.get_by_test_id("utility-input").fill("log(x)")
    page.get_by_test_id("lottery-solve").click()
    page.get_by_test_id("lottery-error").wait_for()
    assert "/lottery/0/x" in page.get_by_test_id("lottery-error").inner_text()
    assert not page.get_by_test_id("utility-error").is_visible()
    assert page.get_by_test_id("branch-0-x").get_attribute("aria-invalid") == "true"
    # a wealth that is no number is reported beside the wealth
    page.get_by_test_id("utility-input").fill("sqrt(x)")
    page.get_by_test_id("wealth").fill("abc")
    page.get_by_test_id("lottery-solve").click()
    page.get_by_test_id("wealth-error").wait_for()
    assert "'abc' is not a number" in page.get_by_test_id("wealth-error").inner_text()
    assert "(at /wealth)" in page.get_by_test_id("wealth-error").inner_text()
    assert not page.get_by_test_id("lottery-error").is_visible()


def test_a_bad_choice_line_is_reported_beside_the_choices(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    page.get_by_test_id("consistency-preset").select_option("aima")
    page.get_by_test_id("choices").fill("B > A\n\nC > E")
    page.get_by_test_id("consistency-check").click()
    message = page.get_by_test_id("choices-error")
    message.wait_for()
    assert "/choices/1" in message.inner_text() and "(line 3)" in message.inner_text()


def test_every_control_is_labelled_and_reachable_by_keyboard(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    for test_id in (
        "lottery-input",
        "branch-0-p",
        "branch-1-x",
        "utility-input",
        "utility-preset",
        "wealth",
        "consistency-preset",
        "choice-lotteries",
        "choices",
        "increasing",
    ):
        control = page.get_by_test_id(test_id)
        assert control.evaluate("c => c.labels.length > 0"), test_id
    page.get_by_test_id("utility-input").focus()
    reached = []
    for _ in range(3):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.dataset.testid"))
    assert reached == ["utility-preset", "wealth", "lottery-solve"]
    # Enter in the formula evaluates the lottery: sqrt on the default lottery gives CE 25
    page.get_by_test_id("utility-input").fill("sqrt(x)")
    page.get_by_test_id("utility-input").press("Enter")
    page.locator("#curve svg").wait_for()
    assert page.get_by_test_id("certainty-equivalent").inner_text() == "25"


def test_a_link_reproduces_the_page(page: Page, base_url: str) -> None:
    page.goto(base_url + "/lotteries")
    page.get_by_test_id("wealth").fill("20")
    # w = 20, U = sqrt: w + x is 36 or 81, utilities 6 and 9
    evaluate(page, '[{"p": "1/3", "x": 16}, {"p": "2/3", "x": 61}]', "sqrt(x)")
    # EU = 6/3 + 2*9/3 = 8, so w + CE = 64 and CE = 44; EMV = 16/3 + 122/3 = 46
    assert page.get_by_test_id("certainty-equivalent").inner_text() == "44"
    assert page.get_by_test_id("emv").inner_text() == "46"
    page.get_by_test_id("plot-kind").select_option("risk_profile")
    page.locator("#curve #risk-profile").wait_for()
    page.get_by_test_id("choices").fill("1A > 1B\n2B > 2A")
    page.get_by_test_id("consistency-check").click()
    page.get_by_test_id("consistency-verdict").wait_for()
    fresh = page.context.new_page()
    fresh.goto(page.url)
    fresh.locator("#curve #risk-profile").wait_for()
    assert fresh.get_by_test_id("certainty-equivalent").inner_text() == "44"
    assert fresh.get_by_test_id("wealth").input_value() == "20"
    assert fresh.get_by_test_id("plot-kind").input_value() == "risk_profile"
    fresh.get_by_test_id("consistency-verdict").wait_for()
    assert fresh.get_by_test_id("consistency-verdict").inner_text().startswith("Inconsistent")
    fresh.close()


def test_the_curve_downloads_as_svg_and_png(page: Page, base_url: str, tmp_path: Path) -> None:
    page.goto(base_url + "/lotteries")
    evaluate(page, SQRT_LOTTERY, "sqrt(x)")
    with page.expect_download() as svg_download:
        page.get_by_test_id("export-svg").click()
    saved = tmp_path / "curve.svg"
    svg_download.value.save_as(saved)
    root = ET.fromstring(saved.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg_download.value.suggested_filename == "utility-curve.svg"
    with page.expect_download() as png_download:
        page.get_by_test_id("export-png").click()
    png = tmp_path / "curve.png"
    png_download.value.save_as(png)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    # twice the SVG's size in CSS pixels (518.4 x 360 pt = 691.2 x 480 px)
    assert (width, height) in {(1382, 960), (1384, 960)}
    # the picture was drawn, not a blank canvas: the risk premium's red is there
    with Image.open(png) as picture:
        colours = picture.convert("RGB").getcolors(maxcolors=width * height) or []
    assert sum(n for n, rgb in colours if rgb == (0xD6, 0x27, 0x28)) > 100


def test_an_older_evaluation_or_picture_answering_late_does_not_replace_the_newer(
    page: Page, base_url: str
) -> None:
    page.goto(base_url + "/lotteries")
    # [1/2, $0; 1/2, $100] under sqrt (CE 25) is held back while [1/2, $4; 1/2, $25] (CE
    # 49/4) is evaluated and shown
    first = FirstHeld(page, "**/v1/lotteries/evaluate")
    page.get_by_test_id("lottery-input").fill(SQRT_LOTTERY)
    page.get_by_test_id("lottery-solve").click()
    first.wait()
    evaluate(page, '[{"p": "1/2", "x": 4}, {"p": "1/2", "x": 25}]', "sqrt(x)")
    expect(page.get_by_test_id("certainty-equivalent")).to_have_text("49/4")
    first.release()
    assert page.get_by_test_id("certainty-equivalent").inner_text() == "49/4"
    assert page.get_by_test_id("emv").inner_text() == "29/2"
    assert "CE = 49/4" in page.locator("#curve").inner_text()
    # the utility curve is held back while the risk profile is chosen and drawn
    page.get_by_test_id("plot-kind").select_option("risk_profile")
    expect(page.locator("#curve #ce-point")).to_have_count(0)
    drawing = FirstHeld(page, "**/v1/lotteries/plot")
    page.get_by_test_id("plot-kind").select_option("utility")
    drawing.wait()
    page.get_by_test_id("plot-kind").select_option("risk_profile")
    drawing.release()
    assert page.locator("#curve svg").count() == 1
    assert page.locator("#curve #ce-point").count() == 0
