"""Best responses and pure Nash equilibria of an ``n``-player normal-form game.

A pure profile is a Nash equilibrium when every player's strategy is a best
response to the others' strategies: player ``i``'s payoff there equals the
maximum of its payoff array along axis ``i``. Comparisons are exact (payoffs
are scaled to integers first), and vectorised over the whole array.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from games.limits import current_deadline
from games.matrices.model import NormalFormGame
from games.numbers import Exact


@dataclass(frozen=True, slots=True)
class BestResponses:
    """Best responses of one player to each profile of the others' pure strategies.

    Attributes
    ----------
    player
        The responding player (0 rows, 1 columns).
    against
        Profiles of the other players' strategies, in order of the players.
    best
        For each entry of ``against``, the responding player's best strategies.
    """

    player: int
    against: tuple[tuple[int, ...], ...]
    best: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class PureEquilibrium:
    """A pure-strategy Nash equilibrium and its payoffs."""

    profile: tuple[int, ...]
    payoffs: tuple[Exact, ...]


def best_response_masks(game: NormalFormGame) -> list[npt.NDArray[np.bool_]]:
    """``masks[i][s]`` is true when ``s[i]`` is a best response of player ``i`` to ``s[-i]``."""
    clock = current_deadline()
    masks = []
    for player in range(game.players):
        scaled = game.integer_payoffs(player)
        clock.spend(scaled.size // (16 if scaled.dtype == np.int64 else 1))
        best = scaled.max(axis=player, keepdims=True)
        masks.append(np.asarray(scaled == best, dtype=np.bool_))
    return masks


def pure_nash_equilibria(game: NormalFormGame) -> list[PureEquilibrium]:
    """Every pure Nash equilibrium, in lexicographic order of the profiles."""
    clock = current_deadline()
    masks = best_response_masks(game)
    stable = np.logical_and.reduce(masks)
    found = []
    for index in np.argwhere(stable):
        clock.spend(2 * game.players)
        profile = tuple(int(s) for s in index)
        payoffs = tuple(game.payoffs[player][profile] for player in range(game.players))
        found.append(PureEquilibrium(profile, payoffs))
    return found


def best_responses(game: NormalFormGame) -> list[BestResponses]:
    """Each player's best responses to every pure profile of the others."""
    clock = current_deadline()
    masks = best_response_masks(game)
    result = []
    for player, mask in enumerate(masks):
        moved = np.moveaxis(mask, player, -1)
        others = moved.shape[:-1]
        against = []
        best = []
        for profile in np.ndindex(*others):
            clock.spend(2 + moved.shape[-1] // 16)
            against.append(tuple(int(s) for s in profile))
            best.append(tuple(int(s) for s in np.flatnonzero(moved[profile])))
        result.append(BestResponses(player, tuple(against), tuple(best)))
    return result
