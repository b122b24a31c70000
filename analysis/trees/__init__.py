"""Search on explicit game trees: minimax, alpha-beta, expectimax, Star1, max^n, paranoid."""
