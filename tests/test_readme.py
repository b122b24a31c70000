"""The README quickstart and the docs are executable: each curl example runs against a live
server and must print the JSON shown after it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from api import create_app

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


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


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
