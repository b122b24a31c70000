"""Take the docs' pictures of the workbench: ``make screenshot`` (needs chromium).

- ``docs/images/workbench.png``: AIMA figure 5.2 solved by alpha-beta on the trees page,
  stepped to the cutoff at root.1, as a 1280x800 screen shows it (the README's picture);
- ``docs/images/practice.png``: a generated alpha-beta problem (seed 4), answered with one
  wrong value and one pruned leaf missed, and checked;
- ``docs/images/matrices.png``: the battle of the sexes with its three equilibria and
  best-response diagram;
- ``docs/images/lotteries.png``: a 50/50 lottery of 0 and 100 under u = sqrt(x).
"""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from api import create_app  # noqa: E402

IMAGES = ROOT / "docs" / "images"
BATTLE = (
    '{"A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]],'
    ' "labels": [["Opera", "Football"], ["Opera", "Football"]]}'
)


def trees(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.get_by_test_id("solve").click()
    page.get_by_test_id("step-explanation").wait_for()
    for _ in range(14):
        page.get_by_test_id("step-next").click()


def practice(page: Page, base: str) -> None:
    page.goto(base + "/practice")
    for setting, value in {"depth": "2", "branching-min": "3", "branching-max": "3"}.items():
        page.get_by_test_id(f"practice-{setting}").fill(value)
    page.get_by_test_id("practice-seed").fill("4")
    page.get_by_test_id("practice-generate").click()
    page.get_by_test_id("value-root").wait_for()
    # seed 4 is AIMA's shape [[3, 12, 15], [2, 2, 0], [17, 9, 1]]; root.2 is answered 9
    # where MIN takes 1, and one of the two pruned leaves is left unmarked
    for node, value in {"root": "3", "root.0": "3", "root.1": "2", "root.2": "9"}.items():
        page.get_by_test_id(f"value-{node}").fill(value)
    page.get_by_test_id("practice-best-move").select_option("root.0")
    page.locator('#drawing [data-node-id="root.1.1"]').click()
    page.get_by_test_id("practice-check").click()
    page.get_by_test_id("practice-score").wait_for()


def matrices(page: Page, base: str) -> None:
    page.goto(base + "/matrices")
    page.get_by_test_id("matrix-input").fill(BATTLE)
    page.get_by_test_id("matrix-solve").click()
    page.get_by_test_id("equilibrium").nth(2).wait_for()
    page.locator("[data-testid=plot] svg").wait_for()


def lotteries(page: Page, base: str) -> None:
    page.goto(base + "/lotteries")
    page.get_by_test_id("lottery-input").fill('[{"p": "1/2", "x": 0}, {"p": "1/2", "x": 100}]')
    page.get_by_test_id("utility-input").fill("sqrt(x)")
    page.get_by_test_id("lottery-solve").click()
    page.locator("[data-testid=curve] svg").wait_for()


PICTURES = {"workbench": trees, "practice": practice, "matrices": matrices, "lotteries": lotteries}
SCREEN = {"workbench": {"width": 1280, "height": 800}}
"""The pictures of one screen, not of the whole page: the README's shows what a student sees."""


def main() -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("screenshot: Debian's chromium is needed (make test installs it)")
    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for name, show in PICTURES.items():
                screen = SCREEN.get(name)
                page = browser.new_page(viewport=screen or {"width": 1100, "height": 900})
                show(page, base)
                target = IMAGES / f"{name}.png"
                page.screenshot(path=str(target), full_page=screen is None)
                page.close()
                print(f"wrote {target.relative_to(ROOT)}")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
