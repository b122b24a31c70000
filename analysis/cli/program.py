"""The ``arbiter`` program: its table of commands, ``--version`` and :func:`main`.

Each command is declared and run by the module of its family (:mod:`analysis.cli.trees`,
:mod:`analysis.cli.solve`, :mod:`analysis.cli.grade`, :mod:`analysis.cli.games`), which
builds its parser with :func:`analysis.cli.options.command_parser`; the command runs under
the limits its options give, inside the one error handler (:mod:`analysis.cli.error_handler`).

A family module is imported only when one of its commands runs, as pip loads its
commands: grading and game solving load SymPy and SciPy, seconds of start-up that
``arbiter minimax`` or ``arbiter --version`` should not pay.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as distribution_version
from typing import Final, cast

from analysis.cli.error_handler import EXIT_CODES, run
from analysis.cli.options import ArgumentParser, limits_of
from games.limits import limited

VERSION: Final = "0.1.0"
"""The version in ``pyproject.toml``, shown when the distribution is not installed
(running from a source tree); a test keeps the two equal."""


@dataclass(frozen=True, slots=True)
class Command:
    """One ``arbiter`` subcommand: the module that declares and runs it, and its summary."""

    module: str
    summary: str


COMMANDS: Final = {
    "minimax": Command(
        "analysis.cli.trees",
        "minimax value of every node, the best move and the principal variation",
    ),
    "alphabeta": Command(
        "analysis.cli.trees", "alpha-beta search: the minimax answer and the nodes it prunes"
    ),
    "expectimax": Command(
        "analysis.cli.trees", "expectiminimax over chance nodes (Star1 pruning with --bounds)"
    ),
    "maxn": Command(
        "analysis.cli.trees", "max^n for multiplayer trees (shallow pruning with --max-sum)"
    ),
    "render": Command(
        "analysis.cli.trees", "draw the solved tree: SVG, Graphviz DOT or TikZ for LaTeX"
    ),
    "solve": Command(
        "analysis.cli.solve", "solve any file: a tree by its nodes or type, a game, a lottery"
    ),
    "grade": Command(
        "analysis.cli.grade",
        "grade answers to a problem (JSON, CSV, Gradescope or PrairieLearn results)",
    ),
    "autograder": Command(
        "analysis.cli.autograder", "build the Gradescope autograder zip for a problem"
    ),
    "prairielearn": Command(
        "analysis.cli.prairielearn",
        "write a PrairieLearn question graded by Arbiter, with variants drawn ahead",
    ),
    "problem": Command(
        "analysis.cli.problems",
        "generate problems with statement, figure and key; one variant per student",
    ),
    "extensive": Command(
        "analysis.cli.extensive",
        "games with information sets (.efg or JSON): exact zero-sum equilibria, CFR, CFR+",
    ),
    "game": Command(
        "analysis.cli.games",
        "games of the catalogue: list them, solve a position, the engine's move, the game tree",
    ),
}


def version() -> str:
    """The installed distribution's version, else :data:`VERSION`."""
    try:
        return distribution_version("arbiter")
    except PackageNotFoundError:
        return VERSION


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``arbiter`` with ``argv`` (default: the process's arguments); return the exit status."""
    return run(lambda: _dispatch(sys.argv[1:] if argv is None else list(argv)))


def _dispatch(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        # --help, --version, or a usage error: each ends the program
        program_parser().parse_args(argv)
    args = command_parser(argv[0]).parse_args(argv[1:])
    with limited(limits_of(args)):
        status: int = args.run(args)
        return status


def program_parser() -> ArgumentParser:
    """The parser of ``arbiter`` itself: ``--help`` lists the commands, ``--version``."""
    parser = ArgumentParser(
        prog="arbiter",
        description=(
            "Solve game trees, games and lotteries exactly, and grade answers, from files.\n"
            "Each command prints the JSON the REST API answers."
        ),
        epilog="exit status:\n"
        + "\n".join(f"  {code:<4} {meaning}" for code, meaning in EXIT_CODES.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"arbiter {version()}",
        help="print the version and exit",
    )
    commands = parser.add_subparsers(
        title="commands",
        dest="name",
        required=True,
        metavar="COMMAND",
        help="run 'arbiter COMMAND --help' for its options",
    )
    for name, command in COMMANDS.items():
        commands.add_parser(name, help=command.summary, add_help=False)
    return parser


def command_parser(name: str) -> ArgumentParser:
    """The full parser of ``arbiter NAME``, from the module of its family."""
    command = COMMANDS[name]
    module = importlib.import_module(command.module)
    build = cast(Callable[[str, str], ArgumentParser], module.parser)
    return build(name, command.summary)
