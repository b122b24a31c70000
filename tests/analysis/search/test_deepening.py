"""The deepening schedule and the counters every search keeps."""

from __future__ import annotations

import pytest

from analysis.search.budget import SearchBudget
from analysis.search.deepening import SearchCounters, deepen, schedule_of
from analysis.search.scores import MAX_PLY
from games.errors import LimitExceededError


def test_schedules() -> None:
    assert schedule_of(None, None) == [MAX_PLY]  # to the end: one search
    assert schedule_of(3, None) == [1, 2, 3]
    assert schedule_of(3, 1.0) == [1, 2, 3]
    assert schedule_of(None, 1.0) == list(range(1, MAX_PLY + 1))


def test_deepen_stops_at_the_first_exact_answer() -> None:
    counters = SearchCounters(SearchBudget(None))
    asked: list[tuple[int, int | None]] = []

    def run(depth: int, previous: int | None) -> int:
        asked.append((depth, previous))
        for _ in range(10 * depth):
            counters.count()
        return depth

    deepened = deepen(counters, [1, 2, 3, 4, 5], run, lambda depth: depth == 3)
    assert asked == [(1, None), (2, 1), (3, 2)]  # each iteration sees the previous answer
    assert deepened.answer == 3 and deepened.depth == 3
    assert [i.nodes for i in deepened.iterations] == [10, 20, 30]
    assert [i.effective_branching for i in deepened.iterations] == [None, 2.0, 1.5]
    assert deepened.stats.nodes == 60 == counters.nodes


def test_a_search_to_the_end_that_never_ends_is_refused() -> None:
    counters = SearchCounters(SearchBudget(None))
    with pytest.raises(LimitExceededError):
        deepen(counters, [MAX_PLY], lambda depth, _: depth, lambda _: False)
