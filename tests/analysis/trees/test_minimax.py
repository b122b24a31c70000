"""Minimax: published answers, the level-by-level numpy minimax against the exact loop and
a textbook oracle, and the refusal of chance nodes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.trees.backup import back_up
from analysis.trees.horizon import horizon
from analysis.trees.minimax import _levels_numpy, minimax
from games.errors import InvalidInputError
from games.trees.parser import parse_tree
from tests.reference import minimax_value
from tests.strategies import shorthand_trees

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "golden" / "trees.json").read_text()
)


def random_tree(rng: random.Random, depth: int, leaf_chance: float) -> Any:
    if depth == 0 or (depth < 6 and rng.random() < leaf_chance):
        return rng.randint(-3, 3)  # a narrow range, so ties are everywhere
    return [random_tree(rng, depth - 1, leaf_chance) for _ in range(rng.randint(1, 5))]


def max_over_chance(*groups: list[int]) -> dict[str, Any]:
    return {"children": [{"kind": "chance", "children": list(group)} for group in groups]}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_minimax_matches_published_answer(case: dict[str, Any]) -> None:
    tree = parse_tree(case["tree"], root=case["root"])
    result = minimax(tree)
    assert result.value == case["value"]
    assert [tree.ids[i] for i in result.best_moves] == case["best_moves"]
    assert [tree.ids[i] for i in result.principal_variation] == case["principal_variation"]


@given(shorthand_trees(max_depth=5), st.sampled_from(["max", "min"]))
def test_numpy_levels_agree_with_the_exact_loop(raw: Any, root: str) -> None:
    tree = parse_tree(raw, root=root)
    seen = horizon(tree, None)
    assert _levels_numpy(tree, seen, len(tree), smallest=0) == back_up(tree, seen, None)


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


def test_minimax_endpoint_refuses_chance_nodes() -> None:
    tree = parse_tree(max_over_chance([1, 2]))
    with pytest.raises(InvalidInputError) as caught:
        minimax(tree)
    assert caught.value.errors[0].pointer == "/tree/children/0/kind"


@given(shorthand_trees())
def test_minimax_choices_survive_monotone_maps(raw: Any) -> None:
    def cubed(node: Any) -> Any:
        return [cubed(kid) for kid in node] if isinstance(node, list) else node**3 + 2 * node

    before = minimax(parse_tree(raw))
    after = minimax(parse_tree(cubed(raw)))
    assert after.value == before.value**3 + 2 * before.value
    assert after.best_moves == before.best_moves
