"""POST /v1/utility/analyze: field names and a hand-derived CARA case (A = 1/R)."""

from __future__ import annotations

from flask.testing import FlaskClient

PATH = "/v1/utility/analyze"


def test_cara_fields(client: FlaskClient) -> None:
    body = client.post(
        PATH,
        json={
            "utility": {"family": "cara"},
            "parameters": {"R": 1000},
            "domain": [0, 5000],
            "points": [100],
        },
    ).get_json()
    assert body["increasing"] is True
    assert body["curvature"] == "concave"
    assert body["attitude"] == "risk_averse"
    assert body["arrow_pratt_absolute"] == "1/1000"
    assert body["arrow_pratt_relative"] == "x/1000"
    assert body["at_points"][0]["relative_exact"] == "1/10"
    assert body["affine_invariance"]["arrow_pratt_unchanged"] is True


def test_undefined_on_domain_is_422(client: FlaskClient) -> None:
    response = client.post(PATH, json={"utility": "log(x)", "domain": [-1, 10]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/domain"


def test_bad_domain_is_422(client: FlaskClient) -> None:
    response = client.post(PATH, json={"utility": "x", "domain": [5, 1]})
    assert response.status_code == 422
