"""POST /v1/preferences/check: the von Neumann-Morgenstern axioms on stated preferences."""

from __future__ import annotations

from flask import Blueprint, Response

from api.body import load
from api.openapi.view_docs import operation
from api.responses import json_response
from api.schemas.preferences import PreferencesRequestSchema, PreferencesResultSchema
from utility.axioms import check_axioms
from utility.json_output import axioms_json
from utility.preferences import parse_preferences

bp = Blueprint("preferences", __name__, url_prefix="/v1/preferences")


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
    options = load(PreferencesRequestSchema)
    problem = parse_preferences(options["prizes"], options["lotteries"], options["preferences"])
    return json_response(axioms_json(check_axioms(problem), problem.prizes))
