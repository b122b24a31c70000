"""Fresh preference problems: which vNM axioms do these stated preferences satisfy, and
which utility reproduces them?

Prizes get a hidden utility (worst 0, best 100, the others distinct in between) and two
lotteries over pairs of prizes; the statements rank every prize and lottery by expected
utility, one comparison per neighbour, so every pair is ranked. An inconsistent problem
adds one statement that reverses a ranked pair, which no expected utility reproduces.
The key is the grader's own (:class:`analysis.grading.preference_problems.
PreferenceGrader`): each axiom's verdict, and the hidden utility (or ``null``).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Final

from analysis.grading.generator_settings import Draft, ProblemSettings
from analysis.grading.preference_problems import PreferenceGrader
from games.limits import Deadline
from games.trees.document import exact_json
from utility.axioms import AXIOMS

PRIZE_NAMES: Final = ("A", "B", "C", "D")
LOTTERY_NAMES: Final = ("L1", "L2")
PROBLEM_COST: Final = 200
"""Deadline units charged per drawn problem (checking the axioms, one small LP)."""


def _chance(rng: random.Random, denominators: tuple[int, ...]) -> Fraction:
    whole = rng.choice([d for d in denominators if d >= 2] or [2])
    return Fraction(rng.randint(1, whole - 1), whole)


def draw_preferences(
    rng: random.Random, settings: ProblemSettings, deadline: Deadline
) -> Draft | None:
    """One preference problem, or ``None`` when the draw misses the consistency asked for."""
    deadline.spend(PROBLEM_COST)
    consistent = settings.consistent if settings.consistent is not None else rng.random() < 0.5
    prizes = list(PRIZE_NAMES[: rng.randint(3, 4)])
    inner = rng.sample(range(1, 100), len(prizes) - 2)
    utility = dict(zip(prizes, [100, *sorted(inner, reverse=True), 0], strict=True))
    worth: dict[str, Fraction] = {prize: Fraction(u) for prize, u in utility.items()}
    lotteries: dict[str, Any] = {}
    for name in LOTTERY_NAMES:
        better, worse = sorted(rng.sample(prizes, 2), key=prizes.index)
        p = _chance(rng, settings.denominators)
        lotteries[name] = [{"p": exact_json(p), "x": better}, {"p": exact_json(1 - p), "x": worse}]
        worth[name] = p * worth[better] + (1 - p) * worth[worse]
    order = sorted(worth, key=lambda item: worth[item], reverse=True)
    statements = [
        [high, ">" if worth[high] > worth[low] else "~", low]
        for high, low in zip(order, order[1:], strict=False)
    ]
    if not consistent:
        strict = [(h, lo) for h, lo in zip(order, order[2:], strict=False) if worth[h] > worth[lo]]
        if not strict:
            return None
        high, low = rng.choice(strict)
        statements.insert(rng.randint(0, len(statements)), [low, ">", high])
    problem: dict[str, Any] = {
        "type": "preferences",
        "prizes": prizes,
        "lotteries": lotteries,
        "preferences": statements,
    }
    grader = PreferenceGrader(problem)
    if grader.representable != consistent:
        return None
    answer = {
        "axioms": {name: grader.report.axioms[name].holds for name in AXIOMS},
        "utility": utility if consistent else None,
    }
    # a utility for every prize, not null: the template does not tell whether one exists
    template = {"axioms": dict.fromkeys(AXIOMS), "utility": dict.fromkeys(prizes)}
    return Draft(
        problem,
        answer,
        "Preferences and the axioms of expected utility",
        _statement(prizes, lotteries, statements),
        template,
    )


def _statement(prizes: list[str], lotteries: dict[str, Any], statements: list[Any]) -> str:
    return "\n".join(
        [
            f"Prizes: {', '.join(prizes)}. Lotteries over them ([p, prize; ...]):",
            "",
            *lottery_lines(lotteries),
            "",
            "Someone states these preferences (> strictly prefers, ~ indifferent):",
            "",
            *[f"{i + 1}. {a} {relation} {b}" for i, (a, relation, b) in enumerate(statements)],
            "",
            "Give:",
            "",
            "- for each axiom of von Neumann and Morgenstern (orderability, transitivity, "
            "continuity, substitutability, monotonicity, decomposability), whether these "
            "statements satisfy it (`axioms`: `{name: true or false}`)",
            "- a utility for each prize whose expected utilities reproduce every statement "
            "(`utility`: `{prize: number}`), or `null` in place of the object if none does",
            "",
        ]
    )


def lottery_lines(lotteries: dict[str, Any]) -> list[str]:
    """One Markdown list item per lottery: ``- L1 = [1/4, A; 3/4, C]``."""
    return [
        f"- {name} = [" + "; ".join(f"{b['p']}, {b['x']}" for b in branches) + "]"
        for name, branches in lotteries.items()
    ]
