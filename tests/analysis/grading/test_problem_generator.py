"""The problem generator: the same settings draw the same tree, and it meets them; every
statement has a title, the student, and an answer template that gives nothing away."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.answer_key import parse_problem
from analysis.grading.assignments import grade_assignment
from analysis.grading.generator_settings import TREE_TYPES
from analysis.grading.problem_generator import ProblemSettings, generate_problem
from analysis.grading.rubric import Rubric
from games.errors import InvalidInputError
from tests.analysis.grading.full_marks import assert_full_marks
from tests.reference import alpha_beta_leaves, leaf_names, minimax_value


def test_generator_is_deterministic_and_meets_constraints() -> None:
    settings = ProblemSettings(
        depth=3, branching=(2, 3), seed=5, min_pruned_leaves=4, no_ties=True, unique_best_move=True
    )
    first, again = generate_problem(settings), generate_problem(settings)
    assert first == again
    tree = first.problem["tree"]
    _, evaluated = alpha_beta_leaves(tree, True)
    assert len(leaf_names(tree)) - len(evaluated) >= 4

    def distinct(node: Any, maximizing: bool) -> bool:
        if not isinstance(node, list):
            return True
        values = [minimax_value(kid, not maximizing) for kid in node]
        return len(set(values)) == len(values) and all(
            distinct(kid, not maximizing) for kid in node
        )

    assert distinct(tree, True)


def test_minimax_problem_and_its_key() -> None:
    # depth 1 with one value: every leaf is 4, so the root is 4 whatever the draw
    made = generate_problem(ProblemSettings(type="minimax", depth=1, values=(4, 4), seed=1))
    assert made.problem["type"] == "minimax"
    assert made.answer["value"] == 4
    assert made.attempts == 1


def test_impossible_settings_refused_before_drawing() -> None:
    # a minimax problem prunes nothing, so asking for pruned leaves can never be met
    with pytest.raises(InvalidInputError) as error:
        generate_problem(ProblemSettings(type="minimax", min_pruned_leaves=1))
    assert error.value.errors[0].parameter == "min_pruned_leaves"


KINDS = [
    ProblemSettings(type=name)
    for name in ("minimax", "alphabeta", "expectimax", "maxn", "lottery", "preferences")
] + [
    ProblemSettings(type="eu-consistency"),
    *[ProblemSettings(type="matrix", matrix=kind) for kind in ("pure", "mixed", "dominance")],
]


@settings(max_examples=25, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    seed=st.integers(0, 2**63 - 1),
    student=st.none() | st.text(min_size=1, max_size=12),
)
def test_same_seed_same_problem_and_full_marks(
    kind: ProblemSettings, seed: int, student: str | None
) -> None:
    chosen = dataclasses.replace(kind, seed=seed, student=student)
    first, again = generate_problem(chosen), generate_problem(chosen)
    assert first == again  # figure bytes included
    assert (first.seed, first.student) == (seed, student)
    assert_full_marks(first)


def test_without_a_seed_each_call_draws_its_own() -> None:
    made = [generate_problem(ProblemSettings(type="minimax", depth=4)) for _ in range(4)]
    assert len({m.seed for m in made}) == 4
    again = generate_problem(ProblemSettings(type="minimax", depth=4, seed=made[0].seed))
    assert again == made[0]


def test_grading_needs_no_figure() -> None:
    chosen = ProblemSettings(type="lottery", seed=9)
    drawn, bare = generate_problem(chosen), generate_problem(chosen, figure=False)
    assert bare.figure is None and drawn.figure is not None
    assert (bare.problem, bare.answer) == (drawn.problem, drawn.answer)


@pytest.mark.parametrize(
    ("changes", "parameter"),
    [
        ({"type": "poker"}, "type"),
        ({"seed": -1}, "seed"),
        ({"student": ""}, "student"),
        ({"matrix": "zero-sum", "type": "matrix"}, "matrix"),
        ({"utility": "log", "type": "lottery"}, "utility"),
        ({"type": "lottery", "min_pruned_leaves": 1}, "min_pruned_leaves"),
        ({"root": "chance"}, "root"),
        ({"type": "maxn", "players": 1}, "players"),
    ],
)
def test_settings_out_of_range_name_their_parameter(
    changes: dict[str, Any], parameter: str
) -> None:
    with pytest.raises(InvalidInputError) as error:
        generate_problem(dataclasses.replace(ProblemSettings(), **changes))
    assert error.value.errors[0].parameter == parameter


TITLES = [
    (ProblemSettings(type="minimax"), "Minimax"),
    (ProblemSettings(type="alphabeta", min_pruned_leaves=1), "Alpha-beta pruning"),
    (ProblemSettings(type="expectimax"), "Expectimax"),
    (ProblemSettings(type="maxn"), "Max^n with three players"),
    (ProblemSettings(type="maxn", players=2), "Max^n with two players"),
    (ProblemSettings(type="matrix"), "Nash equilibria of a normal-form game"),
    (ProblemSettings(type="matrix", matrix="mixed"), "Mixed-strategy Nash equilibrium"),
    (
        ProblemSettings(type="matrix", matrix="dominance"),
        "Iterated elimination of dominated strategies",
    ),
    (ProblemSettings(type="lottery"), "Lottery and attitude to risk"),
    (ProblemSettings(type="preferences"), "Preferences and the axioms of expected utility"),
    (ProblemSettings(type="eu-consistency"), "Consistent with expected utility?"),
]


def answer_template(statement: str) -> Any:
    """The JSON block that ends a statement."""
    found = re.search(r"\n```json\n(.*)\n```\n\Z", statement, re.DOTALL)
    assert found is not None, statement[-300:]
    return json.loads(found.group(1))


def blank(value: Any) -> bool:
    """A placeholder: null, an empty list, or an object of nulls."""
    if isinstance(value, dict):
        return all(entry is None for entry in value.values())
    return value is None or value == []


@pytest.mark.parametrize(("kind", "title"), TITLES)
def test_statement_has_a_title_the_student_and_a_template_to_fill_in(
    kind: ProblemSettings, title: str
) -> None:
    made = generate_problem(dataclasses.replace(kind, seed=12, student="bob"))
    lines = made.statement.splitlines()
    assert lines[:4] == [f"## {title}", "", "Variant for student `bob` (seed 12).", ""]
    template = answer_template(made.statement)
    # every field the key gives (the fields asked), in its order, none with a key's value
    assert list(template) == list(made.answer)
    assert all(blank(value) for value in template.values()), template
    if made.problem["type"] in TREE_TYPES:
        tree = parse_problem(made.problem).tree
        internal = [tree.ids[node] for node, kids in enumerate(tree.children) if kids]
        # every internal node, whichever the key holds: the pruned are not given away
        assert list(template["nodes"]) == internal
        assert set(made.answer["nodes"]) <= set(internal)
    # without a student there is no student line, and the same problem otherwise
    alone = generate_problem(dataclasses.replace(kind, seed=12))
    assert alone.statement.splitlines()[:2] == [f"## {title}", ""]
    assert "Variant for student" not in alone.statement


@pytest.mark.parametrize(("kind", "title"), TITLES)
def test_the_untouched_template_scores_nothing(kind: ProblemSettings, title: str) -> None:
    template = dataclasses.replace(kind, seed=12)
    made = generate_problem(dataclasses.replace(template, student="bob"))
    grade = grade_assignment(template, {"bob": answer_template(made.statement)}, Rubric())["bob"]
    assert grade.max_score > 0
    if kind.matrix == "mixed" and kind.type == "matrix":
        # the statement itself says there is no pure equilibrium: [] is that answer
        assert [item.field for item in grade.items if item.score] == ["pure_equilibria"]
    else:
        assert grade.score == 0, grade


@pytest.mark.parametrize(
    "student",
    ["a`b", "``", "`x", " a ", "a\n# heading", "<b>bold</b>", "a\u202eb", "*x* [l](u) | \\"],
)
def test_any_student_id_is_shown_verbatim_on_its_line(student: str) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    made = generate_problem(ProblemSettings(type="minimax", depth=1, seed=12, student=student))
    line = made.statement.splitlines()[2]
    assert line.startswith("Variant for student ") and line.endswith(" (seed 12).")
    blocks = markdown_it.MarkdownIt("commonmark").parse(line)
    assert [block.type for block in blocks] == ["paragraph_open", "inline", "paragraph_close"]
    spans = [t.content for t in blocks[1].children if t.type == "code_inline"]
    # what cannot print (a line break, a direction mark) is shown as its escape
    shown = student.replace("\n", "\\n").replace("\u202e", "\\u202e")
    assert spans == [shown]
