"""Envelopes of the utility-function endpoints (analyze, elicit)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas.fields import exact_companion, exact_list_companion
from api.schemas.lotteries import LOTTERY, NUMBER, UTILITY


class AffineTransformSchema(Schema):
    a = fields.Raw(load_default=2, metadata={"openapi": NUMBER})
    b = fields.Raw(load_default=1, metadata={"openapi": NUMBER})


class AnalyzeRequestSchema(Schema):
    utility = fields.Raw(required=True, metadata={"openapi": UTILITY})
    parameters = fields.Dict(
        keys=fields.String(), values=fields.Raw(metadata={"openapi": NUMBER}), load_default=dict
    )
    domain = fields.List(
        fields.Raw(metadata={"openapi": NUMBER}),
        required=True,
        validate=validate.Length(equal=2),
        metadata={"description": "[low, high]: where curvature and monotonicity are checked."},
    )
    points = fields.List(
        fields.Raw(metadata={"openapi": NUMBER}),
        load_default=list,
        validate=validate.Length(max=1000),
        metadata={"description": "Where to evaluate U and Arrow-Pratt measures."},
    )
    lotteries = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(metadata={"openapi": LOTTERY}),
        load_default=dict,
        validate=validate.Length(max=100),
        metadata={
            "description": "Lotteries whose CEs and ranking are compared under U and a*U + b."
        },
    )
    affine = fields.Nested(
        AffineTransformSchema,
        load_default=lambda: {"a": 2, "b": 1},
        metadata={"description": "The transformation a*U + b (a > 0)."},
    )


class UtilityAtPointSchema(Schema):
    x = fields.Float(required=True)
    x_exact = exact_companion("x")
    utility = fields.Float(required=True)
    utility_exact = exact_companion("utility")
    marginal = fields.Float(required=True, metadata={"description": "U'(x)."})
    absolute = fields.Float(required=True, metadata={"description": "-U''(x)/U'(x)."})
    absolute_exact = exact_companion("absolute")
    relative = fields.Float(required=True, metadata={"description": "-x U''(x)/U'(x)."})
    relative_exact = exact_companion("relative")


class CertaintyEquivalentPairSchema(Schema):
    name = fields.String(required=True)
    certainty_equivalent = fields.Float(required=True)
    transformed = fields.Float(required=True, metadata={"description": "CE under a*U + b."})


class AffineResultSchema(Schema):
    a = fields.Float(required=True)
    a_exact = exact_companion("a")
    b = fields.Float(required=True)
    b_exact = exact_companion("b")
    arrow_pratt_unchanged = fields.Boolean(required=True)
    certainty_equivalents = fields.List(fields.Nested(CertaintyEquivalentPairSchema), required=True)
    ranking_unchanged = fields.Boolean(required=True)


class AnalyzeResultSchema(Schema):
    utility = fields.String(required=True)
    derivative = fields.String(required=True)
    second_derivative = fields.String(required=True)
    domain = fields.List(fields.Float(), required=True)
    domain_exact = exact_list_companion("domain")
    increasing = fields.Boolean(required=True, metadata={"description": "U' >= 0 on the domain."})
    decreasing_at = fields.Float(
        required=True, allow_none=True, metadata={"description": "First sampled x with U' < 0."}
    )
    curvature = fields.String(
        required=True, validate=validate.OneOf(["concave", "convex", "linear", "mixed"])
    )
    attitude = fields.String(
        required=True,
        validate=validate.OneOf(["risk_averse", "risk_neutral", "risk_seeking", "mixed"]),
    )
    changes_at = fields.List(
        fields.Float(), required=True, metadata={"description": "Where U'' changes sign."}
    )
    arrow_pratt_absolute = fields.String(required=True, metadata={"description": "-U''/U'."})
    arrow_pratt_relative = fields.String(required=True, metadata={"description": "-x U''/U'."})
    at_points = fields.List(fields.Nested(UtilityAtPointSchema), required=True)
    affine_invariance = fields.Nested(AffineResultSchema, required=True)


class StandardGambleSchema(Schema):
    prize = fields.Raw(required=True, metadata={"openapi": NUMBER})
    p = fields.Raw(required=True, metadata={"openapi": NUMBER})


class StatedCertaintyEquivalentSchema(Schema):
    lottery = fields.Raw(required=True, metadata={"openapi": LOTTERY})
    ce = fields.Raw(required=True, metadata={"openapi": NUMBER})


class ElicitRequestSchema(Schema):
    worst = fields.Raw(required=True, metadata={"openapi": NUMBER})
    best = fields.Raw(required=True, metadata={"openapi": NUMBER})
    wealth = fields.Raw(load_default=0, metadata={"openapi": NUMBER})
    standard_gambles = fields.List(
        fields.Nested(StandardGambleSchema),
        load_default=list,
        validate=validate.Length(max=1000),
        metadata={"description": "prize ~ [p, best; 1-p, worst]."},
    )
    certainty_equivalents = fields.List(
        fields.Nested(StatedCertaintyEquivalentSchema),
        load_default=list,
        validate=validate.Length(max=1000),
        metadata={"description": "ce ~ lottery."},
    )


class UtilityPointSchema(Schema):
    x = fields.Float(required=True)
    x_exact = exact_companion("x")
    utility = fields.Float(required=True)


class ElicitedFitSchema(Schema):
    family = fields.String(required=True, validate=validate.OneOf(["cara", "crra"]))
    coefficient = fields.Float(
        required=True,
        metadata={
            "description": "CARA: absolute risk aversion a (risk tolerance R = 1/a). "
            "CRRA: relative risk aversion gamma."
        },
    )
    residuals = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "Per answer, in normalised utility."},
    )
    rmse = fields.Float(required=True)
    explains_all = fields.Boolean(required=True)


class ElicitationFlagSchema(Schema):
    answer = fields.Integer(required=True, metadata={"description": "Index in standard_gambles."})
    reason = fields.String(required=True)


class ElicitResultSchema(Schema):
    points = fields.List(
        fields.Nested(UtilityPointSchema),
        required=True,
        metadata={"description": "U(worst) = 0, U(best) = 1 and each answer."},
    )
    cara = fields.Nested(ElicitedFitSchema, required=True)
    crra = fields.Nested(ElicitedFitSchema, required=True, allow_none=True)
    crra_note = fields.String(allow_none=True, required=True)
    implied_cara = fields.List(
        fields.Float(allow_none=True),
        required=True,
        metadata={"description": "CARA a explaining each gamble alone."},
    )
    flagged = fields.List(
        fields.Nested(ElicitationFlagSchema),
        required=True,
        metadata={
            "description": "Answers no single risk-aversion parameter explains with the others."
        },
    )
