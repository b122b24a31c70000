"""Tree problems: the key written as an answer, checked against hand derivations and the
independent oracle of ``tests/reference.py``; every seed's key scores full marks."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.answer_key import correct_key, parse_problem
from analysis.grading.generator_settings import ProblemSettings
from analysis.grading.problem_generator import generate_problem
from analysis.grading.tree_generator import tree_answer, tree_statement
from tests.analysis.grading.full_marks import assert_full_marks
from tests.reference import alpha_beta_leaves, leaf_names, minimax_value

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}


def test_aima_key_as_an_answer() -> None:
    problem = parse_problem(AIMA)
    key, _ = correct_key(problem)
    answer = tree_answer(problem.tree, key)
    # AIMA Fig. 5.2: root 3 by root.0; root.1 stops at 2 and skips its last two leaves
    assert answer["value"] == 3
    assert answer["best_move"] == "root.0"
    assert answer["nodes"] == {"root": 3, "root.0": 3, "root.1": 2, "root.2": 2}
    assert answer["pruned_leaves"] == ["root.1.1", "root.1.2"]
    assert answer["principal_variation"] == ["root.0", "root.0.0"]


def _maxn(node: Any, player: int, players: int) -> tuple[int, ...]:
    if not isinstance(node[0], list):
        return tuple(node)
    kids = [_maxn(kid, (player + 1) % players, players) for kid in node]
    return max(kids, key=lambda utilities: utilities[player])  # first maximum: leftmost


def _expectimax(node: dict[str, Any], maximizing: bool) -> Fraction:
    if "value" in node:
        return Fraction(node["value"])
    if node.get("kind") == "chance":
        return sum(
            (Fraction(kid["p"]) * _expectimax(kid, not maximizing) for kid in node["children"]),
            Fraction(0),
        )
    # a MAX/MIN node's children are chance nodes; the mover below them is the other one
    values = [_expectimax(kid, maximizing) for kid in node["children"]]
    return max(values) if maximizing else min(values)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), equality=st.booleans(), root=st.sampled_from(["max", "min"]))
def test_alpha_beta_key_matches_the_oracle(seed: int, equality: bool, root: str) -> None:
    made = generate_problem(
        ProblemSettings(type="alphabeta", seed=seed, prune_on_equality=equality, root=root)
    )
    tree = made.problem["tree"]
    value, evaluated = alpha_beta_leaves(tree, equality, root == "max")
    assert made.answer["value"] == value == minimax_value(tree, root == "max")
    assert made.problem["questions"] == [
        "value", "best_move", "nodes", "principal_variation", "pruned_leaves"
    ]  # fmt: skip
    pruned = [leaf for leaf in leaf_names(tree) if leaf not in evaluated]
    assert made.answer["pruned_leaves"] == pruned
    assert_full_marks(made)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4))
def test_maxn_key_matches_a_hand_search(seed: int, players: int) -> None:
    made = generate_problem(ProblemSettings(type="maxn", seed=seed, players=players))
    assert made.answer["value"] == list(_maxn(made.problem["tree"], 0, players))
    assert_full_marks(made)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), depth=st.integers(1, 4))
def test_expectimax_key_matches_exact_averages(seed: int, depth: int) -> None:
    made = generate_problem(ProblemSettings(type="expectimax", seed=seed, depth=depth))
    expected = _expectimax(made.problem["tree"], True)
    assert Fraction(made.answer["value"]) == expected
    assert_full_marks(made)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), branching=st.integers(1, 4), depth=st.integers(1, 3))
def test_minimax_key_and_a_single_branching(seed: int, branching: int, depth: int) -> None:
    made = generate_problem(
        ProblemSettings(type="minimax", seed=seed, branching=(branching, branching), depth=depth)
    )
    tree = made.problem["tree"]
    assert len(leaf_names(tree)) == branching**depth
    assert made.answer["value"] == minimax_value(tree, True)
    assert_full_marks(made)


def test_statement_lists_every_leaf_and_the_questions() -> None:
    made = generate_problem(ProblemSettings(type="alphabeta", seed=4, depth=2, branching=(3, 3)))
    assert made.problem["tree"] == [[3, 12, 15], [2, 2, 0], [17, 9, 1]]
    text = made.statement
    assert "`root.1.2`: 0" in text and "`pruned_leaves`" in text and "alpha >= beta" in text
    tree = parse_problem(made.problem).tree
    # the nine leaves, and `root.0` as the example of a move
    assert tree_statement(ProblemSettings(type="minimax"), tree).count("`root.") == 9 + 1
    # the figure is the tree as posted: every leaf value, no value inside
    assert made.figure is not None and made.figure.startswith("<svg")
    assert 'data-id="root.1.2"' in made.figure
