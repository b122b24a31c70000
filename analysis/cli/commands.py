"""The ``grade`` and ``solve`` subcommands of ``arbiter`` (see :mod:`analysis.cli.main`).

    arbiter grade PROBLEM.json ANSWERS_DIR_OR_FILE [--format json|csv|gradescope]
                  [--rubric RUBRIC.json] [--output results.json]
    arbiter solve FILE

PROBLEM.json holds a problem (``{"type": "alphabeta", "tree": ...}``) or
``{"problem": ..., "rubric": ...}``. ANSWERS is a directory of ``<student>.json``
answers, one answer file, or a file ``{"answers": {student: answer}}``.
``--format gradescope`` grades one answer and writes the ``results.json`` that
Gradescope's autograder reads. ``solve`` reads any tree file or request body;
with a ``type`` it solves as that endpoint would, otherwise by the tree's
nodes: expectimax with chance nodes, max^n with utility lists, minimax else.
A game (``A``/``B``, ``payoffs``) gets its pure equilibria; a lottery body
(``lottery``, ``utility``) its EMV, expected utility, CE and risk premium.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from analysis.equilibria.pure import pure_nash_equilibria
from analysis.grading.answers import number_json
from analysis.grading.class_report import grades_csv, gradescope_results, summarize
from analysis.grading.lottery_problems import LotteryGrader
from analysis.grading.registry import make_grader
from analysis.grading.results import Grade
from analysis.grading.rubric import parse_rubric
from analysis.trees.json_output import solution_json
from analysis.trees.solve import solve_tree
from games.errors import InvalidInputError
from games.matrices.parser import parse_game
from games.numbers import parse_exact
from games.trees.parser import parse_tree

COMMANDS = ("grade", "solve")
MATRIX_FORMS = ("A", "payoffs", "payoff_arrays")


def add_commands(commands: Any) -> None:
    """Register ``grade`` and ``solve`` on the ``arbiter`` subparsers."""
    grade = commands.add_parser("grade", help="grade answers to a tree problem")
    grade.add_argument("problem", help="problem JSON (or {problem, rubric})")
    grade.add_argument("answers", help="a directory of <student>.json answers, or one file")
    grade.add_argument("--format", choices=["json", "csv", "gradescope"], default="json")
    grade.add_argument("--rubric", default=None, help="rubric JSON file")
    grade.add_argument("--output", default="results.json", help="where --format gradescope writes")
    solve = commands.add_parser("solve", help="solve any tree file")
    solve.add_argument("file", help="a tree or a request body, optionally with a type")


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"{path}: not valid JSON: {error}", "") from None


def _answers(source: Path) -> dict[str, Any]:
    if source.is_dir():
        return {path.stem: _load(path) for path in sorted(source.glob("*.json"))}
    document = _load(source)
    if isinstance(document, dict) and set(document) == {"answers"}:
        answers = document["answers"]
        if not isinstance(answers, dict):
            raise InvalidInputError("answers maps student ids to answers", "/answers")
        return answers
    return {source.stem: document}


def grade_command(args: argparse.Namespace) -> int:
    document = _load(Path(args.problem))
    wrapped = isinstance(document, dict) and "problem" in document
    problem = document["problem"] if wrapped else document
    raw_rubric = document.get("rubric") if wrapped else None
    if args.rubric is not None:
        raw_rubric = _load(Path(args.rubric))
    grader = make_grader(problem)
    rubric = parse_rubric(raw_rubric)
    answers = _answers(Path(args.answers))
    grades: dict[str, Grade] = {
        student: grader.grade(answer, rubric, pointer=f"/answers/{student}")
        for student, answer in answers.items()
    }
    if args.format == "gradescope":
        if len(grades) != 1:
            raise InvalidInputError(
                f"--format gradescope grades one submission; got {len(grades)} answers", ""
            )
        (grade,) = grades.values()
        Path(args.output).write_text(json.dumps(gradescope_results(grade), indent=2) + "\n")
        print(f"{grade.score:g} / {grade.max_score:g} written to {args.output}")
    elif args.format == "csv":
        sys.stdout.write(grades_csv(grades))
    else:
        results = {student: dataclasses.asdict(grade) for student, grade in grades.items()}
        output = {"results": results, "summary": dataclasses.asdict(summarize(grades))}
        json.dump(output, sys.stdout, indent=2)
        print()
    return 0


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


def solve_command(args: argparse.Namespace) -> int:
    document = _load(Path(args.file))
    if isinstance(document, dict) and (
        document.get("type") == "matrix" or any(f in document for f in MATRIX_FORMS)
    ):
        return _print(_solve_matrix(document))
    if isinstance(document, dict) and (document.get("type") == "lottery" or "lottery" in document):
        return _print(_solve_lottery({**document, "type": "lottery"}))
    request = document if isinstance(document, dict) and "tree" in document else {"tree": document}
    tree = parse_tree(request["tree"], root=request.get("root", "max"))
    kind = request.get("type", "auto")
    bounds = request.get("bounds")
    max_sum = request.get("max_sum")
    solution = solve_tree(
        tree,
        kind,
        depth=request.get("depth"),
        prune_on_equality=request.get("prune_on_equality", True),
        bounds=None
        if bounds is None
        else (parse_exact(bounds[0], "/bounds/0"), parse_exact(bounds[1], "/bounds/1")),
        tie_break=request.get("tie_break", "leftmost"),
        max_sum=None if max_sum is None else parse_exact(max_sum, "/max_sum"),
        trace=request.get("trace", False),
        move_ordering=request.get("move_ordering", False),
        paranoid=request.get("paranoid"),
    )
    output = solution_json(solution)
    kind = "expectimax" if solution.algorithm == "star1" else solution.algorithm
    return _print({"type": kind, **output})


def _print(output: dict[str, Any]) -> int:
    json.dump(output, sys.stdout, indent=2)
    print()
    return 0


def run(args: argparse.Namespace) -> int:
    return grade_command(args) if args.command == "grade" else solve_command(args)
