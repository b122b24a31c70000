"""Endpoints that solve explicit game trees."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from analysis.alphabeta import alpha_beta
from analysis.minimax import minimax
from analysis.move_ordering import move_ordering
from analysis.tree_json import alpha_beta_json, minimax_json
from api.body import load
from api.gc_pause import gc_paused
from api.openapi import operation
from api.responses import json_response
from api.tree_schemas import (
    AlphaBetaRequestSchema,
    AlphaBetaResultSchema,
    MinimaxRequestSchema,
    MinimaxResultSchema,
)
from games.limits import Limits
from games.tree import Tree
from games.tree_format import parse_tree

bp = Blueprint("trees", __name__, url_prefix="/v1/trees")


def limits() -> Limits:
    config = current_app.config
    return Limits(
        max_nodes=config["ARBITER_MAX_NODES"],
        max_depth=config["ARBITER_MAX_DEPTH"],
        time_limit=config["ARBITER_TIME_LIMIT"],
    )


def read_tree(options: dict[str, object], bounds: Limits) -> Tree:
    return parse_tree(options["tree"], root=str(options["root"]), limits=bounds)


@bp.post("/minimax")
@operation(
    summary="Minimax value of every node",
    description="Backs up leaf utilities (or evals at a depth cutoff) through MAX and MIN "
    "nodes: every node's exact value, all optimal root moves and the principal variation.",
    tag="trees",
    request=MinimaxRequestSchema,
    response=MinimaxResultSchema,
    example={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]},
)
def minimax_view() -> Response:
    with gc_paused():
        options = load(MinimaxRequestSchema())
        bounds = limits()
        tree = read_tree(options, bounds)
        result = minimax(tree, depth=options["depth"], deadline=bounds.deadline())
        return json_response(minimax_json(result))


@bp.post("/alphabeta")
@operation(
    summary="Alpha-beta search with every pruned node",
    description="Alpha-beta, children left to right, under the chosen pruning convention: "
    "values and bounds of visited nodes, pruned subtrees and leaves, cutoffs, and on request "
    "a step-by-step trace and a move-ordering comparison.",
    tag="trees",
    request=AlphaBetaRequestSchema,
    response=AlphaBetaResultSchema,
    example={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "prune_on_equality": True},
)
def alpha_beta_view() -> Response:
    with gc_paused():
        options = load(AlphaBetaRequestSchema())
        bounds = limits()
        tree = read_tree(options, bounds)
        result = alpha_beta(
            tree,
            depth=options["depth"],
            prune_on_equality=options["prune_on_equality"],
            trace=options["trace"],
            deadline=bounds.deadline(),
            max_trace_nodes=current_app.config["ARBITER_MAX_TRACE_NODES"],
        )
        ordering = None
        if options["move_ordering"]:
            ordering = move_ordering(
                tree, depth=options["depth"], prune_on_equality=options["prune_on_equality"]
            )
        return json_response(alpha_beta_json(result, ordering))
