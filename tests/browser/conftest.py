"""Fixtures of the browser tests: headless Chromium (Debian's) over the live app.

Every page a test opens is watched: a console error or warning, an uncaught exception
or a request leaving the server fails the test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Request, sync_playwright

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and os.environ.get("CI") != "true":
    pytest.skip(
        "Debian's chromium is not installed (make test installs it)", allow_module_level=True
    )

HANDLED = "Failed to load resource: the server responded with a status of 422"
"""The browser's own log line for a refused request, which the page shows to the user."""


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None, "CI needs Debian's chromium for the browser tests"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1024, "height": 800}, accept_downloads=True)
    opened = context.new_page()
    problems: list[str] = []
    outside: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning") and not message.text.startswith(HANDLED):
            problems.append(message.text)

    def leaving(request: Request) -> None:
        if not request.url.startswith(base_url) and not request.url.startswith("blob:"):
            outside.append(request.url)

    opened.on("console", console)
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.on("request", leaving)
    yield opened
    context.close()
    assert problems == [], problems
    assert outside == [], outside
