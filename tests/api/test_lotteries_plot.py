"""POST /v1/lotteries/plot returns a deterministic SVG with the marks a reader needs.

AIMA's [0.5, $1000; 0.5, $0] under sqrt: EMV 500, EU = sqrt(1000)/2 = 5*sqrt(10), CE = 250,
risk premium 250.
"""

from __future__ import annotations

from xml.etree import ElementTree

from flask.testing import FlaskClient

BODY = {"lottery": [{"p": "0.5", "x": 1000}, {"p": "0.5", "x": 0}], "utility": "sqrt(x)"}
SVG = "{http://www.w3.org/2000/svg}"
HALF = "1/2"


def legend(text: str) -> list[str]:
    root = ElementTree.fromstring(text)
    (box,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "legend_1"]
    return [t.text or "" for t in box.iter(f"{SVG}text")]


def test_utility_plot_marks_emv_ce_and_premium(client: FlaskClient) -> None:
    response = client.post("/v1/lotteries/plot", json=BODY)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    entries = legend(response.get_data(as_text=True))
    assert "CE = 250, U(w + CE) = EU" in entries
    assert "(EMV, EU) = (500, 5*sqrt(10) ≈ 15.811)" in entries
    assert "risk premium EMV - CE = 250" in entries


def test_the_same_request_gives_the_same_bytes(client: FlaskClient) -> None:
    first = client.post("/v1/lotteries/plot", json=BODY).get_data()
    assert client.post("/v1/lotteries/plot", json=BODY).get_data() == first
    profile = {**BODY, "kind": "risk_profile"}
    assert (
        client.post("/v1/lotteries/plot", json=profile).get_data()
        == client.post("/v1/lotteries/plot", json=profile).get_data()
    )


def test_initial_wealth_is_named_on_the_axis(client: FlaskClient) -> None:
    # w = 44: sqrt(44 + 5) = 7 and sqrt(44 + 20) = 8, EU 15/2, CE = 225/4 - 44 = 49/4
    body = {"lottery": [[HALF, 5], [HALF, 20]], "utility": "sqrt(x)", "wealth": 44}
    text = client.post("/v1/lotteries/plot", json=body).get_data(as_text=True)
    assert "utility U(w + x), w = 44" in text
    assert "CE = 49/4 ≈ 12.25, U(w + CE) = EU" in legend(text)


def test_risk_profile_plot(client: FlaskClient) -> None:
    response = client.post("/v1/lotteries/plot", json={**BODY, "kind": "risk_profile"})
    assert response.status_code == 200
    assert legend(response.get_data(as_text=True)) == [
        "P(X <= x)",
        "P(X <= x) at each outcome",
    ]


def test_plot_errors_are_problem_json(client: FlaskClient) -> None:
    response = client.post("/v1/lotteries/plot", json={**BODY, "utility": "log(x)"})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["errors"][0]["pointer"] == "/lottery/1/x"
