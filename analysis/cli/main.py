"""Command line: solve a tree file without the server.

    arbiter minimax TREE.json [--root min] [--depth N]
    arbiter alphabeta TREE.json [--strict] [--trace] [--move-ordering] [--depth N]
    arbiter expectimax TREE.json [--bounds LO HI] [--depth N]
    arbiter maxn TREE.json [--tie-break rightmost] [--max-sum S] [--paranoid K]
    arbiter grade PROBLEM.json ANSWERS [--format json|csv|gradescope]  (analysis.cli.commands)
    arbiter solve FILE

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

from analysis.cli import commands as grade_cli
from analysis.trees.json_output import solution_json
from analysis.trees.solve import solve_tree
from games.errors import ArbiterError
from games.numbers import parse_exact
from games.trees.parser import parse_tree


def _read(source: str) -> Any:
    text = sys.stdin.read() if source == "-" else Path(source).read_text()
    return json.loads(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arbiter", description="Solve game trees exactly.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("minimax", "value of every node"),
        ("alphabeta", "alpha-beta search"),
        ("expectimax", "expectiminimax with chance nodes (Star1 with --bounds)"),
        ("maxn", "max^n for multiplayer trees"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("tree", help="JSON file with a tree or a request body; - for stdin")
        command.add_argument("--root", choices=["max", "min"], default=None)
        command.add_argument("--depth", type=int, default=None, help="cutoff in plies")
        if name in ("alphabeta", "expectimax"):
            command.add_argument(
                "--strict",
                action="store_true",
                help="prune only on strict inequality (CS188 convention)",
            )
        if name == "alphabeta":
            command.add_argument("--trace", action="store_true")
            command.add_argument("--move-ordering", action="store_true")
        if name == "expectimax":
            command.add_argument(
                "--bounds",
                nargs=2,
                metavar=("LO", "HI"),
                default=None,
                help="bounds on leaf values: prune chance nodes (Star1)",
            )
        if name == "maxn":
            command.add_argument("--tie-break", choices=["leftmost", "rightmost"], default=None)
            command.add_argument("--max-sum", default=None, help="enables shallow pruning")
            command.add_argument("--paranoid", type=int, default=None, metavar="PLAYER")
    grade_cli.add_commands(commands)
    return parser


def _options(args: argparse.Namespace, request: dict[str, Any]) -> dict[str, Any]:
    """Options for :func:`solve_tree`: a command-line flag wins over the request file."""

    def given(name: str) -> Any:
        flag = getattr(args, name, None)
        return flag if flag not in (None, False) else request.get(name)

    options: dict[str, Any] = {"depth": given("depth")}
    if getattr(args, "strict", False):
        options["prune_on_equality"] = False
    elif "prune_on_equality" in request:
        options["prune_on_equality"] = request["prune_on_equality"]
    raw = given("bounds")
    if raw is not None:
        options["bounds"] = (parse_exact(raw[0], "/bounds/0"), parse_exact(raw[1], "/bounds/1"))
    raw_sum = given("max_sum")
    if raw_sum is not None:
        options["max_sum"] = parse_exact(raw_sum, "/max_sum")
    for name in ("tie_break", "trace", "move_ordering", "paranoid"):
        if given(name) is not None:
            options[name] = given(name)
    return options


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in grade_cli.COMMANDS:
        try:
            return grade_cli.run(args)
        except ArbiterError as error:
            for problem in error.errors:
                print(f"arbiter: {problem.pointer or '/'}: {problem.message}", file=sys.stderr)
            return 2
    document = _read(args.tree)
    request = document if isinstance(document, dict) and "tree" in document else {"tree": document}
    root = args.root or request.get("root", "max")
    try:
        tree = parse_tree(request["tree"], root=root)
        options = _options(args, request)
        solution = solve_tree(tree, args.command, **options)
        output = solution_json(solution)
    except ArbiterError as error:
        error.located(lambda name: "--" + name.replace("_", "-"))
        for problem in error.errors:
            print(f"arbiter: {problem.pointer or '/'}: {problem.message}", file=sys.stderr)
        return 2
    json.dump(output, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
