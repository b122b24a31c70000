"""Reading tree requests: the tree itself and the options every tree endpoint shares.

Views import this rather than one another. The request fields carry the names of
:func:`analysis.trees.solve.solve_tree`'s parameters, so an error about a
parameter points at the field of the same name.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from analysis.trees.json_output import COLUMNS, MAP
from analysis.trees.solve import TreeSolution, solve_tree
from games.errors import InvalidInputError
from games.limits import active_limits
from games.numbers import Exact, parse_exact
from games.trees.model import Tree
from games.trees.parser import parse_tree


def read_tree(options: dict[str, Any], root: str = "max") -> Tree:
    """The posted tree, under this request's limits; the request's ``root`` wins over ``root``.

    The decoded tree is taken out of ``options``, so that it is freed once read: a large one
    would otherwise stay for the search and the answer (a 100k-node tree of objects decodes
    to some 30 MB).
    """
    kind = str(options.get("root", root))
    return parse_tree(options.pop("tree"), root=kind, limits=active_limits())


def read_layout(options: dict[str, Any]) -> str:
    """The answer's layout (``map`` unless asked); the trace, which speaks of ids, is given in
    the map layout only."""
    layout = str(options.get("layout", MAP))
    if layout == COLUMNS and options.get("trace"):
        raise InvalidInputError(
            'the trace names nodes by id and is given in the "map" layout only; ask for it '
            'without "layout": "columns"',
            "/trace",
        )
    return layout


def read_bounds(options: dict[str, Any]) -> tuple[Exact, Exact] | None:
    raw = options.get("bounds")
    if raw is None:
        return None
    low, high = (parse_exact(value, f"/bounds/{i}") for i, value in enumerate(raw))
    return low, high


def read_max_sum(options: dict[str, Any]) -> Exact | None:
    raw = options.get("max_sum")
    return None if raw is None else parse_exact(raw, "/max_sum")


def solve_request(tree: Tree, algorithm: str, options: dict[str, Any]) -> TreeSolution:
    """Solve ``tree`` by :func:`solve_tree` with the options this request gave.

    An option the chosen search does not use is refused there, naming its field.
    """
    return solve_tree(
        tree,
        algorithm,
        depth=options.get("depth"),
        prune_on_equality=options.get("prune_on_equality", True),
        bounds=read_bounds(options),
        tie_break=options.get("tie_break") or "leftmost",
        max_sum=read_max_sum(options),
        trace=bool(options.get("trace")),
        max_trace_nodes=current_app.config["ARBITER_MAX_TRACE_NODES"],
        move_ordering=bool(options.get("move_ordering")),
        paranoid=options.get("paranoid"),
    )
