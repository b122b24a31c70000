"""Published and hand-derived trees with their known answers (sources in golden/trees.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis.trees.alpha_beta import alpha_beta
from analysis.trees.minimax import minimax
from games.trees.parser import parse_tree

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "golden" / "trees.json").read_text()
)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_minimax_matches_published_answer(case: dict[str, Any]) -> None:
    tree = parse_tree(case["tree"], root=case["root"])
    result = minimax(tree)
    assert result.value == case["value"]
    assert [tree.ids[i] for i in result.best_moves] == case["best_moves"]
    assert [tree.ids[i] for i in result.principal_variation] == case["principal_variation"]


@pytest.mark.parametrize("convention", ["equality", "strict"])
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_alpha_beta_matches_published_answer(case: dict[str, Any], convention: str) -> None:
    tree = parse_tree(case["tree"], root=case["root"])
    result = alpha_beta(tree, prune_on_equality=convention == "equality")
    assert result.value == case["value"]
    assert tree.ids[result.best_move] == case["best_moves"][0]
    assert [tree.ids[i] for i in result.principal_variation] == case["principal_variation"]
    assert [tree.values[i] for i in result.pruned_leaves] == case["pruned_leaf_values"][convention]
    assert [tree.ids[i] for i in result.pruned] == case["pruned"][convention]
