"""Fresh problems of every gradable type, with statement, figure and answer key,
reproducible from a seed and varied per student.

A problem is drawn with ``random.Random`` seeded by :func:`variant_seed` of the
teacher's seed and the student (the seed itself without a student), and redrawn (a
bounded number of times) until it meets the teacher's constraints: the same settings
and seed always give the same problem, on any machine. Without a seed one is drawn
from the operating system and returned. Every draw and every search spends on the
deadline of the computation in progress (:func:`games.limits.current_deadline`), and
settings that no draw can ever meet are refused before the first one.

Each family's module is imported when a problem of its type is first drawn or checked
(:data:`_FAMILIES` names it), so that grading a tree problem does not load the SymPy,
SciPy and matplotlib the lottery, matrix and consistency families need.

The statement handed out is framed here, the same for every family: the family's title,
the student whose variant it is (with the seed), the family's text, and the answer
template as a JSON block to fill in.
"""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

from analysis.grading.generator_settings import (
    LOTTERY_UTILITIES,
    MATRIX_KINDS,
    MAX_ATTEMPTS,
    MAX_LEAF_VALUE,
    MAX_SEED,
    MAX_STUDENT_ID,
    PROBLEM_TYPES,
    TREE_TYPES,
    Draft,
    ProblemSettings,
    fresh_seed,
    variant_seed,
)
from games.errors import InvalidInputError
from games.limits import Deadline, current_deadline

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_LEAF_VALUE",
    "GeneratedProblem",
    "ProblemSettings",
    "generate_problem",
]

Family = Callable[[random.Random, ProblemSettings, Deadline], Draft | None]
Check = Callable[[ProblemSettings], None]

_FAMILIES: Final[dict[str, str]] = {
    **{name: "analysis.grading.tree_generator:draw_tree" for name in TREE_TYPES},
    "matrix": "analysis.grading.matrix_generator:draw_matrix",
    "lottery": "analysis.grading.lottery_generator:draw_lottery",
    "preferences": "analysis.grading.preference_generator:draw_preferences",
    "eu-consistency": "analysis.grading.consistency_generator:draw_consistency",
    "extensive": "analysis.grading.extensive_generator:draw_extensive",
}
"""Each type's draw, as ``module:function``, imported on first use."""
_CHECKS: Final[dict[str, str]] = {
    **{name: "analysis.grading.tree_generator:check_tree_settings" for name in TREE_TYPES},
    "matrix": "analysis.grading.matrix_generator:check_matrix_settings",
    "extensive": "analysis.grading.extensive_generator:check_extensive_settings",
}
"""The checks of the settings only some types have (ranges, what no draw could meet)."""


def _resolve(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return found


@dataclass(frozen=True, slots=True)
class GeneratedProblem:
    """A problem body (as posted to ``/v1/grade``), its key as a gradable answer, the
    statement (Markdown), the figure (SVG, or ``None`` where none fits), the seed it was
    drawn from (the teacher's, drawn afresh when none was given), the student whose
    variant it is, and the draws it took."""

    problem: dict[str, Any]
    answer: dict[str, Any]
    statement: str
    figure: str | None
    seed: int
    student: str | None
    attempts: int


def _check(settings: ProblemSettings) -> None:
    if settings.type not in PROBLEM_TYPES:
        raise InvalidInputError(
            f"type must be one of {', '.join(PROBLEM_TYPES)}, got {settings.type!r}",
            parameter="type",
        )
    if settings.seed is not None and not 0 <= settings.seed <= MAX_SEED:
        raise InvalidInputError(f"seed must be 0..{MAX_SEED}", parameter="seed")
    if settings.student is not None and not 1 <= len(settings.student) <= MAX_STUDENT_ID:
        raise InvalidInputError(
            f"a student id has 1 to {MAX_STUDENT_ID} characters", parameter="student"
        )
    if settings.values[0] > settings.values[1]:
        raise InvalidInputError("values is [min, max] with min <= max", parameter="values")
    if any(abs(v) > MAX_LEAF_VALUE for v in settings.values):
        raise InvalidInputError(f"values must lie within +/-{MAX_LEAF_VALUE}", parameter="values")
    if not 1 <= settings.max_attempts <= MAX_ATTEMPTS:
        raise InvalidInputError(f"max_attempts must be 1..{MAX_ATTEMPTS}", parameter="max_attempts")
    if any(d < 1 for d in settings.denominators) or not settings.denominators:
        raise InvalidInputError("denominators are positive integers", parameter="denominators")
    if settings.matrix not in MATRIX_KINDS:
        raise InvalidInputError(
            f"matrix is one of {', '.join(MATRIX_KINDS)}, got {settings.matrix!r}",
            parameter="matrix",
        )
    if settings.utility is not None and settings.utility not in LOTTERY_UTILITIES:
        raise InvalidInputError(
            f"utility is one of {', '.join(LOTTERY_UTILITIES)}, got {settings.utility!r}",
            parameter="utility",
        )
    if settings.type not in TREE_TYPES and settings.min_pruned_leaves > 0:
        raise InvalidInputError(
            f"min_pruned_leaves applies to alphabeta problems; a {settings.type} problem "
            "prunes nothing, so no draw could meet it",
            parameter="min_pruned_leaves",
        )
    if settings.type in _CHECKS:
        cast(Check, _resolve(_CHECKS[settings.type]))(settings)


def generate_problem(
    settings: ProblemSettings, deadline: Deadline | None = None, figure: bool = True
) -> GeneratedProblem:
    """Draw problems until one meets the constraints.

    Parameters
    ----------
    settings
        What the teacher asks for; ``seed`` ``None`` draws a fresh seed (returned).
    deadline
        Budget for all the draws together; by default the deadline of the
        computation in progress (:func:`games.limits.current_deadline`).
    figure
        Draw the figure (``False`` leaves it ``None``: grading needs the problem only).

    Raises
    ------
    InvalidInputError
        If the settings are out of range or can never be met (the pointer names the
        field), or no problem within ``max_attempts`` draws meets the constraints.
    TimeLimitError
        If the deadline passes first.
    """
    _check(settings)
    clock = deadline if deadline is not None else current_deadline()
    seed = fresh_seed() if settings.seed is None else settings.seed
    rng = random.Random(variant_seed(seed, settings.student))
    draw = cast(Family, _resolve(_FAMILIES[settings.type]))
    for attempt in range(1, settings.max_attempts + 1):
        clock.check()
        draft = draw(rng, settings, clock)
        if draft is None:
            continue
        # the figure is drawn for the draw that qualifies only
        return GeneratedProblem(
            draft.problem,
            draft.answer,
            handout(draft, seed, settings.student),
            draft.figure() if figure else None,
            seed,
            settings.student,
            attempt,
        )
    raise InvalidInputError(
        f"no problem met the constraints in {settings.max_attempts} draws; widen the value "
        "range or the branching, or ask for fewer pruned leaves",
        parameter="max_attempts",
    )


def handout(draft: Draft, seed: int, student: str | None) -> str:
    """The statement handed out (Markdown): the draft's title, the student whose variant it
    is with the seed (when it is a student's), the draft's text, and its answer template in
    a ``json`` block."""
    lines = [f"## {draft.title}", ""]
    if student is not None:
        lines += [f"Variant for student {code_span(student)} (seed {seed}).", ""]
    template = json.dumps(draft.template, indent=2)
    fence = "`" * max(3, _longest_backtick_run(template) + 1)
    fill = []
    if "null" in template:
        fill.append("replace each `null` with your answer")
    if "[]" in template:
        fill.append("list your answer in each `[]` (leave it empty if there is none)")
    lines += [
        draft.statement.strip("\n"),
        "",
        f"Hand in your answer as this JSON object, filled in: {', and '.join(fill)}.",
        "",
        f"{fence}json",
        template,
        fence,
        "",
    ]
    return "\n".join(lines)


def code_span(text: str) -> str:
    """``text`` as a Markdown code span that shows it verbatim, whatever it holds: a fence of
    more backticks than any run inside, padded with a space where the text begins or ends
    with a backtick or a space (CommonMark strips one such space each side), and each
    character that prints nothing (line breaks, controls, direction marks) written as its
    Python escape (``\\n``, ``\\u202e``), so that no id can end the line or reorder it."""
    shown = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )
    fence = "`" * (_longest_backtick_run(shown) + 1)
    edge = shown[0] + shown[-1] if shown else ""
    if "`" in edge or (edge == "  " and shown.strip(" ")):
        shown = f" {shown} "
    return f"{fence}{shown}{fence}"


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall("`+", text)), default=0)
