"""Endpoints on utility functions: shape and risk aversion, elicitation from answers."""

from __future__ import annotations

from flask import Blueprint, Response

from api.body import load
from api.openapi.view_docs import operation
from api.problems import parameters_at
from api.responses import json_response
from api.schemas.utility_functions import (
    AnalyzeRequestSchema,
    AnalyzeResultSchema,
    ElicitRequestSchema,
    ElicitResultSchema,
)
from games.errors import join_pointer
from games.numbers import parse_exact
from utility.elicitation import StandardGamble, StatedCertaintyEquivalent, elicit
from utility.formula import parse_parameters
from utility.function import read_utility
from utility.json_output import elicitation_json, shape_json
from utility.lottery import parse_lottery, parse_named_lotteries
from utility.shape import analyze

bp = Blueprint("utility_functions", __name__, url_prefix="/v1/utility")


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
    options = load(AnalyzeRequestSchema)
    utility = read_utility(
        options["utility"], parse_parameters(options["parameters"], "/parameters"), "/utility"
    )
    low, high = (
        parse_exact(v, join_pointer("/domain", i)) for i, v in enumerate(options["domain"])
    )
    points = [parse_exact(v, join_pointer("/points", i)) for i, v in enumerate(options["points"])]
    lotteries = parse_named_lotteries(options["lotteries"], "/lotteries")
    affine = options["affine"]
    with parameters_at(affine="/affine/a"):
        result = analyze(
            utility,
            low,
            high,
            points,
            lotteries,
            parse_exact(affine["a"], "/affine/a"),
            parse_exact(affine["b"], "/affine/b"),
        )
    return json_response(shape_json(result))


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
    options = load(ElicitRequestSchema)
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
