"""The endpoint that solves games with information sets (imperfect information)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from analysis.extensive.cfr_plot import convergence_svg
from analysis.extensive.json_output import check_json, equilibria_json, solution_json
from analysis.extensive.policy import BehaviourProfile, evaluate_profile
from analysis.extensive.refinements import sequential_rationality
from analysis.extensive.solve import solve_extensive
from analysis.extensive.strategic_form import strategic_form_equilibria
from api.body import load
from api.openapi.view_docs import operation
from api.problems import parameters_at
from api.responses import json_response
from api.schemas.extensive import (
    ExtensiveCheckRequestSchema,
    ExtensiveCheckResultSchema,
    ExtensiveConvertRequestSchema,
    ExtensiveConvertResultSchema,
    ExtensiveSolutionSchema,
    ExtensiveSolveRequestSchema,
)
from games.errors import InvalidInputError, join_pointer
from games.extensive.efg import read_efg, write_efg
from games.extensive.json_form import read_json_form, write_json_form
from games.extensive.model import ExtensiveGame
from games.numbers import Exact, parse_exact

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


@bp.post("/check")
@operation(
    summary="Check a behaviour profile: equilibrium, best replies, sequential rationality",
    description="Evaluates a profile of behaviour strategies exactly (each player's payoff "
    "and best-response value, NashConv) and checks it for sequential rationality at every "
    "information set: against a consistent belief (Bayes' rule where the set is reached, the "
    "limit of vanishing trembles elsewhere), is the choice a best reply? A Nash equilibrium "
    "can fail it only at sets it never reaches (docs/extensive.md).",
    tag="extensive",
    request=ExtensiveCheckRequestSchema,
    response=ExtensiveCheckResultSchema,
    example={
        **_MYERSON_EXAMPLE,
        "profile": {
            "1": {"red": {"raise": 1}, "black": {"raise": "1/3", "fold": "2/3"}},
            "2": {"raised": {"meet": "2/3", "pass": "1/3"}},
        },
    },
)
def check_view() -> Response:
    body = load(ExtensiveCheckRequestSchema)
    game = _read_game(body)
    profile = _profile(game, body["profile"])
    evaluation = evaluate_profile(game, profile)
    check = sequential_rationality(game, profile)
    return json_response(check_json(game, evaluation, check))


def _profile(game: ExtensiveGame, raw: dict[str, Any]) -> BehaviourProfile:
    """The request's profile, exact, every pointer at the entry it is about."""
    players = {name: index for index, name in reversed(list(enumerate(game.players)))}
    sets = {(s.player, s.name): h for h, s in enumerate(game.infosets)}
    rows: list[tuple[Exact, ...] | None] = [None] * len(game.infosets)
    for player_name, given in raw.items():
        at = join_pointer("/profile", player_name)
        if player_name not in players:
            raise InvalidInputError(
                f"the game has no player {player_name!r} (its players: {list(game.players)})", at
            )
        if not isinstance(given, dict):
            raise InvalidInputError("a player's strategy maps information sets to actions", at)
        player = players[player_name]
        for set_name, row in given.items():
            here = join_pointer(at, set_name)
            h = sets.get((player, set_name))
            if h is None:
                names = [game.infosets[k].name for k in game.player_infosets(player)]
                raise InvalidInputError(
                    f"{player_name} has no information set {set_name!r} (theirs: {names})", here
                )
            if not isinstance(row, dict):
                raise InvalidInputError("an information set maps actions to probabilities", here)
            actions = game.infosets[h].actions
            for action in row:
                if action not in actions:
                    raise InvalidInputError(
                        f"information set {set_name!r} has no action {action!r} (its actions: "
                        f"{list(actions)})",
                        join_pointer(here, action),
                    )
            probabilities = tuple(
                parse_exact(row[a], join_pointer(here, a)) if a in row else 0 for a in actions
            )
            if any(p < 0 for p in probabilities) or sum(probabilities) != 1:
                raise InvalidInputError(
                    f"the probabilities at {set_name!r} must be non-negative and sum to 1; "
                    f"they sum to {sum(probabilities)}",
                    here,
                )
            rows[h] = probabilities
    missing = [h for h, row in enumerate(rows) if row is None]
    if missing:
        infoset = game.infosets[missing[0]]
        raise InvalidInputError(
            f"the profile gives no probabilities at {infoset.name!r} of "
            f"{game.players[infoset.player]} ({len(missing)} sets missing)",
            join_pointer("/profile", game.players[infoset.player]),
        )
    return BehaviourProfile(tuple(row for row in rows if row is not None))
