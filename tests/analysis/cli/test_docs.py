"""docs/cli.md runs as shown: each ``sh`` block followed by an output block is run with
``arbiter`` meaning ``python -m analysis.cli`` (this tree's), in a fresh folder after the
blocks that only create files, and prints what the doc shows (a JSON block: the fields
it lists; a text block: all of standard output and standard error)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.shell_examples import arbiter_environment, run_shell

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "cli.md"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def examples() -> list[tuple[str, str, tuple[str, str]]]:
    """``(setup, command, (kind, expected))`` for every example of the page, in order."""
    blocks = BLOCK.findall(PAGE.read_text())
    found: list[tuple[str, str, tuple[str, str]]] = []
    setup: list[str] = []
    for index, (kind, body) in enumerate(blocks):
        if kind != "sh":
            continue
        following: tuple[str, str] = blocks[index + 1] if index + 1 < len(blocks) else ("", "")
        if following[0] in ("json", "text"):
            found.append(("\n".join(setup), body, following))
        else:
            setup.append(body)
    return found


def test_the_page_has_examples() -> None:
    commands = [command for _, command, _ in examples()]
    assert len(commands) >= 12
    assert all("arbiter" in command for command in commands)


@pytest.mark.parametrize(("setup", "command", "expected"), examples())
def test_example(tmp_path: Path, setup: str, command: str, expected: tuple[str, str]) -> None:
    env = arbiter_environment(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    out = run_shell(f"{setup}\n{command}", work, env).stdout
    kind, shown = expected
    if kind == "text":
        assert out.rstrip("\n") == shown.rstrip("\n")
    else:
        answer, fields = json.loads(out), json.loads(shown)
        assert {name: answer.get(name) for name in fields} == fields
