"""The grading package's imports flow one way: rubric and results at the bottom, the
graders above them, the registry and the reports on top, with no cycle."""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "analysis" / "grading"


LAZY = re.compile(r"analysis\.grading\.(\w+):\w+")
"""A module imported on first use, named as ``module:name`` (the registry's graders, the
generator's families)."""


def grading_imports() -> dict[str, set[str]]:
    """Module name -> the grading modules it imports (anywhere in the file, or on first
    use through a ``module:name`` string)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "analysis.grading."
            ):
                found.add((node.module or "").rsplit(".", 1)[1])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.update(LAZY.findall(node.value))
        graph[path.stem] = found
    return graph


def test_no_cycle() -> None:
    graph = grading_imports()
    assert "tree_problems" in graph and "diagnosis" in graph
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle in analysis.grading: {error.args[1]}") from None
    # the tree grader sits above its diagnosis, which sits above scoring and the results
    assert order.index("results") < order.index("scoring") < order.index("diagnosis")
    assert order.index("diagnosis") < order.index("tree_problems") < order.index("registry")


def test_the_bottom_layers_import_no_grader() -> None:
    graph = grading_imports()
    assert graph["rubric"] <= {"answer_key"}
    assert graph["results"] <= {"rubric"}
    assert "tree_problems" not in graph["diagnosis"]
