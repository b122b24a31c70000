"""Properties every expected-utility answer must have, whatever the lottery."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from utility.evaluate import evaluate_lottery
from utility.formula import X, parse_formula
from utility.function import linear_utility, make_utility
from utility.lottery import Lottery, expected_value

from .strategies import CONCAVE, lotteries


@given(lotteries(min_outcome=-10_000))
@settings(max_examples=60, deadline=None)
def test_ce_equals_emv_for_linear_utility(lottery: Lottery) -> None:
    result = evaluate_lottery(lottery, linear_utility())
    assert result.certainty_equivalent_exact == str(expected_value(lottery))
    assert result.attitude == "risk_neutral"


@given(lotteries(), st.sampled_from(CONCAVE))
@settings(max_examples=60, deadline=None)
def test_ce_at_most_emv_for_concave_utility(lottery: Lottery, formula: str) -> None:
    # Jensen: U concave => EU <= U(EMV) => CE <= EMV; strictly when there is risk
    result = evaluate_lottery(lottery, make_utility(parse_formula(formula)))
    emv = float(expected_value(lottery))
    assert result.certainty_equivalent <= emv + 1e-9 * max(1.0, emv)
    assert result.attitude == ("risk_neutral" if lottery.degenerate else "risk_averse")


@given(lotteries(), st.sampled_from(CONCAVE), st.integers(1, 50), st.integers(-100, 100))
@settings(max_examples=40, deadline=None)
def test_positive_affine_transform_keeps_ce(lottery: Lottery, formula: str, a: int, b: int) -> None:
    utility = parse_formula(formula)
    plain = evaluate_lottery(lottery, make_utility(utility))
    scaled = evaluate_lottery(lottery, make_utility(a * utility + b))
    tolerance = 1e-7 * max(1.0, float(lottery.outcomes[-1]))
    assert abs(plain.certainty_equivalent - scaled.certainty_equivalent) <= tolerance
    assert plain.attitude == scaled.attitude
    assert X in utility.free_symbols
