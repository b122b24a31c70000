"""Reading normal-form games from JSON-shaped data, with a pointer for every error.

Three forms are accepted (exactly one per game):

- ``{"A": [[...]], "B": [[...]]}``: the row and column players' matrices;
  ``{"A": [[...]], "zero_sum": true}`` sets ``B = -A``;
- ``{"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]}``: one matrix whose cells
  list every player's payoff, as lecture slides write them (an ``n``-dimensional
  array of ``n``-tuples for ``n`` players);
- ``{"payoff_arrays": [U1, U2, U3]}``: one ``n``-dimensional array per player.

Arrays are walked level by level (no recursion), so ragged rows are reported
with the pointer of the short row before any number is read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from math import lcm
from typing import Any

import numpy as np

from games.errors import InvalidInputError, LimitExceededError, join_pointer
from games.limits import check_exact_size, current_deadline
from games.matrices.model import NormalFormGame, ObjectArray, default_labels
from games.numbers import Exact, describe_json, parse_exact

FORMS = ("A", "payoffs", "payoff_arrays")


@dataclass(frozen=True, slots=True)
class MatrixLimits:
    """Bounds on a posted game.

    Attributes
    ----------
    max_players
        Most players.
    max_strategies
        Most pure strategies of one player.
    max_cells
        Most pure profiles (the product of the strategy counts).
    """

    max_players: int = 8
    max_strategies: int = 2_000
    max_cells: int = 250_000


def parse_game(
    data: Mapping[str, Any], limits: MatrixLimits | None = None, base: str = ""
) -> NormalFormGame:
    """Build a :class:`NormalFormGame` from one of the three JSON forms.

    Parameters
    ----------
    data
        The object holding ``A``/``B``, ``payoffs`` or ``payoff_arrays`` and
        optionally ``zero_sum`` and ``labels``.
    limits
        Size bounds; defaults to :class:`MatrixLimits`.
    base
        JSON pointer of ``data`` in the request.

    Raises
    ------
    InvalidInputError
        On a missing or ambiguous form, a ragged or mismatched array, a
        non-numeric or non-finite payoff, or bad labels.
    LimitExceededError
        When the game is larger than ``limits`` allows, or the common denominator of a
        player's payoffs has more digits than ``Limits.max_exact_digits`` (every exact
        computation on the game scales payoffs to integers by it).
    """
    bounds = limits or MatrixLimits()
    present = [name for name in FORMS if data.get(name) is not None]
    if len(present) != 1:
        found = ", ".join(present) or "none of them"
        raise InvalidInputError(
            f"give the game in exactly one form: A (with B or zero_sum), payoffs or "
            f"payoff_arrays; found {found}",
            base,
        )
    zero_sum = data.get("zero_sum", False) is True
    if present[0] == "A":
        arrays = _read_bimatrix(data, zero_sum, bounds, base)
    elif present[0] == "payoffs":
        arrays = _read_cells(data["payoffs"], bounds, join_pointer(base, "payoffs"))
    else:
        arrays = _read_arrays(data["payoff_arrays"], bounds, join_pointer(base, "payoff_arrays"))
    if present[0] != "A" and data.get("B") is not None:
        raise InvalidInputError("B goes with A only", join_pointer(base, "B"))
    game_shape = tuple(int(size) for size in arrays[0].shape)
    labels = _read_labels(data.get("labels"), game_shape, join_pointer(base, "labels"))
    built_zero_sum = present[0] == "A" and data.get("B") is None
    game = NormalFormGame(tuple(arrays), labels, zero_sum=True if built_zero_sum else None)
    if zero_sum and not game.is_zero_sum():
        raise InvalidInputError(
            "zero_sum is true but the payoffs do not add up to 0", join_pointer(base, "zero_sum")
        )
    return game


def _read_bimatrix(
    data: Mapping[str, Any], zero_sum: bool, bounds: MatrixLimits, base: str
) -> list[ObjectArray]:
    pointer_a = join_pointer(base, "A")
    first = read_array(data["A"], 2, bounds, pointer_a)
    if data.get("B") is None:
        if not zero_sum:
            raise InvalidInputError(
                "B is missing: give the column player's matrix, or zero_sum: true",
                join_pointer(base, "B"),
            )
        return [first, -first]
    pointer_b = join_pointer(base, "B")
    second = read_array(data["B"], 2, bounds, pointer_b)
    if second.shape != first.shape:
        raise InvalidInputError(
            f"B is {_shape_text(second.shape)} but A is {_shape_text(first.shape)}", pointer_b
        )
    return [first, second]


def _read_cells(raw: Any, bounds: MatrixLimits, pointer: str) -> list[ObjectArray]:
    players = _cell_depth(raw, bounds, pointer)
    cells = read_array(raw, players + 1, bounds, pointer, per_cell=players)
    return [np.ascontiguousarray(cells[..., player]) for player in range(players)]


def _cell_depth(raw: Any, bounds: MatrixLimits, pointer: str) -> int:
    """Number of players of the cell form: nesting depth of the first cell, minus one."""
    depth = 0
    item = raw
    while isinstance(item, list) and item:
        depth += 1
        if depth > bounds.max_players + 1:
            raise LimitExceededError(f"more than {bounds.max_players} players", pointer)
        item = item[0]
    if depth < 3:
        raise InvalidInputError(
            "payoffs must be a matrix of payoff pairs such as [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]",
            pointer,
        )
    return depth - 1


def _read_arrays(raw: Any, bounds: MatrixLimits, pointer: str) -> list[ObjectArray]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise InvalidInputError(
            "payoff_arrays must list one payoff array per player (at least 2)", pointer
        )
    if len(raw) > bounds.max_players:
        raise LimitExceededError(f"{len(raw)} players; at most {bounds.max_players}", pointer)
    arrays = [
        read_array(item, len(raw), bounds, join_pointer(pointer, index))
        for index, item in enumerate(raw)
    ]
    for index, array in enumerate(arrays[1:], start=1):
        if array.shape != arrays[0].shape:
            raise InvalidInputError(
                f"array of player {index + 1} is {_shape_text(array.shape)} but player 1's "
                f"is {_shape_text(arrays[0].shape)}",
                join_pointer(pointer, index),
            )
    return arrays


def read_array(
    raw: Any, ndim: int, bounds: MatrixLimits, pointer: str, per_cell: int = 1
) -> ObjectArray:
    """Read a rectangular ``ndim``-dimensional array of exact numbers.

    The array is read one nesting level at a time; every list at a level must have the
    length most lists there have (the first one's, on a tie), and a list that does not is
    the one blamed. ``per_cell`` numbers (more than one) sit in each cell of the game: the
    payoff tuples of the cell form, whose length is known. The common denominator of each
    player's payoffs is checked against the exact-size limit as they are read.
    """
    deadline = current_deadline()
    shape: list[int] = []
    level: list[tuple[Any, str]] = [(raw, pointer)]
    for depth in range(ndim):
        tuples = per_cell > 1 and depth == ndim - 1
        size = per_cell if tuples else _level_size(_usual(level), depth, bounds)
        shape.append(size)
        cells = len(level) * size
        if cells > bounds.max_cells * per_cell:
            raise LimitExceededError(f"the game has more than {bounds.max_cells} cells", pointer)
        following: list[tuple[Any, str]] = []
        for item, where in level:
            if not isinstance(item, list):
                raise InvalidInputError(
                    f"expected an array at depth {depth + 1}, got {describe_json(item)}", where
                )
            if len(item) != size and tuples:
                raise InvalidInputError(
                    f"a game of {size} players needs {size} payoffs in each cell, this one "
                    f"has {len(item)}",
                    where,
                )
            if len(item) != size:
                raise InvalidInputError(
                    f"ragged array: this one has {len(item)} entries, most at this depth "
                    f"have {size}",
                    where,
                )
            deadline.spend(len(item))
            following.extend(
                (child, join_pointer(where, index)) for index, child in enumerate(item)
            )
        level = following
    values: list[Exact] = []
    scales = [1] * per_cell  # one common denominator per player
    for index, (item, where) in enumerate(level):
        deadline.spend(1)
        value = parse_exact(item, where)
        values.append(value)
        if type(value) is not int:
            player = index % per_cell
            scale = scales[player]
            if scale % value.denominator:
                scales[player] = scale = lcm(scale, value.denominator)
                deadline.spend(1 + scale.bit_length() // 256)
                check_exact_size(scale, where, "common denominator of the payoffs")
    array = np.empty(tuple(shape), dtype=object)
    array.flat[:] = values
    return array


def _usual(level: list[tuple[Any, str]]) -> tuple[Any, str]:
    """The first list of ``level`` with the length most of its lists have (the first
    item when none is a list: the caller refuses it)."""
    lengths = Counter(len(item) for item, _ in level if isinstance(item, list))
    if not lengths:
        return level[0]
    most = max(lengths.values())
    return next(
        entry for entry in level if isinstance(entry[0], list) and lengths[len(entry[0])] == most
    )


def _level_size(first: tuple[Any, str], depth: int, bounds: MatrixLimits) -> int:
    item, where = first
    if not isinstance(item, list):
        raise InvalidInputError(
            f"expected an array at depth {depth + 1}, got {describe_json(item)}", where
        )
    if not item:
        raise InvalidInputError("empty array: every player needs at least one strategy", where)
    if len(item) > bounds.max_strategies:
        raise LimitExceededError(
            f"{len(item)} strategies; at most {bounds.max_strategies} per player", where
        )
    return len(item)


def _read_labels(raw: Any, shape: tuple[int, ...], pointer: str) -> tuple[tuple[str, ...], ...]:
    if raw is None:
        return default_labels(shape)
    if not isinstance(raw, list) or len(raw) != len(shape):
        raise InvalidInputError(
            f"labels must list one array of strategy names per player ({len(shape)})", pointer
        )
    result: list[tuple[str, ...]] = []
    for player, names in enumerate(raw):
        where = join_pointer(pointer, player)
        if not isinstance(names, list) or len(names) != shape[player]:
            raise InvalidInputError(
                f"player {player + 1} has {shape[player]} strategies; give that many names", where
            )
        for index, name in enumerate(names):
            if not isinstance(name, str) or not name or len(name) > 100:
                raise InvalidInputError(
                    "a label is a non-empty string of at most 100 characters",
                    join_pointer(where, index),
                )
        if len(set(names)) != len(names):
            raise InvalidInputError(f"labels of player {player + 1} repeat", where)
        result.append(tuple(names))
    return tuple(result)


def _shape_text(shape: tuple[int, ...]) -> str:
    return "x".join(str(size) for size in shape)
