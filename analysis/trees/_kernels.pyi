# The compiled kernels' interface (analysis/trees/_kernels.pyx), for type checkers; checked
# against the built module by mypy's stubtest (make lint).
from collections.abc import Callable, Sequence
from typing import Any

def minimax(
    children: list[Sequence[int]],
    static: list[Any],
    kinds: list[str],
    max_kind: str,
    covered: int,
    values: list[Any],
    best_child: list[int],
    spend: Callable[[int], None],
) -> None: ...
def alpha_beta(
    children: Sequence[Sequence[int]],
    static: list[Any],
    kinds: list[str],
    max_kind: str,
    strict: bool,
    bound_names: tuple[str, str, str],
    values: list[Any],
    bounds: list[str | None],
    best_child: list[int],
    evaluated: list[int],
    cutoffs: list[Any],
    spend: Callable[[int], None],
) -> int: ...
def static_below(
    children: Sequence[Sequence[int]], tops: Sequence[int], found: list[int]
) -> int: ...
