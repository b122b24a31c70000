"""Algorithms of Arbiter: tree search, equilibria, grading. Pure Python, no web framework."""
