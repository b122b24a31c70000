"""Compare two extensive-form games by what they mean, not by how they were written."""

from __future__ import annotations

from fractions import Fraction

from games.extensive.model import CHANCE, TERMINAL, ExtensiveGame

Path = tuple[str, ...]


def paths(game: ExtensiveGame) -> list[Path]:
    """Each node's sequence of action labels from the root."""
    found: list[Path] = [()] * len(game.nodes)
    for index, node in enumerate(game.nodes):
        for action, child in zip(node.actions, node.children, strict=True):
            found[child] = found[index] + (action,)
    return found


def meaning(
    game: ExtensiveGame,
) -> tuple[
    dict[Path, tuple[Fraction, ...]],
    dict[Path, tuple[Fraction, ...]],
    set[tuple[int, tuple[str, ...], frozenset[Path]]],
]:
    """The payoffs at each terminal path, the probabilities at each chance path, and the
    information sets as (player, actions, the paths of their nodes)."""
    at = paths(game)
    payoffs = {at[i]: n.payoffs for i, n in enumerate(game.nodes) if n.player == TERMINAL}
    chances = {at[i]: n.probabilities for i, n in enumerate(game.nodes) if n.player == CHANCE}
    infosets = {
        (infoset.player, infoset.actions, frozenset(at[node] for node in infoset.nodes))
        for infoset in game.infosets
    }
    return payoffs, chances, infosets
