"""POST /v1/utility/elicit: sqrt answers (U(90) = .3, U(250) = .5, U(640) = .8) give CRRA 1/2."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


def test_elicit_fields(client: FlaskClient) -> None:
    body = client.post(
        "/v1/utility/elicit",
        json={
            "worst": 0,
            "best": 1000,
            "standard_gambles": [
                {"prize": 90, "p": "0.3"},
                {"prize": 250, "p": "0.5"},
                {"prize": 640, "p": "0.8"},
            ],
        },
    ).get_json()
    assert body["crra"]["coefficient"] == pytest.approx(0.5, abs=1e-5)
    assert body["crra"]["explains_all"] is True
    assert len(body["cara"]["residuals"]) == 3
    assert body["flagged"] == []


def test_prize_outside_range_is_422(client: FlaskClient) -> None:
    response = client.post(
        "/v1/utility/elicit",
        json={"worst": 0, "best": 10, "standard_gambles": [{"prize": 20, "p": "0.3"}]},
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/standard_gambles/0/prize"
