"""The game search engine: games defined by rules (``games.rules``) searched move by move.

- :func:`solve_game` values a position: alpha-beta with iterative deepening, a transposition
  table and move ordering, plain minimax, expectimax for dice, value iteration for cyclic games;
- :func:`best_move` plays a move within a time budget;
- ``analysis.search.unfold`` writes the game tree to a depth as an Arbiter tree.
"""
