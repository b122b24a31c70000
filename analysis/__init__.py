"""Algorithms of Arbiter: tree search, equilibria, grading. Pure Python, no web framework.

The public API, one entry point per job:

- :func:`solve_tree` solves a game tree (minimax, alpha-beta, expectimax, Star1, max^n)
  and returns a :class:`TreeSolution` naming nodes by id;
- :func:`analyze_matrix` analyses a normal-form game into a :class:`MatrixReport`;
- :func:`grade_answer` grades a student's answer with partial credit and a diagnosis;
- :func:`generate_problem` draws a fresh homework tree with its answer key;
- :func:`solve_game` values a position of a game defined by rules (``games.rules``) and
  :func:`best_move` plays one within a time budget; :func:`unfold_tree` writes a position's
  game tree to a depth as a :class:`~games.trees.model.Tree` for every tree tool;
- :func:`solution_json` and :func:`report_json` write the JSON the REST API answers.

The names load on first use, so ``import analysis.trees.minimax`` stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analysis.equilibria.json_output import report_json
    from analysis.equilibria.report import AnalysisOptions, MatrixReport, analyze_matrix
    from analysis.grading.problem_generator import ProblemSettings, generate_problem
    from analysis.grading.registry import grade_answer, make_grader
    from analysis.grading.results import Grade
    from analysis.search.results import GameSolution, MoveChoice
    from analysis.search.solve import best_move, solve_game
    from analysis.search.unfold import unfold_tree
    from analysis.trees.json_output import solution_json
    from analysis.trees.solve import ALGORITHMS, TreeSolution, solve_tree

_HOMES = {
    "ALGORITHMS": "analysis.trees.solve",
    "TreeSolution": "analysis.trees.solve",
    "solve_tree": "analysis.trees.solve",
    "solution_json": "analysis.trees.json_output",
    "AnalysisOptions": "analysis.equilibria.report",
    "MatrixReport": "analysis.equilibria.report",
    "analyze_matrix": "analysis.equilibria.report",
    "report_json": "analysis.equilibria.json_output",
    "Grade": "analysis.grading.results",
    "grade_answer": "analysis.grading.registry",
    "make_grader": "analysis.grading.registry",
    "ProblemSettings": "analysis.grading.problem_generator",
    "generate_problem": "analysis.grading.problem_generator",
    "GameSolution": "analysis.search.results",
    "MoveChoice": "analysis.search.results",
    "best_move": "analysis.search.solve",
    "solve_game": "analysis.search.solve",
    "unfold_tree": "analysis.search.unfold",
}

__all__ = [
    "ALGORITHMS",
    "AnalysisOptions",
    "GameSolution",
    "Grade",
    "MatrixReport",
    "MoveChoice",
    "ProblemSettings",
    "TreeSolution",
    "analyze_matrix",
    "best_move",
    "generate_problem",
    "grade_answer",
    "make_grader",
    "report_json",
    "solution_json",
    "solve_game",
    "solve_tree",
    "unfold_tree",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'analysis' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
