"""``arbiter minimax|alphabeta|expectimax|maxn``: solve a tree file without the server.

    arbiter minimax [TREE] [--root min] [--depth N] [--trace]
    arbiter alphabeta [TREE] [--strict] [--trace] [--move-ordering] [--depth N]
    arbiter expectimax [TREE] [--bounds LO HI] [--strict] [--depth N] [--trace]
    arbiter maxn [TREE] [--tie-break rightmost] [--max-sum S] [--paranoid PLAYER] [--trace]
    arbiter render [TREE] [--algorithm A] [--bare] [--format svg|dot|tikz] [--title T]
                   [--node-labels ids|letters|none] [--legend | --no-legend]
                   [--collapse ID ...] [--max-depth-drawn N]

TREE holds a tree in any posted form, or a whole request body
(``{"tree": ..., "root": ..., "depth": ...}``); ``-`` or nothing reads standard input.
An option given on the command line wins over the same field of a request body. Each
command is one call of :func:`analysis.trees.solve.solve_tree`, and prints what
:func:`analysis.trees.json_output.solution_json` writes: the API's answer.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import Any, Final

from analysis.cli.documents import print_document, read_document
from analysis.cli.error_handler import EXIT_OK, option_name, reading, source_name
from analysis.cli.options import ArgumentParser, command_parser, exact_option
from analysis.trees.drawing import (
    NODE_LABELS,
    DrawingOptions,
    check_drawable,
    drawn_to_cutoff,
    problem_drawing,
    solution_drawing,
    unsolved_tree,
)
from analysis.trees.json_output import solution_json
from analysis.trees.renderers import (
    RENDERERS,
)
from analysis.trees.solve import TreeSolution, solve_tree
from games.errors import InvalidInputError
from games.limits import active_limits
from games.numbers import parse_exact
from games.trees.model import PLAYER, Tree
from games.trees.parser import parse_tree

RENAMED: Final = {"prune_on_equality": "--strict"}
"""Options not named after the :func:`solve_tree` parameter they set."""
REQUEST_FIELD: Final = {"algorithm": "type"}
"""Request fields not named after the :func:`solve_tree` parameter they set."""


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter NAME`` for the searches ``minimax``, ``alphabeta``,
    ``expectimax`` and ``maxn``."""
    command = command_parser(name, summary)
    command.set_defaults(run=search_command, algorithm=name)
    drawing = name == "render"
    if drawing:
        command.set_defaults(run=render_command)
        command.add_argument(
            "--algorithm",
            choices=["auto", "minimax", "alphabeta", "expectimax", "maxn", "none"],
            default="auto",
            help="how to solve the tree before drawing it (auto: maxn for utility lists, "
            "expectimax with chance nodes, minimax otherwise; none: as posted)",
        )
        command.add_argument(
            "--bare",
            action="store_true",
            help="draw the problem without its answer, for a handout: leaf values only (with "
            "--depth, the evals at the cutoff); the tree is not solved",
        )
        command.add_argument(
            "--format",
            choices=sorted(RENDERERS),
            default="svg",
            help="svg (standalone), dot (Graphviz) or tikz (a tikzpicture for LaTeX)",
        )
        command.add_argument("--title", default="", help="caption drawn above the tree")
        command.add_argument(
            "--node-labels",
            choices=NODE_LABELS,
            default="ids",
            help="name nodes by id, by letter (A, B, ... breadth-first, as textbooks) or not",
        )
        command.add_argument(
            "--legend",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="draw a legend of the shapes and states (default: yes for svg and tikz)",
        )
        command.add_argument(
            "--collapse",
            action="append",
            default=[],
            metavar="ID",
            help="draw the subtree of node ID collapsed (repeat for several)",
        )
        command.add_argument(
            "--max-depth-drawn",
            type=int,
            default=None,
            metavar="N",
            help="collapse every subtree whose root is N plies deep or deeper",
        )
    command.add_argument(
        "tree",
        nargs="?",
        default="-",
        help="JSON file with a tree or a request body (- or nothing: standard input)",
    )
    command.add_argument(
        "--root",
        choices=["max", "min"],
        default=None,
        help="kind of the root when the tree does not say (default: max)",
    )
    command.add_argument(
        "--depth",
        type=int,
        default=None,
        metavar="N",
        help="search cutoff in plies; nodes at the cutoff are valued by their eval",
    )
    if name in ("alphabeta", "expectimax", "render"):
        command.add_argument(
            "--strict",
            action="store_true",
            help="prune only when alpha > beta (CS188), not when alpha >= beta (AIMA)",
        )
    if not drawing:
        command.add_argument(
            "--trace",
            action="store_true",
            help="record every step, each explained in a sentence"
            + (" (node, alpha, beta, value)" if name == "alphabeta" else ""),
        )
    if name == "alphabeta":
        command.add_argument(
            "--move-ordering",
            action="store_true",
            help="compare the leaves evaluated in posted, best-first and worst-first order",
        )
    if name in ("expectimax", "render"):
        command.add_argument(
            "--bounds",
            nargs=2,
            type=exact_option,
            metavar=("LO", "HI"),
            default=None,
            help="lowest and highest leaf value: prune chance nodes (Star1)",
        )
    if name in ("maxn", "render"):
        command.add_argument(
            "--tie-break",
            choices=["leftmost", "rightmost"],
            default=None,
            help="which of equally good moves a player takes (default: leftmost)",
        )
        command.add_argument(
            "--max-sum",
            type=exact_option,
            default=None,
            metavar="S",
            help="largest sum of a leaf's utilities: turns on shallow pruning",
        )
    if name == "maxn":
        command.add_argument(
            "--paranoid",
            type=int,
            default=None,
            metavar="PLAYER",
            help="also solve the paranoid reduction: everyone else plays against PLAYER",
        )
    return command


def search_command(args: argparse.Namespace) -> int:
    """Solve the tree of ``args.tree`` by the search the command names."""
    document = read_document(args.tree)
    _, output = solved_tree(document, args.tree, args.algorithm, _flags(args))
    print_document(output)
    return EXIT_OK


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The :func:`solve_tree` options given on the command line (and ``root``)."""
    flags: dict[str, Any] = {}
    for name in ("root", "depth", "tie_break", "max_sum", "paranoid"):
        if getattr(args, name, None) is not None:
            flags[name] = getattr(args, name)
    if getattr(args, "bounds", None) is not None:
        flags["bounds"] = tuple(args.bounds)
    if getattr(args, "strict", False):
        flags["prune_on_equality"] = False
    for name in ("trace", "move_ordering"):
        if getattr(args, name, False):
            flags[name] = True
    return flags


def solved_tree(
    document: Any, source: str, algorithm: str, flags: Mapping[str, Any]
) -> tuple[TreeSolution, dict[str, Any]]:
    """Parse the tree of ``document``, solve it with the request's options overridden by
    ``flags``, and write the answer; errors name the file, field or option at fault."""
    request, base = _request(document)
    with reading(source, _locator(source, request, flags)):
        tree, options = _read_tree(request, base, algorithm, flags)
        solution = solve_tree(tree, algorithm, **options)
        return solution, solution_json(solution)


def render_command(args: argparse.Namespace) -> int:
    """Draw the tree of ``args.tree``, solved by ``--algorithm``, as SVG, DOT or TikZ."""
    document = read_document(args.tree)
    flags = _flags(args)
    request, base = _request(document)
    with reading(args.tree, _locator(args.tree, request, flags)):
        tree, options = _read_tree(request, base, args.algorithm, flags)
        drawing = DrawingOptions(
            node_labels=args.node_labels,
            legend=args.legend,
            collapsed=tuple(args.collapse),
            max_depth_drawn=args.max_depth_drawn,
        )
        if args.bare:
            drawing = drawn_to_cutoff(drawing, options.get("depth"))
        check_drawable(tree, args.format, drawing)  # before spending time on solving it
        if args.bare:
            picture = problem_drawing(tree, args.title, options.get("depth"))
        elif args.algorithm == "none":
            picture = unsolved_tree(tree, args.title)
        else:
            solution = solve_tree(tree, args.algorithm, **options)
            picture = solution_drawing(solution, args.title)
        sys.stdout.write(RENDERERS[args.format](picture, drawing))
    return EXIT_OK


def _request(document: Any) -> tuple[Mapping[str, Any], str]:
    """A request body and the pointer of its tree; a bare tree as the body ``{"tree": ...}``
    whose pointers stay relative to the file."""
    if isinstance(document, dict) and "tree" in document:
        return document, "/tree"
    return {"tree": document}, ""


def _read_tree(
    request: Mapping[str, Any], base: str, algorithm: str, flags: Mapping[str, Any]
) -> tuple[Tree, dict[str, Any]]:
    """The request's tree and its :func:`solve_tree` options, flags overriding the file."""
    options = {**_request_options(request), **flags}
    # as at POST /v1/trees/maxn, a bare list of numbers is one leaf's utilities there
    default_root = PLAYER if algorithm == "maxn" else "max"
    root = options.pop("root", request.get("root", default_root))
    tree = parse_tree(
        request["tree"],
        root=root,
        limits=active_limits(),
        pointer=base,
    )
    return tree, options


def _locator(
    source: str, request: Mapping[str, Any], flags: Mapping[str, Any]
) -> Callable[[str], str]:
    """Where a :func:`solve_tree` parameter came from: its option, or a field of the file."""
    name = source_name(source)

    def where(parameter: str) -> str:
        field = REQUEST_FIELD.get(parameter, parameter)
        if parameter not in flags and field in request:
            return f"{name}#/{field}"
        return option_name(parameter, RENAMED)

    return where


def _request_options(request: Mapping[str, Any]) -> dict[str, Any]:
    """The :func:`solve_tree` options a request body gives (pointers name its fields)."""
    options: dict[str, Any] = {}
    for name in ("prune_on_equality", "trace", "move_ordering"):
        value = request.get(name)
        if value is not None:
            if type(value) is not bool:
                raise InvalidInputError(f"{name} must be true or false, got {value!r}", f"/{name}")
            options[name] = value
    for name in ("depth", "paranoid"):
        value = request.get(name)
        if value is not None:
            if type(value) is not int:
                raise InvalidInputError(f"{name} must be an integer, got {value!r}", f"/{name}")
            options[name] = value
    if request.get("tie_break") is not None:
        options["tie_break"] = request["tie_break"]
    bounds = request.get("bounds")
    if bounds is not None:
        if not isinstance(bounds, list) or len(bounds) != 2:
            raise InvalidInputError(f"bounds is [lo, hi], got {bounds!r}", "/bounds")
        low, high = (parse_exact(value, f"/bounds/{i}") for i, value in enumerate(bounds))
        options["bounds"] = (low, high)
    if request.get("max_sum") is not None:
        options["max_sum"] = parse_exact(request["max_sum"], "/max_sum")
    return options
