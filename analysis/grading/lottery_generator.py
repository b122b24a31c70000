"""Fresh lottery problems whose certainty equivalent is exact.

Two utilities, each with lotteries built so that ``U^-1(E[U])`` is rational:
``sqrt(x)`` (risk averse) over prizes that are 100 times a perfect square, and ``x^2``
(risk seeking) over a prize and nothing, won with a probability that is a square of a
fraction. The key is the grader's own (:class:`analysis.grading.lottery_problems.
LotteryGrader`), the figure the lottery's risk profile.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Final

from analysis.grading.generator_settings import (
    LOTTERY_UTILITIES,
    Draft,
    ProblemSettings,
    draw_probabilities,
)
from analysis.grading.lottery_problems import NUMBER_FIELDS, LotteryGrader
from games.limits import Deadline
from games.trees.document import exact_json
from utility.lottery import parse_lottery
from utility.plot import risk_profile_svg

FORMULAS: Final = {"sqrt": "sqrt(x)", "square": "x^2"}
LOTTERY_COST: Final = 200
"""Deadline units charged per drawn lottery (its symbolic evaluation)."""


def _lottery(rng: random.Random, utility: str, settings: ProblemSettings) -> list[dict[str, Any]]:
    if utility == "sqrt":
        count = rng.randint(2, 3)
        roots = sorted(rng.sample(range(1, 11), count))
        chances = draw_probabilities(rng, count, settings.denominators)
        return [
            {"p": exact_json(p), "x": 100 * root**2} for p, root in zip(chances, roots, strict=True)
        ]
    whole = rng.randint(2, 5)
    part = rng.randint(1, whole - 1)
    win = Fraction(part, whole) ** 2
    prize = 10 * rng.randint(1, 100)
    return [{"p": exact_json(win), "x": prize}, {"p": exact_json(1 - win), "x": 0}]


def draw_lottery(rng: random.Random, settings: ProblemSettings, deadline: Deadline) -> Draft | None:
    """One lottery problem, or ``None`` when some value of its key is not exact."""
    deadline.spend(LOTTERY_COST)
    utility = settings.utility or rng.choice(LOTTERY_UTILITIES)
    lottery = _lottery(rng, utility, settings)
    problem = {"type": "lottery", "lottery": lottery, "utility": FORMULAS[utility]}
    grader = LotteryGrader(problem)
    answer: dict[str, Any] = {}
    for name in NUMBER_FIELDS:
        exact, _ = grader.expected(name)
        if exact is None:
            return None
        answer[name] = exact_json(exact)
    answer["attitude"] = grader.result.attitude
    parsed = parse_lottery(lottery, "/problem/lottery").lottery
    return Draft(
        problem,
        answer,
        "Lottery and attitude to risk",
        _statement(lottery, FORMULAS[utility]),
        dict.fromkeys(answer),
        lambda: risk_profile_svg(parsed),
    )


def _statement(lottery: list[dict[str, Any]], formula: str) -> str:
    rows = [f"| {entry['x']} | {entry['p']} |" for entry in lottery]
    return "\n".join(
        [
            f"A lottery pays these amounts with these probabilities; your utility for money "
            f"is U(x) = {formula}.",
            "",
            "| amount x | probability p |",
            "|---|---|",
            *rows,
            "",
            'Give (numbers exactly, as integers or fractions such as `"7/2"`):',
            "",
            "- the expected monetary value (`emv`)",
            "- the expected utility (`expected_utility`)",
            "- the certainty equivalent (`certainty_equivalent`)",
            "- the risk premium, EMV minus the certainty equivalent (`risk_premium`)",
            "- your attitude to this risk (`attitude`: `risk_averse`, `risk_neutral`, "
            "`risk_seeking` or `mixed`)",
            "",
        ]
    )
