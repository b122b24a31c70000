"""``arbiter`` behaves like a Unix tool: one line on stderr per error, a documented exit
status, no traceback, quiet on a closed pipe, ``--version`` and ``--help``."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError
from pathlib import Path

import pytest

import analysis.cli.trees
from analysis.cli import main, program
from analysis.cli.error_handler import (
    EXIT_CLOSED_PIPE,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
)

ROOT = Path(__file__).resolve().parents[3]
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def arbiter(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "analysis.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )


def ternary(levels: int) -> object:
    tree: object = 1
    for _ in range(levels):
        tree = [tree, tree, tree]
    return tree


@pytest.fixture
def aima(tmp_path: Path) -> Path:
    path = tmp_path / "aima.json"
    path.write_text(json.dumps(AIMA))
    return path


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.rstrip("\n")


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text(json.dumps(ternary(8)))  # 9,841 nodes: about 800 kB of answer
    script = (
        f'"{sys.executable}" -m analysis.cli minimax "{big}" | head -c 10 > /dev/null; '
        'exit "${PIPESTATUS[0]}"'
    )
    run = subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    assert (run.returncode, run.stderr) == (EXIT_CLOSED_PIPE, "")


def test_closed_pipe_in_process(
    aima: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class ClosedPipe:
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["minimax", str(aima)]) == EXIT_CLOSED_PIPE
    assert capsys.readouterr().err == ""


def test_missing_file_and_bad_json_in_a_subprocess(tmp_path: Path) -> None:
    run = arbiter("minimax", "missing.json", cwd=tmp_path)
    assert run.returncode == EXIT_INPUT and run.stdout == ""
    assert one_line(run.stderr) == "arbiter: missing.json: No such file or directory"
    (tmp_path / "bad.json").write_text('{"tree": [1,\n  2,,]}')
    run = arbiter("minimax", "bad.json", cwd=tmp_path)
    assert run.returncode == EXIT_INPUT
    assert one_line(run.stderr) == "arbiter: bad.json:2:5: not valid JSON: Expecting value"


def test_version() -> None:
    run = arbiter("--version")
    assert (run.returncode, run.stdout, run.stderr) == (0, f"arbiter {program.version()}\n", "")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert program.VERSION == pyproject["project"]["version"]


def test_version_without_the_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise PackageNotFoundError(name)

    monkeypatch.setattr(program, "distribution_version", not_installed)
    assert program.version() == program.VERSION


def test_help_lists_every_command() -> None:
    run = arbiter("--help")
    assert run.returncode == 0 and run.stderr == ""
    listed = " ".join(run.stdout.split())
    for name, command in program.COMMANDS.items():
        assert f"{name} {command.summary}" in listed
    assert "141" in run.stdout  # the exit statuses are listed


@pytest.mark.parametrize(
    ("args", "where"),
    [
        ([], "arbiter: the following arguments are required: COMMAND"),
        (["frobnicate"], "arbiter: COMMAND: invalid choice: 'frobnicate'"),
        (["minimax", "t.json", "--depth", "two"], "arbiter: --depth: invalid int value: 'two'"),
        (["expectimax", "t.json", "--bounds", "0", "x"], "arbiter: --bounds: 'x' is not a number"),
        (["maxn", "t.json", "--tie-break", "up"], "arbiter: --tie-break: invalid choice: 'up'"),
        (["minimax", "t.json", "--time-limit", "-1"], "arbiter: --time-limit: must be 0 or more"),
        (["minimax", "t.json", "--max-nodes", "0"], "arbiter: --max-nodes: must be at least 1"),
        (["minimax", "t.json", "--strict"], "arbiter: minimax: unrecognized arguments: --strict"),
    ],
)
def test_usage_errors(args: list[str], where: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == EXIT_INPUT
    captured = capsys.readouterr()
    assert captured.out == "" and one_line(captured.err).startswith(where)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "{name}: the file is empty; expected JSON"),
        (b'[1,\n [2, "\xff"]]', "{name}:2:7: not UTF-8 text (byte 0xff)"),
        (b"[1, NaN]", "{name}: NaN is not a JSON value"),
        (b"[1, 1e999]", "{name}: the number 1e999 is beyond the range of a double"),
        (b"[" * 5000 + b"]" * 5000, "{name}: JSON nested deeper than the parser's limit"),
        (b'{"tree": [1, "x"]}', "{name}#/tree/1: 'x' is not a number"),
        (b'[1, "x"]', "{name}#/1: 'x' is not a number"),  # a bare tree: pointers into the file
        (b'{"tree": [[1]], "depth": -1}', "{name}#/depth: depth must be >= 0, got -1"),
        (b'{"tree": [[1]], "depth": "2"}', "{name}#/depth: depth must be an integer"),
        (b'{"tree": [[1]], "bounds": [0]}', "{name}#/bounds: bounds is [lo, hi]"),
        (
            b'{"tree": [[1]], "move_ordering": true}',
            "{name}#/move_ordering: move_ordering applies to alphabeta only",
        ),
    ],
)
def test_input_errors_name_the_place(
    tmp_path: Path, content: bytes, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "input.json"
    path.write_bytes(content)
    assert main(["minimax", str(path)]) == EXIT_INPUT
    assert one_line(capsys.readouterr().err).startswith("arbiter: " + message.format(name=path))


def test_a_directory_and_an_option_error(
    tmp_path: Path, aima: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["minimax", str(tmp_path)]) == EXIT_INPUT
    assert one_line(capsys.readouterr().err) == f"arbiter: {tmp_path}: Is a directory"
    # the option, not the file, is at fault
    assert main(["minimax", str(aima), "--depth", "-1"]) == EXIT_INPUT
    assert one_line(capsys.readouterr().err) == "arbiter: --depth: depth must be >= 0, got -1"
    # to maxn the AIMA tree is three leaves of three players' utilities (docs/trees.md)
    assert main(["maxn", str(aima), "--paranoid", "3"]) == EXIT_INPUT
    assert one_line(capsys.readouterr().err) == (
        "arbiter: --paranoid: paranoid player must be between 0 and 2, got 3"
    )


def test_limits_stop_the_computation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.json"
    big.write_text(json.dumps(ternary(8)))
    assert main(["minimax", str(big), "--max-nodes", "9840"]) == EXIT_LIMIT
    err = one_line(capsys.readouterr().err)
    assert err.startswith(f"arbiter: {big}#/") and err.endswith("the limit of 9840 nodes")
    assert main(["minimax", str(big), "--max-nodes", "9841"]) == 0
    assert json.loads(capsys.readouterr().out)["stats"]["nodes"] == 9841
    # the clock is read every few thousand units of work; 10,000 nodes read it
    assert main(["minimax", str(big), "--time-limit", "1e-9"]) == EXIT_LIMIT
    assert one_line(capsys.readouterr().err) == (
        "arbiter: --time-limit: the computation exceeded the time limit of 1e-09 s"
    )


def test_interrupt_and_internal_error(
    aima: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis.cli.trees, "solve_tree", interrupted)
    assert main(["minimax", str(aima)]) == EXIT_INTERRUPTED
    assert one_line(capsys.readouterr().err) == "arbiter: interrupted"

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(analysis.cli.trees, "solve_tree", broken)
    assert main(["minimax", str(aima)]) == EXIT_INTERNAL
    assert one_line(capsys.readouterr().err) == (
        "arbiter: internal error: ZeroDivisionError: division by zero (please report it)"
    )
