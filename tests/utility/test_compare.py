"""Ranking lotteries by expected utility, with ties and dominance pairs, worked by hand.

Under ``U = 2 sqrt(x) - 2`` (CRRA, gamma = 1/2): a sure 5 has CE 5; ``{0: 1/2, 10: 1/2}``
has EU ``(-2 + 2 sqrt(10) - 2)/2 = sqrt(10) - 2``, so ``2 sqrt(CE) = sqrt(10)`` and
CE = 5/2; ``{0: 1/2, 5: 1/2}`` likewise has CE = 5/4. Under a linear utility the sure 5
and the 50/50 gamble on 0 or 10 both have EU 5 and share first place.
"""

from __future__ import annotations

from fractions import Fraction

from utility.compare import compare
from utility.function import linear_utility, read_utility
from utility.lottery import from_pairs
from utility.stochastic_dominance import Dominance

HALF = Fraction(1, 2)
LOTTERIES = {
    "sure 5": from_pairs({5: 1}),
    "wide": from_pairs({0: HALF, 10: HALF}),
    "narrow": from_pairs({0: HALF, 5: HALF}),
}
CRRA_HALF = read_utility({"family": "crra"}, {"gamma": HALF})


def test_ranking_by_expected_utility_with_certainty_equivalents() -> None:
    result = compare(LOTTERIES, CRRA_HALF)
    assert [(r.rank, r.name) for r in result.ranking] == [(1, "sure 5"), (2, "wide"), (3, "narrow")]
    assert [r.evaluation.certainty_equivalent_exact for r in result.ranking] == ["5", "5/2", "5/4"]


def test_equal_expected_utilities_share_a_rank() -> None:
    result = compare(LOTTERIES, linear_utility())
    # competition ranking: the two tied at EU 5 are both first, the next is third
    assert [(r.rank, r.name) for r in result.ranking] == [(1, "sure 5"), (1, "wide"), (3, "narrow")]


def test_dominance_pairs_come_with_the_ranking() -> None:
    # derived in test_stochastic_dominance.py; listed in the order the lotteries were given
    assert compare(LOTTERIES, linear_utility()).dominance == (
        Dominance("sure 5", "wide", "second"),
        Dominance("sure 5", "narrow", "first"),
        Dominance("wide", "narrow", "first"),
    )


def test_wealth_reaches_every_evaluation() -> None:
    # with wealth 4 under sqrt: the gamble on 0 or 5 is worth sqrt(4)/2 + sqrt(9)/2 = 5/2,
    # so 4 + CE = 25/4 and CE = 9/4, against 5/4 with no wealth
    sqrt = read_utility("sqrt(x)", {})
    narrow = {"narrow": LOTTERIES["narrow"]}
    (without,) = compare(narrow, sqrt).ranking
    (with_wealth,) = compare(narrow, sqrt, wealth=4).ranking
    assert without.evaluation.certainty_equivalent_exact == "5/4"
    assert with_wealth.evaluation.certainty_equivalent_exact == "9/4"


def test_ranking_holds_where_utilities_round_to_one_double() -> None:
    # CARA with a = 2 at wealth 20: U(20 + x) = 1 - e^(-2(20 + x)) is 1.0 in floats for
    # every outcome here, yet the CEs (which do not depend on wealth) are 2 > 1.3375 > 1
    cara = read_utility({"family": "cara"}, {"R": Fraction(1, 2)})
    lotteries = {
        "coin": from_pairs({1: Fraction(1, 2), 3: Fraction(1, 2)}),
        "two": from_pairs({2: Fraction(1)}),
        "one": from_pairs({1: Fraction(1)}),
    }
    ranked = compare(lotteries, cara, wealth=20).ranking
    assert [(r.rank, r.name) for r in ranked] == [(1, "two"), (2, "coin"), (3, "one")]
