"""Normal-form games: pure and mixed equilibria, zero-sum values, dominance, reports."""
