"""Every grader and the problem generator spend on the one deadline of the computation in
progress (games.limits), whichever step is running when it passes; numbers of any size are
written by the one writer."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from typing import Any

import pytest

from analysis.grading.answer_key import parse_problem
from analysis.grading.answers import answer_json
from analysis.grading.consistency_problems import ConsistencyGrader
from analysis.grading.lottery_problems import LotteryGrader
from analysis.grading.matrix_problems import MatrixGrader
from analysis.grading.preference_problems import PreferenceGrader
from analysis.grading.problem_generator import ProblemSettings, generate_problem
from analysis.grading.registry import MAX_LISTED, grade_batch, make_grader
from analysis.grading.rubric import Rubric
from analysis.grading.tree_problems import Grader
from games.errors import InvalidInputError, TimeLimitError
from games.limits import Deadline, Limits, limited

# 5**6 = 15,625 leaves, 19,531 nodes: large enough that each step takes a measurable time
LEAVES = [(k * 7919) % 101 for k in range(5**6)]


@pytest.fixture
def quiet_heap() -> Iterator[None]:
    """No cyclic collection while a test times a deadline: a pass over the heap the rest of the
    suite left (0.1 to 0.4 s) is not the grader's delay, and made the bounds flaky."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _tree() -> Any:
    level: list[Any] = list(LEAVES)
    while len(level) > 1:
        level = [level[i : i + 5] for i in range(0, len(level), 5)]
    return level[0]


def _expired() -> Any:
    """Limits whose deadline has passed by the time anything checks it."""
    return limited(Limits(time_limit=0.0))


@pytest.mark.usefixtures("quiet_heap")
def test_generator_spends_on_the_deadline_it_is_given() -> None:
    # never met (see tests/api/test_hardening_grading.py): every draw is tried until the end
    settings = ProblemSettings(depth=4, branching=(6, 6), min_pruned_leaves=1295, max_attempts=1000)
    started = time.monotonic()
    with pytest.raises(TimeLimitError):
        generate_problem(settings, Deadline(0.2))
    assert time.monotonic() - started < 0.5


def test_generator_refuses_impossible_settings_before_drawing() -> None:
    settings = ProblemSettings(values=(5, 5), no_ties=True, max_attempts=1000)
    with pytest.raises(InvalidInputError) as caught:
        generate_problem(settings, Deadline(0.0))  # an expired deadline: no draw is made
    assert caught.value.errors[0].parameter == "values"


@pytest.mark.parametrize("kind", ["minimax", "alphabeta", "expectimax"])
@pytest.mark.usefixtures("quiet_heap")
def test_answer_key_search_stops_at_the_deadline(kind: str) -> None:
    problem = parse_problem({"type": kind, "tree": _tree()})
    started = time.monotonic()
    with _expired(), pytest.raises(TimeLimitError):
        Grader(problem)
    assert time.monotonic() - started < 0.3


@pytest.mark.usefixtures("quiet_heap")
def test_diagnosis_replays_stop_at_the_deadline() -> None:
    grader = make_grader({"type": "alphabeta", "tree": _tree()})
    wrong = {"value": -1, "pruned_leaves": ["root.0.0.0.0.0.0"]}
    started = time.monotonic()
    with limited(Limits(time_limit=0.02)), pytest.raises(TimeLimitError):
        grader.grade(wrong)  # the mistaken searches take ~0.2 s
    assert time.monotonic() - started < 0.3
    # without a deadline the same answer is graded (and the replays are kept for next time)
    assert grader.grade(wrong).score < 1


@pytest.mark.usefixtures("quiet_heap")
def test_batch_grading_stops_at_the_deadline() -> None:
    grader = make_grader({"type": "alphabeta", "tree": _tree()})
    answers = {f"s{i}": {"value": i % 5} for i in range(20_000)}
    rubric = Rubric(required=("nodes", "pruned_leaves", "evaluated_leaves"))
    started = time.monotonic()
    with limited(Limits(time_limit=0.1)), pytest.raises(TimeLimitError):
        grade_batch(grader, answers, rubric)
    assert time.monotonic() - started < 0.5


def test_batch_grades_list_a_bounded_part_of_the_key() -> None:
    grader = make_grader({"type": "minimax", "tree": _tree()})
    graded = grade_batch(grader, {"ada": {"value": 0}}, Rubric(required=("nodes",)))
    # 5**5 + ... + 1 = 3,906 internal nodes, every one missing from ada's answer
    (nodes,) = [item for item in graded.results["ada"].items if item.field == "nodes"]
    assert (nodes.field, nodes.missing_count, len(nodes.missing)) == ("nodes", 3906, MAX_LISTED)
    assert len(graded.key["nodes"]) == 3906


BATTLE = {"type": "matrix", "A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]}


def test_mixed_equilibria_time_limit_is_not_moved_under_the_problem() -> None:
    grader = MatrixGrader({k: v for k, v in BATTLE.items() if k != "type"})
    # before, the time limit error was rebuilt with a pointer list it does not take: a 500
    with _expired(), pytest.raises(TimeLimitError):
        grader.grade({"equilibria": []})


@pytest.mark.parametrize(
    ("build", "problem"),
    [
        (
            LotteryGrader,
            {"type": "lottery", "lottery": [{"p": "1/2", "x": 100}, {"p": "1/2", "x": 0}]},
        ),
        (
            PreferenceGrader,
            {"type": "preferences", "prizes": ["A", "B"], "preferences": [["A", ">", "B"]]},
        ),
        (
            ConsistencyGrader,
            {
                "type": "eu-consistency",
                "lotteries": {"A": [{"p": 1, "x": 10}], "B": [{"p": 1, "x": 0}]},
                "choices": [["A", ">", "B"]],
            },
        ),
    ],
)
def test_every_grader_builds_its_key_under_the_deadline(build: Any, problem: Any) -> None:
    with _expired(), pytest.raises(TimeLimitError):
        build(problem)
    assert build(problem) is not None  # the same problem is fine with time to spare


def test_answers_with_big_integers_are_read_as_the_same_exact_numbers() -> None:
    raw = {"nodes": {"root": [2**70, 1]}, "value": 5}
    read = answer_json(raw)
    assert read == {"nodes": {"root": ["1180591620717411303424", 1]}, "value": 5}
    assert raw["nodes"]["root"][0] == 2**70  # the client's object is left as it was
    plain = {"value": 5, "nodes": {"root": 3}}
    assert answer_json(plain) is plain  # nothing to change: no copy
