"""POST /v1/lotteries/plot returns well-formed SVG with the marks a reader needs."""

from __future__ import annotations

from xml.etree import ElementTree

from flask.testing import FlaskClient

BODY = {"lottery": [{"p": "0.5", "x": 1000}, {"p": "0.5", "x": 0}], "utility": "sqrt(x)"}


def test_utility_plot_marks_emv_ce_and_premium(client: FlaskClient) -> None:
    response = client.post("/v1/lotteries/plot", json=BODY)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    text = response.get_data(as_text=True)
    ElementTree.fromstring(text)  # well-formed XML
    assert "EMV 500" in text and "CE 250" in text and "risk premium 250" in text


def test_risk_profile_plot(client: FlaskClient) -> None:
    response = client.post("/v1/lotteries/plot", json={**BODY, "kind": "risk_profile"})
    assert response.status_code == 200
    ElementTree.fromstring(response.get_data(as_text=True))


def test_plot_errors_are_problem_json(client: FlaskClient) -> None:
    response = client.post("/v1/lotteries/plot", json={**BODY, "utility": "log(x)"})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
