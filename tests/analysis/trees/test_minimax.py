"""Minimax: published answers, the textbook search and its kernel against an independent
oracle, and the refusal of chance nodes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from analysis.trees.expectimax import expectimax
from analysis.trees.minimax import minimax
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


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "textbook"])
def test_minimax_matches_the_oracle_on_random_trees(seed: int, compiled: bool) -> None:
    rng = random.Random(seed)
    raw = random_tree(rng, depth=7, leaf_chance=0.15)
    root = "min" if seed % 2 else "max"
    tree = parse_tree(raw, root=root)
    assert minimax(tree, compiled=compiled).value == minimax_value(raw, maximizing=root == "max")


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "textbook"])
def test_big_integers_and_fractions_are_compared_exactly(compiled: bool) -> None:
    raw = [[2**70, 1] * 3000, ["1/3", 0] * 3000]
    assert minimax(parse_tree(raw), compiled=compiled).value == 1


def test_a_chain_deeper_than_python_s_stack_is_searched() -> None:
    nodes = [{"id": f"n{i}", "children": [f"n{i + 1}"]} for i in range(20_000)]
    nodes.append({"id": "n20000", "value": 7})
    tree = parse_tree({"root": "n0", "nodes": nodes})
    assert minimax(tree, compiled=False).value == 7


def test_minimax_endpoint_refuses_chance_nodes() -> None:
    tree = parse_tree(max_over_chance([1, 2]))
    with pytest.raises(InvalidInputError) as caught:
        minimax(tree)
    assert caught.value.errors[0].pointer == "/tree/children/0/kind"


@given(shorthand_trees())
def test_the_trace_is_expectimax_s_on_a_tree_without_chance(raw: Any) -> None:
    # expectimax is minimax plus chance nodes: without them both record the same steps,
    # and a traced search values every node as the untraced one does
    tree = parse_tree(raw)
    traced = minimax(tree, trace=True)
    assert traced.trace == expectimax(tree, trace=True).trace
    assert traced.values == minimax(tree).values
    assert sum(event.event == "evaluate" for event in traced.trace or []) == len(tree.leaves())


@given(shorthand_trees())
def test_minimax_choices_survive_monotone_maps(raw: Any) -> None:
    def cubed(node: Any) -> Any:
        return [cubed(kid) for kid in node] if isinstance(node, list) else node**3 + 2 * node

    before = minimax(parse_tree(raw))
    after = minimax(parse_tree(cubed(raw)))
    assert after.value == before.value**3 + 2 * before.value
    assert after.best_moves == before.best_moves
