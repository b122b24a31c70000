"""The matrix-game core must not import the web layer (STYLE.md: data flows one way)."""

from __future__ import annotations

import subprocess
import sys


def test_matrix_core_imports_no_flask() -> None:
    modules = [
        "games.matrix",
        "games.matrix_format",
        "analysis.matrix_report",
        "analysis.pure_equilibria",
        "analysis.dominance",
        "analysis.zero_sum",
        "analysis.mixed_equilibria",
        "analysis.lemke_howson",
        "analysis.deviation",
        "analysis.indifference",
        "analysis.matrix_svg",
        "analysis.rational_linalg",
    ]
    code = "; ".join(f"import {m}" for m in modules)
    code += "; import sys; assert 'flask' not in sys.modules and 'api' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
