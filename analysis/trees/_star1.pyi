# The compiled chance kernels' interface (analysis/trees/_star1.pyx), for type checkers;
# checked against the built module by mypy's stubtest (make lint).
from collections.abc import Callable
from typing import Any

NEG_INF: float
POS_INF: float

def scaled_star1(
    children: list[range],
    kinds: list[str],
    probabilities: list[Any],
    shares: dict[int, int],
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
    static: Any,
    values: list[Any],
    best_child: list[int],
    covered: int,
    common: int,
    factor: int,
    spend: Callable[[int], None],
    chance_kind: str,
    max_kind: str,
) -> bool | None: ...
