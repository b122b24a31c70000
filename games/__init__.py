"""Input models of Arbiter: game trees (and, later, payoff matrices), with their parsers."""

from games.errors import (
    ArbiterError,
    DomainError,
    FieldError,
    InvalidInputError,
    LimitExceededError,
)
from games.limits import Limits
from games.numbers import Exact, parse_exact
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree
from games.trees.parser import parse_tree

__all__ = [
    "CHANCE",
    "LEAF",
    "MAX",
    "MIN",
    "PLAYER",
    "ArbiterError",
    "DomainError",
    "Exact",
    "FieldError",
    "InvalidInputError",
    "LimitExceededError",
    "Limits",
    "Tree",
    "parse_exact",
    "parse_tree",
]
