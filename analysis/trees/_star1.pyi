# The compiled Star1 loop's interface (analysis/trees/_star1.pyx), for type checkers.
from collections.abc import Callable
from typing import Any

def scaled_star1(
    children: list[range],
    kinds: list[str],
    probabilities: list[Any],
    shares: dict[int, int],
    node_weights: Any,
    static: list[Any],
    low: int,
    high: int,
    common: int,
    factor: int,
    strict: bool,
    depth: int,
    spend: Callable[[int], None],
    chance_kind: str,
    max_kind: str,
) -> tuple[Any, ...] | None: ...
def scaled_back_up(
    children: list[Any],
    kinds: list[str],
    probabilities: list[Any],
    shares: dict[int, int],
    node_weights: Any,
    static: Any,
    values: list[Any],
    best_child: list[int],
    covered: int,
    common: int,
    factor: int,
    spend: Callable[[int], None],
    chance_kind: str,
    max_kind: str,
) -> list[int | None] | None: ...
