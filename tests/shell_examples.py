"""Running the shell examples of the docs: ``arbiter`` on the ``PATH`` meaning this tree's
``python -m analysis.cli``, standard output and standard error read together."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def arbiter_environment(folder: Path) -> dict[str, str]:
    """Write ``folder/bin/arbiter`` and return an environment with it first on the ``PATH``."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "arbiter"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m analysis.cli "$@"\n')
    wrapper.chmod(0o755)
    return {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8"}


def run_shell(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``command`` with bash in ``cwd``; its standard error is merged into ``stdout``."""
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
