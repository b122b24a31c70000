# The compiled twin of the node reader (games/trees/_reader.pyx), for type checkers.
from collections.abc import Callable
from typing import Any

def read_plain(
    raw: Any,
    root_kind: str,
    max_nodes: int,
    max_depth: int,
    read_probability: Callable[[Any], Any],
    spend: Callable[[int], None],
) -> (
    tuple[
        list[str],
        list[str],
        list[range],
        list[int],
        list[int],
        list[int],
        list[Any],
        list[Any] | None,
        list[int],
        bytearray,
        bytearray,
    ]
    | None
): ...
