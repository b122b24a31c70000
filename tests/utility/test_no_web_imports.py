"""The utility core must not import the web layer (STYLE.md: data flows one way)."""

from __future__ import annotations

import subprocess
import sys


def test_utility_core_imports_no_flask() -> None:
    modules = [
        "lottery",
        "formula",
        "families",
        "function",
        "evaluate",
        "dominance",
        "compare",
        "analysis",
        "eu_consistency",
        "preferences",
        "axioms",
        "elicitation",
        "plot",
    ]
    code = "; ".join(f"import utility.{m}" for m in modules)
    code += "; import sys; assert 'flask' not in sys.modules and 'api' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
