"""The game searches' transposition table: a dict of at most a fixed number of entries.

An entry is a tuple whose first field is the depth its state was searched to
(:data:`analysis.search.scores.PROVEN` for a subtree that never met the cutoff, valid at every
depth). A state's entry is replaced only by one of at least its depth.

When a new state finds the table full, a quarter of the entries is dropped in one pass: the
shallowest first (their subtrees cost the least to search again; proven entries count as the
deepest), the oldest first among entries of one depth. The pass reads every entry, so each
insertion costs a constant on average; dropping one entry at a time would read them all at
every insertion once full. A search reads an entry only where it finds one, so what a table
drops costs time: a search to the end finds the same exact values whatever its table holds.
(Under a depth cutoff an entry searched deeper serves a shallower need, so where a position
recurs at another ply the value found depends on what the table holds, bounded or not.)

:data:`DEFAULT_ENTRIES` keeps a search under about 256 MB: an entry of connect four's engine
(an int key, a tuple of four, the dict's slot) takes about 180 bytes, and up to 300 as the
process holds them (the dict's spare room, the pass's lists); an unbounded table grew a 9 by 9
solve by 830 MB within the server's minute, this bound by 220 MB.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from typing import Any, Final, Generic, TypeVar

from games.errors import InvalidInputError

DEFAULT_ENTRIES: Final = 750_000
"""Entries a search's table holds unless told otherwise."""

Entry = TypeVar("Entry", bound=tuple[Any, ...])


def check_table_entries(entries: int) -> None:
    """:raises InvalidInputError: ``entries`` is not a whole number of at least 1
    (``parameter="table_entries"``)."""
    if type(entries) is not int or entries < 1:
        raise InvalidInputError(
            f"table_entries must be a whole number of at least 1, not {entries!r}",
            parameter="table_entries",
        )


class TranspositionTable(Generic[Entry]):
    """Entries by state key, at most ``capacity`` of them, the deeper kept."""

    __slots__ = ("_entries", "capacity", "dropped")

    def __init__(self, capacity: int = DEFAULT_ENTRIES):
        """:raises InvalidInputError: ``capacity`` is not a whole number of at least 1."""
        check_table_entries(capacity)
        self.capacity = capacity
        self.dropped = 0
        """Entries dropped to make room, over the table's life."""
        self._entries: dict[Hashable, Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> Entry | None:
        return self._entries.get(key)

    def values(self) -> Iterable[Entry]:
        return self._entries.values()

    def store(self, key: Hashable, entry: Entry) -> None:
        """Keep ``entry`` for ``key`` unless the key holds a deeper one."""
        entries = self._entries
        old = entries.get(key)
        if old is not None:
            if entry[0] >= old[0]:
                entries[key] = entry
            return
        if len(entries) >= self.capacity:
            self._make_room()
        entries[key] = entry

    def _make_room(self) -> None:
        """Drop a quarter of the entries (at least one): the shallowest, the oldest first."""
        entries = self._entries
        quota = max(1, len(entries) // 4)
        depths = Counter(entry[0] for entry in entries.values())
        below = 0  # entries shallower than ``edge``: all dropped
        edge = 0
        for edge in sorted(depths):
            if below + depths[edge] >= quota:
                break
            below += depths[edge]
        at_edge = quota - below  # how many of depth ``edge`` go, the oldest first
        doomed = []
        for key, entry in entries.items():
            if entry[0] < edge:
                doomed.append(key)
            elif entry[0] == edge and at_edge:
                doomed.append(key)
                at_edge -= 1
        for key in doomed:
            del entries[key]
        self.dropped += len(doomed)
