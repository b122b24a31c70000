"""Fresh EU-consistency problems in the shape of the Allais paradox.

Amounts 0 < m < h; a sure ``B = m`` against ``A = [a, h; b, m; c, 0]``, and ``C = [a, h;
1 - a, 0]`` against ``D = [a + c, m; 1 - a - c, 0]``. Both choices turn on the same
difference ``(a + c) U(m) - a U(h) - c U(0)``, so choosing ``B`` and ``D`` (or ``A`` and
``C``) is consistent with expected utility and mixing them (Allais's ``B`` and ``C``) is
not. A hidden increasing utility decides the consistent choices and is the witness; an
inconsistent problem flips one choice. The key is the grader's own
(:class:`analysis.grading.consistency_problems.ConsistencyGrader`).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Final

from analysis.grading.consistency_problems import ConsistencyGrader
from analysis.grading.generator_settings import Draft, ProblemSettings
from analysis.grading.preference_generator import lottery_lines
from games.limits import Deadline
from games.trees.document import exact_json

HUNDREDTHS: Final = 100
"""Allais's probabilities are hundredths (0.89, 0.10, 0.01); so are ours."""
PROBLEM_COST: Final = 200
"""Deadline units charged per drawn problem (one small LP)."""


def _branches(*pairs: tuple[Fraction, int]) -> list[dict[str, Any]]:
    return [{"p": exact_json(p), "x": x} for p, x in pairs]


def draw_consistency(
    rng: random.Random, settings: ProblemSettings, deadline: Deadline
) -> Draft | None:
    """One Allais-style problem, or ``None`` when the hidden utility makes a choice a tie."""
    deadline.spend(PROBLEM_COST)
    consistent = settings.consistent if settings.consistent is not None else rng.random() < 0.5
    mid = 1000 * rng.randint(1, 5)
    high = mid + 1000 * rng.randint(1, 5)
    a = Fraction(rng.randint(5, 30), HUNDREDTHS)
    c = Fraction(rng.randint(1, 10), HUNDREDTHS)
    b = 1 - a - c
    lotteries = {
        "A": _branches((a, high), (b, mid), (c, 0)),
        "B": _branches((Fraction(1), mid)),
        "C": _branches((a, high), (1 - a, 0)),
        "D": _branches((a + c, mid), (1 - a - c, 0)),
    }
    utility = {0: 0, mid: rng.randint(1, 99), high: 100}
    difference = (a + c) * utility[mid] - a * utility[high]
    if difference == 0:
        return None
    first = ["B", ">", "A"] if difference > 0 else ["A", ">", "B"]
    second = ["D", ">", "C"] if difference > 0 else ["C", ">", "D"]
    if not consistent:
        flipped = rng.choice((first, second))
        flipped[0], flipped[2] = flipped[2], flipped[0]
    problem: dict[str, Any] = {
        "type": "eu-consistency",
        "lotteries": lotteries,
        "choices": [first, second],
        "increasing": True,
    }
    grader = ConsistencyGrader(problem)
    if grader.result.consistent != consistent:
        return None
    witness = {str(x): u for x, u in utility.items()} if consistent else None
    answer = {"consistent": consistent, "witness": witness}
    # a utility for every amount, not null: the template does not tell whether one exists
    template = {"consistent": None, "witness": dict.fromkeys(str(x) for x in utility)}
    return Draft(
        problem,
        answer,
        "Consistent with expected utility?",
        _statement(lotteries, [first, second]),
        template,
    )


def _statement(lotteries: dict[str, Any], choices: list[list[str]]) -> str:
    return "\n".join(
        [
            "Four lotteries over amounts of money ([p, amount; ...]):",
            "",
            *lottery_lines(lotteries),
            "",
            f"Someone prefers {choices[0][0]} to {choices[0][2]}, and {choices[1][0]} to "
            f"{choices[1][2]}. More money is better.",
            "",
            "Give:",
            "",
            "- whether some increasing expected utility explains both choices "
            "(`consistent`: true or false)",
            "- if one does, a utility for each amount that explains them (`witness`: "
            '`{"amount": utility}`, amounts written as strings), else `null` in place of '
            "the object",
            "",
        ]
    )
