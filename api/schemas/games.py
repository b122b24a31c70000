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

from analysis.search.mcts import MAX_EVENTS, MAX_EXPLORATION, MAX_SIMULATIONS
from analysis.search.solve import DEFAULT_MOVE_TIME_LIMIT
from analysis.search.value_iteration import DEFAULT_TOLERANCE
from api.schemas.fields import (
    StrictBoolean,
    StrictInteger,
    exact_companion,
    exact_list_companion,
)

EXHAUSTIVE_ALGORITHMS = ("alphabeta", "minimax", "expectimax", "value_iteration")
"""The searches of ``analysis.search.solve_game`` that answer with a GameSolution."""

ALGORITHMS = ("auto", *EXHAUSTIVE_ALGORITHMS, "mcts")
"""The searches of ``analysis.search.solve_game`` (``auto`` picks one by the game)."""

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


def _position_field() -> fields.String:
    return fields.String(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The position in the game's notation (GET /v1/games gives each "
            "notation). Left out: the initial position."
        },
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


class SingularSchema(Schema):
    margin = fields.Raw(
        required=True,
        metadata={
            "description": "How far a move must beat every sibling to be singular, in the "
            "evaluation's units: an exact number more than 0 and at most 2 (win - loss).",
            "openapi": {"allOf": [{"$ref": "#/components/schemas/ExactNumber"}]},
        },
    )


class GameSolveRequestSchema(Schema):
    game = _game_field()
    params = _params_field()
    position = _position_field()
    algorithm = fields.String(
        load_default="auto",
        validate=validate.OneOf(ALGORITHMS),
        metadata={
            "description": "auto (the default: value_iteration for a game whose states "
            "repeat, Pig, searched to the end; expectimax for a game with chance; alphabeta "
            "otherwise; the answer's algorithm names the one that ran), alphabeta "
            "(iterative deepening, transposition table, move ordering), minimax (no "
            "pruning, no table: every node of the tree), expectimax (games with chance, to a "
            "depth), value_iteration (Pig) or "
            "mcts (Monte Carlo tree search, UCT: an estimate from random playouts, any game; "
            "give simulations or time_limit)."
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
    analyze = StrictBoolean(
        load_default=False,
        metadata={
            "description": "alphabeta and minimax solved to the end: also value every legal "
            "move of the root exactly (move_values), as a solver's analysis does."
        },
    )
    tolerance = fields.Raw(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "value_iteration: stop when no value changes by more than this "
            "(an exact number from 1e-15, what the double values can tell, to below 1; left "
            f"out: {DEFAULT_TOLERANCE}).",
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
    singular = fields.Nested(
        SingularSchema,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "alphabeta with depth or time_limit: singular extensions, "
            "searching one ply deeper below a move that beats every sibling by at least "
            "margin (follow out stand-out moves, against the horizon effect)."
        },
    )
    simulations = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(1, MAX_SIMULATIONS),
        metadata={
            "description": "mcts: the number of simulations (with time_limit too: whichever "
            "ends first)."
        },
    )
    exploration = fields.Float(
        load_default=None,
        allow_none=True,
        allow_nan=False,
        validate=validate.Range(0, MAX_EXPLORATION),
        metadata={
            "description": "mcts: UCB1's constant c in mean + c sqrt(ln N / n) (left out: sqrt 2)."
        },
    )
    seed = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(0, 2**63 - 1),
        metadata={
            "description": "mcts: the seed of the random playouts; the same seed and "
            "simulations give the same answer (left out: 0)."
        },
    )
    events = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(0, MAX_EVENTS),
        metadata={
            "description": f"mcts: list the four phases of the first N simulations (at most "
            f"{MAX_EVENTS})."
        },
    )


class GameMoveRequestSchema(Schema):
    game = _game_field()
    params = _params_field()
    position = _position_field()
    time_limit = Seconds(
        load_default=DEFAULT_MOVE_TIME_LIMIT,
        metadata={
            "description": "Budget in seconds for choosing the move (left out: "
            f"{DEFAULT_MOVE_TIME_LIMIT:g} s)."
        },
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
    position = _position_field()
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
    extensions = fields.Integer(
        metadata={"description": "Singular extensions made (present with singular only)."}
    )


class GameOutcomeSchema(Schema):
    value = fields.Float(
        required=True, metadata={"description": "+1 win, 0 draw, -1 loss, for the mover."}
    )
    value_exact = exact_companion("value")
    plies_to_end = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Plies until the win or loss with best play; null: a draw."},
    )


class BoundsSchema(Schema):
    lower = fields.Nested(GameOutcomeSchema, required=True)
    upper = fields.Nested(GameOutcomeSchema, required=True)


class MoveValueSchema(GameOutcomeSchema):
    move = fields.String(required=True, metadata={"description": "In the game's notation."})


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
    bounds = fields.Nested(
        BoundsSchema,
        metadata={
            "description": "Connect four solved to the end deepens on the score, not the "
            "depth: each iteration is a null-window probe, after which the root's outcome is "
            "known to lie between these (the worst first). Absent for depth iterations."
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
    algorithm = fields.String(required=True, validate=validate.OneOf(EXHAUSTIVE_ALGORITHMS))
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
    move_values = fields.List(
        fields.Nested(MoveValueSchema),
        metadata={
            "description": "With analyze: every legal move of the root and its exact "
            "outcome for the player who makes it, in the order the game lists its moves "
            "(connect four's: centre first)."
        },
    )
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


class MctsRootMoveSchema(Schema):
    move = fields.String(required=True)
    visits = fields.Integer(required=True)
    total = fields.Float(
        required=True, metadata={"description": "The rewards of its simulations, summed."}
    )
    total_exact = exact_companion("total")
    mean = fields.Float(
        required=True,
        metadata={"description": "total / visits: the mean reward, in [0, 1], to the player."},
    )
    mean_exact = exact_companion("mean")


class MctsSelectionStepSchema(Schema):
    node = fields.Integer(required=True, metadata={"description": "The node stepped to."})
    move = fields.String(required=True)
    visits = fields.Integer(required=True, metadata={"description": "Its visits before."})
    mean = fields.Float(required=True, metadata={"description": "Its mean reward before."})
    mean_exact = exact_companion("mean")
    ucb = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "Its UCB1, mean + c sqrt(ln N / n), the greatest of its siblings "
            "(null at a chance node, whose outcome is drawn)."
        },
    )
    probability = fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "At a chance node: the drawn outcome's probability."},
    )
    probability_exact = exact_companion("probability")


class MctsExpansionSchema(Schema):
    node = fields.Integer(required=True, metadata={"description": "The new node's id."})
    parent = fields.Integer(required=True)
    move = fields.String(required=True)
    player = fields.Integer(
        required=True,
        metadata={"description": "Who moved into it: the player whose reward it holds."},
    )
    position = fields.String(required=True)
    to_move = fields.Integer(
        required=True,
        metadata={"description": "Who moves at the new node (-1: chance)."},
    )
    terminal = fields.Boolean(
        required=True, metadata={"description": "Whether the game is over at the new node."}
    )
    probability = fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "A chance outcome's probability (null for a move)."},
    )
    probability_exact = exact_companion("probability")


class MctsPlayoutSchema(Schema):
    moves = fields.List(fields.String(), required=True)
    position = fields.String(required=True, metadata={"description": "The finished game."})
    rewards = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "The end's reward to each player: 1 win, 1/2 draw, 0 loss."},
    )
    rewards_exact = exact_list_companion("rewards")


class MctsBackupSchema(Schema):
    node = fields.Integer(required=True)
    player = fields.Integer(required=True)
    reward = fields.Float(required=True, metadata={"description": "The reward added."})
    reward_exact = exact_companion("reward")
    visits = fields.Integer(required=True, metadata={"description": "Visits after."})
    total = fields.Float(required=True, metadata={"description": "Total reward after."})
    total_exact = exact_companion("total")
    mean = fields.Float(required=True, metadata={"description": "Mean reward after."})
    mean_exact = exact_companion("mean")


class MctsSimulationSchema(Schema):
    simulation = fields.Integer(required=True, metadata={"description": "From 1."})
    selection = fields.List(
        fields.Nested(MctsSelectionStepSchema),
        required=True,
        metadata={"description": "The path from the root, one step per node entered."},
    )
    expansion = fields.Nested(
        MctsExpansionSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The node added (null at a finished game or a full tree)."},
    )
    playout = fields.Nested(MctsPlayoutSchema, required=True)
    backpropagation = fields.List(
        fields.Nested(MctsBackupSchema),
        required=True,
        metadata={"description": "Each node of the path updated, from the root down."},
    )


class MctsSolutionSchema(PositionAnswerSchema):
    algorithm = fields.String(required=True, validate=validate.OneOf(("mcts",)))
    complete = fields.Boolean(
        required=True, metadata={"description": "Always false: MCTS estimates."}
    )
    player = fields.Integer(
        required=True,
        metadata={
            "description": "Whose rewards the root moves hold: the player to move (0 when "
            "chance moves)."
        },
    )
    move = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The most visited root move (the first in the game's order among "
            "equals); null when chance moves."
        },
    )
    reward = fields.Float(
        required=True,
        metadata={
            "description": "The estimate for the player, in [0, 1]: the chosen move's mean "
            "reward (when chance moves, the root's)."
        },
    )
    reward_exact = exact_companion("reward")
    value = fields.Float(
        required=True,
        metadata={
            "description": "reward on the game's scale (loss + reward * (win - loss)), to "
            "compare with the other algorithms' exact value."
        },
    )
    value_exact = exact_companion("value")
    root_moves = fields.List(
        fields.Nested(MctsRootMoveSchema),
        required=True,
        metadata={"description": "The root's children tried, in the game's move order."},
    )
    simulations = fields.Integer(required=True, metadata={"description": "Simulations run."})
    stopped_by = fields.String(
        required=True, validate=validate.OneOf(("simulations", "time_limit"))
    )
    exploration = fields.Float(required=True)
    seed = fields.Integer(required=True)
    tree_nodes = fields.Integer(required=True)
    tree_full = fields.Boolean(
        required=True,
        metadata={"description": "Whether the tree reached its cap and stopped growing."},
    )
    plies = fields.Integer(
        required=True, metadata={"description": "States the simulations entered."}
    )
    seconds = fields.Float(required=True)
    events = fields.List(
        fields.Nested(MctsSimulationSchema),
        required=True,
        metadata={"description": "The first simulations asked for by events, phase by phase."},
    )
