"""A brute-force negamax for the tests: checks published results on tiny games, no engine."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from games.rules.game import Game


def negamax(game: Game[Any, Any], state: Any, memo: dict[Hashable, Fraction]) -> Fraction:
    """The exact value of ``state`` for the player to move (two players, no chance)."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    key = game.key(state)
    if key not in memo:
        memo[key] = max(-negamax(game, game.result(state, m), memo) for m in game.actions(state))
    return memo[key]
