"""Envelopes of the games endpoints: the catalogue, solving a position, the engine's move
and a position's game tree.

A game's parameters and position are checked by the catalogue (``games.rules``), which
names the parameter at fault (``params.rows``, ``position``); the search depth and time
budget are checked here against the server's settings (``ARBITER_MAX_GAME_DEPTH``,
``ARBITER_MAX_GAME_TIME_LIMIT``), so a request never asks for more than the server allows.
"""

from __future__ import annotations

import math
from typing import Any

from flask import current_app
from marshmallow import Schema, ValidationError, fields, validate

from api.schemas.fields import StrictBoolean, StrictInteger, exact_companion

ALGORITHMS = ("alphabeta", "minimax", "expectimax", "value_iteration")
"""The searches of ``analysis.search.solve_game``."""

_PARAMETER_VALUE: dict[str, Any] = {
    "oneOf": [
        {"type": "integer"},
        {"type": "boolean"},
        {"type": "array", "items": {"type": "integer"}},
    ]
}
_PARAMS: dict[str, Any] = {"type": "object", "additionalProperties": _PARAMETER_VALUE}


class Seconds(fields.Float):
    """A positive, finite JSON number of seconds (not a string, not a boolean), at most the
    server's ``ARBITER_MAX_GAME_TIME_LIMIT``."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValidationError("Not a number of seconds.")
        seconds = float(value)
        limit = float(current_app.config["ARBITER_MAX_GAME_TIME_LIMIT"])
        if not 0 < seconds <= limit or not math.isfinite(seconds):
            raise ValidationError(
                f"Must be more than 0 and at most {limit:g} seconds (the server's "
                "ARBITER_MAX_GAME_TIME_LIMIT)."
            )
        return seconds


class SearchDepth(StrictInteger):
    """A depth in plies from ``lowest`` to the server's ``ARBITER_MAX_GAME_DEPTH``."""

    def __init__(self, lowest: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.lowest = lowest

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        depth = super()._deserialize(value, attr, data, **kwargs)
        limit = int(current_app.config["ARBITER_MAX_GAME_DEPTH"])
        if not self.lowest <= depth <= limit:
            raise ValidationError(
                f"Must be from {self.lowest} to {limit} plies (the server's "
                "ARBITER_MAX_GAME_DEPTH)."
            )
        return depth


def _game_field() -> fields.String:
    return fields.String(
        required=True,
        metadata={"description": "Name of a game of the catalogue (GET /v1/games)."},
    )


def _params_field() -> fields.Dict:
    return fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        load_default=dict,
        metadata={
            "description": "The game's parameters by name (GET /v1/games lists them with "
            "their defaults and ranges); one left out takes its default.",
            "openapi": _PARAMS,
        },
    )


def _position_field(required: bool) -> fields.String:
    description = "The position in the game's notation (GET /v1/games gives each notation)."
    if required:
        return fields.String(required=True, metadata={"description": description})
    return fields.String(
        load_default=None,
        allow_none=True,
        metadata={"description": description + " Left out: the initial position."},
    )


def _evaluation_field() -> fields.String:
    return fields.String(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The static evaluation used at the depth cutoff, by name (GET "
            "/v1/games lists each game's); left out: the game's first."
        },
    )


class GameSolveRequestSchema(Schema):
    game = _game_field()
    params = _params_field()
    position = _position_field(required=False)
    algorithm = fields.String(
        load_default="alphabeta",
        validate=validate.OneOf(ALGORITHMS),
        metadata={
            "description": "alphabeta (iterative deepening, transposition table, move "
            "ordering; the default), minimax (no pruning, no table: every node of the "
            "tree), expectimax (games with chance, to a depth) or value_iteration (Pig)."
        },
    )
    depth = SearchDepth(
        1,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Deepest iteration in plies; below the end of the game, states "
            "at the cutoff are valued by the evaluation. Left out: to the end of the game."
        },
    )
    time_limit = Seconds(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Budget in seconds: the answer of the deepest iteration finished "
            "within it (complete false if the search did not reach the end). Left out: the "
            "search runs to the end, within the server's time limit."
        },
    )
    evaluation = _evaluation_field()
    table = StrictBoolean(
        load_default=True,
        metadata={"description": "Use the transposition table (alphabeta)."},
    )
    ordering = StrictBoolean(
        load_default=True,
        metadata={
            "description": "Order moves: the previous iteration's best and the table's move "
            "first, then killer and history heuristics (alphabeta)."
        },
    )
    all_best_moves = StrictBoolean(
        load_default=True,
        metadata={
            "description": "alphabeta: prove every best move of the root (false: the first "
            "found, which costs fewer nodes)."
        },
    )
    tolerance = fields.Raw(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "value_iteration: stop when no value changes by more than this "
            "(an exact number from 1e-15, what the double values can tell, to below 1; left "
            "out: the engine's default).",
            "openapi": {"allOf": [{"$ref": "#/components/schemas/ExactNumber"}]},
        },
    )
    quiescence = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Search noisy moves (captures) past the depth cutoff until the "
            "position is quiet."
        },
    )


class GameMoveRequestSchema(Schema):
    game = _game_field()
    params = _params_field()
    position = _position_field(required=True)
    time_limit = Seconds(
        required=True,
        metadata={"description": "Budget in seconds for choosing the move."},
    )
    depth = SearchDepth(
        1,
        load_default=None,
        allow_none=True,
        metadata={"description": "Deepest iteration in plies (left out: as deep as time allows)."},
    )


class GameTreeRequestSchema(Schema):
    game = _game_field()
    params = _params_field()
    position = _position_field(required=True)
    depth = SearchDepth(
        0,
        required=True,
        metadata={
            "description": "Plies to unfold (a chance level counts as one); at most "
            "ARBITER_MAX_GAME_TREE_NODES nodes (413 at /depth past it)."
        },
    )
    evaluation = _evaluation_field()


class GameParameterSchema(Schema):
    name = fields.String(required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["integer", "boolean", "list"]),
        metadata={"description": "integer, boolean, or list (of integers, as Nim's piles)."},
    )
    default = fields.Raw(required=True, metadata={"openapi": _PARAMETER_VALUE})
    minimum = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Least value (of each entry)."}
    )
    maximum = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Greatest value (of each entry)."},
    )
    description = fields.String(required=True)
    min_length = fields.Integer(
        allow_none=True, metadata={"description": "A list's fewest entries."}
    )
    max_length = fields.Integer(allow_none=True, metadata={"description": "A list's most entries."})


class EvaluationSchema(Schema):
    name = fields.String(required=True)
    description = fields.String(required=True)


class GameEntrySchema(Schema):
    name = fields.String(required=True, metadata={"description": "The name requests use."})
    title = fields.String(required=True)
    description = fields.String(required=True)
    players = fields.Integer(required=True)
    has_chance = fields.Boolean(required=True)
    parameters = fields.List(fields.Nested(GameParameterSchema), required=True)
    notation = fields.String(
        required=True, metadata={"description": "How a position is written, with an example."}
    )
    initial_position = fields.String(
        required=True, metadata={"description": "The initial position under the defaults."}
    )
    evaluations = fields.List(
        fields.Nested(EvaluationSchema),
        required=True,
        metadata={"description": "Static evaluations by name; the first is the default."},
    )


class CatalogueSchema(Schema):
    games = fields.List(fields.Nested(GameEntrySchema), required=True)


class SearchWorkSchema(Schema):
    nodes = fields.Integer(
        required=True,
        metadata={"description": "States entered (root, interior, terminal, cutoff)."},
    )
    table_hits = fields.Integer(
        required=True,
        metadata={"description": "Transposition-table entries that settled a state."},
    )
    cutoffs = fields.Integer(
        required=True, metadata={"description": "States left with moves unsearched."}
    )
    seconds = fields.Float(required=True)


class SearchStatsSchema(SearchWorkSchema):
    terminals = fields.Integer(
        required=True,
        metadata={"description": "Terminal states reached (finished games, under minimax)."},
    )
    evaluations = fields.Integer(
        required=True, metadata={"description": "Static evaluations at the depth cutoff."}
    )


class IterationSchema(SearchWorkSchema):
    depth = fields.Integer(required=True)
    effective_branching = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "This iteration's nodes over the previous one's (null for the "
            "first): about b - 1 for alpha-beta with good ordering."
        },
    )


class PositionAnswerSchema(Schema):
    game = fields.String(required=True)
    position = fields.String(required=True, metadata={"description": "In the game's notation."})
    to_move = fields.Integer(
        required=True,
        metadata={"description": "The player to move (0 moves first), or -1 when chance moves."},
    )


class GameSolutionSchema(PositionAnswerSchema):
    algorithm = fields.String(required=True, validate=validate.OneOf(ALGORITHMS))
    value = fields.Float(
        required=True,
        metadata={
            "description": "The position's value for the player to move (player 0 when "
            "chance moves): +1 win, 0 draw, -1 loss (Pig: the probability of winning); "
            "exact when complete."
        },
    )
    value_exact = exact_companion("value")
    complete = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether the search reached the end of every line it had to look "
            "at (never for value iteration, which stops at a tolerance)."
        },
    )
    plies_to_end = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "A complete search of a won or lost position: plies to the end "
            "with best play (the fastest win, the slowest loss); else null."
        },
    )
    best_moves = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Every move of the best value, in the game's notation."},
    )
    principal_variation = fields.List(
        fields.String(), required=True, metadata={"description": "The best line, as moves."}
    )
    depth_completed = fields.Integer(
        required=True, metadata={"description": "Depth of the deepest iteration finished."}
    )
    stats = fields.Nested(SearchStatsSchema, required=True)
    iterations = fields.List(fields.Nested(IterationSchema), required=True)
    tolerance = fields.Float(
        metadata={"description": "value_iteration: the tolerance it stopped at."}
    )
    tolerance_exact = exact_companion("tolerance")
    sweeps = fields.Integer(metadata={"description": "value_iteration: sweeps made."})
    residual = fields.Float(
        metadata={"description": "value_iteration: the largest change of the last sweep."}
    )


class GameMoveSchema(PositionAnswerSchema):
    move = fields.String(required=True, metadata={"description": "The engine's move."})
    position_after = fields.String(
        required=True, metadata={"description": "The position after the move."}
    )
    value = fields.Float(required=True, metadata={"description": "Its value for the mover."})
    value_exact = exact_companion("value")
    complete = fields.Boolean(
        required=True, metadata={"description": "Whether the value is proven (exact)."}
    )
    depth_completed = fields.Integer(required=True)
    stats = fields.Nested(SearchStatsSchema, required=True)


class GameTreeSchema(PositionAnswerSchema):
    depth = fields.Integer(required=True)
    evaluation = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The evaluation at the cutoff (null: the game has none)."},
    )
    nodes = fields.Integer(required=True)
    leaves = fields.Integer(required=True)
    cutoff_leaves = fields.Integer(
        required=True, metadata={"description": "Leaves valued by the evaluation."}
    )
    tree = fields.Raw(
        required=True,
        metadata={
            "openapi": {
                "type": "object",
                "description": "The tree as a node object (see the Tree schema), a request "
                "document rather than an answer, so its numbers are in the input form (an "
                'integer, or an exact string such as "-1/9"): MAX is the player to move, '
                "moves label the edges, chance outcomes carry exact p, leaves hold the "
                "utility or the evaluation for MAX. Post it as the tree of any /v1/trees "
                "endpoint.",
            }
        },
    )
