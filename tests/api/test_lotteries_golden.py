"""Golden evaluate cases from tests/utility/golden/lotteries.json, each with its source."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.contract.number_rule import SUFFIX, exact_string

CASES = json.loads((Path(__file__).parents[1] / "utility/golden/lotteries.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_case(client: FlaskClient, case: dict[str, Any]) -> None:
    response = client.post("/v1/lotteries/evaluate", json=case["request"])
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    for name, expected in case["expected"].items():
        if name.endswith(SUFFIX):  # the exact value, however the rule writes it
            assert exact_string(body, name.removesuffix(SUFFIX)) == expected, case["source"]
        elif isinstance(expected, str):
            assert body[name] == expected, (name, case["source"])
        else:
            assert body[name] == pytest.approx(expected, abs=1e-6), (name, case["source"])
