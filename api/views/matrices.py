"""Endpoints that analyse normal-form games (payoff matrices)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from analysis.equilibria.json_output import report_json
from analysis.equilibria.report import DEFAULT_PARTS, AnalysisOptions, analyze_matrix
from api.body import load
from api.openapi.view_docs import operation
from api.problems import parameters_at
from api.responses import json_response
from api.schemas.matrices import MatrixAnalysisSchema, MatrixAnalyzeRequestSchema
from games.errors import ExactSizeError
from games.limits import current_deadline
from games.matrices.parser import FORMS, parse_game

bp = Blueprint("matrices", __name__, url_prefix="/v1/matrices")


def analysis_options(body: dict[str, Any]) -> AnalysisOptions:
    asked = body["include"]
    return AnalysisOptions(
        parts=frozenset(DEFAULT_PARTS if asked is None else asked),
        weak_dominance=body["weak_dominance"],
        mixed_dominance=body["mixed_dominance"],
        arithmetic=body["arithmetic"],
        lemke_howson_label=body["lemke_howson_label"],
        explicit=frozenset(asked or ()),
    )


@bp.post("/analyze")
@operation(
    summary="Analyse a normal-form game",
    description="Best responses, pure Nash equilibria, iterated elimination of dominated "
    "strategies (pure and mixed dominators, weak on request), all extreme mixed equilibria "
    "of a two-player game exactly (with degeneracy and continua of equilibria), the value and "
    "optimal strategies of a zero-sum game, security levels, indifference equations of 2xn "
    "games, Lemke-Howson and an SVG envelope plot on request.",
    tag="matrices",
    request=MatrixAnalyzeRequestSchema,
    response=MatrixAnalysisSchema,
    example={"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]], "labels": [["U", "D"], ["L", "R"]]},
)
def analyze_view() -> Response:
    body = load(MatrixAnalyzeRequestSchema)
    game = parse_game(body)
    try:
        with parameters_at(parts="/include", label="/lemke_howson_label"):
            report = analyze_matrix(game, analysis_options(body), current_deadline())
    except ExactSizeError as error:
        if error.errors[0].pointer:
            raise
        # an exact number grew from the payoffs: point at them
        raise ExactSizeError(error.message, payoff_field(body)) from None
    return json_response(report_json(report))


def payoff_field(body: dict[str, Any]) -> str:
    """The pointer of the field holding the payoffs (``/A``, ``/payoffs``, ...)."""
    return next((f"/{name}" for name in FORMS if body.get(name) is not None), "")
