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
from api.body import ScannedTree, decode
from games.errors import InvalidInputError
from games.limits import active_limits
from games.numbers import Exact, parse_exact
from games.trees.compiled_reader import scanned_shorthand_tree
from games.trees.grammar import too_many_nodes
from games.trees.model import MAX, MIN, Tree
from games.trees.parser import parse_tree


def read_tree(options: dict[str, Any], root: str = "max") -> Tree:
    """The posted tree, under this request's limits; the request's ``root`` wins over ``root``.

    A tree the body's scanner read (:class:`api.body.ScannedTree`) is built from its
    columns; where that cannot be (a ``root`` no plain tree has), its text is decoded and
    read as any tree is, with the same answer or error. One it found past the node limit is
    refused, pointing at ``/tree``.
    """
    raw, kind = options["tree"], str(options.get("root", root))
    if isinstance(raw, ScannedTree):
        if raw.scanned is None:
            raise too_many_nodes(active_limits(), "/tree")
        tree = scanned_shorthand_tree(raw.scanned, kind, "/tree") if kind in (MAX, MIN) else None
        if tree is not None:
            return tree
        raw = decode(raw.text)
    return parse_tree(raw, root=kind, limits=active_limits())


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
