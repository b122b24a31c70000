"""Input models of Arbiter and their parsers: game trees, normal-form games, other formats.

The public API: :func:`parse_tree` reads a tree (nested, shorthand or flat JSON) into
an immutable :class:`Tree`; :func:`tree_document` writes one back; :func:`parse_game`
reads a normal-form game into a :class:`NormalFormGame`; :func:`make_game` builds a game
defined by rules from the :data:`CATALOGUE` (tic-tac-toe, connect four, hexapawn, nim,
pig), each a :class:`Game`; :func:`parse_efg` and
:func:`write_efg` read and write Gambit's ``.efg`` text. :class:`Limits` and
:func:`limited` bound what a computation may use; every error is an
:class:`ArbiterError` that points at the offending field.
"""

from games.errors import (
    ArbiterError,
    DomainError,
    ExactSizeError,
    FieldError,
    InvalidInputError,
    LimitExceededError,
    TimeLimitError,
)
from games.formats.efg import EfgGame, parse_efg, write_efg
from games.limits import Limits, limited
from games.matrices.model import NormalFormGame
from games.matrices.parser import parse_game
from games.numbers import Exact, parse_exact
from games.rules.catalogue import CATALOGUE, make_game
from games.rules.game import Game
from games.trees.document import tree_document
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree
from games.trees.parser import parse_tree

__all__ = [
    "CATALOGUE",
    "CHANCE",
    "LEAF",
    "MAX",
    "MIN",
    "PLAYER",
    "ArbiterError",
    "DomainError",
    "EfgGame",
    "Exact",
    "ExactSizeError",
    "FieldError",
    "Game",
    "InvalidInputError",
    "LimitExceededError",
    "Limits",
    "NormalFormGame",
    "TimeLimitError",
    "Tree",
    "limited",
    "make_game",
    "parse_efg",
    "parse_exact",
    "parse_game",
    "parse_tree",
    "tree_document",
    "write_efg",
]
