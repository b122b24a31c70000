"""Command line: solve a tree file without the server.

    arbiter minimax TREE.json [--root min] [--depth N]
    arbiter alphabeta TREE.json [--strict] [--trace] [--move-ordering] [--depth N]

TREE.json holds a tree in any posted form, or a whole request body
(``{"tree": ..., "root": ..., "depth": ...}``); ``-`` reads standard input.
The output is the same JSON the API returns. Errors go to standard error with
the JSON pointer of the offending field, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from analysis.alphabeta import alpha_beta
from analysis.minimax import minimax
from analysis.move_ordering import move_ordering
from analysis.tree_json import alpha_beta_json, minimax_json
from games.errors import ArbiterError
from games.tree_format import parse_tree


def _read(source: str) -> Any:
    text = sys.stdin.read() if source == "-" else Path(source).read_text()
    return json.loads(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arbiter", description="Solve game trees exactly.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("minimax", "value of every node"), ("alphabeta", "alpha-beta search")):
        command = commands.add_parser(name, help=text)
        command.add_argument("tree", help="JSON file with a tree or a request body; - for stdin")
        command.add_argument("--root", choices=["max", "min"], default=None)
        command.add_argument("--depth", type=int, default=None, help="cutoff in plies")
        if name == "alphabeta":
            command.add_argument(
                "--strict",
                action="store_true",
                help="prune only on strict inequality (CS188 convention)",
            )
            command.add_argument("--trace", action="store_true")
            command.add_argument("--move-ordering", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    document = _read(args.tree)
    request = document if isinstance(document, dict) and "tree" in document else {"tree": document}
    root = args.root or request.get("root", "max")
    depth = args.depth if args.depth is not None else request.get("depth")
    try:
        tree = parse_tree(request["tree"], root=root)
        if args.command == "minimax":
            output = minimax_json(minimax(tree, depth=depth))
        else:
            equality = not args.strict and request.get("prune_on_equality", True)
            result = alpha_beta(
                tree,
                depth=depth,
                prune_on_equality=equality,
                trace=args.trace or request.get("trace", False),
            )
            ordering = None
            if args.move_ordering or request.get("move_ordering", False):
                ordering = move_ordering(tree, depth=depth, prune_on_equality=equality)
            output = alpha_beta_json(result, ordering)
    except ArbiterError as error:
        for problem in error.errors:
            print(f"arbiter: {problem.pointer or '/'}: {problem.message}", file=sys.stderr)
        return 2
    json.dump(output, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
