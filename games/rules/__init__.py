"""Games defined by rules: the catalogue (tic-tac-toe, connect four, hexapawn, nim, pig)."""
