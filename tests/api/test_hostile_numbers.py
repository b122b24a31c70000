"""Numbers at the edges of the doubles, and utilities at their kinks (issue 25).

Each request here answered a 500 (an exception from float arithmetic or from a SymPy value
that is no number) before it was fixed; now each answers what is true, or a 422 problem
that points at the field and says why.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from flask.testing import FlaskClient

SOLVE = "/v1/games/solve"
ELICIT = "/v1/utility/elicit"
ANALYZE = "/v1/utility/analyze"


def _problem(response: Any, pointer: str, slug: str) -> str:
    assert response.status_code == 422, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["type"].endswith(f"/{slug}")
    assert [error["pointer"] for error in problem["errors"]] == [pointer]
    detail: str = problem["detail"]
    return detail


# -- value iteration's tolerance ---------------------------------------------------------


@pytest.mark.parametrize("tolerance", ["1e-400", "1e-16", 0, "-1/10", 1])
def test_a_tolerance_the_doubles_cannot_meet_is_refused(
    client: FlaskClient, tolerance: object
) -> None:
    body = {"game": "pig", "params": {"goal": 10}, "algorithm": "value_iteration"}
    response = client.post(SOLVE, json={**body, "tolerance": tolerance})
    assert "at least 1e-15" in _problem(response, "/tolerance", "invalid-input")


def test_the_finest_tolerance_is_answered(client: FlaskClient) -> None:
    body = {"game": "pig", "params": {"goal": 10}, "algorithm": "value_iteration"}
    answer = client.post(SOLVE, json={**body, "tolerance": "1e-15"}).get_json()
    coarse = client.post(SOLVE, json=body).get_json()
    assert answer["residual"] <= 1e-15
    assert answer["value"] == pytest.approx(coarse["value"], abs=2e-9)


# -- elicitation -------------------------------------------------------------------------


def test_elicitation_over_forty_orders_of_magnitude(client: FlaskClient) -> None:
    # OverflowError before: 1e40 ** 11 in the CRRA model. U(1e39) = (1/10)^(1 - g) = 1e-10
    # gives g = -9 exactly
    body = {"worst": 0, "best": 1e40, "standard_gambles": [{"prize": 1e39, "p": "1e-10"}]}
    answer = client.post(ELICIT, json=body).get_json()
    assert answer["crra"]["coefficient"] == pytest.approx(-9, abs=1e-6)
    b = answer["cara"]["coefficient"] * 1e40
    assert math.expm1(-b / 10) / math.expm1(-b) == pytest.approx(1e-10, rel=1e-6)


@pytest.mark.parametrize(
    "body",
    [
        # ZeroDivisionError before: best - worst was 0 as doubles
        {"worst": 1, "best": "1.00000000000000000001", "standard_gambles": [{"prize": 1, "p": 0}]},
        # ValueError before: the CARA search bounds, 50 / (1e300 - 1e-300), were fine, but
        # 50 / 1e-320 was infinite
        {"worst": "1e-300", "best": 1e300, "standard_gambles": [{"prize": 1, "p": "0.5"}]},
        {"worst": 0, "best": 1e300, "wealth": 1e300, "standard_gambles": [{"prize": 1, "p": 1}]},
        {"worst": -1e300, "best": 1e300, "standard_gambles": [{"prize": 0, "p": "0.5"}]},
        {
            "worst": 0,
            "best": 1e300,
            "certainty_equivalents": [{"lottery": [["1/2", 1e300], ["1/2", 0]], "ce": "1e299"}],
        },
    ],
)
def test_elicitation_at_the_edges_of_the_doubles_answers(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    response = client.post(ELICIT, json=body)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    answer = response.get_json()
    assert math.isfinite(answer["cara"]["coefficient"])
    assert all(math.isfinite(r) for r in answer["cara"]["residuals"])


def test_a_span_narrower_than_the_doubles_is_refused(client: FlaskClient) -> None:
    body = {"worst": 0, "best": "1e-320", "standard_gambles": [{"prize": "1e-321", "p": "0.5"}]}
    detail = _problem(client.post(ELICIT, json=body), "/best", "invalid-input")
    assert "1e-300" in detail


# -- a utility at its kinks --------------------------------------------------------------


def _analyze(client: FlaskClient, utility: object, domain: list[Any], points: list[Any]) -> Any:
    return client.post(ANALYZE, json={"utility": utility, "domain": domain, "points": points})


@pytest.mark.parametrize(
    ("formula", "point", "says"),
    [
        # TypeError before: -U''/U' held DiracDelta(0), no number; and U' was sign(0) + 1 = 1
        ("abs(x-1)+abs(x-2)", 2, "its slope is 0 from the left and 2 from the right"),
        ("abs(x-1)+abs(x-2)", 1, "its slope is -2 from the left and 0 from the right"),
        ("abs(x)", 0, "its slope is -1 from the left and 1 from the right"),
        ("exp(abs(x-1))", 1, "its slope is -1 from the left and 1 from the right"),
        ("abs(abs(x)-1)", -1, "its slope is -1 from the left and 1 from the right"),
        ("x*abs(x)", 0, "U''(0) does not exist (it is -2 from the left and 2 from the right)"),
    ],
)
def test_a_kink_is_named_not_averaged(
    client: FlaskClient, formula: str, point: int, says: str
) -> None:
    detail = _problem(_analyze(client, formula, [-3, 3], [point]), "/points/0", "undefined")
    assert says in detail


@pytest.mark.parametrize(
    ("formula", "domain", "point", "marginal", "absolute"),
    [
        # at an end of the domain the derivative is the one-sided one within it
        ("abs(x)", [0, 1], 0, 1, 0),
        ("abs(x-1)+abs(x-2)", [2, 10], 2, 2, 0),
        # |g| with g's first derivative 0: smooth, U = x^3 + x and U = (x-1)^2 + x
        ("abs(x)^3 + x", [-1, 1], 0, 1, 0),
        ("abs((x-1)^2) + x", [0, 2], 1, 1, -2),
    ],
)
def test_one_sided_and_smooth_points_are_answered(
    client: FlaskClient, formula: str, domain: list[int], point: int, marginal: int, absolute: int
) -> None:
    response = _analyze(client, formula, domain, [point])
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    (found,) = response.get_json()["at_points"]
    assert (found["marginal"], found["absolute"]) == (marginal, absolute)


def test_a_piecewise_joint_is_a_kink(client: FlaskClient) -> None:
    utility = {
        "piecewise": [
            {"from": 0, "to": 100, "formula": "x"},
            {"from": 100, "to": 200, "formula": "100 + (x-100)/2"},
        ]
    }
    detail = _problem(_analyze(client, utility, [0, 200], [100]), "/points/0", "undefined")
    assert "its slope is 1 from the left and 1/2 from the right" in detail
    ends = _analyze(client, utility, [0, 200], [0, 200]).get_json()["at_points"]
    assert [(p["utility"], p["marginal"]) for p in ends] == [(0, 1), (150, 0.5)]
    smooth = {"piecewise": [{"to": 1, "formula": "x^2"}, {"from": 1, "formula": "2*x - 1"}]}
    detail = _problem(_analyze(client, smooth, [0, 2], [1]), "/points/0", "undefined")
    assert "U''(1) does not exist (it is 2 from the left and 0 from the right)" in detail
