"""The collector is paused for a whole request and back on after it (api/gc_pause.py)."""

from __future__ import annotations

import gc

from api import create_app


def test_a_request_runs_with_the_collector_paused_and_leaves_it_on() -> None:
    app = create_app()
    app.add_url_rule("/probe", "probe", lambda: {"collecting": gc.isenabled()})
    assert gc.isenabled()
    answer = app.test_client().get("/probe").get_json()
    assert answer == {"collecting": False}
    assert gc.isenabled()


def test_a_failing_request_leaves_the_collector_on() -> None:
    app = create_app()
    answer = app.test_client().post("/v1/trees/minimax", data=b"{", content_type="application/json")
    assert answer.status_code == 400
    assert gc.isenabled()
