"""Compare several named lotteries: evaluations, ranking by EU and CE, dominance pairs.

For an increasing utility the certainty equivalent is an increasing function of
expected utility, so the ranking by EU and by CE is the same ranking; each entry
carries both numbers. Lotteries whose expected utilities agree to within
``TIE_TOLERANCE`` (relative) share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.numbers import Exact
from utility.evaluate import Evaluation, evaluate_lottery
from utility.function import UtilityFunction
from utility.lottery import Lottery
from utility.stochastic_dominance import Dominance, dominance_pairs

TIE_TOLERANCE = 1e-12


@dataclass(frozen=True, slots=True)
class Ranked:
    """One lottery's place: ``rank`` 1 is best; tied lotteries share a rank."""

    rank: int
    name: str
    evaluation: Evaluation


@dataclass(frozen=True, slots=True)
class Comparison:
    """Ranking (best first) and every stochastic-dominance pair."""

    ranking: tuple[Ranked, ...]
    dominance: tuple[Dominance, ...]


def compare(
    lotteries: Mapping[str, Lottery],
    utility: UtilityFunction,
    wealth: Exact = 0,
    pointers: Mapping[str, Sequence[str]] | None = None,
) -> Comparison:
    """Evaluate every lottery under ``utility`` and rank them by expected utility (through
    the certainty equivalent, which orders them the same way)."""
    evaluations = {
        name: evaluate_lottery(lottery, utility, wealth, pointers.get(name) if pointers else None)
        for name, lottery in lotteries.items()
    }
    # ranked by certainty equivalent, the same order as by expected utility (U increases),
    # and still told apart where U(w + x) rounds to one double at large wealth
    order = sorted(evaluations, key=lambda n: -evaluations[n].certainty_equivalent)
    ranking: list[Ranked] = []
    for position, name in enumerate(order):
        ce = evaluations[name].certainty_equivalent
        rank = position + 1
        if ranking:
            before = ranking[-1].evaluation.certainty_equivalent
            if abs(before - ce) <= TIE_TOLERANCE * max(1.0, abs(before), abs(ce)):
                rank = ranking[-1].rank
        ranking.append(Ranked(rank, name, evaluations[name]))
    return Comparison(tuple(ranking), tuple(dominance_pairs(lotteries)))
