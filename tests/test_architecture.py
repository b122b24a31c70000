"""The layout keeps its promises: the core is a library without the web, and imports flow one way.

STYLE.md: data flows one way (``api`` -> ``games``/``analysis``/``utility``), views share helpers
rather than importing one another, and no import hides inside a function to dodge a cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ("games", "analysis", "utility")


def modules_of(package: str) -> list[str]:
    """Every module of ``package``, dotted, found by walking its folder."""
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def imported_modules(path: Path) -> list[tuple[str, bool]]:
    """``(module, at top level)`` for every import statement of a source file."""
    found: list[tuple[str, bool]] = []
    pending: list[tuple[ast.AST, bool]] = [(ast.parse(path.read_text(), str(path)), True)]
    while pending:
        node, at_top = pending.pop()
        if isinstance(node, ast.Import):
            found.extend((alias.name, at_top) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, at_top))
        inside = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        pending.extend((child, at_top and not inside) for child in ast.iter_child_nodes(node))
    return found


def test_core_imports_neither_flask_nor_the_api() -> None:
    modules = [m for package in CORE for m in modules_of(package)]
    assert len(modules) > 60, modules  # the walk really found the packages
    code = "; ".join(f"import {m}" for m in modules)
    code += (
        "; import sys; bad = sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'api'))"
    )
    code += "; assert not bad, bad"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize("package", CORE)
def test_core_source_never_names_the_web_layer(package: str) -> None:
    for path in (ROOT / package).rglob("*.py"):
        for module, _ in imported_modules(path):
            assert module.split(".")[0] not in ("flask", "api", "marshmallow"), (path, module)


@pytest.mark.parametrize("package", (*CORE, "api"))
def test_no_import_hides_inside_a_function(package: str) -> None:
    for path in (ROOT / package).rglob("*.py"):
        for module, at_top in imported_modules(path):
            ours = module.split(".")[0] in (*CORE, "api")
            assert at_top or not ours, (
                f"{path.relative_to(ROOT)} imports {module} inside a function"
            )


def test_views_import_no_other_view() -> None:
    for path in (ROOT / "api" / "views").glob("*.py"):
        for module, _ in imported_modules(path):
            assert not module.startswith("api.views"), f"{path.name} imports the view {module}"


def test_games_import_no_algorithm() -> None:
    """Models and parsers come first: ``games`` never reaches up to ``analysis`` or ``utility``."""
    for path in (ROOT / "games").rglob("*.py"):
        for module, _ in imported_modules(path):
            assert module.split(".")[0] not in ("analysis", "utility"), (path, module)


def modules_imported_by_tests() -> set[str]:
    """Every module a test file names in an import, with ``from pkg import module`` resolved."""
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_every_core_module_is_imported_by_a_test() -> None:
    """Each module of the core has tests of its own: some test file imports it directly."""
    modules = {
        name
        for package in CORE
        for name in modules_of(package)
        if name not in CORE and not name.endswith(".__main__")
    }
    packages = {name for name in modules if (ROOT / name.replace(".", "/")).is_dir()}
    imported = modules_imported_by_tests()
    untested = sorted(modules - packages - imported)
    assert not untested, f"no test file imports {untested}"
