"""Grading against the independent textbook oracle in ``tests/reference.py``.

A student who follows the textbook (or a mistaken convention, replayed with the
oracle on a transformed tree) writes the root value, the evaluated leaves and
the pruned leaves; the grader must give full marks to the first and name the
convention of the others whenever their answer differs from the right one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.problem_generator import ProblemSettings, generate_problem
from analysis.grading.rubric import parse_rubric
from analysis.grading.tree_problems import Grader
from games.errors import InvalidInputError
from tests.reference import alpha_beta_leaves, leaf_names, minimax_value
from tests.strategies import shorthand_trees

ORDERED = parse_rubric({"sets": "ordered"})


def student(tree: Any, equality: bool, maximizing: bool = True) -> dict[str, Any]:
    value, evaluated = alpha_beta_leaves(tree, equality, maximizing)
    return {
        "value": value,
        "evaluated_leaves": evaluated,
        "pruned_leaves": [name for name in leaf_names(tree) if name not in set(evaluated)],
    }


ASKED = ["value", "pruned_leaves", "evaluated_leaves"]
"""What the student of these tests answers."""


def mirrored(tree: Any) -> Any:
    return [mirrored(kid) for kid in reversed(tree)] if isinstance(tree, list) else tree


def mirror_name(tree: Any, name: str) -> str:
    """The id in ``tree`` of the node called ``name`` in ``mirrored(tree)``."""
    node, out = tree, ["root"]
    for step in name.split(".")[1:]:
        position = len(node) - 1 - int(step)
        out.append(str(position))
        node = node[position]
    return ".".join(out)


def codes(grade: Any) -> set[str]:
    return {d.code for d in grade.diagnosis}


@settings(max_examples=150, deadline=None)
@given(shorthand_trees(), st.booleans())
def test_textbook_answer_gets_full_marks(tree: Any, equality: bool) -> None:
    grader = Grader.from_json(
        {"type": "alphabeta", "tree": tree, "prune_on_equality": equality, "questions": ASKED}
    )
    grade = grader.grade(student(tree, equality), ORDERED)
    assert grade.score == grade.max_score
    assert grade.diagnosis == []


@settings(max_examples=150, deadline=None)
@given(shorthand_trees(), st.booleans())
def test_other_pruning_convention_is_named(tree: Any, equality: bool) -> None:
    right, wrong = student(tree, equality), student(tree, not equality)
    grader = Grader.from_json(
        {"type": "alphabeta", "tree": tree, "prune_on_equality": equality, "questions": ASKED}
    )
    grade = grader.grade(wrong)
    if wrong == right:
        assert grade.score == grade.max_score
    else:
        assert ("strict_pruning" if equality else "prune_on_equality") in codes(grade)


@settings(max_examples=150, deadline=None)
@given(shorthand_trees())
def test_right_to_left_is_named(tree: Any) -> None:
    right = student(tree, True)
    value, evaluated = alpha_beta_leaves(mirrored(tree), True)
    names = [mirror_name(tree, name) for name in evaluated]
    wrong = {
        "value": value,
        "evaluated_leaves": names,
        "pruned_leaves": [name for name in leaf_names(tree) if name not in set(names)],
    }
    grade = Grader.from_json({"type": "alphabeta", "tree": tree, "questions": ASKED}).grade(wrong)
    if set(wrong["pruned_leaves"]) != set(right["pruned_leaves"]):
        assert "right_to_left" in codes(grade)


@settings(max_examples=150, deadline=None)
@given(shorthand_trees())
def test_min_root_taken_for_max_is_named(tree: Any) -> None:
    right, wrong = student(tree, True), student(tree, True, maximizing=False)
    grade = Grader.from_json({"type": "alphabeta", "tree": tree, "questions": ASKED}).grade(wrong)
    # the evidence: entries where the two answers differ (the diagnosis needs two)
    differ = int(wrong["value"] != right["value"]) + sum(
        len(set(wrong[name]) ^ set(right[name])) for name in ("pruned_leaves", "evaluated_leaves")
    )
    if differ >= 2:
        assert "wrong_root_player" in codes(grade)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3), st.booleans())
def test_generated_problems_meet_their_constraints(seed: int, depth: int, ties: bool) -> None:

    settings_ = ProblemSettings(
        depth=depth, seed=seed, values=(0, 30), unique_best_move=True, no_ties=ties
    )
    try:
        made = generate_problem(settings_)
    except InvalidInputError:
        return  # constraints unmet within the attempts: refused, never violated
    tree = made.problem["tree"]
    root_values = [minimax_value(kid, False) for kid in tree]
    assert root_values.count(max(root_values)) == 1
    assert made.answer["value"] == minimax_value(tree)
    assert made == generate_problem(settings_)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_generated_chance_probabilities(seed: int) -> None:

    made = generate_problem(
        ProblemSettings(type="expectimax", depth=3, seed=seed, denominators=(2, 3, 4))
    )
    stack = [made.problem["tree"]]
    while stack:
        node = stack.pop()
        kids = node.get("children", [])
        stack.extend(kids)
        if node.get("kind") == "chance":
            shares = [Fraction(kid["p"]) for kid in kids]
            assert sum(shares) == 1
            assert all(share.denominator in (1, 2, 3, 4) for share in shares)
