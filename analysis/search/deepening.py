"""Iterative deepening, shared by alpha-beta and expectimax, and the counters every search keeps."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, Protocol, TypeVar

from analysis.search.budget import NODE_BATCH, BudgetSpent, SearchBudget
from analysis.search.results import IterationStats, SearchTotals, branching, totals
from analysis.search.scores import MAX_PLY, too_deep

Answer = TypeVar("Answer")

Progress = Callable[[IterationStats], object]

_progress: ContextVar[Progress | None] = ContextVar("progress", default=None)


@contextmanager
def reporting(progress: Progress) -> Iterator[None]:
    """Within the block, every search calls ``progress`` with each iteration it finishes
    (the CLI prints them while a long solve runs)."""
    token = _progress.set(progress)
    try:
        yield
    finally:
        _progress.reset(token)


def report(iteration: IterationStats) -> None:
    """Tell the caller of :func:`reporting`, if any, that ``iteration`` is finished."""
    progress = _progress.get()
    if progress is not None:
        progress(iteration)


class Counters(Protocol):
    """What :func:`deepen` reads of a search: its budget and its running counts."""

    budget: SearchBudget
    nodes: int
    table_hits: int
    cutoffs: int
    terminals: int
    evaluations: int
    longest: int


class SearchCounters:
    """The work of one search, charged to its budget a batch of nodes at a time.

    ``horizon`` counts what entered a value from beyond the depth cutoff (an evaluation, a
    depth-limited table entry): a search whose ``horizon`` did not move is exact.
    """

    def __init__(self, budget: SearchBudget):
        self.budget = budget
        self.nodes = self.table_hits = self.cutoffs = 0
        self.terminals = self.evaluations = self.horizon = self.longest = 0

    def count(self) -> None:
        """One more node."""
        self.nodes += 1
        if not self.nodes % NODE_BATCH:
            self.budget.spend(NODE_BATCH)

    def reached_end(self, ply: int) -> None:
        """A terminal state ``ply`` plies below the root."""
        self.terminals += 1
        if ply > self.longest:
            self.longest = ply


class Deepened(Generic[Answer]):
    """The finished iterations and the deepest one's answer."""

    def __init__(self, iterations: tuple[IterationStats, ...], answer: Answer, stats: SearchTotals):
        self.iterations = iterations
        self.answer = answer
        self.stats = stats
        self.depth = iterations[-1].depth


def deepen(
    search: Counters,
    schedule: Sequence[int],
    run: Callable[[int, Answer | None], Answer],
    exact: Callable[[Answer], bool],
) -> Deepened[Answer]:
    """Run ``run(depth, previous answer)`` for each depth of ``schedule`` until one is exact.

    The budget is armed after the first iteration, so there is always an answer; an
    iteration the budget stops is dropped. A schedule of ``[MAX_PLY]`` is one search to the
    end, reported at the depth of its longest line.

    :raises LimitExceededError: the schedule ran out to ``MAX_PLY`` with no exact answer.
    """
    iterations: list[IterationStats] = []
    answer: Answer | None = None
    counted = (0, 0)  # terminals and evaluations of the finished iterations
    for limit in schedule:
        search.budget.armed = bool(iterations)
        before = (search.nodes, search.table_hits, search.cutoffs)
        start = time.perf_counter()
        try:
            found = run(limit, answer)
        except BudgetSpent:
            break
        nodes = search.nodes - before[0]
        iterations.append(
            IterationStats(
                depth=search.longest if limit == MAX_PLY else limit,
                nodes=nodes,
                table_hits=search.table_hits - before[1],
                cutoffs=search.cutoffs - before[2],
                seconds=time.perf_counter() - start,
                effective_branching=branching(nodes, iterations[-1] if iterations else None),
            )
        )
        report(iterations[-1])
        answer = found
        counted = (search.terminals, search.evaluations)
        if exact(found):
            break
    else:
        if schedule and schedule[-1] == MAX_PLY:  # deepened to the last ply, no end reached
            raise too_deep(MAX_PLY)
    search.budget.armed = False  # what the caller reads afterwards is not budgeted
    assert answer is not None  # the first iteration is never stopped by the budget
    found_iterations = tuple(iterations)
    return Deepened(found_iterations, answer, totals(found_iterations, *counted))


def schedule_of(depth: int | None, time_limit: float | None) -> list[int]:
    """The depths to search: one ply more each time, or straight to the end.

    A solve to the end with no time limit runs one search: shallow iterations would only pay
    for evaluations it never reads.
    """
    if depth is None and time_limit is None:
        return [MAX_PLY]
    return list(range(1, (MAX_PLY if depth is None else depth) + 1))
