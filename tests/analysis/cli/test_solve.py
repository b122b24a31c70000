"""``arbiter solve``'s parser and ``solve_command``, called directly on hand-made files.

Battle of the sexes (A = [[2, 0], [0, 1]], B = [[1, 0], [0, 2]]): pure equilibria (0, 0) and
(1, 1); the mixed one has the row player on R1 with p = 2/3 (p * 1 = (1 - p) * 2) and the
column player on C1 with q = 1/3 (2q = 1 - q). U = sqrt(x) on [1/2, 1000; 1/2, 0]: EMV 500,
EU sqrt(1000)/2 = 5*sqrt(10), CE 250, premium 250. On [1/3, 9; 2/3, 0]: EMV 3, EU 1, CE 1.
"""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from analysis.cli.solve import parser, solve_command
from games.errors import InvalidInputError


def solve(tmp_path: Path, document: Any, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(document))
    assert solve_command(parser("solve", "solve any file").parse_args([str(path)])) == 0
    answer: dict[str, Any] = json.loads(capsys.readouterr().out)
    return answer


def test_the_file_defaults_to_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parser("solve", "solve any file").parse_args([])
    assert args.file == "-" and args.run is solve_command
    monkeypatch.setattr(sys, "stdin", io.StringIO("[[3, 5], [2, 9]]"))
    assert solve_command(args) == 0
    out = json.loads(capsys.readouterr().out)
    # max(min(3, 5), min(2, 9)) = 3, through root.0
    assert (out["type"], out["value"], out["best_move"]) == ("minimax", 3, "root.0")


def test_battle_of_the_sexes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = solve(tmp_path, {"A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}, capsys)
    assert out["type"] == "matrix"
    assert [e["profile"] for e in out["pure_equilibria"]] == [[0, 0], [1, 1]]
    (mixed,) = [e for e in out["equilibria"] if "row_exact" in e]
    assert (mixed["row_exact"], mixed["col_exact"]) == (["2/3", "1/3"], ["1/3", "2/3"])


def test_a_game_named_by_its_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # matching pennies, zero-sum: value 0, both 50/50
    game = {"type": "matrix", "A": [[1, -1], [-1, 1]], "zero_sum": True}
    out = solve(tmp_path, game, capsys)
    assert out["type"] == "matrix" and out["pure_equilibria"] == []
    assert (out["zero_sum"]["value"], out["zero_sum"]["row_strategy_exact"]) == (0, ["1/2", "1/2"])


def test_a_lottery_body(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = {"lottery": [{"p": 0.5, "x": 1000}, {"p": 0.5, "x": 0}], "utility": "sqrt(x)"}
    out = solve(tmp_path, body, capsys)
    assert out["type"] == "lottery"
    assert (out["emv"], out["certainty_equivalent"], out["risk_premium"]) == (500, 250, 250)
    assert "emv_exact" not in out and "certainty_equivalent_exact" not in out
    assert out["expected_utility"] == pytest.approx(5 * math.sqrt(10))
    assert out["expected_utility_exact"] == "5*sqrt(10)"
    assert (out["utility"], out["wealth"]) == ("sqrt(x)", 0)


def test_a_lottery_with_thirds_reduced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = {
        "type": "lottery",
        "lottery": [{"p": "1/3", "x": 9}, {"p": "2/3", "x": 0}],
        "utility": "sqrt(x)",
        "reduce": True,
    }
    out = solve(tmp_path, body, capsys)
    assert (out["emv"], out["expected_utility"], out["certainty_equivalent"]) == (3, 1, 1)
    # the reduced lottery lists its outcomes from the lowest
    assert out["reduced"] == [
        {"p": 2 / 3, "p_exact": "2/3", "x": 0},
        {"p": 1 / 3, "p_exact": "1/3", "x": 9},
    ]


@pytest.mark.parametrize(
    ("body", "pointer", "message"),
    [
        ({"lottery": [{"p": 1, "x": 1}], "depth": 2}, "/depth", "unknown field 'depth'"),
        ({"type": "lottery", "utility": "x"}, "/lottery", "a lottery body needs a lottery"),
    ],
)
def test_lottery_bodies_refused(
    tmp_path: Path,
    body: dict[str, Any],
    pointer: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve(tmp_path, body, capsys)
    (problem,) = caught.value.errors
    assert problem.pointer == pointer and problem.message.startswith(message)


def test_a_tree_by_its_type_or_its_nodes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a fair coin between 3 and 4: 7/2
    coin = {"kind": "chance", "children": [3, 4]}
    out = solve(tmp_path, coin, capsys)
    assert (out["type"], out["value"], out["value_exact"]) == ("expectimax", 3.5, "7/2")
    out = solve(tmp_path, {"type": "alphabeta", "tree": [[3, 5], [2, 9]]}, capsys)
    # after MIN's 2 under root.1, its 9 cannot matter: root.1.1 is pruned
    assert (out["type"], out["value"], out["pruned_leaves"]) == ("alphabeta", 3, ["root.1.1"])
