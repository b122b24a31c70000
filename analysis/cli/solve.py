"""``arbiter solve``: solve whatever a file holds, as the API endpoint of its kind would.

    arbiter solve [FILE]

A tree or request body is solved as its ``type`` says, or by its nodes: expectimax
with chance nodes, max^n with utility lists, minimax otherwise (one call of
:func:`analysis.trees.solve.solve_tree`, with every option of the request). A game
(``A``/``B``, ``payoffs``) gets the analysis ``POST /v1/matrices/analyze`` gives (its
``include`` and ``arithmetic`` read from the file too), and a
lottery body (``lottery``, ``utility``) the evaluation of ``POST /v1/lotteries/evaluate``:
the same JSON, written by the same core writers.
"""

from __future__ import annotations

import argparse
from typing import Any, Final

from analysis.cli.documents import print_document, read_document
from analysis.cli.error_handler import EXIT_OK, option_name, reading, source_name
from analysis.cli.options import ArgumentParser, command_parser
from analysis.cli.trees import solved_tree
from analysis.equilibria.json_output import report_json
from analysis.equilibria.report import DEFAULT_PARTS, PARTS, AnalysisOptions, analyze_matrix
from games.errors import InvalidInputError
from games.matrices.parser import parse_game
from games.numbers import parse_exact
from utility.evaluate import evaluate_lottery
from utility.formula import parse_parameters
from utility.function import read_utility
from utility.json_output import evaluate_json
from utility.lottery import parse_lottery

MATRIX_FORMS: Final = ("A", "payoffs", "payoff_arrays")
MATRIX_OPTIONS: Final = ("include", "arithmetic")
"""Request fields of ``POST /v1/matrices/analyze`` that a game file may hold."""
LOTTERY_FIELDS: Final = ("type", "lottery", "utility", "parameters", "wealth", "reduce")


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter solve``."""
    command = command_parser(
        name,
        summary,
        "Solve a tree or request body as its type says, or by its nodes: expectimax with "
        "chance nodes, max^n with utility lists, minimax otherwise. A game (A/B, payoffs) "
        "gets the analysis POST /v1/matrices/analyze gives; a lottery body the evaluation "
        "of POST /v1/lotteries/evaluate (EMV, expected utility, certainty equivalent, "
        "risk premium).",
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
        where = source_name(args.file)

        def field_of(parameter: str) -> str:
            # the analysis names the part list ``parts``; the file calls it ``include``
            return f"{where}#/include" if parameter == "parts" else option_name(parameter)

        with reading(args.file, field_of):
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
    """What ``POST /v1/matrices/analyze`` answers for the game and the file's options."""
    game = parse_game(
        {k: v for k, v in document.items() if k != "type" and k not in MATRIX_OPTIONS}
    )
    return {"type": "matrix", **report_json(analyze_matrix(game, _matrix_options(document)))}


def _matrix_options(document: dict[str, Any]) -> AnalysisOptions:
    """``include`` (default: the default parts) and ``arithmetic`` of a game file."""
    include = document.get("include")
    if include is not None:
        if not isinstance(include, list):
            raise InvalidInputError("include must be a list of parts", "/include")
        for position, part in enumerate(include):
            if part not in PARTS:
                raise InvalidInputError(
                    f"unknown part {part!r}; the parts are {', '.join(PARTS)}",
                    f"/include/{position}",
                )
    arithmetic = document.get("arithmetic", "auto")
    if arithmetic not in ("auto", "exact", "float"):
        raise InvalidInputError(
            f"arithmetic must be auto, exact or float, not {arithmetic!r}", "/arithmetic"
        )
    return AnalysisOptions(
        parts=frozenset(DEFAULT_PARTS if include is None else include),
        arithmetic=arithmetic,
        explicit=frozenset(include or ()),
    )


def _solve_lottery(document: dict[str, Any]) -> dict[str, Any]:
    """What ``POST /v1/lotteries/evaluate`` answers for the lottery body."""
    for name in document:
        if name not in LOTTERY_FIELDS:
            raise InvalidInputError(f"unknown field {name!r} in a lottery body", f"/{name}")
    if "lottery" not in document:
        raise InvalidInputError("a lottery body needs a lottery", "/lottery")
    parameters = parse_parameters(document.get("parameters") or {}, "/parameters")
    utility = read_utility(document.get("utility"), parameters, "/utility")
    wealth = parse_exact(document.get("wealth", 0), "/wealth")
    parsed = parse_lottery(document["lottery"], "/lottery")
    result = evaluate_lottery(parsed.lottery, utility, wealth, parsed.pointers)
    reduced = parsed.lottery if document.get("reduce") else None
    answer = evaluate_json(result, utility.formula, wealth, parsed.compound, reduced)
    return {"type": "lottery", **answer}
