"""The diagnosis of mistaken conventions, on hand-built wrong answers.

AIMA Fig. 5.2 ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`` (MAX root, pruning on equality):
left to right, root.0 = 3 sets alpha = 3; root.1 meets 2 <= 3 and prunes root.1.1 and
root.1.2; root.2 sees 14, 5, 2 and returns 2; the value is 3. Each mistaken search
below is worked out by hand in a comment.
"""

from __future__ import annotations

from typing import Any

from analysis.grading.answer_key import correct_key, parse_problem
from analysis.grading.answers import parse_answer
from analysis.grading.diagnosis import MESSAGES, diagnose, first_departure, mistaken_keys
from analysis.grading.registry import grade_one
from analysis.grading.results import Diagnosis
from analysis.grading.rubric import Rubric, parse_rubric
from analysis.grading.tree_problems import Grader

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
LEAVES = [f"root.{i}.{j}" for i in range(3) for j in range(3)]


def grader(tree: Any, kind: str = "alphabeta", **options: Any) -> Grader:
    return Grader.from_json({"type": kind, "tree": tree, **options})


def codes(grade: Any) -> list[str]:
    return [d.code for d in grade.diagnosis]


def test_mistaken_keys_of_aima() -> None:
    # Strict pruning gives the same key (2 < 3 cuts root.1 all the same), so it is left
    # out. A fresh window at each root child prunes nothing; right to left, root.2 gives
    # 2 (alpha = 2), root.1 meets 6, 4, 2 and root.0 meets 8, 12, 3: nothing is cut
    # either, and every leaf is evaluated from the right. With a MIN root the MAX nodes
    # are 12 and 6, and root.2 stops at 14 >= beta = 6: the value is 6, root.2.1 and
    # root.2.2 pruned.
    problem = parse_problem({"type": "alphabeta", "tree": AIMA})
    key, _ = correct_key(problem)
    found = {code: mistake for code, _, mistake in mistaken_keys(problem, key)}
    assert list(found) == ["alpha_not_passed_at_root", "right_to_left", "wrong_root_player"]
    ids = problem.tree.ids
    assert found["alpha_not_passed_at_root"].pruned_leaves == []
    assert found["right_to_left"].pruned_leaves == []
    evaluated = found["right_to_left"].evaluated_leaves or []
    assert [ids[n] for n in evaluated] == LEAVES[::-1]
    assert found["wrong_root_player"].value == 6
    assert [ids[n] for n in found["wrong_root_player"].pruned_leaves or []] == [
        "root.2.1",
        "root.2.2",
    ]


def test_right_to_left_answer_to_aima() -> None:
    # The student evaluated every leaf from the right (value 3 all the same). Graded as
    # ordered lists, only the right-to-left search explains the order: the correct one
    # shares a single leaf of it in order, the fresh-window search too.
    answer = {"value": 3, "evaluated_leaves": LEAVES[::-1]}
    the_grader = grader(AIMA, questions=["value", "evaluated_leaves"])
    rubric = parse_rubric({"sets": "ordered"})
    grade = the_grader.grade(answer, rubric)
    # evaluated_leaves: longest common subsequence 1 of 7 expected and 9 given: 2 * 1 / 16
    (value, evaluated) = grade.items
    assert value.correct and evaluated.score == 2 * 2 / 16
    assert grade.diagnosis == [
        Diagnosis(
            "right_to_left",
            f"your answer matches a search that {MESSAGES['right_to_left']} (fully)",
            hint=f"your answer matches a search that {MESSAGES['right_to_left']}",
        ),
        # root.1.1 and root.1.2 are pruned yet listed as evaluated: the first is named
        Diagnosis(
            "evaluated_pruned_leaf",
            "leaf root.1.1 is pruned, so it is never evaluated; it should not get a value "
            "or be listed as evaluated",
            "root.1.1",
            "you give leaf root.1.1 a value or list it as evaluated; does the search reach it?",
        ),
        # nothing pruned by the student: the first cut of the trace is the departure; the
        # hint names the node, not the values the key has there
        Diagnosis(
            "first_departure",
            "at node root.1, after leaf root.1.0 = 2, MIN has v = 2 <= alpha = 3, so "
            "root.1.1, root.1.2 are never evaluated",
            "root.1",
            "your answer first departs from the right search at node root.1",
        ),
    ]


def test_no_pruning_on_equality() -> None:
    # [[3, 12, 8], [3, 4, 6], [2, 14, 5]], pruning on equality: root.1 meets 3 <= alpha = 3
    # and prunes root.1.1, root.1.2; root.2 meets 2 <= 3 and prunes root.2.1, root.2.2.
    # Pruning only on strict inequality, root.1 reads 3, 4, 6 (3 < 3 is false) and only
    # root.2's two leaves are pruned: the student's answer.
    tree = [[3, 12, 8], [3, 4, 6], [2, 14, 5]]
    answer = {"value": 3, "pruned_leaves": ["root.2.1", "root.2.2"]}
    grade = grader(tree).grade(answer)
    # pruned_leaves: F1 2 * 2 / (4 + 2) of 2 points; value right
    assert grade.score == 1 + 2 * 4 / 6
    assert grade.diagnosis == [
        Diagnosis(
            "strict_pruning",
            f"your answer matches a search that {MESSAGES['strict_pruning']} (fully)",
            hint=f"your answer matches a search that {MESSAGES['strict_pruning']}",
        ),
        Diagnosis(
            "first_departure",
            "at node root.1, after leaf root.1.0 = 3, MIN has v = 3 <= alpha = 3, so "
            "root.1.1, root.1.2 are never evaluated",
            "root.1",
            "your answer first departs from the right search at node root.1",
        ),
    ]


def test_values_only_mistake() -> None:
    # Only node values, one wrong: root.2 reads 14 (v = beta = 14), 5 (v = beta = 5), then
    # 2 <= alpha = 3 and returns 2, not 5, with beta still 5. No mistaken search explains
    # the answer better than the right one (3 of 4 values), so only the departure from the
    # trace is reported.
    answer = {"nodes": {"root": 3, "root.0": 3, "root.1": 2, "root.2": 5}}
    grade = grader(AIMA, questions=["nodes"]).grade(answer)
    (nodes,) = grade.items
    assert (nodes.score, nodes.wrong) == (3, ["root.2"])
    assert nodes.feedback == "wrong values at root.2 (yours 5, right 2)"
    assert grade.diagnosis == [
        Diagnosis(
            "no_usual_mistake",
            "no usual mistake explains this answer",
            hint="no usual mistake explains this answer",
        ),
        Diagnosis(
            "first_departure",
            "node root.2 returns 2 (alpha = 3, beta = 5 when it returns), not 5",
            "root.2",
            "your answer first departs from the right search at node root.2",
        ),
    ]


def test_diagnose_and_first_departure_called_directly() -> None:
    # the functions read the grader through its Protocol: the same answers as above
    the_grader = grader(AIMA)
    answer = parse_answer(the_grader.tree, {"pruned_leaves": []})
    departure = first_departure(the_grader, answer)
    assert departure is not None and departure.node == "root.1"
    found = diagnose(the_grader, answer, Rubric())
    # pruning nothing is what both the fresh-window and the right-to-left search do
    assert [d.code for d in found] == [
        "alpha_not_passed_at_root",
        "right_to_left",
        "first_departure",
    ]


def test_large_trees_are_not_replayed() -> None:
    # 3 ** 9 = 19,683 leaves: beyond MAX_DIAGNOSED_NODES (20,000 nodes) with the internal ones
    tree: Any = 1
    for _ in range(9):
        tree = [tree, tree, tree]
    problem = parse_problem({"type": "minimax", "tree": tree})
    key, _ = correct_key(problem)
    assert mistaken_keys(problem, key) == []


# --- diagnosis: each student answer is what the mistaken convention gives, by hand ---


def test_strict_pruning_diagnosed() -> None:
    # [[10], [10, 0]]: after root.1.0 = 10, MIN has v = 10 <= alpha = 10: pruning on
    # equality cuts root.1.1; strict pruning does not, and root.1 is then 0.
    answer = {"value": 10, "nodes": {"root": 10, "root.0": 10, "root.1": 0}, "pruned_leaves": []}
    asked = ["value", "nodes", "pruned_leaves"]
    grade = grader([[10], [10, 0]], questions=asked).grade(answer)
    # two entries the right search gets wrong agree with it: root.1 = 0, root.1.1 not pruned
    assert "strict_pruning" in codes(grade)
    # the leaf alone is too little evidence
    alone = grader([[10], [10, 0]]).grade({"value": 10, "pruned_leaves": []})
    assert codes(alone)[0] == "no_usual_mistake"


def test_prune_on_equality_diagnosed() -> None:
    # pruning on equality, root.1 stops at 10 <= alpha = 10 and returns 10 (fail-soft)
    nodes = {"root": 10, "root.0": 10, "root.1": 10}
    answer = {"value": 10, "nodes": nodes, "pruned_leaves": ["root.1.1"]}
    asked = ["value", "nodes", "pruned_leaves"]
    grade = grader([[10], [10, 0]], prune_on_equality=False, questions=asked).grade(answer)
    assert codes(grade)[0] == "prune_on_equality"


def test_alpha_not_passed_at_root_diagnosed() -> None:
    # [[3,12,8],[2,4,6],[14,15,16]]: passing alpha = 3 prunes 4 and 6 under root.1;
    # with a fresh window at each root child nothing is pruned, values unchanged.
    tree = [[3, 12, 8], [2, 4, 6], [14, 15, 16]]
    answer = {
        "value": 14,
        "nodes": {"root": 14, "root.0": 3, "root.1": 2, "root.2": 14},
        "pruned_leaves": [],
    }
    grade = grader(tree).grade(answer)
    assert codes(grade)[0] == "alpha_not_passed_at_root"
    assert "right_to_left" not in codes(grade)


def test_right_to_left_diagnosed() -> None:
    # Same tree right to left: root.2 = 14 first; root.1 meets 6 <= 14 and stops
    # (root.1.1, root.1.0 pruned); root.0 meets 8 <= 14 and stops (root.0.1, root.0.0).
    tree = [[3, 12, 8], [2, 4, 6], [14, 15, 16]]
    answer = {"value": 14, "pruned_leaves": ["root.0.0", "root.0.1", "root.1.0", "root.1.1"]}
    grade = grader(tree).grade(answer)
    assert codes(grade)[0] == "right_to_left"


def test_wrong_root_player_diagnosed() -> None:
    # AIMA with a MIN root: MAX nodes 12, 6, and root.2 stops at 14 >= beta = 6.
    answer = {"value": 6, "best_move": "root.1", "pruned_leaves": ["root.2.1", "root.2.2"]}
    grade = grader(AIMA).grade(answer)
    assert codes(grade)[0] == "wrong_root_player"


def test_depth_off_by_one_diagnosed() -> None:
    tree = {
        "children": [
            {"eval": 5, "children": [3, 12, 8]},
            {"eval": 1, "children": [2, 4, 6]},
            {"eval": 9, "children": [14, 5, 2]},
        ]
    }
    # depth 1: the evals 5, 1, 9 give 9 via root.2; one ply deeper: 3 via root.0
    grade = grader(tree, "minimax", depth=1).grade({"value": 3, "best_move": "root.0"})
    assert "depth_off_by_one" in codes(grade)


def test_uniform_chance_diagnosed() -> None:
    tree = {
        "children": [
            {"kind": "chance", "children": [{"p": "3/4", "value": 0}, {"p": "1/4", "value": 8}]},
            {"kind": "chance", "children": [{"p": "1/2", "value": 3}, {"p": "1/2", "value": 3}]},
        ]
    }
    # weighted: 2 and 3, so 3 via root.1; averaged: 4 and 3, so 4 via root.0
    # (a MIN root would give 2 via root.0: it explains only half of the answer)
    assert grader(tree, "expectimax").grade({"value": 3, "best_move": "root.1"}).score == 2
    grade = grader(tree, "expectimax").grade({"value": 4, "best_move": "root.0"})
    assert grade.score == 0
    assert codes(grade) == ["uniform_chance"]


def test_evaluated_pruned_leaf_diagnosed() -> None:
    answer = {"evaluated_leaves": ["root.0.0", "root.0.1", "root.0.2", "root.1.0", "root.1.1"]}
    grade = grader(AIMA, questions=["evaluated_leaves"]).grade(answer)
    diagnosis = [d for d in grade.diagnosis if d.code == "evaluated_pruned_leaf"]
    assert diagnosis[0].node == "root.1.1"


def test_first_departure_names_node_alpha_and_beta() -> None:
    grade = grader(AIMA).grade({"pruned_leaves": []})
    (departure,) = [d for d in grade.diagnosis if d.code == "first_departure"]
    assert departure.node == "root.1"
    assert "after leaf root.1.0 = 2, MIN has v = 2 <= alpha = 3" in departure.message
    assert "root.1.1, root.1.2 are never evaluated" in departure.message


def test_first_departure_on_a_wrong_node_value() -> None:
    # root.2 sees 14 (beta 14), then 5 (beta 5), then 2 <= alpha = 3: it returns 2
    grade = grader(AIMA, questions=["nodes"]).grade(
        {"root": 3, "root.0": 3, "root.1": 2, "root.2": 5}
    )
    (departure,) = [d for d in grade.diagnosis if d.code == "first_departure"]
    assert departure.node == "root.2"
    assert "returns 2" in departure.message


def test_depth_in_rounds_diagnosed() -> None:
    # depth 2 (plies): the evals 5, 7 | 2, 9 give MIN nodes 5 and 2, so 5 via root.0.
    # Read as 2 rounds (4 plies) the leaves count: MIN nodes 1 3 | 2 0 | 8 6 | 7 9,
    # MAX nodes 3 2 | 8 9, MIN nodes 2 and 8, so 8 via root.1.
    tree = {
        "children": [
            {
                "children": [
                    {"eval": 5, "children": [[1, 2], [3, 4]]},
                    {"eval": 7, "children": [[2, 2], [0, 1]]},
                ]
            },
            {
                "children": [
                    {"eval": 2, "children": [[8, 9], [6, 7]]},
                    {"eval": 9, "children": [[7, 9], [9, 9]]},
                ]
            },
        ]
    }
    asked = ["value", "best_move"]
    right = grader(tree, "minimax", depth=2, questions=asked).grade(
        {"value": 5, "best_move": "root.0"}
    )
    assert right.score == right.max_score
    grade = grader(tree, "minimax", depth=2, questions=asked).grade(
        {"value": 8, "best_move": "root.1"}
    )
    assert codes(grade) == ["depth_in_rounds"]


def test_minimax_first_wrong_value_explained() -> None:
    # root.1 is MIN over 2, 4, 6: 2
    grade = grader(AIMA, "minimax").grade({"root": 3, "root.0": 3, "root.1": 4, "root.2": 2})
    (departure,) = [d for d in grade.diagnosis if d.code == "first_departure"]
    assert departure.node == "root.1"
    assert "smallest of root.1.0 = 2, root.1.1 = 4, root.1.2 = 6, not 4" in departure.message


def test_a_fresh_window_at_every_root_child_explains_its_own_answer_fully() -> None:
    # [[9, 14, 7], [8, 4, 2], [12, 5, 6]] pruning on equality: the right search cuts
    # root.1 at 4 <= 7 and root.2 at 5 <= 7. With a fresh window per root child nothing is
    # cut, root.1 returns 2 and root.2 returns 5; the line is root.0, root.0.2 either way.
    tree = [[9, 14, 7], [8, 4, 2], [12, 5, 6]]
    answer = {
        "value": 7,
        "best_move": "root.0",
        "nodes": {"root": 7, "root.0": 7, "root.1": 2, "root.2": 5},
        "principal_variation": ["root.0", "root.0.2"],
        "pruned_leaves": [],
    }
    questions = ["value", "best_move", "nodes", "principal_variation", "pruned_leaves"]
    grade = grader(tree, questions=questions).grade(answer)
    first = grade.diagnosis[0]
    assert first.code == "alpha_not_passed_at_root"
    assert first.message.endswith("(fully)")


def test_a_right_answer_with_an_unreadable_field_has_no_mistake_to_diagnose() -> None:
    answer = {"value": "three", "best_move": "root.0", "pruned_leaves": ["root.1.1", "root.1.2"]}
    grade = grade_one(grader(AIMA), answer, Rubric())
    assert (grade.score, grade.diagnosis) == (3, [])
