"""Grading and the problem generator under hostile input: every request answers within
about a second of its time limit (a 413 naming it) or is refused up front with a pointer,
batches are capped and write the key once, and numbers of any size never crash the
writer. Answers are derived by hand in the comments."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask.testing import FlaskClient

from api import create_app
from tests.reference import minimax_value

LIMIT = 0.5
PROBLEM = "application/problem+json"
BIG = 10**30
AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}
# every field of a tree answer, so that an answer giving one field still meets the whole key
ALL_FIELDS = {
    "points": {
        "value": 1,
        "best_move": 1,
        "nodes": 4,
        "principal_variation": 1,
        "pruned": 1,
        "pruned_leaves": 2,
        "evaluated_leaves": 2,
    }
}


def _client(**config: Any) -> FlaskClient:
    return create_app({"TESTING": True, "ARBITER_TIME_LIMIT": LIMIT, **config}).test_client()


def _post(client: FlaskClient, path: str, body: Any) -> tuple[Any, float]:
    started = time.monotonic()
    response = client.post(path, json=body)
    return response, time.monotonic() - started


def _assert_problem(response: Any, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == PROBLEM
    body: dict[str, Any] = response.get_json()
    assert body["type"].endswith("/" + slug)
    return body


def _full_tree(branching: int, depth: int) -> Any:
    """A uniform tree of nested lists, leaves 1, 2, ... mod 17, built without recursion."""
    count = 0

    def leaf() -> int:
        nonlocal count
        count += 1
        return count % 17

    level: list[Any] = [leaf() for _ in range(branching**depth)]
    while len(level) > 1:
        level = [level[i : i + branching] for i in range(0, len(level), branching)]
    return level[0]


# -- the problem generator ------------------------------------------------------------

ATTACK = {
    "type": "expectimax",
    "depth": 4,
    "branching": [6, 6],
    "unique_best_move": True,
    "no_ties": True,
    "denominators": [97, 89, 83],
    "values": [0, 0],
    "max_attempts": 10000,
}


def test_generator_attack_is_refused_at_once() -> None:
    # reported: this 169-byte body held a worker for 120 s; max_attempts is now capped
    client = _client()
    response, elapsed = _post(client, "/v1/problems/generate", ATTACK)
    body = _assert_problem(response, 422, "invalid-request")
    assert [e["pointer"] for e in body["errors"]] == ["/max_attempts"]
    assert elapsed < 0.5


@pytest.mark.parametrize(
    ("changes", "pointer"),
    [
        # one leaf value: every node is worth 0, so every move ties
        ({}, "/values"),
        ({"no_ties": False}, "/values"),
        ({"unique_best_move": False}, "/values"),
        # two leaf values under MIN/MAX nodes of at least 3 children: a tie below each
        (
            {"type": "minimax", "depth": 2, "branching": [3, 4], "values": [0, 1],
             "unique_best_move": False},
            "/values",
        ),
        # nothing is pruned outside alpha-beta, at depth 1, or past the number of leaves
        ({"type": "minimax", "min_pruned_leaves": 1, "values": [0, 9]}, "/min_pruned_leaves"),
        (
            {"type": "alphabeta", "depth": 1, "min_pruned_leaves": 1, "values": [0, 9],
             "no_ties": False, "unique_best_move": False},
            "/min_pruned_leaves",
        ),
        (
            {"type": "alphabeta", "depth": 2, "branching": [2, 3], "min_pruned_leaves": 9,
             "values": [0, 9], "no_ties": False, "unique_best_move": False},
            "/min_pruned_leaves",
        ),
    ],
)  # fmt: skip
def test_generator_refuses_what_no_draw_can_meet(changes: dict[str, Any], pointer: str) -> None:
    request = {**ATTACK, "max_attempts": 1000, **changes}
    response, elapsed = _post(_client(), "/v1/problems/generate", request)
    body = _assert_problem(response, 422, "invalid-input")
    assert body["errors"][0]["pointer"] == pointer
    assert elapsed < 0.5


def test_generator_hunt_stops_at_the_time_limit() -> None:
    # 1,296 leaves, at least 1,295 pruned: never met (alpha-beta evaluates at least
    # 6**2 + 6**2 - 1 leaves of such a tree), so every draw fails; 1,000 draws take ~5 s
    request = {
        "type": "alphabeta",
        "depth": 4,
        "branching": [6, 6],
        "min_pruned_leaves": 1295,
        "max_attempts": 1000,
    }
    response, elapsed = _post(_client(), "/v1/problems/generate", request)
    body = _assert_problem(response, 413, "time-limit")
    assert "ARBITER_TIME_LIMIT" in body["detail"]
    assert elapsed < LIMIT + 1


def test_generator_values_are_bounded() -> None:
    response, _ = _post(_client(), "/v1/problems/generate", {"values": [0, BIG]})
    body = _assert_problem(response, 422, "invalid-request")
    assert body["errors"][0]["pointer"] == "/values/1"


def test_generator_still_generates() -> None:
    # a satisfiable request right at the new cap still answers, with its own key
    request = {**ATTACK, "values": [0, 1000], "max_attempts": 1000}
    response, _ = _post(_client(), "/v1/problems/generate", request)
    assert response.status_code == 200
    made = response.get_json()
    assert made["problem"]["type"] == "expectimax"
    assert len(made["problem"]["tree"]["children"]) == 6


# -- batch grading ------------------------------------------------------------------


def test_batch_over_the_answer_cap_is_413_at_answers() -> None:
    client = _client(ARBITER_MAX_BATCH_ANSWERS=5)
    answers = {f"s{i}": {"value": 3} for i in range(6)}
    response, elapsed = _post(client, "/v1/grade/batch", {"problem": AIMA, "answers": answers})
    body = _assert_problem(response, 413, "limit-exceeded")
    assert body["errors"][0]["pointer"] == "/answers"
    assert "ARBITER_MAX_BATCH_ANSWERS" in body["detail"]
    assert elapsed < LIMIT + 1
    del answers["s5"]
    asked = {**AIMA, "questions": ["value"]}
    response, _ = _post(client, "/v1/grade/batch", {"problem": asked, "answers": answers})
    assert response.status_code == 200
    assert response.get_json()["summary"]["full_marks"] == 5


def test_batch_default_cap_is_ten_thousand() -> None:
    answers = {f"s{i}": {} for i in range(10_001)}
    response, elapsed = _post(_client(), "/v1/grade/batch", {"problem": AIMA, "answers": answers})
    _assert_problem(response, 413, "limit-exceeded")
    assert elapsed < LIMIT + 1


def test_batch_of_many_answers_to_a_large_problem_stops_at_the_time_limit() -> None:
    # reported: 5,000 answers to a 5,461-node problem took 19 s and grew a worker by 6 GB
    tree = _full_tree(4, 6)
    answers = {f"s{i}": {"value": i % 7, "best_move": f"root.{i % 4}"} for i in range(5000)}
    body = {
        "problem": {"type": "alphabeta", "tree": tree},
        "answers": answers,
        "rubric": ALL_FIELDS,
    }
    response, elapsed = _post(_client(), "/v1/grade/batch", body)
    _assert_problem(response, 413, "time-limit")
    assert elapsed < LIMIT + 1


def test_batch_writes_the_key_once_and_items_only_what_differs() -> None:
    # AIMA Fig. 5.2: value 3 by root.0; the search prunes root.1.1 and root.1.2
    answers = {"ada": {"value": 3, "pruned_leaves": ["root.1.2"]}, "bob": {"value": 2}}
    rubric = {"points": {"value": 1, "pruned_leaves": 2}}
    problem = {**AIMA, "questions": ["value", "pruned_leaves"]}
    response, _ = _post(
        _client(), "/v1/grade/batch", {"problem": problem, "answers": answers, "rubric": rubric}
    )
    assert response.status_code == 200
    body = response.get_json()
    assert body["key"] == {"value": 3, "pruned_leaves": ["root.1.1", "root.1.2"]}
    ada = body["results"]["ada"]
    # value 1 of 1; pruned_leaves 2 * (2 * 1 / 3) of 2
    assert ada["score"] == pytest.approx(1 + 4 / 3)
    leaves = ada["items"][1]
    assert (leaves["missing"], leaves["missing_count"]) == (["root.1.1"], 1)
    assert "expected" not in leaves and "given" not in leaves
    bob = body["results"]["bob"]["items"][1]
    assert (bob["missing"], bob["missing_count"], bob["score"]) == (
        ["root.1.1", "root.1.2"],
        2,
        0,
    )


def test_batch_answer_size_per_student_is_bounded() -> None:
    # every student gives one field of a 5,461-node problem whose every field is required:
    # before, each item repeated the key and its misses (~187 kB a student)
    tree = _full_tree(4, 6)
    answers = {f"s{i}": {"value": i % 7} for i in range(200)}
    body = {
        "problem": {"type": "alphabeta", "tree": tree},
        "answers": answers,
        "rubric": ALL_FIELDS,
    }
    response, _ = _post(_client(ARBITER_TIME_LIMIT=30.0), "/v1/grade/batch", body)
    assert response.status_code == 200
    assert len(response.data) / len(answers) < 8_000
    graded = response.get_json()
    key = graded["key"]
    # 4**6 = 4,096 leaves: the key lists every pruned or evaluated one, once
    assert len(key["pruned_leaves"]) + len(key["evaluated_leaves"]) == 4096
    nodes = graded["results"]["s3"]["items"][2]
    assert nodes["field"] == "nodes"
    assert len(nodes["missing"]) == 50
    assert nodes["missing_count"] == len(key["nodes"])
    # the value is graded against an independent minimax: student i wrote i % 7
    value = minimax_value(tree)
    assert key["value"] == value
    for student, grade in graded["results"].items():
        assert grade["items"][0]["score"] == (1 if int(student[1:]) % 7 == value else 0)


def test_batch_csv_still_works_with_the_new_shape() -> None:
    answers = {"ada": {"value": 3}, "bob": {"value": BIG}}
    client = _client()
    response = client.post(
        "/v1/grade/batch",
        json={"problem": {**AIMA, "questions": ["value"]}, "answers": answers},
        headers={"Accept": "text/csv"},
    )
    assert response.status_code == 200
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0].startswith("student,score,max_score,status,value")
    assert lines[1].startswith("ada,1,1,graded,1") and lines[2].startswith("bob,0,1,graded,0")


# -- numbers of any size, and answers of any shape -------------------------------------

# player 0 at the root, player 1 below: root.0 keeps (4, 3e30) (3e30 > 2), root.1 keeps
# (5e30, 17) (17 > 13); player 0 prefers 5e30 to 4
MAXN = {
    "type": "maxn",
    "tree": {
        "kind": "player",
        "children": [
            {"kind": "player", "children": [{"value": [BIG, 2]}, {"value": [4, 3 * BIG]}]},
            {"kind": "player", "children": [{"value": [5 * BIG, 17]}, {"value": [11, 13]}]},
        ],
    },
}


def test_maxn_grading_writes_integers_past_64_bits_exactly() -> None:
    answer = {"value": [1, 2], "nodes": {"root.0": [4, 3 * BIG], "root": [1, 2]}}
    response, _ = _post(_client(), "/v1/grade", {"problem": MAXN, "answer": answer})
    assert response.status_code == 200
    items = {item["field"]: item for item in response.get_json()["items"]}
    # a JSON number, the nearest double, with the exact integers beside it
    assert items["value"]["expected"] == [float(5 * BIG), 17]
    assert items["value"]["expected_exact"] == [str(5 * BIG), "17"]
    assert items["nodes"]["expected"]["root.0"] == [4, float(3 * BIG)]
    assert items["nodes"]["expected_exact"]["root.0"] == ["4", str(3 * BIG)]
    assert items["nodes"]["wrong"] == ["root"]
    response, _ = _post(
        _client(),
        "/v1/grade/batch",
        {"problem": MAXN, "answers": {"ada": {"value": [5 * BIG, 17]}}},
    )
    assert response.status_code == 200
    body = response.get_json()
    assert body["key"]["value"] == [float(5 * BIG), 17]
    assert body["key"]["value_exact"] == [str(5 * BIG), "17"]
    assert body["results"]["ada"]["score"] == 1


@pytest.mark.parametrize(
    ("problem", "answer", "field"),
    [
        (AIMA, {"value": BIG}, "value"),
        (
            {
                "type": "lottery",
                "lottery": [{"p": "1/2", "x": BIG}, {"p": "1/2", "x": 0}],
                "utility": "x",
            },
            {"emv": BIG // 2},
            "emv",
        ),
    ],
)
def test_integers_past_64_bits_in_answers_are_echoed_exactly(
    problem: dict[str, Any], answer: dict[str, Any], field: str
) -> None:
    asked = {**problem, "questions": [field]}
    response, _ = _post(_client(), "/v1/grade", {"problem": asked, "answer": answer})
    assert response.status_code == 200
    (item,) = response.get_json()["items"]
    assert item["given"] == str(answer[field])
    # the lottery's EMV is 1e30 / 2 exactly: right; AIMA's value is 3: wrong
    assert item["correct"] is (field == "emv")


def _nested(levels: int) -> list[Any]:
    deep: list[Any] = []
    inner = deep
    for _ in range(levels - 1):
        inner.append([])
        inner = inner[0]
    return deep


PREFERENCES = {"type": "preferences", "prizes": ["A", "B"], "preferences": [["A", ">", "B"]]}


@pytest.mark.parametrize(
    ("problem", "answer", "pointer"),
    [
        (AIMA, {"nodes": {"root": {"value": 3, "note": _nested(400)}}}, "/answer/nodes/root/note"),
        (
            PREFERENCES,
            {"axioms": {"transitivity": {"holds": True, "note": _nested(400)}}},
            "/answer/axioms/transitivity/note",
        ),
    ],
)
def test_deeply_nested_answers_are_refused_with_a_pointer(
    problem: dict[str, Any], answer: dict[str, Any], pointer: str
) -> None:
    # ignored extra fields nested 400 deep once reached the writer, which stops at 255: a
    # 500; now the field is unreadable (0, with its error) and the answer is graded
    response, elapsed = _post(_client(), "/v1/grade", {"problem": problem, "answer": answer})
    assert response.status_code == 200
    payload = response.get_json()
    # the answer object is level 0 and "note" level 3; level 32 is the first refused
    assert payload["errors"][0]["pointer"] == pointer + "/0" * 29
    assert elapsed < LIMIT + 1
