# The compiled plain-tree reader's interface (games/trees/_reader.pyx), for type checkers.
from collections.abc import Callable, Sequence
from typing import Any, overload

def read_plain(
    raw: Any,
    root_kind: str,
    kind_names: tuple[str, str, str, str],
    handover: dict[str, str],
    root_id: str,
    separator: str,
    max_nodes: int,
    max_depth: int,
    magnitude: Any,
    read_probability: Callable[[Any], Any],
    weigh: Callable[[list[Any]], tuple[int, list[int]] | None],
    spend: Callable[[int], None],
) -> (
    tuple[
        DefaultIds,
        list[str],
        list[range],
        Sequence[int],
        Sequence[int],
        Sequence[int],
        list[Any],
        list[Any] | None,
        list[int],
        bytearray,
        bytearray,
        int,
        tuple[int, list[Any], list[int], Sequence[int]] | None,
        tuple[int, int] | None,
        frozenset[str],
    ]
    | None
): ...

class DefaultIds(Sequence[str]):
    def __init__(self, root: str, separator: str, parents: Any, positions: Any) -> None: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def all(self) -> list[str]: ...
    def parts(self) -> tuple[bytes, bytes, Any, Any] | None: ...
    def encoded(self) -> tuple[bytes, Any]: ...

class ChildRanges(Sequence[range]):
    starts: Sequence[int]
    counts: Sequence[int]
    def __init__(self, starts: Any, counts: Any) -> None: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> range: ...
    @overload
    def __getitem__(self, index: slice) -> list[range]: ...
    def all(self) -> list[range]: ...

class ScannedShorthand:
    parents: Sequence[int]
    value: Sequence[int]
    depths: Sequence[int]
    positions: Sequence[int]
    size: int
    leaves: int
    def columns(
        self,
        root_kind: str,
        kind_names: tuple[str, str, str, str],
        handover: dict[str, str],
        root_id: str,
        separator: str,
    ) -> Any: ...

def scan_body(
    data: bytes, max_nodes: int, max_depth: int, spend: Callable[[int], None]
) -> tuple[ScannedShorthand | None, int, int] | None: ...
