"""Envelopes of the lottery, utility and preference endpoints.

Lotteries and utilities are parsed by ``utility.lottery`` and ``utility.function``
(with pointers into the body); here they are raw fields with a stated JSON schema.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from api.schemas.fields import (
    StrictBoolean,
    exact_companion,
    exact_list_companion,
    exact_map_companion,
)

NUMBER: dict[str, Any] = {"$ref": "#/components/schemas/ExactNumber"}
BRANCH: dict[str, Any] = {
    "oneOf": [
        {
            "type": "object",
            "required": ["p", "x"],
            "additionalProperties": False,
            "properties": {
                "p": NUMBER,
                "x": {
                    "oneOf": [NUMBER, {"type": "array"}],
                    "description": "Money, or a nested lottery.",
                },
            },
        },
        {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "description": "[p, x] shorthand",
            "items": {"oneOf": [NUMBER, {"type": "array"}]},
        },
    ]
}
LOTTERY: dict[str, Any] = {
    "type": "array",
    "minItems": 1,
    "items": BRANCH,
    "description": 'Branches [{"p": probability, "x": money or nested lottery}]; '
    "probabilities exact, >= 0, summing to exactly 1. Equal outcomes are merged.",
}
UTILITY: dict[str, Any] = {
    "nullable": True,
    "description": 'A formula in x ("sqrt(x)", "1 - exp(-x/R)", "x^0.5"; allowed: numbers, '
    "x, declared parameters, + - * / ^, sqrt log ln exp abs, e, pi), a named family "
    '({"family": "linear" | "exponential" | "cara" | "power" | "crra" | '
    '"quadratic"}, parameters R, gamma, b) or a piecewise list. Omitted: linear.',
    "oneOf": [
        {"type": "string", "maxLength": 500},
        {
            "type": "object",
            "required": ["family"],
            "additionalProperties": False,
            "properties": {"family": {"type": "string"}},
        },
        {
            "type": "object",
            "required": ["piecewise"],
            "additionalProperties": False,
            "properties": {
                "piecewise": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["formula"],
                        "properties": {"from": NUMBER, "to": NUMBER, "formula": {"type": "string"}},
                    },
                }
            },
        },
    ],
}


def _lottery_field(**kwargs: Any) -> fields.Raw:
    return fields.Raw(metadata={"openapi": LOTTERY}, **kwargs)


class UtilityInputSchema(Schema):
    utility = fields.Raw(load_default=None, allow_none=True, metadata={"openapi": UTILITY})
    parameters = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(metadata={"openapi": NUMBER}),
        load_default=dict,
        metadata={
            "description": 'Values of the names the formula or family uses, e.g. {"R": 1000}.'
        },
    )
    wealth = fields.Raw(
        load_default=0,
        metadata={
            "openapi": {
                "allOf": [NUMBER],
                "description": "Initial wealth w: utility applies to w + x. Default 0.",
            }
        },
    )


class EvaluateRequestSchema(UtilityInputSchema):
    lottery = _lottery_field(required=True)
    reduce = StrictBoolean(
        load_default=False,
        metadata={"description": "Return the simple lottery the input reduces to."},
    )


class CompareRequestSchema(UtilityInputSchema):
    lotteries = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=100)),
        values=fields.Raw(metadata={"openapi": LOTTERY}),
        required=True,
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "Named lotteries to compare."},
    )


class LotteryBranchSchema(Schema):
    p = fields.Float(required=True)
    p_exact = exact_companion("p")
    x = fields.Float(required=True)
    x_exact = exact_companion("x")


def _number(description: str, required: bool = True) -> fields.Float:
    return fields.Float(
        required=required, allow_none=not required, metadata={"description": description}
    )


class LotteryEvaluationSchema(Schema):
    emv = _number("Expected monetary value.")
    emv_exact = exact_companion("emv")
    expected_utility = _number("Expected utility E[U(w + x)].")
    expected_utility_exact = exact_companion("expected_utility")
    certainty_equivalent = _number("Sure amount CE with U(w + CE) = EU.")
    certainty_equivalent_exact = exact_companion("certainty_equivalent")
    risk_premium = _number("EMV - CE: what the agent would give up to remove the risk.")
    risk_premium_exact = exact_companion("risk_premium")
    attitude = fields.String(
        required=True,
        validate=validate.OneOf(["risk_averse", "risk_neutral", "risk_seeking"]),
        metadata={"description": "Compares CE with EMV for this lottery."},
    )
    method = fields.String(
        required=True,
        validate=validate.OneOf(["closed_form", "root_finding", "degenerate"]),
        metadata={
            "description": "How CE was found: the utility's inverse, Brent's bracketing "
            "root-finding, or a lottery with one outcome."
        },
    )
    tolerance = fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "Absolute tolerance on CE for root_finding, else null."},
    )


class EvaluateResultSchema(LotteryEvaluationSchema):
    utility = fields.String(required=True, metadata={"description": "The formula used, U(x)."})
    wealth = fields.Float(required=True)
    wealth_exact = exact_companion("wealth")
    compound = fields.Boolean(
        required=True, metadata={"description": "Some outcome was itself a lottery."}
    )
    reduced = fields.List(
        fields.Nested(LotteryBranchSchema),
        metadata={"description": "The simple lottery, when reduce was asked."},
    )


class RankedLotterySchema(LotteryEvaluationSchema):
    rank = fields.Integer(required=True, metadata={"description": "1 is best; ties share a rank."})
    name = fields.String(required=True)


class StochasticDominanceSchema(Schema):
    dominant = fields.String(required=True)
    dominated = fields.String(required=True)
    order = fields.String(required=True, validate=validate.OneOf(["first", "second"]))


class CompareResultSchema(Schema):
    utility = fields.String(required=True)
    ranking = fields.List(
        fields.Nested(RankedLotterySchema),
        required=True,
        metadata={"description": "Best first, by expected utility (the same order as by CE)."},
    )
    dominance = fields.List(
        fields.Nested(StochasticDominanceSchema),
        required=True,
        metadata={
            "description": "Every pair where one lottery stochastically dominates another "
            "(first-order pairs are not repeated as second order)."
        },
    )


CHOICE: dict[str, Any] = {
    "type": "array",
    "minItems": 3,
    "maxItems": 3,
    "items": {"type": "string"},
    "description": '["B", ">", "A"]: B is chosen over A. Relations: > < ~ >= <=.',
}


class ConsistencyRequestSchema(Schema):
    lotteries = CompareRequestSchema().fields["lotteries"]
    choices = fields.List(
        fields.Raw(metadata={"openapi": CHOICE}),
        required=True,
        validate=validate.Length(min=1, max=10_000),
        metadata={"description": "The person's choices between the named lotteries."},
    )
    increasing = StrictBoolean(
        load_default=False,
        metadata={"description": "Ask for an increasing utility (more money is better)."},
    )


class MonotonicityMultiplierSchema(Schema):
    lower = fields.Float(required=True)
    lower_exact = exact_companion("lower")
    higher = fields.Float(required=True)
    higher_exact = exact_companion("higher")
    multiplier = fields.Float(required=True)
    multiplier_exact = exact_companion("multiplier")


class FarkasCertificateSchema(Schema):
    multipliers = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "One per choice (0 when unused), largest scaled to 1."},
    )
    multipliers_exact = exact_list_companion("multipliers")
    monotonicity = fields.List(
        fields.Nested(MonotonicityMultiplierSchema),
        required=True,
        metadata={"description": '"U increasing" constraints used.'},
    )
    explanation = fields.String(
        required=True, metadata={"description": "The contradiction as readable inequalities."}
    )


class ConsistencyResultSchema(Schema):
    consistent = fields.Boolean(required=True)
    prizes = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "Every money prize, smallest first."},
    )
    prizes_exact = exact_list_companion("prizes")
    witness = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        allow_none=True,
        required=True,
        metadata={
            "description": "A utility per prize (worst 0, best 1) that explains every "
            "choice; null when inconsistent. Exact when verified in exact arithmetic, "
            "else the LP's floats."
        },
    )
    witness_exact = exact_map_companion("witness")
    certificate = fields.Nested(FarkasCertificateSchema, allow_none=True, required=True)


class PlotRequestSchema(EvaluateRequestSchema):
    kind = fields.String(
        load_default="utility",
        validate=validate.OneOf(["utility", "risk_profile"]),
        metadata={
            "description": "utility: the curve with the lottery's chord, EMV, CE and risk "
            "premium; risk_profile: the cumulative distribution."
        },
    )
