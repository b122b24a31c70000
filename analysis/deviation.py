"""Deviation gains: how much a player could win by leaving a strategy profile.

For a mixed profile ``sigma`` the gain of player ``i`` is
``max_s u_i(s, sigma_-i) - u_i(sigma)``; a profile is a Nash equilibrium
exactly when every gain is 0 (it is never negative). Computed exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from games.matrix import NormalFormGame, ObjectArray
from games.numbers import Exact, normalize


@dataclass(frozen=True, slots=True)
class DeviationCheck:
    """Expected payoffs of a profile and each player's best deviation gain."""

    payoffs: tuple[Exact, ...]
    gains: tuple[Exact, ...]

    @property
    def max_gain(self) -> Exact:
        return max(self.gains)


def pure_payoffs_against(
    game: NormalFormGame, player: int, profile: Sequence[Sequence[Exact | float]]
) -> list[Fraction]:
    """Player's expected payoff from each pure strategy when the others play ``profile``."""
    array: ObjectArray = np.moveaxis(game.payoffs[player], player, -1)
    for other in range(game.players):
        if other == player:
            continue
        weights = np.empty(len(profile[other]), dtype=object)
        weights[:] = [Fraction(p) for p in profile[other]]
        array = np.tensordot(weights, array, axes=([0], [0]))
    return [Fraction(value) for value in np.asarray(array, dtype=object).reshape(-1)]


def deviation_check(
    game: NormalFormGame, profile: Sequence[Sequence[Exact | float]]
) -> DeviationCheck:
    """Expected payoffs of the mixed ``profile`` and every player's deviation gain."""
    payoffs = []
    gains = []
    for player in range(game.players):
        pure = pure_payoffs_against(game, player, profile)
        own = sum(
            (Fraction(p) * u for p, u in zip(profile[player], pure, strict=True)), Fraction(0)
        )
        payoffs.append(normalize(own))
        gains.append(normalize(max(pure) - own))
    return DeviationCheck(tuple(payoffs), tuple(gains))
