"""Random garbage answers get no convention code, only "no usual mistake explains this answer".

Every value a search backs up is one of the tree's leaf values, so node values drawn outside
the leaves' range are wrong under the right search and under every mistaken convention:
nodes (4 of the 8 points) can never fit, no convention reaches the 3/4 fit the diagnosis
asks, whatever the random value, move and leaves. Before the margin, such answers were
given codes such as ``right_to_left`` "(5% of the way)".
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.diagnosis import MESSAGES
from analysis.grading.tree_problems import Grader

ASKED = ["value", "best_move", "nodes", "pruned_leaves"]

trees = st.recursive(
    st.integers(0, 20),
    lambda kids: st.lists(kids, min_size=2, max_size=3),
    max_leaves=20,
).filter(lambda tree: isinstance(tree, list) and any(isinstance(kid, list) for kid in tree))


def _ids(tree: Any, name: str = "root") -> tuple[list[str], list[str]]:
    """Internal node ids and leaf ids."""
    if not isinstance(tree, list):
        return [], [name]
    inner, leaves = [name], []
    for i, kid in enumerate(tree):
        more, found = _ids(kid, f"{name}.{i}")
        inner += more
        leaves += found
    return inner, leaves


@st.composite
def garbage(draw: st.DrawFn) -> tuple[Any, dict[str, Any]]:
    tree = draw(trees)
    inner, leaves = _ids(tree)
    far = st.integers(21, 1000) | st.integers(-1000, -1)
    answer = {
        "value": draw(far),
        "best_move": f"root.{draw(st.integers(0, len(tree) - 1))}",
        "nodes": {node: draw(far) for node in inner},
        "pruned_leaves": draw(st.lists(st.sampled_from(leaves), unique=True)),
    }
    return tree, answer


@settings(max_examples=200, deadline=None)
@given(garbage(), st.booleans())
def test_random_garbage_gets_no_convention(drawn: tuple[Any, dict[str, Any]], equal: bool) -> None:
    tree, answer = drawn
    problem = {"type": "alphabeta", "tree": tree, "prune_on_equality": equal, "questions": ASKED}
    grade = Grader.from_json(problem).grade(answer)
    found = [d.code for d in grade.diagnosis]
    assert not set(found) & set(MESSAGES)
    assert found[0] == "no_usual_mistake"
    assert grade.diagnosis[0].message == "no usual mistake explains this answer"
