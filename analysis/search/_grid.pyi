# The compiled search's interface (analysis/search/_grid.pyx), for type checkers.
from collections.abc import Callable, Sequence
from typing import Any

from typing_extensions import disjoint_base

from analysis.search.budget import SearchBudget

@disjoint_base
class GridSearch:
    budget: SearchBudget
    nodes: int
    table_hits: int
    cutoffs: int
    terminals: int
    evaluations: int
    horizon: int
    longest: int
    all_best: bool
    def __init__(
        self,
        *,
        columns: int,
        rows: int,
        k: int,
        gravity: bool,
        moves: Sequence[int],
        move_bits: Sequence[int],
        lines: Sequence[int],
        evaluation_kind: str | None,
        denominator: int,
        table: bool,
        ordering: bool,
        shortcuts: bool,
        budget: SearchBudget,
        max_ply: int,
        node_batch: int,
        node_units: int,
        table_entries: int,
    ) -> None: ...
    def root(
        self, mine: int, mask: int, depth: int, previous: Any
    ) -> tuple[int, list[Any], bool]: ...
    def principal_variation(self, mine: int, mask: int, first: Any, depth: int) -> list[Any]: ...
    @property
    def scale_factor(self) -> int: ...
    @property
    def table_entries(self) -> int: ...

@disjoint_base
class ScoreSearch(GridSearch):
    @property
    def cells(self) -> int: ...
    def __init__(
        self,
        *,
        columns: int,
        rows: int,
        k: int,
        moves: Sequence[int],
        move_bits: Sequence[int],
        budget: SearchBudget,
        node_batch: int,
        node_units: int,
        table_entries: int,
        etc_stones: int,
    ) -> None: ...
    def solve(
        self, mine: int, mask: int, on_probe: Callable[[int, int], object] | None = None
    ) -> int: ...
    def move_score(self, mine: int, mask: int, index: int) -> int: ...
    def reaches(self, mine: int, mask: int, index: int, score: int) -> bool: ...
    def search_order(self, mine: int, mask: int) -> list[int]: ...
    def legal_indices(self, mask: int) -> list[int]: ...
    def cell(self, mask: int, index: int) -> int: ...
