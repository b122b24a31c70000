"""Fresh two-player zero-sum games with information sets, in the shape of Myerson's
poker: chance deals player 1 a card, player 1 moves knowing it, player 2 moves knowing
player 1's move but not the card, and (``depth`` 3) player 1 moves once more after player
2's last action.

``branching`` draws the number of cards and each player's number of actions (2 or 3),
``values`` player 1's integer payoffs (player 2 pays them), ``denominators`` the deal's
probabilities. A draw is kept only when it makes a good exercise: the value is not 0 and
has a denominator of at most :data:`MAX_VALUE_DENOMINATOR`, each player mixes somewhere
in the equilibrium found (no pure saddle point: player 2's ignorance of the card matters
and player 1 bluffs), and every probability of it has a denominator of at most
:data:`MAX_PROBABILITY_DENOMINATOR`, so that it can be found by hand. The key is the
grader's own (:class:`analysis.grading.extensive_problems.ExtensiveGrader`, the exact
sequence-form LP); the question asks the value and the strategy of one player, drawn.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Final

from analysis.grading.extensive_problems import ExtensiveGrader
from analysis.grading.generator_settings import Draft, ProblemSettings, draw_probabilities
from games.errors import InvalidInputError
from games.limits import Deadline
from games.numbers import normalize
from games.trees.document import exact_json

CARDS: Final = {2: ("low", "high"), 3: ("low", "middle", "high")}
FIRST: Final = {2: ("L", "R"), 3: ("L", "M", "R")}
"""Player 1's actions, then player 2's (lower case) and player 1's second move."""
SECOND: Final = {2: ("l", "r"), 3: ("l", "m", "r")}
LAST: Final = ("U", "D")
PLAYERS: Final = ("Player 1", "Player 2")
MAX_VALUE_DENOMINATOR: Final = 60
MAX_PROBABILITY_DENOMINATOR: Final = 12
GAME_COST: Final = 200
"""Deadline units charged per drawn game (building it; the LP spends its own)."""


def check_extensive_settings(settings: ProblemSettings) -> None:
    """Refuse a depth, branching or value range no draw can meet."""
    if settings.depth not in (2, 3):
        raise InvalidInputError(
            "an extensive problem has 2 moves after the deal (player 1, player 2) or 3 "
            f"(player 1 again); depth is 2 or 3, got {settings.depth}",
            parameter="depth",
        )
    least, most = settings.branching
    if least < 2 or most > 3:
        raise InvalidInputError(
            "branching draws the cards and the actions of an extensive problem: 2 or 3, "
            f"got [{least}, {most}]",
            parameter="branching",
        )
    if settings.values[1] - settings.values[0] < 2:
        raise InvalidInputError(
            "an extensive problem needs payoffs of at least 3 distinct integers to make "
            "both players mix; values allows "
            f"{settings.values[1] - settings.values[0] + 1}",
            parameter="values",
        )


def draw_extensive(
    rng: random.Random, settings: ProblemSettings, deadline: Deadline
) -> Draft | None:
    """One game and its question, or ``None`` when the game drawn is no good exercise."""
    deadline.spend(GAME_COST)
    cards = CARDS[rng.randint(*settings.branching)]
    deal = draw_probabilities(rng, len(cards), settings.denominators)
    first = FIRST[rng.randint(*settings.branching)]
    second = SECOND[rng.randint(*settings.branching)]
    low, high = settings.values
    payoffs: dict[tuple[str, ...], int] = {}

    def paid(path: tuple[str, ...]) -> dict[str, Any]:
        payoffs[path] = amount = rng.randint(low, high)
        return {"payoffs": [amount, -amount]}

    branches = []
    for card, p in zip(cards, deal, strict=True):
        moves = []
        for a in first:
            replies = []
            for b in second:
                if settings.depth == 3 and b == second[-1]:
                    last = [[c, paid((card, a, b, c))] for c in LAST]
                    node: dict[str, Any] = {
                        "player": 0,
                        "infoset": f"{card}, {a}, {b}",
                        "actions": last,
                    }
                else:
                    node = paid((card, a, b))
                replies.append([b, node])
            moves.append([a, {"player": 1, "infoset": f"after {a}", "actions": replies}])
        branches.append([card, exact_json(p), {"player": 0, "infoset": card, "actions": moves}])
    game = {"players": list(PLAYERS), "root": {"chance": branches}}
    player = rng.choice(PLAYERS)
    problem: dict[str, Any] = {"type": "extensive", "game": game, "player": player}
    grader = ExtensiveGrader(problem)
    value = grader.value
    rows = grader.key_rows()
    if value == 0 or value.denominator > MAX_VALUE_DENOMINATOR:
        return None
    if any(p.denominator > MAX_PROBABILITY_DENOMINATOR for row in rows for p in row):
        return None
    mixes = {grader.game.infosets[h].player for h, row in enumerate(rows) if max(row) < 1}
    if mixes != {0, 1}:
        return None
    asked = PLAYERS.index(player)
    strategy = {
        name: None if row is None else {a: exact_json(normalize(p)) for a, p in row.items()}
        for name, row in grader.strategy_json(asked, rows).items()
    }
    answer = {"value": exact_json(normalize(value)), "strategy": strategy}
    template = {"value": None, "strategy": dict.fromkeys(strategy)}
    return Draft(
        problem,
        answer,
        "Value and equilibrium strategy of a game with information sets",
        _statement(cards, deal, first, second, settings.depth, payoffs, player, grader),
        template,
    )


def _statement(
    cards: tuple[str, ...],
    deal: list[Fraction],
    first: tuple[str, ...],
    second: tuple[str, ...],
    depth: int,
    payoffs: dict[tuple[str, ...], int],
    player: str,
    grader: ExtensiveGrader,
) -> str:
    dealt = ", ".join(f"{card} with probability {p}" for card, p in zip(cards, deal, strict=True))
    moves = [
        f"Chance deals player 1 a card: {dealt}. Player 1 sees the card and plays "
        f"{_either(first)}. Player 2 sees player 1's move but not the card and plays "
        f"{_either(second)}."
    ]
    if depth == 3:
        moves.append(
            f"After {second[-1]}, player 1 moves once more, {_either(LAST)}, still knowing "
            "the card."
        )
    rows = [f"| {path[0]} | {', '.join(path[1:])} | {amount} |" for path, amount in payoffs.items()]
    asked = PLAYERS.index(player)
    sets = [grader.game.infosets[h] for h in grader.game.player_infosets(asked)]
    listed = "; ".join(f"`{s.name}` ({', '.join(s.actions)})" for s in sets)
    return "\n".join(
        [
            " ".join(moves) + " Player 2 pays player 1 the amount in the table (a zero-sum game).",
            "",
            "| card | moves | player 1 gets |",
            "|---|---|---|",
            *rows,
            "",
            "Give:",
            "",
            '- the value of the game to player 1 (`value`: an exact fraction such as `"-1/18"`)',
            f"- an equilibrium behaviour strategy of {player.lower()} (`strategy`: for each "
            'information set `{"action": probability, ...}`, probabilities as exact '
            "fractions; a set your strategy never reaches may stay `null`). "
            f"{player}'s information sets (actions): {listed}",
            "",
        ]
    )


def _either(actions: tuple[str, ...]) -> str:
    return ", ".join(actions[:-1]) + f" or {actions[-1]}"
