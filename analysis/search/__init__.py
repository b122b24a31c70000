"""Search on games defined by rules (``games.rules``): the engine and the game tree unfolded."""
