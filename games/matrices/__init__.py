"""Normal-form games: the payoff model and its parser."""
