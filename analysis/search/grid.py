"""Alpha-beta compiled for k-in-a-row games on a grid (connect four, tic-tac-toe).

:mod:`analysis.search._grid` (Cython, built from ``_grid.pyx`` by the set-up) is
:class:`analysis.search.alpha_beta.AlphaBeta` move for move on 64-bit boards: the same values,
best moves, lines and node counts, thirty times faster or more (a solve of connect four to the
end also takes shortcuts that keep every score and enter fewer states). It runs when the game
offers a :class:`games.rules.game.GridForm` that fits 64 bits and the search needs nothing it
lacks (it has no quiescence: no grid game has noisy moves); otherwise, or where the extension
was not built (no C compiler), the Python engine runs. ``ARBITER_PURE_PYTHON=1`` forces the latter.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from analysis.search.budget import SearchBudget
from analysis.search.scores import MAX_PLY, Score, exact
from games.compiled import kernel
from games.rules.game import Evaluation, Game, GridForm

if TYPE_CHECKING:
    from analysis.search._grid import GridSearch

KERNEL: Final = kernel("analysis.search._grid")
"""The compiled search, where the set-up built it (:mod:`games.compiled`); else the Python
engine answers alone."""

COMPILED: Final = KERNEL is not None
"""Whether the compiled search is there to use."""

NODE_BATCH: Final = 4096
"""Nodes between two budget checks in the compiled search."""
NODE_UNITS: Final = 512
"""Deadline units (about a microsecond each) a batch is charged: a compiled node costs about
0.1 microsecond."""
TABLE_ENTRIES: Final = 3 << 22
"""Most transposition-table entries by default: 12,582,912, three quarters of 2^24 slots of
16 bytes (256 MB); a full table replaces the shallowest entry near a new one's place."""


class GridAlphaBeta:
    """The compiled search behind the Python engine's interface (``root``, ``win``, counters)."""

    def __init__(self, search: GridSearch, form: GridForm):
        self.counters = search
        self.form = form
        self.win: Score = 1
        self._kernel = search

    def root(self, state: Any, depth: int, previous: Any) -> tuple[Score, list[Any], bool]:
        mine, mask = self.form.position(state)
        score, moves, complete = self._kernel.root(mine, mask, depth, previous)
        return exact(Fraction(score, self._kernel.scale_factor)), moves, complete

    def principal_variation(self, state: Any, first: Any, depth: int) -> list[Any]:
        mine, mask = self.form.position(state)
        return self._kernel.principal_variation(mine, mask, first, depth)


def grid_search(
    game: Game[Any, Any],
    evaluation: Evaluation | None,
    *,
    table: bool,
    ordering: bool,
    quiescence_plies: int,
    budget: SearchBudget,
    all_best_moves: bool,
    table_entries: int | None = None,
) -> GridAlphaBeta | None:
    """The compiled search for this game and these options, or None where it cannot run.

    The table holds at most ``table_entries`` entries (``None``: :data:`TABLE_ENTRIES`), in
    the smallest power of two of slots that keeps it at most three quarters full.
    """
    form: GridForm | None = getattr(game, "grid", None)
    if not COMPILED or form is None or quiescence_plies:
        return None
    if form.columns * (form.rows + 1) > (64 if form.gravity else 32):
        return None
    kind: str | None = None
    denominator = 1
    if evaluation is not None:
        names = [name for name, info in game.evaluations.items() if info.function == evaluation]
        if not names or names[0] not in form.evaluations:
            return None
        kind, denominator = form.evaluations[names[0]]
    assert KERNEL is not None
    search = KERNEL.GridSearch(
        columns=form.columns,
        rows=form.rows,
        k=form.k,
        gravity=form.gravity,
        moves=form.moves,
        move_bits=form.move_bits,
        lines=form.lines,
        evaluation_kind=kind,
        denominator=denominator,
        table=table,
        ordering=ordering,
        shortcuts=evaluation is None,
        budget=budget,
        max_ply=MAX_PLY,
        node_batch=NODE_BATCH,
        node_units=NODE_UNITS,
        table_entries=TABLE_ENTRIES if table_entries is None else table_entries,
    )
    search.all_best = all_best_moves
    return GridAlphaBeta(search, form)
