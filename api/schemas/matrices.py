"""Envelopes of the payoff-matrix endpoints.

Payoff arrays are validated by one iterative pass in ``games.matrices.parser``
(pointers to ragged rows and bad numbers); here they are raw fields whose JSON
schema is stated for the OpenAPI document.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from analysis.equilibria.report import PARTS
from api.schemas.fields import (
    StrictBoolean,
    StrictInteger,
    exact_companion,
    exact_list_companion,
)

_NUMBER: dict[str, Any] = {"$ref": "#/components/schemas/ExactNumber"}
_MATRIX: dict[str, Any] = {
    "type": "array",
    "minItems": 1,
    "items": {"type": "array", "minItems": 1, "items": _NUMBER},
}
_NESTED: dict[str, Any] = {
    "type": "array",
    "minItems": 1,
    "items": {"oneOf": [{"type": "array"}, _NUMBER]},
}
_NUMBERS = fields.List(fields.Float())
_TEXTS = fields.List(fields.String())


class MatrixGameSchema(Schema):
    A = fields.Raw(
        metadata={"description": "Row player's payoffs, one array per row.", "openapi": _MATRIX}
    )
    B = fields.Raw(
        metadata={"description": "Column player's payoffs, same shape as A.", "openapi": _MATRIX}
    )
    payoffs = fields.Raw(
        metadata={
            "description": "One matrix of payoff tuples as lecture slides write them, e.g. "
            "[[[3,4],[1,2]],[[4,1],[2,3]]]; for n players an n-dimensional array of n-tuples.",
            "openapi": _NESTED,
        }
    )
    payoff_arrays = fields.Raw(
        metadata={
            "description": "One n-dimensional payoff array per player (n-player games).",
            "openapi": {"type": "array", "minItems": 2, "items": _NESTED},
        }
    )
    zero_sum = StrictBoolean(
        load_default=False,
        metadata={"description": "With A alone: the column player gets -A. With B: checked."},
    )
    labels = fields.Raw(
        metadata={
            "description": "Strategy names, one array per player (default R1.., C1..).",
            "openapi": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        }
    )


class MatrixAnalyzeRequestSchema(MatrixGameSchema):
    include = fields.List(
        fields.String(validate=validate.OneOf(PARTS)),
        load_default=None,
        metadata={
            "description": "Parts to compute; default: every part but lemke_howson, plot "
            "and correlated_equilibria. equilibria are skipped by default above the "
            "enumeration limit."
        },
    )
    weak_dominance = StrictBoolean(
        load_default=False,
        metadata={"description": "Also eliminate weakly dominated strategies (order matters)."},
    )
    mixed_dominance = StrictBoolean(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Look for domination by mixed strategies (one LP per candidate); "
            "null: only when no player has more than 30 strategies."
        },
    )
    arithmetic = fields.String(
        load_default="auto",
        validate=validate.OneOf(["auto", "exact", "float"]),
        metadata={
            "description": "exact: rational equilibria and zero-sum solutions; float: "
            "floating point only (faster); auto: exact unless the zero-sum optimal "
            "support is large."
        },
    )
    lemke_howson_label = StrictInteger(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={
            "description": "Label dropped first by Lemke-Howson: 0..m-1 rows, m..m+n-1 columns."
        },
    )


class ResponseEntrySchema(Schema):
    against = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Strategies of the other players, in order."},
    )
    against_labels = _TEXTS
    best = fields.List(fields.Integer(), required=True)
    best_labels = _TEXTS


class BestResponsesSchema(Schema):
    player = fields.Integer(required=True, metadata={"description": "0 rows, 1 columns, ..."})
    responses = fields.List(fields.Nested(ResponseEntrySchema), required=True)


class PureEquilibriumSchema(Schema):
    profile = fields.List(fields.Integer(), required=True)
    labels = _TEXTS
    payoffs = _NUMBERS
    payoffs_exact = exact_list_companion("payoffs")


class DominatorSchema(Schema):
    strategy = fields.Integer(required=True)
    label = fields.String(required=True)
    probability = fields.Float(required=True, metadata={"description": "1 if pure."})
    probability_exact = exact_companion("probability")


class DominanceStepSchema(Schema):
    player = fields.Integer(required=True)
    strategy = fields.Integer(required=True)
    label = fields.String(required=True)
    dominated_by = fields.List(fields.Nested(DominatorSchema), required=True)
    weak = fields.Boolean(required=True)
    explanation = fields.String(required=True)


class ReducedGameSchema(Schema):
    strategies = fields.List(fields.List(fields.Integer()), required=True)
    labels = fields.List(fields.List(fields.String()), required=True)


class DominanceSchema(Schema):
    weak = fields.Boolean(required=True)
    steps = fields.List(fields.Nested(DominanceStepSchema), required=True)
    reduced = fields.Nested(ReducedGameSchema, required=True)


class IndifferenceSchema(Schema):
    mixer = fields.Integer(required=True, metadata={"description": "Player whose mix is solved."})
    indifferent = fields.Integer(required=True)
    words = fields.String(required=True)
    equations_latex = _TEXTS
    equations_text = _TEXTS
    solution_latex = fields.String(required=True)
    solution_text = fields.String(required=True)


class EquilibriumSchema(Schema):
    row = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "Row player's probabilities, in strategy order."},
    )
    row_exact = exact_list_companion("row")
    col = fields.List(fields.Float(), required=True)
    col_exact = exact_list_companion("col")
    payoffs = fields.List(fields.Float(), required=True)
    payoffs_exact = exact_list_companion("payoffs")
    max_deviation_gain = fields.Float(
        required=True, metadata={"description": "Largest gain from deviating: 0."}
    )
    max_deviation_gain_exact = exact_companion("max_deviation_gain")
    explanation = fields.List(fields.Nested(IndifferenceSchema))


class NashSubsetSchema(Schema):
    row = fields.List(
        fields.List(fields.Float()),
        required=True,
        metadata={"description": "Extreme row strategies; any mix of them ..."},
    )
    row_exact = exact_list_companion("row", nesting=2)
    col = fields.List(
        fields.List(fields.Float()),
        required=True,
        metadata={"description": "... against any mix of these is an equilibrium."},
    )
    col_exact = exact_list_companion("col", nesting=2)


class ComponentSchema(Schema):
    equilibria = fields.List(
        fields.Integer(), required=True, metadata={"description": "Indices into equilibria."}
    )
    continuum = fields.Boolean(required=True)
    subsets = fields.List(fields.Nested(NashSubsetSchema), required=True)


class ZeroSumSchema(Schema):
    value = fields.Float(required=True)
    value_exact = exact_companion("value")
    row_strategy = _NUMBERS
    row_strategy_exact = exact_list_companion("row_strategy")
    col_strategy = _NUMBERS
    col_strategy_exact = exact_list_companion("col_strategy")
    exact = fields.Boolean(required=True)


class SecurityLevelSchema(Schema):
    player = fields.Integer(required=True)
    pure = fields.Float(required=True)
    pure_exact = exact_companion("pure")
    pure_strategies = _TEXTS
    mixed = fields.Float(allow_none=True, required=True)
    mixed_exact = exact_companion("mixed")
    strategy = fields.List(fields.Float(), allow_none=True, required=True)
    strategy_exact = exact_list_companion("strategy")
    exact = fields.Boolean(required=True)


class LemkeHowsonSchema(Schema):
    label = fields.Integer(required=True)
    row = _NUMBERS
    col = _NUMBERS
    payoffs = _NUMBERS
    pivots = fields.Integer(required=True)
    max_deviation_gain = fields.Float(required=True)


class CorrelatedProfileSchema(Schema):
    profile = fields.List(
        fields.Integer(), required=True, metadata={"description": "One strategy per player."}
    )
    labels = _TEXTS
    probability = fields.Float(required=True)
    probability_exact = exact_companion("probability")


class IncentiveConstraintSchema(Schema):
    player = fields.Integer(required=True)
    recommended = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Strategy recommended; null for a coarse constraint."},
    )
    recommended_label = fields.String(required=True, allow_none=True)
    deviation = fields.Integer(required=True)
    deviation_label = fields.String(required=True)


class CorrelatedEquilibriumSchema(Schema):
    distribution = fields.List(
        fields.Nested(CorrelatedProfileSchema),
        required=True,
        metadata={"description": "Pure profiles of positive probability, in profile order."},
    )
    payoffs = fields.List(
        fields.Float(), required=True, metadata={"description": "Expected payoff per player."}
    )
    payoffs_exact = exact_list_companion("payoffs")
    welfare = fields.Float(required=True, metadata={"description": "Sum of the payoffs."})
    welfare_exact = exact_companion("welfare")
    binding = fields.List(
        fields.Nested(IncentiveConstraintSchema),
        required=True,
        metadata={
            "description": "Incentive constraints holding with equality (for correlated "
            "equilibria, of strategies recommended with positive probability)."
        },
    )
    exact = fields.Boolean(
        required=True,
        metadata={"description": "Exact rationals, verified and certified optimal exactly."},
    )


class CoarseCorrelatedEquilibriaSchema(Schema):
    max_welfare = fields.Nested(CorrelatedEquilibriumSchema, required=True)
    min_welfare = fields.Nested(CorrelatedEquilibriumSchema, required=True)


class CorrelatedEquilibriaSchema(Schema):
    max_welfare = fields.Nested(
        CorrelatedEquilibriumSchema,
        required=True,
        metadata={"description": "A correlated equilibrium of the highest payoff sum."},
    )
    min_welfare = fields.Nested(CorrelatedEquilibriumSchema, required=True)
    coarse = fields.Nested(
        CoarseCorrelatedEquilibriaSchema,
        required=True,
        metadata={"description": "The same for coarse correlated equilibria."},
    )


class MatrixAnalysisSchema(Schema):
    players = fields.Integer(required=True)
    shape = fields.List(fields.Integer(), required=True)
    labels = fields.List(fields.List(fields.String()), required=True)
    best_responses = fields.List(fields.Nested(BestResponsesSchema))
    pure_equilibria = fields.List(fields.Nested(PureEquilibriumSchema))
    dominance = fields.Nested(DominanceSchema)
    equilibria = fields.List(
        fields.Nested(EquilibriumSchema),
        allow_none=True,
        metadata={"description": "All extreme equilibria (two players); null when not computed."},
    )
    equilibria_arithmetic = fields.String(
        allow_none=True,
        validate=validate.OneOf(["exact", "float"]),
        metadata={
            "description": "exact: the equilibria were certified in exact arithmetic; float: "
            "floating point only (arithmetic: float). null when not computed."
        },
    )
    degenerate = fields.Boolean(allow_none=True)
    components = fields.List(fields.Nested(ComponentSchema), allow_none=True)
    zero_sum = fields.Nested(
        ZeroSumSchema,
        allow_none=True,
        metadata={"description": "null unless the game is zero-sum."},
    )
    security_levels = fields.List(fields.Nested(SecurityLevelSchema))
    lemke_howson = fields.Nested(LemkeHowsonSchema)
    plot = fields.String(metadata={"description": "SVG document (2xn or mx2 games)."})
    correlated_equilibria = fields.Nested(
        CorrelatedEquilibriaSchema,
        metadata={
            "description": "Welfare-maximising and -minimising correlated and coarse "
            "correlated equilibria (any number of players), on request."
        },
    )
    notes = _TEXTS
