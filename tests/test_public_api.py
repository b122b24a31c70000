"""The documented public API of each core package: every name it lists loads, and is what
the module that defines it holds (the lazy packages resolve names on first use)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import analysis
import games


@pytest.mark.parametrize("package", ["games", "analysis", "analysis.search", "utility"])
def test_every_public_name_loads(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__, package
    for name in module.__all__:
        value = getattr(module, name)
        home = getattr(value, "__module__", None)
        if home is not None and home.startswith(("games", "analysis", "utility")):
            assert getattr(importlib.import_module(home), name) is value, (package, name)


def test_a_game_from_the_catalogue_solves_through_the_public_names() -> None:
    nim = games.make_game("nim", {"piles": [1, 2, 3]})
    # 1 xor 2 xor 3 = 0: the player to move loses (Bouton)
    assert analysis.solve_game(nim, nim.initial_state()).value == -1
    assert set(games.CATALOGUE) == {"tic_tac_toe", "connect_four", "hexapawn", "nim", "pig"}


def test_the_search_package_exports_its_engine_without_loading_it() -> None:
    """``from analysis.search import solve_game`` works, and importing a light module of the
    package does not load the engine (SciPy, the compiled kernel)."""
    code = (
        "import sys, analysis.search.scores; "
        "assert 'analysis.search.solve' not in sys.modules, 'eager'; "
        "assert 'scipy' not in sys.modules, 'scipy'; "
        "from analysis.search import solve_game, best_move, GameSolution, MoveChoice; "
        "from analysis.search import solve as module; "
        "assert solve_game is module.solve_game and best_move is module.best_move"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
