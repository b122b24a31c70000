"""``arbiter solve`` on a game file with ``include`` and ``arithmetic``, as the request of
``POST /v1/matrices/analyze`` takes them: correlated equilibria of Chicken (max welfare
21/4 each, derived in tests/analysis/equilibria/test_correlated.py) and errors located in
the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.errors import InvalidInputError, LimitExceededError
from tests.analysis.cli.test_solve import solve
from tests.shell_examples import ROOT

CHICKEN = {"A": [[6, 2], [7, 0]], "B": [[6, 7], [2, 0]], "include": ["correlated_equilibria"]}


def test_correlated_equilibria_of_chicken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = solve(tmp_path, CHICKEN, capsys)
    assert set(out) == {"type", "players", "shape", "labels", "correlated_equilibria", "notes"}
    best = out["correlated_equilibria"]["max_welfare"]
    assert best["payoffs_exact"] == ["21/4", "21/4"]
    assert [e["probability_exact"] for e in best["distribution"]] == ["1/2", "1/4", "1/4"]


def test_float_arithmetic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = solve(tmp_path, {**CHICKEN, "arithmetic": "float"}, capsys)
    assert out["correlated_equilibria"]["max_welfare"]["exact"] is False


def test_without_include_the_default_parts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {key: value for key, value in CHICKEN.items() if key != "include"}
    out = solve(tmp_path, body, capsys)
    assert "correlated_equilibria" not in out and "pure_equilibria" in out


@pytest.mark.parametrize(
    ("options", "pointer"),
    [
        ({"include": ["nash"]}, "/include/0"),
        ({"include": "plot"}, "/include"),
        ({"arithmetic": "fast"}, "/arithmetic"),
    ],
)
def test_bad_options_are_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: dict[str, Any], pointer: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve(tmp_path, {**CHICKEN, **options}, capsys)
    assert caught.value.errors[0].pointer.endswith(f"input.json#{pointer}")


def test_too_large_a_game_points_at_include(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zeros = [[0] * 60] * 60
    with pytest.raises(LimitExceededError) as caught:
        solve(tmp_path, {"A": zeros, "B": zeros, "include": ["correlated_equilibria"]}, capsys)
    assert caught.value.errors[0].pointer.endswith("input.json#/include")


def test_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(CHICKEN))
    done = subprocess.run(
        [sys.executable, "-m", "analysis.cli", "solve", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert (
        json.loads(done.stdout)["correlated_equilibria"]["min_welfare"]["welfare_exact"] == "36/5"
    )
