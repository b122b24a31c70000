"""The README quickstart and the docs are executable: each curl example runs against a live
server and must print the JSON shown after it; each Python example runs as a doctest."""

from __future__ import annotations

import doctest
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def examples(*pages: Path) -> list[tuple[str, str]]:
    pairs = []
    for page in pages or (README,):
        blocks = BLOCK.findall(page.read_text())
        for (kind, body), (next_kind, expected) in zip(blocks, blocks[1:], strict=False):
            if kind == "sh" and body.lstrip().startswith("curl") and next_kind == "json":
                pairs.append((body, expected))
    return pairs


def test_readme_has_examples() -> None:
    assert len(examples()) >= 4


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize(("command", "expected"), examples(README, *DOCS))
def test_readme_example(base_url: str, command: str, expected: str) -> None:
    command = command.replace("http://localhost:8000", base_url)
    out = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, check=True, timeout=30
    )
    assert json.loads(out.stdout) == json.loads(expected)


def python_examples(*pages: Path) -> list[tuple[str, str]]:
    """``(page, source)``: the ``python`` blocks of a page written as interactive sessions,
    in order, as one session (a later block uses the names of an earlier one)."""
    found = []
    for page in pages:
        blocks = [body for kind, body in BLOCK.findall(page.read_text()) if kind == "python"]
        sessions = [body for body in blocks if body.lstrip().startswith(">>>")]
        if sessions:
            found.append((page.name, "\n".join(sessions)))
    return found


def test_readme_has_python_examples() -> None:
    [(_, source)] = python_examples(README)
    assert source.count(">>> ") >= 15


@pytest.mark.parametrize(("name", "source"), python_examples(README, *DOCS))
def test_python_example(name: str, source: str) -> None:
    test = doctest.DocTestParser().get_doctest(source, {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{name}: see the doctest report above"


def test_every_picture_the_docs_show_exists() -> None:
    for page in (README, *DOCS):
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text()):
            assert (page.parent / target).is_file(), f"{page.name} shows a missing {target}"
