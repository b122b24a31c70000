"""The command line gives the API's answers without a server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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


AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
"""AIMA (3rd ed.) figure 5.2: MAX over three MIN nodes."""


def run_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(args) == 0
    answer: dict[str, Any] = json.loads(capsys.readouterr().out)
    return answer


def test_aima_figure_5_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "aima.json"
    source.write_text(json.dumps(AIMA))
    # MIN nodes worth min(3,12,8) = 3, min(2,4,6) = 2, min(14,5,2) = 2; MAX takes 3 on the left
    answer = run_json(["minimax", str(source)], capsys)
    assert (answer["value"], answer["best_move"]) == (3, "root.0")
    assert [answer["nodes"][f"root.{i}"]["value"] for i in range(3)] == [3, 2, 2]
    # alpha = 3 after the left node; the middle node's first leaf, 2 <= 3, cuts off the rest
    answer = run_json(["alphabeta", str(source)], capsys)
    assert (answer["value"], answer["best_move"]) == (3, "root.0")
    assert answer["pruned_leaves"] == ["root.1.1", "root.1.2"]
    # from standard input, with the same answer as the file
    answer = run_json(["solve", str(source)], capsys)
    assert (answer["type"], answer["value"]) == ("minimax", 3)


THREE_PLAYERS = {
    "player": 0,
    "children": [
        {"player": 1, "children": [{"value": [3, 2, 1]}, {"value": [0, 2, 4]}]},
        {"player": 1, "children": [{"value": [1, 5, 0]}, {"value": [2, 1, 3]}]},
    ],
}
"""Utilities summing to 6; player 1 is indifferent at root.0 (2 either way)."""


def test_maxn_tie_break_and_shallow_pruning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "three.json"
    source.write_text(json.dumps(THREE_PLAYERS))
    # leftmost: player 1 takes (3,2,1) at root.0; at root.1 player 1 can get 5 from the first
    # leaf, so player 0 gets at most 6 - 5 = 1 < 3 there: root.1.1 is pruned (Korf)
    left = run_json(["maxn", str(source), "--max-sum", "6"], capsys)
    assert (left["value"], left["best_move"], left["pruned_leaves"]) == (
        [3, 2, 1],
        "root.0",
        ["root.1.1"],
    )
    # rightmost: player 1 takes (0,2,4) at root.0, so player 0 prefers root.1, (1,5,0); the
    # bound 1 there beats the 0 in hand, so nothing is pruned
    right = run_json(["maxn", str(source), "--tie-break", "rightmost", "--max-sum", "6"], capsys)
    assert (right["value"], right["best_move"], right["pruned_leaves"]) == (
        [1, 5, 0],
        "root.1",
        [],
    )
    assert (left["tie_break"], right["tie_break"], left["ties"]) == (
        "leftmost",
        "rightmost",
        ["root.0"],
    )
    # paranoid for player 0: the others minimise player 0's utility: root.0 -> 0, root.1 -> 1
    paranoid = run_json(["maxn", str(source), "--paranoid", "0"], capsys)["paranoid"]
    assert (paranoid["value"], paranoid["best_move"]) == (1, "root.1")


def test_flags_win_over_the_request_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "request.json"
    source.write_text(json.dumps({"tree": AIMA, "depth": 1, "root": "min"}))
    # the file's depth 1 would value the nodes below the root by an eval they do not have
    assert main(["minimax", str(source)]) == 2
    assert f"{source}#/tree/0/eval: node 'root.0' is at the depth cutoff" in capsys.readouterr().err
    # the flag's depth 2 reaches the leaves: under the file's MIN root the MAX nodes are
    # worth 12, 6 and 14, and MIN takes 6
    answer = run_json(["minimax", str(source), "--depth", "2"], capsys)
    assert (answer["value"], answer["best_move"], answer["depth"]) == (6, "root.1", 2)
    answer = run_json(["minimax", str(source), "--depth", "2", "--root", "max"], capsys)
    assert answer["value"] == 3


def test_expectimax_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "chance.json"
    # two uniform chance nodes: (3 + 12 + 8) / 3 = 23/3 and (2 + 4 + 6) / 3 = 4
    source.write_text(
        json.dumps({"children": [{"kind": "chance", "children": c} for c in AIMA[:2]]})
    )
    plain = run_json(["expectimax", str(source)], capsys)
    star1 = run_json(["expectimax", str(source), "--bounds", "0", "12", "--strict"], capsys)
    assert plain["value_exact"] == star1["value_exact"] == "23/3"
    assert plain["best_move"] == star1["best_move"] == "root.0"
