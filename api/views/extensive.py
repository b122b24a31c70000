"""The endpoint that solves games with information sets (imperfect information)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from analysis.extensive.cfr_plot import convergence_svg
from analysis.extensive.json_output import equilibria_json, solution_json
from analysis.extensive.solve import solve_extensive
from analysis.extensive.strategic_form import strategic_form_equilibria
from api.body import load
from api.openapi.view_docs import operation
from api.problems import parameters_at
from api.responses import json_response
from api.schemas.extensive import (
    ExtensiveConvertRequestSchema,
    ExtensiveConvertResultSchema,
    ExtensiveSolutionSchema,
    ExtensiveSolveRequestSchema,
)
from games.errors import InvalidInputError
from games.extensive.efg import read_efg, write_efg
from games.extensive.json_form import read_json_form, write_json_form
from games.extensive.model import ExtensiveGame

bp = Blueprint("extensive", __name__, url_prefix="/v1/extensive")

_MYERSON_EXAMPLE = {
    "game": {
        "players": ["1", "2"],
        "root": {
            "chance": [
                [
                    "red",
                    "1/2",
                    {
                        "player": 0,
                        "infoset": "red",
                        "actions": [
                            [
                                "raise",
                                {
                                    "player": 1,
                                    "infoset": "raised",
                                    "actions": [
                                        ["meet", {"payoffs": [2, -2]}],
                                        ["pass", {"payoffs": [1, -1]}],
                                    ],
                                },
                            ],
                            ["fold", {"payoffs": [1, -1]}],
                        ],
                    },
                ],
                [
                    "black",
                    "1/2",
                    {
                        "player": 0,
                        "infoset": "black",
                        "actions": [
                            [
                                "raise",
                                {
                                    "player": 1,
                                    "infoset": "raised",
                                    "actions": [
                                        ["meet", {"payoffs": [-2, 2]}],
                                        ["pass", {"payoffs": [1, -1]}],
                                    ],
                                },
                            ],
                            ["fold", {"payoffs": [-1, 1]}],
                        ],
                    },
                ],
            ]
        },
    }
}


MAX_JSON_PLIES = 80
"""Deepest game written in the JSON form (three nesting levels a ply; JSON encoders and
decoders, the API's included, stop at a few hundred levels)."""


@bp.post("/convert")
@operation(
    summary="Convert a game with information sets between .efg and the JSON form",
    description="Reads the game (Gambit .efg text or the JSON form, with every check of "
    "/v1/extensive/solve) and writes it in the other form, exactly.",
    tag="extensive",
    request=ExtensiveConvertRequestSchema,
    response=ExtensiveConvertResultSchema,
    example={**_MYERSON_EXAMPLE, "to": "efg"},
)
def convert_view() -> Response:
    body = load(ExtensiveConvertRequestSchema)
    game = _read_game(body)
    answer: dict[str, Any] = {}
    if body["to"] == "efg":
        answer["efg"] = write_efg(game)
    else:
        plies = _depth(game)
        if plies > MAX_JSON_PLIES:
            raise InvalidInputError(
                f"the game is {plies} moves deep; the JSON form nests three levels a move and "
                f"is written up to {MAX_JSON_PLIES} moves deep: convert it to efg instead",
                "/to",
            )
        answer["game"] = write_json_form(game)
    answer["players"] = list(game.players)
    answer["nodes"] = len(game.nodes)
    answer["infosets"] = len(game.infosets)
    answer["perfect_information"] = all(len(s.nodes) == 1 for s in game.infosets)
    return json_response(answer)


def _depth(game: ExtensiveGame) -> int:
    """The most moves (decisions and chance draws) on a path of ``game``."""
    depth = [0] * len(game.nodes)
    for index, node in enumerate(game.nodes):  # parents come first
        for child in node.children:
            depth[child] = depth[index] + 1
    return max(depth)


def _read_game(body: dict[str, Any]) -> ExtensiveGame:
    """The request's game, given once as ``efg`` or ``game``."""
    given = [name for name in ("efg", "game") if body.get(name) is not None]
    if len(given) != 1:
        raise InvalidInputError(
            'give the game once: "efg" (Gambit .efg text) or "game" (the JSON form)'
            + (", not both" if given else ""),
            "/game" if given else "",
        )
    if given[0] == "efg":
        return read_efg(body["efg"], pointer="/efg")
    return read_json_form(body["game"], pointer="/game")


@bp.post("/solve")
@operation(
    summary="Solve a game with information sets",
    description="An equilibrium of an extensive-form game with imperfect information and "
    "perfect recall, given as Gambit .efg text or in the JSON form: for two-player zero-sum "
    "games the exact value and optimal behaviour strategies by the sequence-form LP, "
    "certified by exact best responses; CFR or CFR+ in floats for any game, with NashConv "
    "per iteration.",
    tag="extensive",
    request=ExtensiveSolveRequestSchema,
    response=ExtensiveSolutionSchema,
    example=_MYERSON_EXAMPLE,
)
def solve_view() -> Response:
    body = load(ExtensiveSolveRequestSchema)
    game = _read_game(body)
    solution = solve_extensive(
        game,
        body["method"],
        iterations=body["iterations"],
        target_nash_conv=body["target_nash_conv"],
    )
    answer = solution_json(game, solution)
    if body["all_equilibria"]:
        with parameters_at(max_strategies="/all_equilibria"):
            answer["equilibria"] = equilibria_json(game, strategic_form_equilibria(game))
    if body["plot"]:
        if solution.cfr is None:
            raise InvalidInputError(
                "the plot shows CFR's convergence; the exact method has none to show", "/plot"
            )
        answer["plot"] = convergence_svg([solution.cfr])
    return json_response(answer)
