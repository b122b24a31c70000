"""The game search engine: games defined by rules (``games.rules``) searched move by move.

- :func:`solve_game` values a position: alpha-beta with iterative deepening, a transposition
  table and move ordering, plain minimax, expectimax for dice, value iteration for cyclic games,
  Monte Carlo tree search; ``algorithm="auto"`` (the default) picks by the game. It answers a
  :class:`GameSolution` (an :class:`MctsSolution` for MCTS);
- :func:`best_move` plays a move within a time budget: a :class:`MoveChoice`;
- :func:`unfold_game` writes the game tree to a depth (an :class:`UnfoldedGame`), and
  :func:`unfold_tree` as an Arbiter tree for every tree tool.

The names load on first use (PEP 562), so ``import analysis.search.scores`` stays light:
the engine's modules need SciPy (value iteration) and a compiled kernel (the grid search).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analysis.search.results import (
        GameSolution,
        IterationStats,
        MctsSolution,
        MoveChoice,
        MoveValue,
        Outcome,
        SearchTotals,
    )
    from analysis.search.solve import ALGORITHMS, best_move, solve_game
    from analysis.search.unfold import UnfoldedGame, unfold_game, unfold_tree

_HOMES = {
    "ALGORITHMS": "analysis.search.solve",
    "solve_game": "analysis.search.solve",
    "best_move": "analysis.search.solve",
    "GameSolution": "analysis.search.results",
    "IterationStats": "analysis.search.results",
    "MctsSolution": "analysis.search.results",
    "MoveChoice": "analysis.search.results",
    "MoveValue": "analysis.search.results",
    "Outcome": "analysis.search.results",
    "SearchTotals": "analysis.search.results",
    "UnfoldedGame": "analysis.search.unfold",
    "unfold_game": "analysis.search.unfold",
    "unfold_tree": "analysis.search.unfold",
}

__all__ = [
    "ALGORITHMS",
    "GameSolution",
    "IterationStats",
    "MctsSolution",
    "MoveChoice",
    "MoveValue",
    "Outcome",
    "SearchTotals",
    "UnfoldedGame",
    "best_move",
    "solve_game",
    "unfold_game",
    "unfold_tree",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'analysis.search' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
