"""Take the README's screenshot of the workbench: ``make screenshot`` (needs chromium).

Solves AIMA figure 5.2 by alpha-beta in the page, steps to the cutoff at root.1 and
saves the page as ``docs/images/workbench.png``.
"""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from api import create_app  # noqa: E402

TARGET = ROOT / "docs" / "images" / "workbench.png"


def main() -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("screenshot: Debian's chromium is needed (make test installs it)")
    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto(f"http://127.0.0.1:{server.server_port}/")
            page.get_by_test_id("solve").click()
            page.get_by_test_id("step-explanation").wait_for()
            for _ in range(14):
                page.get_by_test_id("step-next").click()
            page.screenshot(path=str(TARGET), full_page=True)
            browser.close()
    finally:
        server.shutdown()
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
