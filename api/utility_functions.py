"""Endpoints on utility functions: shape and risk aversion, elicitation from answers."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from api.body import load
from api.lotteries import read_lotteries
from api.openapi import operation
from api.responses import json_response
from api.utility_schemas import AnalyzeRequestSchema, AnalyzeResultSchema
from games.errors import join_pointer
from games.numbers import parse_exact, to_float
from utility.analysis import UtilityAnalysis, analyze
from utility.formula import parse_parameters
from utility.function import read_utility

bp = Blueprint("utility_functions", __name__, url_prefix="/v1/utility")


def analysis_json(result: UtilityAnalysis) -> dict[str, Any]:
    points = []
    for point in result.at_points:
        entry: dict[str, Any] = {"x": to_float(point.x), "utility": point.utility,
                                 "marginal": point.marginal, "absolute": point.absolute,
                                 "relative": point.relative}
        for name in ("utility_exact", "absolute_exact", "relative_exact"):
            if getattr(point, name) is not None:
                entry[name] = getattr(point, name)
        points.append(entry)
    affine = result.affine
    return {
        "utility": result.formula, "derivative": result.derivative,
        "second_derivative": result.second_derivative,
        "domain": [to_float(result.low), to_float(result.high)],
        "increasing": result.increasing, "decreasing_at": result.decreasing_at,
        "curvature": result.curvature, "attitude": result.attitude,
        "changes_at": list(result.changes_at),
        "arrow_pratt_absolute": result.arrow_pratt_absolute,
        "arrow_pratt_relative": result.arrow_pratt_relative,
        "at_points": points,
        "affine_invariance": {
            "a": to_float(affine.a), "b": to_float(affine.b),
            "arrow_pratt_unchanged": affine.arrow_pratt_unchanged,
            "certainty_equivalents": [
                {"name": n, "certainty_equivalent": c, "transformed": t}
                for n, c, t in affine.certainty_equivalents],
            "ranking_unchanged": affine.ranking_unchanged,
        },
    }


@bp.post("/analyze")
@operation(
    summary="Monotonicity, curvature, risk attitude and Arrow-Pratt risk aversion of a utility",
    description="Exact derivatives (SymPy) whose signs are checked on the stated domain "
    "(sampled, with sign changes of U'' located by root-finding); the Arrow-Pratt absolute "
    "-U''/U' and relative -xU''/U' risk aversion as formulas and at given points; and a check "
    "that a*U + b (a > 0) leaves them, the CEs and the ranking of given lotteries unchanged.",
    tag="utility",
    request=AnalyzeRequestSchema,
    response=AnalyzeResultSchema,
    example={"utility": "1 - exp(-x/R)", "parameters": {"R": 1000}, "domain": [0, 5000],
             "points": [100, 1000]},
)
def analyze_view() -> Response:
    options = load(AnalyzeRequestSchema())
    utility = read_utility(options["utility"], parse_parameters(options["parameters"],
                                                                "/parameters"), "/utility")
    low, high = (parse_exact(v, join_pointer("/domain", i))
                 for i, v in enumerate(options["domain"]))
    points = [parse_exact(v, join_pointer("/points", i)) for i, v in enumerate(options["points"])]
    lotteries = read_lotteries(options["lotteries"])
    affine = options["affine"]
    result = analyze(utility, low, high, points, lotteries,
                     parse_exact(affine["a"], "/affine/a"), parse_exact(affine["b"], "/affine/b"))
    return json_response(analysis_json(result))
