"""Envelopes of the endpoint that solves games with information sets."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from analysis.extensive.solve import METHODS
from api.schemas.fields import (
    StrictBoolean,
    StrictInteger,
    exact_companion,
    exact_list_companion,
)

MAX_TEXT = 20_000_000
MAX_ITERATIONS = 1_000_000

_NUMBERS = fields.List(fields.Float())


class GameInputSchema(Schema):
    """The game, given once: as .efg text or in the JSON form."""

    efg = fields.String(
        validate=validate.Length(min=1, max=MAX_TEXT),
        metadata={
            "description": "The game as Gambit .efg text (EFG 2, R or D). Give this or `game`."
        },
    )
    game = fields.Raw(
        metadata={
            "description": "The game in Arbiter's JSON form (docs/extensive.md): players and "
            "a root node; decision nodes name their player and information set. Give this or "
            "`efg`.",
            "openapi": {"type": "object"},
        }
    )


class ExtensiveSolveRequestSchema(GameInputSchema):
    method = fields.String(
        load_default="auto",
        validate=validate.OneOf(METHODS),
        metadata={
            "description": "sequence_lp: the exact sequence-form LP (two-player zero-sum or "
            "constant-sum games). lemke: an exact equilibrium of any two-player game by Lemke's "
            "algorithm on the sequence form, from the first action everywhere. subgame_perfect: "
            "an exact subgame-perfect equilibrium by backward induction over the game's "
            "subgames (each solved by the LP or Lemke; any number of players with perfect "
            "information). cfr, cfr_plus: "
            "counterfactual regret minimisation in floats, any number of players. auto: "
            "sequence_lp for constant-sum games, lemke for other two-player games, cfr_plus "
            "beyond."
        },
    )
    iterations = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_ITERATIONS),
        metadata={"description": "cfr and cfr_plus: most iterations (default 1000)."},
    )
    target_nash_conv = fields.Float(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={"description": "cfr and cfr_plus: stop once NashConv is at most this."},
    )

    all_equilibria = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Two-player games: also answer `equilibria`, every extreme "
            "equilibrium of the reduced strategic form, exactly (refused with a 413 when a "
            "player has more reduced strategies than the matrix solver enumerates)."
        },
    )
    plot = StrictBoolean(
        load_default=False,
        metadata={
            "description": "cfr and cfr_plus: also answer `plot`, an SVG of exploitability "
            "(NashConv in games that are not zero-sum) against iterations, on a log scale."
        },
    )


class ExtensiveConvertRequestSchema(GameInputSchema):
    to = fields.String(
        required=True,
        validate=validate.OneOf(["efg", "json"]),
        metadata={
            "description": "efg: Gambit .efg text (R dialect, exact rationals). json: the JSON "
            "form. Reading what is written gives the same game."
        },
    )


class ExtensiveConvertResultSchema(Schema):
    efg = fields.String(metadata={"description": "The game as .efg text (to: efg)."})
    game = fields.Raw(
        metadata={
            "description": "The game in the JSON form (to: json).",
            "openapi": {"type": "object"},
        }
    )
    players = fields.List(fields.String(), required=True)
    nodes = fields.Integer(required=True)
    infosets = fields.Integer(
        required=True, metadata={"description": "Information sets of players."}
    )
    perfect_information = fields.Boolean(
        required=True,
        metadata={"description": "Whether every information set is a single node."},
    )


class InfosetStrategySchema(Schema):
    infoset = fields.String(required=True)
    actions = fields.List(fields.String(), required=True)
    probabilities = _NUMBERS
    probabilities_exact = exact_list_companion("probabilities")
    reached = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether the player's own strategy can lead here. Where it cannot, "
            "the exact methods play a best reply to the other's strategy."
        },
    )


class PlayerStrategySchema(Schema):
    player = fields.String(required=True)
    infosets = fields.List(fields.Nested(InfosetStrategySchema), required=True)


class CertificatePlayerSchema(Schema):
    player = fields.String(required=True)
    payoff = fields.Float(required=True)
    payoff_exact = exact_companion("payoff")
    best_response = fields.Float(
        required=True,
        metadata={"description": "The most the player could get against the others' strategies."},
    )
    best_response_exact = exact_companion("best_response")


class CertificateSchema(Schema):
    players = fields.List(fields.Nested(CertificatePlayerSchema), required=True)
    nash_conv = fields.Float(
        required=True,
        metadata={"description": "Sum of the players' gains from deviating: 0 at an equilibrium."},
    )
    nash_conv_exact = exact_companion("nash_conv")
    exploitability = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": "NashConv / 2 in a two-player constant-sum game, else null."},
    )
    exploitability_exact = exact_companion("exploitability")


class CurvePointSchema(Schema):
    iteration = fields.Integer(required=True)
    nash_conv = fields.Float(required=True)


class CfrRunSchema(Schema):
    iterations = fields.Integer(required=True)
    stopped = fields.String(
        required=True, validate=validate.OneOf(["iterations", "target", "time_limit"])
    )
    record_every = fields.Integer(required=True)
    seconds = fields.Float(required=True)
    curve = fields.List(fields.Nested(CurvePointSchema), required=True)


class ExtremeEquilibriumSchema(Schema):
    payoffs = _NUMBERS
    payoffs_exact = exact_list_companion("payoffs")
    strategies = fields.List(fields.Nested(PlayerStrategySchema), required=True)


class StrategicFormEquilibriaSchema(Schema):
    reduced_strategies = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Each player's number of reduced strategies."},
    )
    extreme = fields.List(
        fields.Nested(ExtremeEquilibriumSchema),
        required=True,
        metadata={
            "description": "The extreme equilibria of the reduced strategic form, as behaviour "
            "strategies (unreached sets filled with a best reply, `reached` false)."
        },
    )


class BeliefSchema(Schema):
    node = fields.String(
        required=True,
        metadata={"description": "The node's name, or the actions leading to it from the root."},
    )
    probability = fields.Float(required=True)
    probability_exact = exact_companion("probability")


class FlaggedInfosetSchema(Schema):
    player = fields.String(required=True)
    infoset = fields.String(required=True)
    reached = fields.Boolean(
        required=True, metadata={"description": "Whether the profile reaches the set."}
    )
    actions = fields.List(fields.String(), required=True)
    belief = fields.List(
        fields.Nested(BeliefSchema),
        required=True,
        metadata={
            "description": "The belief over the set's nodes: Bayes' rule where the set is "
            "reached, else the limit of the beliefs as every action is played with a "
            "vanishing probability."
        },
    )
    action_values = _NUMBERS
    action_values_exact = exact_list_companion("action_values")
    chosen_value = fields.Float(
        required=True,
        metadata={"description": "The value of the profile's own choice there, under the belief."},
    )
    chosen_value_exact = exact_companion("chosen_value")
    gain = fields.Float(
        required=True, metadata={"description": "What the best action gains over that choice."}
    )
    gain_exact = exact_companion("gain")


class SequentialRationalitySchema(Schema):
    sequentially_rational = fields.Boolean(
        required=True,
        metadata={"description": "Whether the choice is a best reply at every information set."},
    )
    infosets = fields.Integer(required=True, metadata={"description": "Sets checked."})
    unreached = fields.Integer(
        required=True, metadata={"description": "Sets the profile never reaches."}
    )
    flagged = fields.List(
        fields.Nested(FlaggedInfosetSchema),
        required=True,
        metadata={"description": "The sets where the profile's choice is not a best reply."},
    )


class SubgameSchema(Schema):
    root = fields.String(
        required=True,
        metadata={"description": "Where it starts: the node's name or the actions to it."},
    )
    nodes = fields.Integer(required=True)
    method = fields.String(
        required=True,
        validate=validate.OneOf(["chance", "best_action", "best_reply", "sequence_lp", "lemke"]),
        metadata={
            "description": "How it was solved with the subgames below it replaced by their "
            "payoffs: chance (no decision left), best_action (one decision), best_reply (one "
            "player deciding), sequence_lp or lemke."
        },
    )
    payoffs = _NUMBERS
    payoffs_exact = exact_list_companion("payoffs")


class ExtensiveSolutionSchema(Schema):
    method = fields.String(required=True, validate=validate.OneOf(METHODS[1:]))
    exact = fields.Boolean(required=True)
    zero_sum = fields.Boolean(required=True)
    players = fields.List(fields.String(), required=True)
    value = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": "Player 1's equilibrium payoff in a zero-sum game, else null."},
    )
    value_exact = exact_companion("value")
    payoffs = _NUMBERS
    payoffs_exact = exact_list_companion("payoffs")
    strategies = fields.List(fields.Nested(PlayerStrategySchema), required=True)
    certificate = fields.Nested(CertificateSchema, required=True)
    cfr = fields.Nested(CfrRunSchema)
    plot = fields.String(metadata={"description": "The SVG asked for with `plot`."})
    equilibria = fields.Nested(StrategicFormEquilibriaSchema)
    sequential_rationality = fields.Nested(
        SequentialRationalitySchema,
        metadata={"description": "The exact methods: the answer checked at every set."},
    )
    subgames = fields.List(
        fields.Nested(SubgameSchema),
        metadata={"description": "subgame_perfect: every subgame, in the order solved."},
    )


class ExtensiveCheckRequestSchema(GameInputSchema):
    profile = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        metadata={
            "description": "A behaviour strategy for every player: player name -> information "
            'set name -> action -> probability (a number, a decimal string or "p/q"; '
            "actions left out get 0). Every information set must be given.",
            "openapi": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "additionalProperties": {"oneOf": [{"type": "number"}, {"type": "string"}]},
                    },
                },
            },
        },
    )


class ExtensiveCheckResultSchema(Schema):
    players = fields.List(fields.String(), required=True)
    payoffs = _NUMBERS
    payoffs_exact = exact_list_companion("payoffs")
    equilibrium = fields.Boolean(
        required=True,
        metadata={"description": "Whether the profile is a Nash equilibrium (NashConv 0)."},
    )
    certificate = fields.Nested(CertificateSchema, required=True)
    sequential_rationality = fields.Nested(SequentialRationalitySchema, required=True)
