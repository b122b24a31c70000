"""Shared hypothesis strategies for lotteries and utilities."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from utility.lottery import Lottery, from_pairs


@st.composite
def lotteries(
    draw: st.DrawFn, min_outcome: int = 0, max_outcome: int = 10_000, max_size: int = 6
) -> Lottery:
    """A simple lottery with integer outcomes and exact rational probabilities."""
    outcomes = draw(
        st.lists(st.integers(min_outcome, max_outcome), min_size=1, max_size=max_size, unique=True)
    )
    weights = draw(st.lists(st.integers(1, 20), min_size=len(outcomes), max_size=len(outcomes)))
    total = sum(weights)
    return from_pairs({o: Fraction(w, total) for o, w in zip(outcomes, weights, strict=True)})


CONCAVE = ["sqrt(x)", "log(x + 1)", "1 - exp(-x/1000)", "x^0.3", "x - x^2/40000"]
