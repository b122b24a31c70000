"""``arbiter extensive``: solve a game with information sets, as ``POST /v1/extensive/solve``.

    arbiter extensive [FILE] [--method M] [--iterations N] [--target-nash-conv X]
    arbiter extensive [FILE] --export efg|json

The file holds Gambit ``.efg`` text (it starts with ``EFG``) or the JSON form of
docs/extensive.md (a request body ``{"game": ...}`` or ``{"efg": ...}`` is read too, with
its options); the answer is the endpoint's JSON. ``--export`` writes the game in either form
instead, as ``POST /v1/extensive/convert`` does.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from analysis.cli.documents import decode_json, print_document, read_text
from analysis.cli.error_handler import EXIT_OK, option_name, reading
from analysis.cli.options import ArgumentParser, command_parser
from analysis.extensive.json_output import solution_json
from analysis.extensive.solve import METHODS, solve_extensive
from games.extensive.efg import read_efg, write_efg
from games.extensive.json_form import read_json_form, write_json_form
from games.extensive.model import ExtensiveGame


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter extensive``."""
    command = command_parser(
        name,
        summary,
        "Solve an extensive-form game with information sets (imperfect information, perfect "
        "recall): the exact value and behaviour strategies of a two-player zero-sum game by the "
        "sequence-form LP, an exact equilibrium of any two-player game by Lemke's algorithm, "
        "both certified by exact best responses and checked for sequential rationality; a "
        "subgame-perfect equilibrium by backward induction; CFR or CFR+ for any game. Prints "
        "what POST /v1/extensive/solve answers.",
    )
    command.set_defaults(run=extensive_command)
    command.add_argument(
        "file",
        nargs="?",
        default="-",
        help="a Gambit .efg file, or the game in the JSON form (- or nothing: standard input)",
    )
    command.add_argument(
        "--method",
        choices=METHODS,
        default=None,
        help="sequence_lp (exact, two-player zero-sum), lemke (exact, two players), "
        "subgame_perfect (exact, backward induction over subgames), cfr, cfr_plus, or auto "
        "(default: the LP for zero-sum games, lemke for other two-player games, else "
        "cfr_plus)",
    )
    command.add_argument(
        "--iterations", type=int, default=None, help="cfr and cfr_plus: most iterations (1000)"
    )
    command.add_argument(
        "--target-nash-conv",
        type=float,
        default=None,
        help="cfr and cfr_plus: stop once NashConv is at most this",
    )
    command.add_argument(
        "--export",
        choices=("efg", "json"),
        default=None,
        help="print the game as .efg text or in the JSON form instead of solving it",
    )
    return command


def extensive_command(args: argparse.Namespace) -> int:
    """Read the game in ``args.file``, solve it and print the answer."""
    text = read_text(args.file, "a .efg game or the JSON form")
    options: dict[str, Any] = {}
    with reading(args.file, option_name):
        if text.lstrip().startswith("EFG"):
            game = read_efg(text, pointer="")
        else:
            game, options = _json_game(decode_json(text, args.file))
        if args.export is not None:
            if args.export == "efg":
                sys.stdout.write(write_efg(game))
            else:
                print_document(write_json_form(game))
            return EXIT_OK
        method = args.method or options.get("method", "auto")
        iterations = args.iterations if args.iterations is not None else options.get("iterations")
        target = args.target_nash_conv
        if target is None:
            target = options.get("target_nash_conv")
        solution = solve_extensive(game, method, iterations=iterations, target_nash_conv=target)
    print_document(solution_json(game, solution))
    return EXIT_OK


def _json_game(document: Any) -> tuple[ExtensiveGame, dict[str, Any]]:
    """The game of a JSON file: the JSON form itself, or a request body holding it."""
    if isinstance(document, dict) and ("game" in document or "efg" in document):
        options = {k: v for k, v in document.items() if k not in ("game", "efg")}
        if "efg" in document and isinstance(document["efg"], str):
            return read_efg(document["efg"], pointer="/efg"), options
        return read_json_form(document.get("game"), pointer="/game"), options
    return read_json_form(document), {}
