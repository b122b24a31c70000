# The compiled tree-search loops' interface (analysis/trees/_kernels.pyx), for type checkers.
from collections.abc import Callable, Iterable, Sequence
from typing import Any

def alpha_beta_walk(
    children: list[Any] | Sequence[range],  # a list, or a ChildRanges
    static: list[Any],
    kinds: list[str],
    max_kind: str,
    strict: bool,
    values: list[Any] | None,
    bounds: list[str | None] | None,
    best_child: Any,
    evaluated: Any,
    cutoffs: list[Any],
    pruned: list[int],
    bound_names: tuple[str, str, str],
    spend: Callable[[int], None],
    ints: bool,
    leaf_kind: str | None = None,
    words: Sequence[int] | None = None,
    numbers: Sequence[int] | None = None,  # an array('q'), with codes
    codes: bytearray | None = None,
) -> int: ...
def back_up_extremes(
    children: list[Any],
    values: list[Any],
    best_child: Any,
    kinds: list[str],
    max_kind: str,
    covered: int,
    spend: Callable[[int], None],
    cost: Callable[[Any], int],
) -> None: ...
def node_map_bytes(
    ids: Sequence[str],
    values: list[Any] | Sequence[int],
    bounds: list[str | None] | None,
    exact_name: str,
    entry: Callable[[Any, str], bytes],
    dumps: Callable[[Any], bytes],
    spend: Callable[[int], None],
    integers: bool = True,
    codes: bytes | None = None,
    bound_names: tuple[str | None, ...] | None = None,
) -> bytes: ...
def column_bytes(
    column: list[Any],
    write: Callable[[Any], bytes],
    integers: bool,
    mask: list[Any] | None,
    spend: Callable[[int], None],
) -> tuple[bytes, list[Any]]: ...
def runs_bytes(indices: Iterable[int], spend: Callable[[int], None]) -> bytes: ...
def leaf_runs_bytes(
    children: list[Any] | Sequence[range],  # a list, or a ChildRanges
    tops: Iterable[int],
    spend: Callable[[int], None],
    last_level: bool = False,
) -> bytes: ...
def id_array_bytes(
    ids: Sequence[str],
    indices: Iterable[int],
    dumps: Callable[[Any], bytes],
    spend: Callable[[int], None],
) -> bytes: ...
def leaves_bytes(
    ids: Sequence[str],
    children: list[Any] | Sequence[range],  # a list, or a ChildRanges
    tops: Iterable[int],
    dumps: Callable[[Any], bytes],
    spend: Callable[[int], None],
    last_level: bool = False,
) -> bytes: ...
def cutoffs_bytes(
    ids: Sequence[str],
    cutoffs: list[Any],
    number: Callable[[str, Any], bytes],
    dumps: Callable[[Any], bytes],
    spend: Callable[[int], None],
    integers: bool = True,
) -> bytes: ...
def decisions_bytes(
    ids: Sequence[str],
    best_child: Sequence[int],
    kinds: list[str],
    values: list[Any] | bytes,
    chance_kind: str,
    dumps: Callable[[Any], bytes],
    spend: Callable[[int], None],
) -> bytes: ...
def scaled_node_map_bytes(
    ids: Sequence[str],
    numbers: Sequence[int],
    codes: bytes,
    bound_names: tuple[str | None, ...],
    entry: Callable[[int, str], bytes],
    dumps: Callable[[Any], bytes],
    spend: Callable[[int], None],
) -> bytes: ...
def back_up_words(
    children: list[Any] | Sequence[range],  # a list, or a ChildRanges
    static: list[Any],
    kinds: list[str],
    max_kind: str,
    spend: Callable[[int], None],
    words: Sequence[int] | None = None,
) -> tuple[Sequence[int], Sequence[int]] | None: ...
def words_bytes(column: Sequence[int], spend: Callable[[int], None]) -> bytes | None: ...
def present_columns_bytes(
    values: list[Any] | Sequence[int],  # a list, or with codes an array('q')
    bounds: list[str | None] | tuple[str | None, ...] | None,
    write_value: Callable[[Any], bytes],
    write_bound: Callable[[Any], bytes],
    spend: Callable[[int], None],
    codes: bytes | None = None,
) -> tuple[bytes, bytes, list[Any], bytes | None]: ...
