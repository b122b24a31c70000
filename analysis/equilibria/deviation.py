"""Deviation gains: how much a player could win by leaving a strategy profile.

For a mixed profile ``sigma`` the gain of player ``i`` is
``max_s u_i(s, sigma_-i) - u_i(sigma)``; a profile is a Nash equilibrium
exactly when every gain is 0 (it is never negative). Computed exactly, or in
floats for equilibria found in floating point (then the gain is a rounding error).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from games.limits import current_deadline
from games.matrices.model import NormalFormGame, ObjectArray
from games.numbers import Exact, normalize


@dataclass(frozen=True, slots=True)
class DeviationCheck:
    """Expected payoffs of a profile and each player's best deviation gain."""

    payoffs: tuple[Exact | float, ...]
    gains: tuple[Exact | float, ...]

    @property
    def max_gain(self) -> Exact | float:
        return max(self.gains)


def pure_payoffs_against(
    game: NormalFormGame, player: int, profile: Sequence[Sequence[Exact | float]]
) -> list[Fraction]:
    """Player's expected payoff from each pure strategy when the others play ``profile``.

    :raises TimeLimitError: the request's deadline passed.
    """
    clock = current_deadline()
    array: ObjectArray = np.moveaxis(game.payoffs[player], player, -1)
    for other in range(game.players):
        if other == player:
            continue
        # one exact multiply-add per entry, on numbers the size of the probabilities
        bits = max(Fraction(p).denominator.bit_length() for p in profile[other])
        clock.spend(array.size * (1 + bits // 256))
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


def float_deviation_check(
    game: NormalFormGame, profile: Sequence[Sequence[Exact | float]]
) -> DeviationCheck:
    """:func:`deviation_check` in floating point, for a two-player game."""
    row = np.asarray([float(p) for p in profile[0]])
    col = np.asarray([float(q) for q in profile[1]])
    first, second = game.float_payoffs(0), game.float_payoffs(1)
    against_col = first @ col
    against_row = row @ second
    payoffs = (float(row @ against_col), float(against_row @ col))
    gains = (
        max(0.0, float(against_col.max()) - payoffs[0]),
        max(0.0, float(against_row.max()) - payoffs[1]),
    )
    return DeviationCheck(payoffs, gains)
