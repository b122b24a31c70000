"""``arbiter solve``: solve whatever a file holds, as the API endpoint of its kind would.

    arbiter solve [FILE]

A tree or request body is solved as its ``type`` says, or by its nodes: expectimax
with chance nodes, max^n with utility lists, minimax otherwise (one call of
:func:`analysis.trees.solve.solve_tree`, with every option of the request). A game
(``A``/``B``, ``payoffs``) gets its pure equilibria; a lottery body (``lottery``,
``utility``) its EMV, expected utility, certainty equivalent and risk premium.
"""

from __future__ import annotations

import argparse
from typing import Any, Final

from analysis.cli.documents import print_document, read_document
from analysis.cli.error_handler import EXIT_OK, option_name, reading
from analysis.cli.options import ArgumentParser, command_parser
from analysis.cli.trees import solved_tree
from analysis.equilibria.pure import pure_nash_equilibria
from analysis.grading.lottery_problems import LotteryGrader
from analysis.grading.tree_problems import number_json
from games.matrices.parser import parse_game

MATRIX_FORMS: Final = ("A", "payoffs", "payoff_arrays")


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter solve``."""
    command = command_parser(
        name,
        summary,
        "Solve a tree or request body as its type says, or by its nodes: expectimax with "
        "chance nodes, max^n with utility lists, minimax otherwise. A game (A/B, payoffs) "
        "gets its pure equilibria; a lottery body its EMV, expected utility, certainty "
        "equivalent and risk premium.",
    )
    command.set_defaults(run=solve_command)
    command.add_argument(
        "file",
        nargs="?",
        default="-",
        help="JSON file: a tree or request body (optionally with a type), a game or a lottery "
        "(- or nothing: standard input)",
    )
    return command


def solve_command(args: argparse.Namespace) -> int:
    """Solve whatever ``args.file`` holds and print the answer."""
    document = read_document(args.file)
    kind = _kind_of(document)
    if kind == "matrix":
        with reading(args.file, option_name):
            output = _solve_matrix(document)
    elif kind == "lottery":
        output = _solve_lottery({**document, "type": "lottery"})
    else:
        algorithm = document.get("type", "auto") if isinstance(document, dict) else "auto"
        solution, answer = solved_tree(document, args.file, algorithm, {})
        searched = "expectimax" if solution.algorithm == "star1" else solution.algorithm
        output = {"type": searched, **answer}
    print_document(output)
    return EXIT_OK


def _kind_of(document: Any) -> str:
    """``matrix``, ``lottery`` or ``tree``: by the type a document names, else by its fields."""
    if not isinstance(document, dict):
        return "tree"
    if document.get("type") == "matrix" or any(f in document for f in MATRIX_FORMS):
        return "matrix"
    if document.get("type") == "lottery" or "lottery" in document:
        return "lottery"
    return "tree"


def _solve_matrix(document: dict[str, Any]) -> dict[str, Any]:
    game = parse_game({k: v for k, v in document.items() if k != "type"})
    return {
        "type": "matrix",
        "pure_equilibria": [
            {
                "profile": list(found.profile),
                "labels": game.profile_labels(found.profile),
                "payoffs": [number_json(u) for u in found.payoffs],
            }
            for found in pure_nash_equilibria(game)
        ],
    }


def _solve_lottery(document: dict[str, Any]) -> dict[str, Any]:
    result = LotteryGrader({k: v for k, v in document.items() if k != "reduce"}).result
    out: dict[str, Any] = {"type": "lottery", "emv": number_json(result.emv)}
    for name in ("expected_utility", "certainty_equivalent", "risk_premium"):
        out[name] = getattr(result, name)
        out[f"{name}_exact"] = getattr(result, f"{name}_exact")
    out["attitude"] = result.attitude
    return out
