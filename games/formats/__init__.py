"""Other tools' file formats for game trees: Gambit's .efg and CS188's graph tests."""
