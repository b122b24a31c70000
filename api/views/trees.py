"""Endpoints that solve explicit game trees."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from flask import Blueprint, Response

from analysis.trees.json_output import MAP, solution_json
from analysis.trees.solve import TreeSolution
from api.body import collector_paused, load
from api.openapi.view_docs import operation
from api.responses import json_response
from api.schemas.trees import (
    AlphaBetaColumnsResultSchema,
    AlphaBetaRequestSchema,
    AlphaBetaResultSchema,
    ExpectimaxRequestSchema,
    ExpectimaxResultSchema,
    MaxnRequestSchema,
    MaxnResultSchema,
    MinimaxColumnsResultSchema,
    MinimaxRequestSchema,
    MinimaxResultSchema,
)
from api.tree_requests import read_layout, read_tree, solve_request
from games.trees.model import PLAYER

bp = Blueprint("trees", __name__, url_prefix="/v1/trees")


def per_node(view: Callable[[], Response]) -> Callable[[], Response]:
    """Run a tree view with the cyclic garbage collector paused
    (:func:`api.body.collector_paused`): decoding, reading, solving and answering a large
    tree build containers for every node, and the collections their allocation sets off
    rescan them all (a 100,000-node request took 1.7 to 1.8 times as long with it on)."""

    @wraps(view)
    def paused() -> Response:
        with collector_paused():
            return view()

    return paused


def answered(solution: TreeSolution, layout: str = MAP) -> Response:
    """The answer for ``solution`` in ``layout``."""
    return json_response(solution_json(solution, layout=layout))


@bp.post("/minimax")
@operation(
    summary="Minimax value of every node",
    description="Backs up leaf utilities (or evals at a depth cutoff) through MAX and MIN "
    "nodes: every node's exact value, all optimal root moves and the principal variation. "
    'With "layout": "columns" the answer names nodes by breadth-first index and gives the '
    "values as columns (compact, for large trees).",
    tag="trees",
    request=MinimaxRequestSchema,
    response={"oneOf": [MinimaxResultSchema, MinimaxColumnsResultSchema]},
    example={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]},
)
@per_node
def minimax_view() -> Response:
    options = load(MinimaxRequestSchema)
    layout = read_layout(options)
    solution = solve_request(read_tree(options), "minimax", options)
    return answered(solution, layout)


@bp.post("/alphabeta")
@operation(
    summary="Alpha-beta search with every pruned node",
    description="Alpha-beta, children left to right, under the chosen pruning convention: "
    "values and bounds of visited nodes, pruned subtrees and leaves, cutoffs, and on request "
    'a step-by-step trace and a move-ordering comparison. With "layout": "columns" the '
    "answer names nodes by breadth-first index, gives values and bounds as columns and every "
    "list of nodes as runs of indices (compact, for large trees).",
    tag="trees",
    request=AlphaBetaRequestSchema,
    response={"oneOf": [AlphaBetaResultSchema, AlphaBetaColumnsResultSchema]},
    example={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "prune_on_equality": True},
)
@per_node
def alpha_beta_view() -> Response:
    options = load(AlphaBetaRequestSchema)
    layout = read_layout(options)
    solution = solve_request(read_tree(options), "alphabeta", options)
    return answered(solution, layout)


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
@per_node
def expectimax_view() -> Response:
    options = load(ExpectimaxRequestSchema)
    solution = solve_request(read_tree(options), "expectimax", options)
    return answered(solution)


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
@per_node
def maxn_view() -> Response:
    options = load(MaxnRequestSchema)
    # a max^n tree: a bare list of numbers is one leaf's utilities (docs/trees.md)
    solution = solve_request(read_tree(options, PLAYER), "maxn", options)
    return answered(solution)
