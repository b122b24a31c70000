"""The command line gives the API's answers without a server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.cli import main


def test_alphabeta_from_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "tree.json"
    source.write_text(json.dumps([[10], [10, 0]]))
    assert main(["alphabeta", str(source), "--strict"]) == 0
    strict = json.loads(capsys.readouterr().out)
    assert strict["value"] == 10 and strict["pruned_leaves"] == []
    assert main(["alphabeta", str(source)]) == 0
    assert json.loads(capsys.readouterr().out)["pruned_leaves"] == ["root.1.1"]


def test_request_body_file_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "request.json"
    source.write_text(json.dumps({"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "root": "min"}))
    assert main(["minimax", str(source)]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 6
    source.write_text(json.dumps({"tree": [1, "x"]}))
    assert main(["minimax", str(source)]) == 2
    assert "/tree/1" in capsys.readouterr().err


def test_expectimax_and_maxn_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chance = tmp_path / "chance.json"
    chance.write_text(
        json.dumps(
            {
                "children": [
                    {"kind": "chance", "children": [3, 12, 8]},
                    {"kind": "chance", "children": [2, 4, 6]},
                ]
            }
        )
    )
    assert main(["expectimax", str(chance)]) == 0
    assert json.loads(capsys.readouterr().out)["value_exact"] == "23/3"
    assert main(["expectimax", str(chance), "--bounds", "0", "12"]) == 0
    assert json.loads(capsys.readouterr().out)["value_exact"] == "23/3"
    players = tmp_path / "players.json"
    players.write_text(
        json.dumps({"player": 0, "children": [{"value": [1, 2]}, {"value": [1, 5]}]})
    )
    assert main(["maxn", str(players), "--tie-break", "rightmost"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == [1, 5]
