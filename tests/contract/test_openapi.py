"""The committed openapi.yaml is the contract: it must match the app, and the app must honour it."""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
import yaml
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.config._checks import NegativeDataRejectionConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api import create_app
from api.openapi.spec import spec_yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILE = ROOT / "openapi.yaml"
APP = create_app({"TESTING": True, "ARBITER_TIME_LIMIT": 10.0})
SCHEMA = schemathesis.openapi.from_dict(yaml.safe_load(SPEC_FILE.read_text()))
# An invalid body may also be refused for a limit before its types are read ("16 players; at
# most 8" comes before a label that is not a string): a 413 problem, as documented.
SCHEMA.config.checks.negative_data_rejection = NegativeDataRejectionConfig(
    expected_statuses=[*SCHEMA.config.checks.negative_data_rejection.expected_statuses, 413]
)


def test_committed_spec_is_the_generated_spec() -> None:
    # Regenerate with: make spec
    assert SPEC_FILE.read_text() == spec_yaml(create_app()), (
        "openapi.yaml is stale: run `make spec` and commit it"
    )


def test_every_route_is_in_the_spec_and_back() -> None:
    app: Flask = create_app()
    document = yaml.safe_load(SPEC_FILE.read_text())
    routes = set()
    for rule in app.url_map.iter_rules():
        path = rule.rule.replace("<", "{").replace(">", "}")
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            routes.add((path, method.lower()))
    documented = {(path, method) for path, ops in document["paths"].items() for method in ops}
    assert routes == documented


def test_served_spec_is_the_committed_file() -> None:
    response = APP.test_client().get("/openapi.yaml")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == SPEC_FILE.read_text()


@SCHEMA.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
def test_app_conforms_to_the_spec(case: schemathesis.Case) -> None:
    # Responses must be documented, match their schemas, and never be a 500. A
    # schema-valid body may still be refused with a 422: JSON Schema cannot state
    # tree semantics (a depth cutoff needs evals, ids must be unique, ...). Answers are read
    # as sent without compression (a large one is gzipped for a client that asks; the tree
    # API tests check that it is the same answer).
    case.call_and_validate(
        app=APP,
        headers={"Accept-Encoding": "identity"},
        excluded_checks=[positive_data_acceptance],
    )


@pytest.mark.parametrize("path", ["/v1/trees/minimax", "/v1/trees/alphabeta"])
def test_documented_examples_work(path: str) -> None:
    document = yaml.safe_load(SPEC_FILE.read_text())
    example = document["paths"][path]["post"]["requestBody"]["content"]["application/json"][
        "example"
    ]
    response = APP.test_client().post(path, json=example)
    assert response.status_code == 200
    assert response.get_json()["value"] == 3
