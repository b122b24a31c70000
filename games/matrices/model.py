"""Normal-form games: one exact payoff array per player.

A game of ``n`` players, player ``i`` having ``m_i`` pure strategies, is stored
as ``n`` arrays of shape ``(m_1, ..., m_n)``; entry ``payoffs[i][s]`` is what
player ``i`` gets at the pure profile ``s``. Player 0 chooses the row and
player 1 the column, so a bimatrix game ``(A, B)`` has ``payoffs == (A, B)``.
Payoffs are exact (``int`` or ``Fraction``), held in numpy ``object`` arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from games.limits import Deadline, check_exact_size, current_deadline
from games.numbers import Exact

ObjectArray = npt.NDArray[np.object_]
FloatArray = npt.NDArray[np.float64]

_INT64_SAFE = 2**62


@dataclass(frozen=True, eq=False)
class NormalFormGame:
    """A finite game in normal (strategic) form.

    Attributes
    ----------
    payoffs
        One exact array per player, all of shape ``shape``.
    labels
        Strategy names of each player, in strategy order.
    """

    payoffs: tuple[ObjectArray, ...]
    labels: tuple[tuple[str, ...], ...]
    zero_sum: bool | None = field(default=None, repr=False)
    """True when built as ``(A, -A)``; ``None``: decide on first use."""

    @property
    def players(self) -> int:
        return len(self.payoffs)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(size) for size in self.payoffs[0].shape)

    @property
    def is_bimatrix(self) -> bool:
        return self.players == 2

    @property
    def row_payoffs(self) -> ObjectArray:
        """``A``: the row player's payoffs of a two-player game."""
        return self.payoffs[0]

    @property
    def col_payoffs(self) -> ObjectArray:
        """``B``: the column player's payoffs of a two-player game."""
        return self.payoffs[1]

    def float_payoffs(self, player: int) -> FloatArray:
        """Payoffs of ``player`` as floats (for floating-point search only), computed once."""
        return self._float_views[player]

    @cached_property
    def _float_views(self) -> tuple[FloatArray, ...]:
        views = []
        for array in self.payoffs:
            view = np.asarray(array.astype(np.float64), dtype=np.float64)
            view.flags.writeable = False
            views.append(view)
        return tuple(views)

    def integer_payoffs(self, player: int) -> npt.NDArray[Any]:
        """Payoffs of ``player`` times a positive common denominator.

        The scaling keeps every comparison exact and every best response
        unchanged; the result is ``int64`` when it fits, else ``object``.
        """
        return integer_scaled(self.payoffs[player])

    def is_zero_sum(self) -> bool:
        """Whether the payoffs of all players add up to 0 in every cell."""
        if self.zero_sum is not None:
            return self.zero_sum
        return self._sums_to_zero

    @cached_property
    def _sums_to_zero(self) -> bool:
        current_deadline().spend(self.payoffs[0].size * self.players)
        total = self.payoffs[0].copy()
        for array in self.payoffs[1:]:
            total = total + array
        return bool(np.all(total == 0))

    def profile_labels(self, profile: tuple[int, ...]) -> list[str]:
        return [self.labels[player][s] for player, s in enumerate(profile)]


def integer_scaled(array: ObjectArray) -> npt.NDArray[Any]:
    """``array`` times the least common multiple of its denominators.

    ``int64`` when every entry fits, else an ``object`` array of Python ints.
    """
    scaled, _ = scaled_to_integers(array)
    if all(-_INT64_SAFE < value < _INT64_SAFE for value in entries(scaled)):
        return scaled.astype(np.int64)
    return scaled


def payoff_scale(array: ObjectArray, pointer: str = "", deadline: Deadline | None = None) -> int:
    """The least common multiple of the denominators of ``array``'s entries.

    :raises ExactSizeError: the multiple has more digits than the active limit allows
        (``pointer`` names the array).
    :raises TimeLimitError: the deadline passed.
    """
    clock = deadline or current_deadline()
    scale = 1
    for value in entries(array):
        clock.spend(1)
        if type(value) is int:
            continue
        denominator = value.denominator
        if scale % denominator:
            scale = lcm(scale, denominator)
            check_exact_size(scale, pointer, "common denominator of the payoffs")
            clock.spend(1 + scale.bit_length() // 256)
    return scale


def scaled_to_integers(
    array: ObjectArray, deadline: Deadline | None = None
) -> tuple[ObjectArray, int]:
    """``(array * scale, scale)`` with Python ints, ``scale`` the lcm of the denominators.

    :raises ExactSizeError: the common denominator is too large (see :func:`payoff_scale`).
    """
    clock = deadline or current_deadline()
    scale = payoff_scale(array, deadline=clock)
    values = entries(array)
    clock.spend(len(values) * (1 + scale.bit_length() // 512))
    scaled = np.empty(array.shape, dtype=object)
    if scale == 1:
        scaled.flat[:] = values
    else:
        scaled.flat[:] = [
            value * scale if type(value) is int else value.numerator * (scale // value.denominator)
            for value in values
        ]
    return scaled, scale


def entries(array: ObjectArray) -> list[Exact]:
    """The exact entries of ``array`` in C order."""
    flat: list[Exact] = array.ravel().tolist()
    return flat


def exact_array(rows: Any) -> ObjectArray:
    """An object array of exact numbers from nested lists of ``int``/``Fraction``."""
    array = np.empty(np.shape(rows), dtype=object)
    flat = np.asarray(rows, dtype=object).reshape(-1)
    array.flat[:] = [
        value if isinstance(value, (int, Fraction)) else Fraction(value) for value in flat
    ]
    return array


def default_labels(shape: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """``R1..Rm`` and ``C1..Cn`` for two players; ``P1S1..`` for more."""
    if len(shape) == 2:
        return (
            tuple(f"R{k + 1}" for k in range(shape[0])),
            tuple(f"C{k + 1}" for k in range(shape[1])),
        )
    return tuple(
        tuple(f"P{player + 1}S{k + 1}" for k in range(size)) for player, size in enumerate(shape)
    )


def bimatrix(
    row: Any, col: Any, labels: tuple[tuple[str, ...], ...] | None = None
) -> NormalFormGame:
    """A two-player game from the row player's and column player's matrices."""
    arrays = (exact_array(row), exact_array(col))
    return NormalFormGame(arrays, labels or default_labels(arrays[0].shape))


def zero_sum_game(row: Any, labels: tuple[tuple[str, ...], ...] | None = None) -> NormalFormGame:
    """A two-player zero-sum game from the row player's matrix."""
    first = exact_array(row)
    return NormalFormGame((first, -first), labels or default_labels(first.shape), zero_sum=True)


def as_exact(value: Exact | Fraction) -> Exact:
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value
