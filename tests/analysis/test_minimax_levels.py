"""The level-by-level numpy minimax agrees with the exact loop and a textbook oracle."""

from __future__ import annotations

import random
from typing import Any

import pytest

from analysis.trees.backup import back_up
from analysis.trees.horizon import horizon
from analysis.trees.minimax import _levels_numpy, minimax
from games.trees.parser import parse_tree
from tests.reference import minimax_value


def random_tree(rng: random.Random, depth: int, leaf_chance: float) -> Any:
    if depth == 0 or (depth < 6 and rng.random() < leaf_chance):
        return rng.randint(-3, 3)  # a narrow range, so ties are everywhere
    return [random_tree(rng, depth - 1, leaf_chance) for _ in range(rng.randint(1, 5))]


@pytest.mark.parametrize("seed", range(12))
def test_numpy_levels_match_the_loop_and_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_tree(rng, depth=7, leaf_chance=0.15)
    root = "min" if seed % 2 else "max"
    tree = parse_tree(raw, root=root)
    seen = horizon(tree, None)
    covered = len(tree)
    fast = _levels_numpy(tree, seen, covered, smallest=0)
    assert fast is not None
    assert fast == back_up(tree, seen, None)
    assert minimax(tree).value == minimax_value(raw, maximizing=root == "max")


def test_numpy_levels_with_a_depth_cutoff() -> None:
    rng = random.Random(99)

    def with_evals(node: Any) -> Any:
        if isinstance(node, list):
            return {"eval": rng.randint(-9, 9), "children": [with_evals(kid) for kid in node]}
        return {"value": node}

    tree = parse_tree(with_evals(random_tree(rng, depth=8, leaf_chance=0.1)))
    for depth in (3, 5):
        seen = horizon(tree, depth)
        covered = sum(1 for d in tree.depths if d <= depth)
        fast = _levels_numpy(tree, seen, covered, smallest=0)
        assert fast is not None
        assert fast == back_up(tree, seen, None)


def test_big_integers_and_fractions_use_the_exact_loop() -> None:
    raw = [[2**70, 1] * 3000, ["1/3", 0] * 3000]
    tree = parse_tree(raw)
    assert _levels_numpy(tree, horizon(tree, None), len(tree), smallest=0) is None
    assert minimax(tree).value == 1
