"""Endpoints that solve explicit game trees."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from analysis.trees.alpha_beta import alpha_beta
from analysis.trees.expectimax import expectimax
from analysis.trees.json_output import (
    alpha_beta_json,
    expectimax_json,
    maxn_json,
    minimax_json,
    star1_json,
)
from analysis.trees.max_n import maxn
from analysis.trees.minimax import minimax
from analysis.trees.move_ordering import move_ordering
from analysis.trees.paranoid import paranoid
from analysis.trees.star1 import star1
from api.body import load
from api.gc_pause import gc_paused
from api.openapi.view_docs import operation
from api.output.responses import json_response
from api.schemas.trees import (
    AlphaBetaRequestSchema,
    AlphaBetaResultSchema,
    ExpectimaxRequestSchema,
    ExpectimaxResultSchema,
    MaxnRequestSchema,
    MaxnResultSchema,
    MinimaxRequestSchema,
    MinimaxResultSchema,
)
from games.limits import Limits, active_limits, current_deadline
from games.numbers import parse_exact
from games.trees.model import PLAYER, Tree
from games.trees.parser import parse_tree

bp = Blueprint("trees", __name__, url_prefix="/v1/trees")


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
        bounds = active_limits()
        tree = read_tree(options, bounds)
        result = minimax(tree, depth=options["depth"], deadline=current_deadline())
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
        bounds = active_limits()
        tree = read_tree(options, bounds)
        result = alpha_beta(
            tree,
            depth=options["depth"],
            prune_on_equality=options["prune_on_equality"],
            trace=options["trace"],
            deadline=current_deadline(),
            max_trace_nodes=current_app.config["ARBITER_MAX_TRACE_NODES"],
        )
        ordering = None
        if options["move_ordering"]:
            ordering = move_ordering(
                tree, depth=options["depth"], prune_on_equality=options["prune_on_equality"]
            )
        return json_response(alpha_beta_json(result, ordering))


CHANCE_EXAMPLE = {
    "tree": {
        "children": [
            {"kind": "chance", "children": [3, 12, 8]},
            {"kind": "chance", "children": [2, 4, 6]},
            {"kind": "chance", "children": [14, 5, 2]},
        ]
    },
}


@bp.post("/expectimax")
@operation(
    summary="Expectiminimax with exact probabilities (optionally Star1 pruning)",
    description="MAX, MIN and chance nodes in any order; chance nodes are worth the exact "
    "probability-weighted sum of their outcomes. With bounds on leaf values, chance nodes are "
    "pruned too (Ballard's Star1) and the pruned nodes reported; the value never changes.",
    tag="trees",
    request=ExpectimaxRequestSchema,
    response=ExpectimaxResultSchema,
    example=CHANCE_EXAMPLE,
)
def expectimax_view() -> Response:
    with gc_paused():
        options = load(ExpectimaxRequestSchema())
        bounds = active_limits()
        tree = read_tree(options, bounds)
        if options["bounds"] is None:
            result = expectimax(tree, depth=options["depth"], deadline=current_deadline())
            return json_response(expectimax_json(result))
        low, high = (parse_exact(raw, f"/bounds/{i}") for i, raw in enumerate(options["bounds"]))
        pruned = star1(
            tree,
            (low, high),
            depth=options["depth"],
            prune_on_equality=options["prune_on_equality"],
            deadline=current_deadline(),
        )
        return json_response(star1_json(pruned, (low, high)))


@bp.post("/maxn")
@operation(
    summary="max^n for multiplayer trees, with shallow pruning and the paranoid reduction",
    description="Each player maximises its own component of the utility tuples. Reports the "
    "tuple of every node, the move at every node, where ties decided the outcome, and (with "
    "max_sum) what Korf's shallow pruning skipped; optionally the paranoid reduction for one "
    "player solved by alpha-beta.",
    tag="trees",
    request=MaxnRequestSchema,
    response=MaxnResultSchema,
    example={
        "tree": {
            "player": 0,
            "children": [
                {"player": 1, "children": [{"value": [1, 2, 3]}, {"value": [4, 2, 1]}]},
                {"player": 1, "children": [{"value": [2, 5, 0]}, {"value": [6, 1, 1]}]},
            ],
        },
        "max_sum": 8,
    },
)
def maxn_view() -> Response:
    with gc_paused():
        options = load(MaxnRequestSchema())
        bounds = active_limits()
        tree = parse_tree(options["tree"], root=PLAYER, limits=bounds)
        max_sum = (
            None if options["max_sum"] is None else parse_exact(options["max_sum"], "/max_sum")
        )
        result = maxn(
            tree,
            depth=options["depth"],
            tie_break=options["tie_break"],
            max_sum=max_sum,
            deadline=current_deadline(),
        )
        player = options["paranoid"]
        reduced = (
            None
            if player is None
            else paranoid(tree, player, depth=options["depth"], deadline=current_deadline())
        )
        return json_response(maxn_json(result, reduced, player))
