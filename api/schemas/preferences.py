"""Envelopes of POST /v1/preferences/check."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from api.schemas.fields import exact_map_companion
from api.schemas.lotteries import NUMBER

NAMED_LOTTERY: dict[str, Any] = {
    "type": "array",
    "minItems": 1,
    "description": 'Branches {"p": probability, "x": prize name, lottery name or a nested '
    "array of branches}; probabilities exact, summing to 1.",
    "items": {
        "type": "object",
        "required": ["p", "x"],
        "additionalProperties": False,
        "properties": {"p": NUMBER, "x": {"oneOf": [{"type": "string"}, {"type": "array"}]}},
    },
}
STATEMENT: dict[str, Any] = {
    "type": "array",
    "minItems": 3,
    "maxItems": 3,
    "items": {"type": "string"},
    "description": '["A", ">", "B"]: A is preferred to B; also "<" and "~" '
    "(indifferent). Names are prizes or lotteries.",
}
AXIOM_NAMES = [
    "orderability",
    "transitivity",
    "continuity",
    "substitutability",
    "monotonicity",
    "decomposability",
]


class PreferencesRequestSchema(Schema):
    prizes = fields.List(
        fields.String(),
        required=True,
        validate=validate.Length(min=1, max=300),
        metadata={"description": "Names of the prizes (outcomes)."},
    )
    lotteries = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=100)),
        values=fields.Raw(metadata={"openapi": NAMED_LOTTERY}),
        load_default=dict,
        metadata={"description": "Named lotteries."},
    )
    preferences = fields.List(
        fields.Raw(metadata={"openapi": STATEMENT}),
        required=True,
        validate=validate.Length(max=5000),
    )


class VnmAxiomSchema(Schema):
    holds = fields.Boolean(required=True)
    witness = fields.Dict(
        required=True,
        metadata={
            "description": "The evidence: unranked pairs and conflicts (orderability); the "
            "cycle and money-pump trades (transitivity); the lotteries and statements that break "
            "continuity, substitutability, monotonicity or decomposability, or what was checked. "
            "Probabilities in it (continuity's indifference point p, a failed decomposability's "
            "same_reduction) are numbers with companions as ExactCompanion states."
        },
    )


class PreferencesResultSchema(Schema):
    axioms = fields.Dict(
        keys=fields.String(validate=validate.OneOf(AXIOM_NAMES)),
        values=fields.Nested(VnmAxiomSchema),
        required=True,
    )
    utility = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        required=True,
        allow_none=True,
        metadata={
            "description": "A utility per prize (worst 0, best 1) whose expected values "
            "reproduce every statement; null when an axiom fails or none exists."
        },
    )
    utility_exact = exact_map_companion("utility")
    expected_utility_consistent = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={
            "description": "Whether an expected utility reproduces the statements; null "
            "when not asked because an axiom other than orderability fails."
        },
    )
    explanation = fields.String(
        metadata={"description": "Why no expected utility fits, as readable inequalities."}
    )
