"""Endpoints on utility functions: shape and risk aversion, elicitation from answers."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from api.body import load
from api.openapi.view_docs import operation
from api.output.responses import json_response
from api.schemas.utility_functions import (
    AnalyzeRequestSchema,
    AnalyzeResultSchema,
    ElicitRequestSchema,
    ElicitResultSchema,
)
from games.errors import join_pointer
from games.numbers import parse_exact, to_float
from utility.elicitation import Elicitation, Fit, StandardGamble, StatedCertaintyEquivalent, elicit
from utility.formula import parse_parameters
from utility.function import read_utility
from utility.lottery import parse_lottery, parse_named_lotteries
from utility.shape import UtilityAnalysis, analyze

bp = Blueprint("utility_functions", __name__, url_prefix="/v1/utility")


def analysis_json(result: UtilityAnalysis) -> dict[str, Any]:
    points = []
    for point in result.at_points:
        entry: dict[str, Any] = {
            "x": to_float(point.x),
            "utility": point.utility,
            "marginal": point.marginal,
            "absolute": point.absolute,
            "relative": point.relative,
        }
        for name in ("utility_exact", "absolute_exact", "relative_exact"):
            if getattr(point, name) is not None:
                entry[name] = getattr(point, name)
        points.append(entry)
    affine = result.affine
    return {
        "utility": result.formula,
        "derivative": result.derivative,
        "second_derivative": result.second_derivative,
        "domain": [to_float(result.low), to_float(result.high)],
        "increasing": result.increasing,
        "decreasing_at": result.decreasing_at,
        "curvature": result.curvature,
        "attitude": result.attitude,
        "changes_at": list(result.changes_at),
        "arrow_pratt_absolute": result.arrow_pratt_absolute,
        "arrow_pratt_relative": result.arrow_pratt_relative,
        "at_points": points,
        "affine_invariance": {
            "a": to_float(affine.a),
            "b": to_float(affine.b),
            "arrow_pratt_unchanged": affine.arrow_pratt_unchanged,
            "certainty_equivalents": [
                {"name": n, "certainty_equivalent": c, "transformed": t}
                for n, c, t in affine.certainty_equivalents
            ],
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
    example={
        "utility": "1 - exp(-x/R)",
        "parameters": {"R": 1000},
        "domain": [0, 5000],
        "points": [100, 1000],
    },
)
def analyze_view() -> Response:
    options = load(AnalyzeRequestSchema())
    utility = read_utility(
        options["utility"], parse_parameters(options["parameters"], "/parameters"), "/utility"
    )
    low, high = (
        parse_exact(v, join_pointer("/domain", i)) for i, v in enumerate(options["domain"])
    )
    points = [parse_exact(v, join_pointer("/points", i)) for i, v in enumerate(options["points"])]
    lotteries = parse_named_lotteries(options["lotteries"], "/lotteries")
    affine = options["affine"]
    result = analyze(
        utility,
        low,
        high,
        points,
        lotteries,
        parse_exact(affine["a"], "/affine/a"),
        parse_exact(affine["b"], "/affine/b"),
    )
    return json_response(analysis_json(result))


def _fit_json(fit: Fit) -> dict[str, Any]:
    return {
        "family": fit.family,
        "coefficient": fit.coefficient,
        "residuals": list(fit.residuals),
        "rmse": fit.rmse,
        "explains_all": fit.explains_all,
    }


def elicitation_json(result: Elicitation) -> dict[str, Any]:
    return {
        "points": [{"x": to_float(x), "utility": u} for x, u in result.points],
        "cara": _fit_json(result.cara),
        "crra": None if result.crra is None else _fit_json(result.crra),
        "crra_note": result.crra_note,
        "implied_cara": list(result.implied_cara),
        "flagged": [
            {"answer": i, "reason": r} for i, r in zip(result.flagged, result.reasons, strict=True)
        ],
    }


@bp.post("/elicit")
@operation(
    summary="Utility points and fitted CARA/CRRA curves from elicitation answers",
    description="Standard gambles (prize ~ [p, best; 1-p, worst]) give U(prize) = p with "
    "U(worst) = 0, U(best) = 1; stated certainty equivalents give U(ce) = EU(lottery). Fits "
    "CARA and CRRA by least squares with residuals per answer, and flags answers that no single "
    "risk-aversion coefficient explains together with the others.",
    tag="utility",
    request=ElicitRequestSchema,
    response=ElicitResultSchema,
    example={
        "worst": 0,
        "best": 1000,
        "standard_gambles": [
            {"prize": 250, "p": "0.5"},
            {"prize": 500, "p": "0.75"},
            {"prize": 750, "p": "0.9"},
        ],
    },
)
def elicit_view() -> Response:
    options = load(ElicitRequestSchema())
    gambles = [
        StandardGamble(
            parse_exact(g["prize"], f"/standard_gambles/{i}/prize"),
            parse_exact(g["p"], f"/standard_gambles/{i}/p"),
        )
        for i, g in enumerate(options["standard_gambles"])
    ]
    stated = [
        StatedCertaintyEquivalent(
            parse_lottery(s["lottery"], f"/certainty_equivalents/{i}/lottery").lottery,
            parse_exact(s["ce"], f"/certainty_equivalents/{i}/ce"),
        )
        for i, s in enumerate(options["certainty_equivalents"])
    ]
    result = elicit(
        parse_exact(options["worst"], "/worst"),
        parse_exact(options["best"], "/best"),
        gambles,
        stated,
        parse_exact(options["wealth"], "/wealth"),
    )
    return json_response(elicitation_json(result))
