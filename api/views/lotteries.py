"""Endpoints on lotteries: evaluate one, compare several, EU consistency of choices."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from api.body import load
from api.openapi.view_docs import operation
from api.responses import json_response
from api.schemas.lotteries import (
    CompareRequestSchema,
    CompareResultSchema,
    ConsistencyRequestSchema,
    ConsistencyResultSchema,
    EvaluateRequestSchema,
    EvaluateResultSchema,
    PlotRequestSchema,
)
from games.errors import join_pointer
from games.numbers import Exact, parse_exact
from utility.compare import compare
from utility.eu_consistency import eu_consistency, parse_choice
from utility.evaluate import evaluate_lottery
from utility.formula import parse_parameters
from utility.function import UtilityFunction, read_utility
from utility.json_output import (
    comparison_json,
    consistency_json,
    evaluate_json,
)
from utility.lottery import parse_lottery, parse_named_lotteries
from utility.plot import risk_profile_svg, utility_curve_svg

bp = Blueprint("lotteries", __name__, url_prefix="/v1/lotteries")

ALLAIS = {
    "A": [{"p": "0.8", "x": 4000}, {"p": "0.2", "x": 0}],
    "B": [{"p": 1, "x": 3000}],
    "C": [{"p": "0.2", "x": 4000}, {"p": "0.8", "x": 0}],
    "D": [{"p": "0.25", "x": 3000}, {"p": "0.75", "x": 0}],
}
"""AIMA's Allais lotteries (ch. 16), the documented example."""


def read_utility_options(options: dict[str, Any]) -> tuple[UtilityFunction, Exact]:
    """The utility function and initial wealth a request states."""
    parameters = parse_parameters(options["parameters"], "/parameters")
    wealth = parse_exact(options["wealth"], "/wealth")
    return read_utility(options["utility"], parameters, "/utility"), wealth


@bp.post("/evaluate")
@operation(
    summary="EMV, expected utility, certainty equivalent and risk premium of a lottery",
    description="Reduces a compound lottery, then computes EMV, E[U(w + x)], the certainty "
    "equivalent (closed form through the utility's inverse where one exists, else Brent's "
    "method with the stated tolerance), the risk premium EMV - CE and the risk attitude the "
    "lottery reveals. Exact strings accompany the numbers where an exact form exists.",
    tag="lotteries",
    request=EvaluateRequestSchema,
    response=EvaluateResultSchema,
    example={"lottery": [{"p": "0.5", "x": 1000}, {"p": "0.5", "x": 0}], "utility": "sqrt(x)"},
)
def evaluate_view() -> Response:
    options = load(EvaluateRequestSchema)
    utility, wealth = read_utility_options(options)
    parsed = parse_lottery(options["lottery"], "/lottery")
    result = evaluate_lottery(parsed.lottery, utility, wealth, parsed.pointers)
    reduced = parsed.lottery if options["reduce"] else None
    return json_response(evaluate_json(result, utility.formula, wealth, parsed.compound, reduced))


@bp.post("/compare")
@operation(
    summary="Rank several lotteries by expected utility and find stochastic dominance",
    description="Evaluates each named lottery under one utility (linear when omitted), ranks "
    "them by expected utility (the same order as by certainty equivalent) and lists every "
    "first- and second-order stochastic-dominance pair, decided exactly.",
    tag="lotteries",
    request=CompareRequestSchema,
    response=CompareResultSchema,
    example={"lotteries": ALLAIS, "utility": "sqrt(x)"},
)
def compare_view() -> Response:
    options = load(CompareRequestSchema)
    utility, wealth = read_utility_options(options)
    parsed = {
        name: parse_lottery(raw, join_pointer("/lotteries", name))
        for name, raw in options["lotteries"].items()
    }  # pointers kept for domain errors
    result = compare(
        {n: p.lottery for n, p in parsed.items()},
        utility,
        wealth,
        {n: p.pointers for n, p in parsed.items()},
    )
    return json_response(comparison_json(result, utility.formula))


@bp.post("/eu-consistency")
@operation(
    summary="Can any expected-utility function explain these choices? (Allais)",
    description="Writes each choice as a linear constraint on the utilities of the prizes and "
    "solves the feasibility LP with HiGHS. Consistent: a witness utility per prize (worst 0, "
    "best 1). Inconsistent: a Farkas certificate, the multipliers that add the choices up to "
    "'a number exceeds itself', with the argument as readable inequalities.",
    tag="lotteries",
    request=ConsistencyRequestSchema,
    response=ConsistencyResultSchema,
    example={"lotteries": ALLAIS, "choices": [["B", ">", "A"], ["C", ">", "D"]]},
)
def eu_consistency_view() -> Response:
    options = load(ConsistencyRequestSchema)
    lotteries = parse_named_lotteries(options["lotteries"], "/lotteries")
    names = set(lotteries)
    choices = [
        parse_choice(raw, names, join_pointer("/choices", i))
        for i, raw in enumerate(options["choices"])
    ]
    # the LPs run under the request's deadline (games.limits.current_deadline)
    result = eu_consistency(lotteries, choices, increasing=options["increasing"], time_limit=None)
    return json_response(consistency_json(result))


@bp.post("/plot")
@operation(
    summary="Draw a lottery: utility curve with chord, EMV, CE and premium, or its risk profile",
    description="Takes the evaluate body plus kind and returns an SVG image.",
    tag="lotteries",
    request=PlotRequestSchema,
    response={"type": "string", "description": "An SVG document."},
    media_type="image/svg+xml",
    example={"lottery": [{"p": "0.5", "x": 1000}, {"p": "0.5", "x": 0}], "utility": "sqrt(x)"},
)
def plot_view() -> Response:
    options = load(PlotRequestSchema)
    utility, wealth = read_utility_options(options)
    parsed = parse_lottery(options["lottery"], "/lottery")
    if options["kind"] == "risk_profile":
        image = risk_profile_svg(parsed.lottery)
    else:
        result = evaluate_lottery(parsed.lottery, utility, wealth, parsed.pointers)
        image = utility_curve_svg(parsed.lottery, utility, result, wealth)
    return Response(image, mimetype="image/svg+xml")
