"""POST /v1/preferences/check: the von Neumann-Morgenstern axioms on stated preferences."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from api.body import load
from api.openapi.view_docs import operation
from api.output.responses import json_response
from api.schemas.preferences import PreferencesRequestSchema, PreferencesResultSchema
from utility.axioms import AxiomReport, check_axioms
from utility.preferences import parse_problem

bp = Blueprint("preferences", __name__, url_prefix="/v1/preferences")


def report_json(report: AxiomReport, prizes: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "axioms": {
            name: {"holds": r.holds, "witness": r.witness} for name, r in report.axioms.items()
        },
        "utility": None,
        "expected_utility_consistent": None,
    }
    consistency = report.consistency
    if consistency is not None:
        out["expected_utility_consistent"] = consistency.consistent
        if consistency.witness is not None:
            out["utility"] = {
                prizes[int(k)]: float(v)
                for k, v in zip(consistency.prizes, consistency.witness, strict=True)
            }
            if consistency.witness_exact:
                out["utility_exact"] = {
                    prizes[int(k)]: str(v)
                    for k, v in zip(consistency.prizes, consistency.witness, strict=True)
                }
        if consistency.certificate is not None:
            out["explanation"] = consistency.certificate.explanation
    return out


@bp.post("/check")
@operation(
    summary="Check stated preferences against the von Neumann-Morgenstern axioms",
    description="Orderability, transitivity (with a cycle and the money-pump trades), "
    "continuity, substitutability, monotonicity and decomposability, each with holds and a "
    "witness; then, when they hold, a utility per prize consistent with every statement.",
    tag="preferences",
    request=PreferencesRequestSchema,
    response=PreferencesResultSchema,
    example={
        "prizes": ["A", "B", "C"],
        "preferences": [["A", ">", "B"], ["B", ">", "C"], ["C", ">", "A"]],
    },
)
def check_view() -> Response:
    options = load(PreferencesRequestSchema())
    problem = parse_problem(options["prizes"], options["lotteries"], options["preferences"])
    return json_response(report_json(check_axioms(problem), problem.prizes))
