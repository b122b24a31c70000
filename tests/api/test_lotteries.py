"""POST /v1/lotteries/evaluate and /v1/lotteries/compare (AIMA ch. 16 cases, worked by hand)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.contract.number_rule import exact_string, rule_violations
from tests.utility.test_formula import ATTACKS

EVALUATE = "/v1/lotteries/evaluate"
COMPARE = "/v1/lotteries/compare"
COIN_1000 = [{"p": 0.5, "x": 1000}, {"p": 0.5, "x": 0}]


def test_sqrt_utility_fields_and_exact_companions(client: FlaskClient) -> None:
    body = client.post(EVALUATE, json={"lottery": COIN_1000, "utility": "sqrt(x)"}).get_json()
    assert body["emv"] == 500
    assert body["expected_utility"] == pytest.approx(50 * 10**0.5 / 10)
    assert body["expected_utility_exact"] == "5*sqrt(10)"
    # integers are exact JSON numbers, so they need no companion (docs/numbers.md)
    assert type(body["certainty_equivalent"]) is int and body["certainty_equivalent"] == 250
    assert type(body["risk_premium"]) is int and body["risk_premium"] == 250
    assert not {"emv_exact", "certainty_equivalent_exact", "risk_premium_exact"} & body.keys()
    assert body["attitude"] == "risk_averse"
    assert rule_violations(body) == []


@pytest.mark.parametrize(
    ("request_body", "ce"),
    [
        ({"lottery": [{"p": "0.5", "x": 100}, {"p": "0.5", "x": 400}], "utility": "log(x)"}, "200"),
        (
            {
                "lottery": [{"p": "1/2", "x": 50}, {"p": "1/2", "x": 200}],
                "utility": {"family": "crra"},
                "parameters": {"gamma": 2},
            },
            "80",
        ),
        (
            {
                "lottery": [{"p": "1/2", "x": 50}, {"p": "1/2", "x": 200}],
                "utility": "(x^(1-g) - 1)/(1-g)",
                "parameters": {"g": 2},
            },
            "80",
        ),
        ({"lottery": COIN_1000, "utility": "x^0.5"}, "250"),
        # log utility at wealth 100 on [1/2, -50; 1/2, 100]: CE = sqrt(50*200) - 100 = 0
        ({"lottery": [[0.5, -50], [0.5, 100]], "utility": "ln(x)", "wealth": 100}, "0"),
    ],
)
def test_textbook_certainty_equivalents(
    client: FlaskClient, request_body: dict[str, object], ce: str
) -> None:
    response = client.post(EVALUATE, json=request_body)
    assert response.status_code == 200, response.get_json()
    assert exact_string(response.get_json(), "certainty_equivalent") == ce


def test_decimal_probabilities_sum_exactly(client: FlaskClient) -> None:
    lottery = [{"p": 0.1, "x": 10}, {"p": 0.2, "x": 20}, {"p": 0.7, "x": 30}]
    body = client.post(EVALUATE, json={"lottery": lottery}).get_json()
    assert body["emv"] == 26 and "emv_exact" not in body  # 1 + 4 + 21, exactly
    assert body["attitude"] == "risk_neutral"


def test_compound_lottery_is_reduced_on_request(client: FlaskClient) -> None:
    inner = [{"p": "1/2", "x": 0}, {"p": "1/2", "x": 8}]
    lottery = [{"p": "1/2", "x": 0}, {"p": "1/2", "x": inner}]
    body = client.post(EVALUATE, json={"lottery": lottery, "reduce": True}).get_json()
    assert body["compound"] is True
    assert [(b["p_exact"], b["x"]) for b in body["reduced"]] == [("3/4", 0), ("1/4", 8)]
    assert body["emv"] == 2


@pytest.mark.parametrize(
    ("request_body", "pointer"),
    [
        ({"lottery": [{"p": 0.5, "x": 1}, {"p": 0.4, "x": 2}]}, "/lottery"),
        ({"lottery": [{"p": -0.5, "x": 1}, {"p": 1.5, "x": 2}]}, "/lottery/0/p"),
        ({"lottery": [{"p": 1, "x": "nan"}]}, "/lottery/0/x"),
        ({"lottery": [{"p": 1, "x": 1}], "utility": "log(x)", "wealth": -1}, "/lottery/0/x"),
        ({"lottery": COIN_1000, "utility": "log(x)"}, "/lottery/1/x"),
        ({"lottery": COIN_1000, "utility": "1 - exp(-x/R)"}, "/utility"),
        (
            {"lottery": COIN_1000, "utility": {"family": "cara"}, "parameters": {"R": 0}},
            "/parameters/R",
        ),
        ({"lottery": COIN_1000, "utility": "-x"}, "/utility"),
    ],
)
def test_bad_input_is_422_with_pointer(
    client: FlaskClient, request_body: dict[str, object], pointer: str
) -> None:
    response = client.post(EVALUATE, json=request_body)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert pointer in [e["pointer"] for e in response.get_json()["errors"]]


@pytest.mark.parametrize("formula", ATTACKS)
def test_attack_formulas_get_422(client: FlaskClient, formula: str) -> None:
    response = client.post(EVALUATE, json={"lottery": COIN_1000, "utility": formula})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/utility"


ALLAIS = {
    "A": [{"p": "0.8", "x": 4000}, {"p": "0.2", "x": 0}],
    "B": [{"p": 1, "x": 3000}],
    "C": [{"p": "0.2", "x": 4000}, {"p": "0.8", "x": 0}],
    "D": [{"p": "0.25", "x": 3000}, {"p": "0.75", "x": 0}],
}


def test_compare_ranks_and_finds_dominance(client: FlaskClient) -> None:
    response = client.post(COMPARE, json={"lotteries": ALLAIS, "utility": "sqrt(x)"})
    body = response.get_json()
    # sqrt: EU(B) = sqrt(3000) ~ 54.8 > EU(A) = 0.8 sqrt(4000) ~ 50.6 > EU(D) ~ 13.7 > EU(C) ~ 12.6
    assert [r["name"] for r in body["ranking"]] == ["B", "A", "D", "C"]
    assert exact_string(body["ranking"][1], "certainty_equivalent") == "2560"  # (0.8 sqrt(4000))^2
    # A's CDF (0.2 below 4000) lies under C's (0.8) and D's; B is sure 3000 > D's outcomes;
    # B vs C cross (C has 4000), but B's integrated CDF is smaller everywhere (EMV 3000 > 800).
    pairs = {(d["dominant"], d["dominated"], d["order"]) for d in body["dominance"]}
    assert pairs == {
        ("A", "C", "first"),
        ("A", "D", "first"),
        ("B", "D", "first"),
        ("B", "C", "second"),
    }


def test_compare_ties_share_a_rank(client: FlaskClient) -> None:
    lotteries = {"X": [[0.5, 0], [0.5, 10]], "Y": [[1, 5]]}
    body = client.post(COMPARE, json={"lotteries": lotteries}).get_json()
    assert [r["rank"] for r in body["ranking"]] == [1, 1]
    assert body["dominance"] == [{"dominant": "Y", "dominated": "X", "order": "second"}]
