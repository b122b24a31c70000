"""Backing values up a tree: the exact weighted sum at chance nodes."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from analysis.trees.expectimax import weighted_sum


@given(
    st.lists(
        st.tuples(st.fractions(min_value=0, max_value=1), st.fractions()), min_size=1, max_size=6
    )
)
def test_weighted_sum_is_the_exact_sum(pairs: list[tuple[Fraction, Fraction]]) -> None:
    weights = [w for w, _ in pairs]
    scores = [s for _, s in pairs]
    assert weighted_sum(weights, scores) == sum((w * s for w, s in pairs), Fraction(0))
