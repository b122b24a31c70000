"""Every documented example answer follows the one number rule (docs/numbers.md) and names
only fields its schema declares, so no field reaches the API without being documented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from api import create_app
from tests.contract.number_rule import rule_violations

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = yaml.safe_load((ROOT / "openapi.yaml").read_text())
SCHEMAS = DOCUMENT["components"]["schemas"]
APP = create_app({"TESTING": True, "ARBITER_TIME_LIMIT": 10.0})


def _examples() -> list[tuple[str, str, Any, dict[str, Any]]]:
    """(path, method, request example, 200 response schema) for every JSON answer."""
    found = []
    for path, operations in DOCUMENT["paths"].items():
        for method, operation in operations.items():
            request = operation.get("requestBody", {}).get("content", {}).get("application/json")
            answer = operation["responses"].get("200", {}).get("content", {})
            if request is None or "example" not in request or "application/json" not in answer:
                continue
            found.append((path, method, request["example"], answer["application/json"]["schema"]))
    return found


EXAMPLES = _examples()


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    """Follow ``$ref`` and merge ``allOf`` into one schema."""
    while "$ref" in schema or "allOf" in schema:
        if "$ref" in schema:
            schema = {
                **SCHEMAS[schema["$ref"].rsplit("/", 1)[1]],
                **{k: v for k, v in schema.items() if k != "$ref"},
            }
        else:
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                part = _resolve(part)
                merged.setdefault("properties", {}).update(part.get("properties", {}))
                merged.update({k: v for k, v in part.items() if k != "properties"})
            schema = merged
    return schema


def undeclared_fields(answer: Any, schema: dict[str, Any]) -> list[str]:
    """Pointers of object keys that the response schema does not declare."""
    found: list[str] = []
    stack: list[tuple[Any, dict[str, Any], str]] = [(answer, schema, "")]
    while stack:
        value, node, where = stack.pop()
        node = _resolve(node)
        if isinstance(value, dict):
            properties = node.get("properties")
            extra = node.get("additionalProperties")
            for key, item in value.items():
                if properties is not None and key in properties:
                    stack.append((item, properties[key], f"{where}/{key}"))
                elif isinstance(extra, dict) and extra:
                    stack.append((item, extra, f"{where}/{key}"))
                elif properties is not None:
                    found.append(f"{where}/{key}")
        elif isinstance(value, list) and isinstance(node.get("items"), dict):
            stack.extend((item, node["items"], f"{where}/{i}") for i, item in enumerate(value))
    return found


def test_every_area_has_an_example() -> None:
    paths = {path for path, *_ in EXAMPLES}
    for area in (
        "/v1/trees/",
        "/v1/matrices/",
        "/v1/lotteries/",
        "/v1/utility/",
        "/v1/preferences/",
    ):
        assert any(path.startswith(area) for path in paths), area


@pytest.mark.parametrize(
    ("path", "method", "example", "schema"),
    EXAMPLES,
    ids=[f"{method} {path}" for path, method, *_ in EXAMPLES],
)
def test_example_answers_follow_the_number_rule(
    path: str, method: str, example: Any, schema: dict[str, Any]
) -> None:
    response = APP.test_client().open(path, method=method.upper(), json=example)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    answer = response.get_json()
    assert rule_violations(answer) == []
    assert undeclared_fields(answer, schema) == []


SCHEMA_OF = {path: schema for path, _, _, schema in EXAMPLES}
HALF = "1/2"
CHANCE_PLAYERS = {
    "player": 0,
    "children": [
        {"kind": "chance", "children": [{"value": [1, 2]}, {"value": [2, "1/3"]}]},
        {"value": [1, 1]},
    ],
}
FRACTIONS = [
    # answers full of fractions, big integers and formulas, one or more per area
    ("/v1/trees/expectimax", {"tree": {"kind": "chance", "children": [3, 4, "1/3"]}}),
    (
        "/v1/trees/expectimax",
        {"tree": [[{"kind": "chance", "children": [0, 9]}, 4]], "bounds": ["-1/2", 10]},
    ),
    ("/v1/trees/alphabeta", {"tree": [["7/2", 2**70], ["0.1", 3]], "trace": True}),
    (
        "/v1/trees/expectimax",
        {
            "tree": [[{"kind": "chance", "children": [0, 9]}, 4]],
            "bounds": ["-1/2", 10],
            "trace": True,
        },
    ),
    (
        "/v1/trees/expectimax",
        {"tree": {"kind": "chance", "children": [3, 4, "1/3"]}, "trace": True},
    ),
    ("/v1/trees/maxn", {"tree": CHANCE_PLAYERS, "max_sum": "7/2"}),
    ("/v1/trees/maxn", {"tree": CHANCE_PLAYERS, "max_sum": "7/2", "trace": True}),
    (
        "/v1/matrices/analyze",
        {
            "A": [[2, 0], [0, 1]],
            "B": [[1, 0], [0, 2]],
            "include": [
                "pure_equilibria",
                "equilibria",
                "dominance",
                "security_levels",
                "lemke_howson",
            ],
        },
    ),
    ("/v1/matrices/analyze", {"A": [[2, -1], [-1, 1]], "zero_sum": True}),
    (
        "/v1/matrices/analyze",
        {
            "A": [[3, 0], [0, 3], [1, 1]],
            "B": [[1, 0], [0, 1], [2**70, 0]],
            "include": ["dominance", "equilibria"],
        },
    ),
    (
        "/v1/lotteries/evaluate",
        {
            "lottery": [{"p": "1/3", "x": 2**70}, {"p": "2/3", "x": "0.1"}],
            "utility": "sqrt(x)",
            "reduce": True,
            "wealth": "1/2",
        },
    ),
    (
        "/v1/lotteries/compare",
        {"lotteries": {"A": [[HALF, 1], [HALF, 0]], "B": [[1, "1/3"]]}, "utility": "log(x + 1)"},
    ),
    (
        "/v1/lotteries/eu-consistency",
        {
            "lotteries": {
                "A": [{"p": "0.8", "x": 4000}, {"p": "0.2", "x": 0}],
                "B": [{"p": 1, "x": 3000}],
                "C": [{"p": "0.2", "x": 4000}, {"p": "0.8", "x": 0}],
                "D": [{"p": "0.25", "x": 3000}, {"p": "0.75", "x": 0}],
            },
            "choices": [["B", ">", "A"], ["C", ">", "D"]],
        },
    ),
    (
        "/v1/lotteries/eu-consistency",
        {
            "lotteries": {
                "A": [{"p": "1/3", "x": 10}, {"p": "2/3", "x": 0}],
                "B": [{"p": 1, "x": 5}],
            },
            "choices": [["A", ">", "B"]],
            "increasing": True,
        },
    ),
    ("/v1/utility/analyze", {"utility": "sqrt(x)", "domain": ["1/4", 2**70], "points": ["1/4", 2]}),
    (
        "/v1/utility/elicit",
        {
            "worst": 0,
            "best": "7/2",
            "standard_gambles": [
                {"prize": "1/2", "p": "0.3"},
                {"prize": 1, "p": HALF},
                {"prize": 2, "p": "0.8"},
            ],
        },
    ),
    (
        "/v1/preferences/check",
        {
            "prizes": ["A", "B", "C"],
            "lotteries": {"L": [{"p": "0.25", "x": "A"}, {"p": "0.75", "x": "C"}]},
            "preferences": [["A", ">", "B"], ["B", ">", "C"], ["L", "~", "B"]],
        },
    ),
    (
        "/v1/preferences/check",
        {
            "prizes": ["A", "B", "C"],
            "lotteries": {
                "L1": [
                    {"p": HALF, "x": "A"},
                    {"p": HALF, "x": [{"p": HALF, "x": "B"}, {"p": HALF, "x": "C"}]},
                ],
                "L2": [{"p": HALF, "x": "A"}, {"p": "1/4", "x": "B"}, {"p": "1/4", "x": "C"}],
            },
            "preferences": [["L2", ">", "L1"]],
        },
    ),
]


@pytest.mark.parametrize(("path", "body"), FRACTIONS, ids=[path for path, _ in FRACTIONS])
def test_answers_with_fractions_follow_the_number_rule(path: str, body: Any) -> None:
    response = APP.test_client().post(path, json=body)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    answer = response.get_json()
    assert "_exact" in response.get_data(as_text=True)  # the case does exercise companions
    assert rule_violations(answer) == []
    assert undeclared_fields(answer, SCHEMA_OF[path]) == []


def test_the_checker_finds_what_breaks_the_rule() -> None:
    # the walker itself, on hand-made answers
    assert rule_violations({"value": 3.5, "value_exact": "7/2"}) == []
    assert rule_violations({"value": 3, "value_exact": "3"}) == [
        "/value_exact: value is already exact"
    ]
    assert rule_violations({"value_exact": "7/2"}) == ["/value_exact: no sibling 'value'"]
    assert rule_violations({"nodes": {"a": {"value": 3.4, "value_exact": "7/2"}}}) == [
        "/nodes/a/value_exact: 3.4 is not the nearest double of 7/2"
    ]
    assert rule_violations({"v": [1, 2], "v_exact": ["1", "2"]}) == ["/v_exact: v is already exact"]
    assert rule_violations({"v": {"A": 0.5}, "v_exact": {"A": "1/2"}}) == []
    assert rule_violations({"x": 15.8, "x_exact": "5*sqrt(10)"}) == []
    big = 2**70
    assert rule_violations({"x": float(big), "x_exact": str(big)}) == []
    assert undeclared_fields(
        {"a": 1, "b": {"c": 2, "leak": 3}},
        {"properties": {"a": {}, "b": {"properties": {"c": {}}}}},
    ) == ["/b/leak"]
