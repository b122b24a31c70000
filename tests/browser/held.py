"""Holding a page's first request to an endpoint back, to answer it after a later one.

The workbench pages drop an answer to an older request that comes in after a newer one's
(``newestOnly`` in ``api/workbench/common.js``); these tests make that happen on purpose.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, Request


class FirstHeld:
    """Holds the first request matching ``pattern`` and lets every later one through;
    :meth:`release` answers the held one last."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.page = page
        self.pattern = pattern
        self.held: list[Any] = []
        self.in_flight: set[Request] = set()
        page.on("request", self._sent)
        page.on("requestfinished", self._done)
        page.on("requestfailed", self._done)
        page.route(pattern, self._route)

    def _sent(self, request: Request) -> None:
        self.in_flight.add(request)

    def _done(self, request: Request) -> None:
        self.in_flight.discard(request)

    def _route(self, route: Any) -> None:
        if self.held:
            route.continue_()
        else:
            self.held.append(route)

    def wait(self) -> None:
        """Wait until the first request is held."""
        while not self.held:
            self.page.wait_for_timeout(20)

    def release(self) -> None:
        """Once every other request has been answered (the newer answers are shown), answer
        the held one, then wait until the page has nothing in flight (whatever its late
        answer sets off has then run)."""
        self._quiet(allowed=1)
        with self.page.expect_response(self.pattern):
            self.held[0].continue_()
        self._quiet(allowed=0)

    def _quiet(self, allowed: int) -> None:
        """Wait until no more than ``allowed`` requests have been in flight for a quarter of
        a second."""
        quiet = 0
        while quiet < 5:
            self.page.wait_for_timeout(50)
            quiet = 0 if len(self.in_flight) > allowed else quiet + 1
