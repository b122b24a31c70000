"""The documented public API of each core package: every name it lists loads, and is what
the module that defines it holds (the lazy packages resolve names on first use)."""

from __future__ import annotations

import importlib

import pytest

import analysis
import games


@pytest.mark.parametrize("package", ["games", "analysis", "utility"])
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
