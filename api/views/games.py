"""Endpoints of games defined by rules: the catalogue, solving a position, the engine's
move, and a position's game tree for the tree endpoints."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from flask import Blueprint, Response, current_app

from analysis.search.json_output import (
    catalogue_json,
    game_solution_json,
    game_tree_json,
    move_choice_json,
)
from analysis.search.solve import DEFAULT_MOVE_TIME_LIMIT, best_move, solve_game
from analysis.search.unfold import unfold_game
from analysis.search.value_iteration import DEFAULT_TOLERANCE
from api.body import load
from api.openapi.view_docs import operation
from api.responses import json_response
from api.schemas.games import (
    CatalogueSchema,
    GameMoveRequestSchema,
    GameMoveSchema,
    GameSolutionSchema,
    GameSolveRequestSchema,
    GameTreeRequestSchema,
    GameTreeSchema,
    MctsSolutionSchema,
)
from games.errors import ArbiterError
from games.numbers import parse_exact
from games.rules.catalogue import make_game
from games.rules.game import Game

bp = Blueprint("games", __name__, url_prefix="/v1/games")

TIC_TAC_TOE = {"game": "tic_tac_toe", "params": {}, "position": "xx.oo...."}


@bp.get("")
@operation(
    summary="The catalogue of games defined by rules",
    description="Each game's name, parameters (kind, default, range), position notation, "
    "initial position and static evaluations.",
    tag="games",
    response=CatalogueSchema,
    errors=(),
)
def catalogue_view() -> Response:
    return json_response(catalogue_json())


@bp.post("/solve")
@operation(
    summary="Solve a position: its value, best moves and principal variation",
    description="By default the search that suits the game (algorithm auto): value "
    "iteration for Pig, expectimax for dice to a depth, otherwise alpha-beta with iterative "
    "deepening, a transposition table and move ordering (or plain minimax on request); the "
    "answer names the algorithm that ran. The position defaults to the initial one. The "
    "value is for the player to move, exact when the search is complete, with statistics "
    "per iteration. "
    'With "algorithm": "mcts", Monte Carlo tree search (UCT) answers instead: the most '
    "visited move, each root move's visits and mean reward, and on request (events) the "
    "four phases of the first simulations.",
    tag="games",
    request=GameSolveRequestSchema,
    response={"oneOf": [GameSolutionSchema, MctsSolutionSchema]},
    example=TIC_TAC_TOE,
)
def solve_view() -> Response:
    options = load(GameSolveRequestSchema)
    with request_fields():
        game, state = read_position(options)
        solution = solve_game(
            game,
            state,
            algorithm=options["algorithm"],
            depth=options["depth"],
            time_limit=options["time_limit"],
            evaluation=options["evaluation"],
            table=options["table"],
            ordering=options["ordering"],
            quiescence=options["quiescence"],
            singular_margin=read_singular(options),
            tolerance=read_tolerance(options),
            all_best_moves=options["all_best_moves"],
            simulations=options["simulations"],
            exploration=options["exploration"],
            seed=options["seed"],
            events=options["events"],
            analyze=options["analyze"],
        )
        return json_response(game_solution_json(game, state, solution))


@bp.post("/move")
@operation(
    summary="The engine's move within a time budget",
    description="Iterative deepening until the budget (time_limit, "
    f"{DEFAULT_MOVE_TIME_LIMIT:g} s by default) runs out: the best move of the deepest "
    "iteration finished, its value and the depth reached. The position defaults to the "
    "initial one.",
    tag="games",
    request=GameMoveRequestSchema,
    response=GameMoveSchema,
    example={"game": "connect_four", "params": {}, "position": "4453", "time_limit": 0.5},
)
def move_view() -> Response:
    options = load(GameMoveRequestSchema)
    with request_fields():
        game, state = read_position(options)
        choice = best_move(game, state, options["time_limit"], depth=options["depth"])
        return json_response(move_choice_json(game, state, choice))


@bp.post("/tree")
@operation(
    summary="A position's game tree to a depth, for the tree endpoints",
    description="The tree unfolded from the position: MAX is the player to move, moves "
    "label the edges, chance outcomes carry exact probabilities, terminal states their "
    "utility and states at the cutoff the evaluation. Post `tree` to any /v1/trees "
    "endpoint, the renderer or the grader.",
    tag="games",
    request=GameTreeRequestSchema,
    response=GameTreeSchema,
    example={"game": "tic_tac_toe", "params": {}, "position": "xxo.o.x..", "depth": 2},
)
def tree_view() -> Response:
    options = load(GameTreeRequestSchema)
    with request_fields():
        game, state = read_position(options)
        unfolded = unfold_game(
            game,
            state,
            options["depth"],
            options["evaluation"],
            max_nodes=current_app.config["ARBITER_MAX_GAME_TREE_NODES"],
        )
        return json_response(game_tree_json(game, state, unfolded))


def read_position(options: dict[str, Any]) -> tuple[Game[Any, Any], Any]:
    """The game the request names, built with its parameters, and the position asked for
    (the initial one when none is given)."""
    game = make_game(options["game"], options["params"])
    position = options.get("position")
    state = game.initial_state() if position is None else game.parse_position(position)
    return game, state


def read_tolerance(options: dict[str, Any]) -> Fraction:
    """The value-iteration tolerance asked for, exactly (the engine's default if none)."""
    raw = options.get("tolerance")
    return DEFAULT_TOLERANCE if raw is None else Fraction(parse_exact(raw, "/tolerance"))


def read_singular(options: dict[str, Any]) -> Fraction | None:
    """Singular extensions' margin, exactly (None: off)."""
    singular = options.get("singular")
    return (
        None if singular is None else Fraction(parse_exact(singular["margin"], "/singular/margin"))
    )


@contextmanager
def request_fields() -> Iterator[None]:
    """Point the core's errors at request fields: ``params.rows`` is ``/params/rows``."""
    try:
        yield
    except ArbiterError as error:
        error.located(lambda parameter: "/" + parameter.replace(".", "/"))
        raise
