"""The endpoint that solves games with information sets (imperfect information)."""

from __future__ import annotations

from flask import Blueprint, Response

from analysis.extensive.cfr_plot import convergence_svg
from analysis.extensive.json_output import solution_json
from analysis.extensive.solve import solve_extensive
from api.body import load
from api.openapi.view_docs import operation
from api.responses import json_response
from api.schemas.extensive import ExtensiveSolutionSchema, ExtensiveSolveRequestSchema
from games.errors import InvalidInputError
from games.extensive.efg import read_efg
from games.extensive.json_form import read_json_form

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
    given = [name for name in ("efg", "game") if body.get(name) is not None]
    if len(given) != 1:
        raise InvalidInputError(
            'give the game once: "efg" (Gambit .efg text) or "game" (the JSON form)'
            + (", not both" if given else ""),
            "/game" if given else "",
        )
    if given[0] == "efg":
        game = read_efg(body["efg"], pointer="/efg")
    else:
        game = read_json_form(body["game"], pointer="/game")
    solution = solve_extensive(
        game,
        body["method"],
        iterations=body["iterations"],
        target_nash_conv=body["target_nash_conv"],
    )
    answer = solution_json(game, solution)
    if body["plot"]:
        if solution.cfr is None:
            raise InvalidInputError(
                "the plot shows CFR's convergence; the exact method has none to show", "/plot"
            )
        answer["plot"] = convergence_svg([solution.cfr])
    return json_response(answer)
