"""Game trees: the immutable model and how it is read and written.

- :mod:`games.trees.model`: the :class:`~games.trees.model.Tree` and its derivations.
- :mod:`games.trees.parser`: :func:`~games.trees.parser.parse_tree`, the one entry point,
  which hands a tree to :mod:`games.trees.level_reader` (plain trees, a level at a time) or
  :mod:`games.trees.node_reader` (any tree, node by node); both follow
  :mod:`games.trees.grammar`.
- :mod:`games.trees.exact_sums`: exact probability sums and how long numbers are shown.
- :mod:`games.trees.document`: a tree written back out as JSON.
"""
