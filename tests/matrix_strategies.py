"""Hypothesis strategies for normal-form games (small integer payoff matrices)."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def matrices(
    draw: st.DrawFn, rows: int | None = None, cols: int | None = None, low: int = -5, high: int = 5
) -> list[list[int]]:
    """A ``rows x cols`` integer matrix; a small range makes ties (degenerate games) common."""
    m = rows if rows is not None else draw(st.integers(1, 4))
    n = cols if cols is not None else draw(st.integers(1, 4))
    entries = st.integers(low, high)
    return [[draw(entries) for _ in range(n)] for _ in range(m)]


@st.composite
def bimatrices(
    draw: st.DrawFn, low: int = -5, high: int = 5
) -> tuple[list[list[int]], list[list[int]]]:
    m = draw(st.integers(1, 4))
    n = draw(st.integers(1, 4))
    return draw(matrices(m, n, low, high)), draw(matrices(m, n, low, high))
