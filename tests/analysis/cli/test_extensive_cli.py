"""``arbiter extensive``: the endpoint's answer without a server, from .efg or JSON files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis.cli import main
from analysis.cli.extensive import parser
from api import create_app
from api.views.extensive import _MYERSON_EXAMPLE
from games.extensive.efg import write_efg
from games.extensive.poker import kuhn_poker


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Exit status, the JSON printed (or None) and standard error."""
    status = main(["extensive", *argv])
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if captured.out else None, captured.err


def test_an_efg_file_prints_what_the_api_answers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = write_efg(kuhn_poker())
    path = tmp_path / "kuhn.efg"
    path.write_text(text)
    status, printed, _ = run(capsys, str(path))
    assert status == 0 and printed["value_exact"] == "-1/18"
    api = (
        create_app({"TESTING": True}).test_client().post("/v1/extensive/solve", json={"efg": text})
    )
    assert printed == api.get_json()


def test_the_json_form_and_a_request_body_are_read_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bare, body = tmp_path / "game.json", tmp_path / "body.json"
    bare.write_text(json.dumps(_MYERSON_EXAMPLE["game"]))
    body.write_text(json.dumps({**_MYERSON_EXAMPLE, "method": "cfr_plus", "iterations": 50}))
    _, exact, _ = run(capsys, str(bare))
    assert exact["value_exact"] == "1/3" and exact["method"] == "sequence_lp"
    _, approximate, _ = run(capsys, str(body))
    assert approximate["method"] == "cfr_plus" and approximate["cfr"]["iterations"] == 50
    # an option overrides the file's
    _, overridden, _ = run(capsys, str(body), "--method", "cfr", "--iterations", "5")
    assert overridden["method"] == "cfr" and overridden["cfr"]["iterations"] == 5


def test_errors_name_the_file_field_or_the_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"players": ["a"], "root": {"payoffs": [1]}}')
    status, printed, error = run(capsys, str(path))
    assert status == 2 and printed is None
    assert error.startswith(f"arbiter: {path}#/players:")
    efg = tmp_path / "kuhn.efg"
    efg.write_text(write_efg(kuhn_poker()))
    status, _, error = run(capsys, str(efg), "--method", "sequence_lp", "--iterations", "3")
    assert status == 2 and error.startswith("arbiter: --iterations:")


def test_export_writes_either_form_and_they_read_back_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = write_efg(kuhn_poker())
    efg = tmp_path / "kuhn.efg"
    efg.write_text(text)
    status, printed, _ = run(capsys, str(efg), "--export", "json")
    assert status == 0 and printed["players"] == ["Player 1", "Player 2"]
    as_json = tmp_path / "kuhn.json"
    as_json.write_text(json.dumps(printed))
    assert main(["extensive", str(as_json), "--export", "efg"]) == 0
    assert capsys.readouterr().out == text


def test_the_options_default_to_the_files_own() -> None:
    # no option given: the file (or auto) decides the method and CFR's budget
    args = parser("extensive", "").parse_args(["game.efg"])
    assert (args.method, args.iterations, args.target_nash_conv, args.export) == (
        None,
        None,
        None,
        None,
    )
