"""Game trees: the immutable model and how it is read and written.

- :mod:`games.trees.model`: the :class:`~games.trees.model.Tree` and its derivations.
- :mod:`games.trees.parser`: :func:`~games.trees.parser.parse_tree`, the one entry point,
  which hands a tree to :mod:`games.trees.node_reader` (any tree, node by node, following
  :mod:`games.trees.grammar`), or a plain tree to its compiled twin, ``_reader.pyx``.
- :mod:`games.trees.exact_sums`: exact probability sums and how long numbers are shown.
- :mod:`games.trees.document`: a tree written back out as JSON.
"""
