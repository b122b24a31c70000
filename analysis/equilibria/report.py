"""Everything asked about one normal-form game, in one report.

Each part delegates to its own module; this one only decides which parts apply
(mixed equilibria need two players, the value needs a zero-sum game) and
records why a part was skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

from analysis.equilibria.correlated import CorrelatedEquilibria, check_size, correlated_equilibria
from analysis.equilibria.deviation import DeviationCheck, deviation_check, float_deviation_check
from analysis.equilibria.drawing import matrix_plot_svg
from analysis.equilibria.equilibrium_set import EquilibriumSet
from analysis.equilibria.indifference import Indifference, explainable, indifference_equations
from analysis.equilibria.iterated_dominance import DominanceResult, iterated_elimination
from analysis.equilibria.lemke_howson import LemkeHowsonResult, lemke_howson
from analysis.equilibria.pure import (
    BestResponses,
    PureEquilibrium,
    best_responses,
    pure_nash_equilibria,
)
from analysis.equilibria.vertex_enumeration import MAX_STRATEGIES, extreme_equilibria
from analysis.equilibria.zero_sum import (
    SecurityLevel,
    ZeroSumSolution,
    security_levels,
    zero_sum_solution,
)
from games.errors import DomainError, LimitExceededError
from games.limits import Deadline, current_deadline
from games.matrices.model import NormalFormGame

MAX_AUTO_MIXED_DOMINANCE = 30
"""Mixed dominators are searched by default up to this many strategies per player."""

MAX_BEST_RESPONSE_ROWS = 100_000
"""Most best-response entries listed (one per opponents' profile and player)."""


PARTS: Final = (
    "best_responses",
    "pure_equilibria",
    "dominance",
    "equilibria",
    "zero_sum",
    "security_levels",
    "explanations",
    "lemke_howson",
    "plot",
    "correlated_equilibria",
)
"""Every part :func:`analyze_matrix` can compute."""

DEFAULT_PARTS: Final = (
    "best_responses",
    "pure_equilibria",
    "dominance",
    "equilibria",
    "zero_sum",
    "security_levels",
    "explanations",
)
"""The parts computed unless others are asked for (Lemke-Howson, the plot and correlated
equilibria on request)."""


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    """Which parts to compute and how."""

    parts: frozenset[str] = frozenset(DEFAULT_PARTS)
    weak_dominance: bool = False
    mixed_dominance: bool | None = None
    arithmetic: str = "auto"
    lemke_howson_label: int = 0
    explicit: frozenset[str] = frozenset()
    max_strategies: int = MAX_STRATEGIES


@dataclass(frozen=True)
class MatrixReport:
    """The parts computed; ``None`` where not asked for or not applicable (see ``notes``)."""

    game: NormalFormGame
    parts: frozenset[str]
    best_responses: tuple[BestResponses, ...] | None = None
    pure_equilibria: tuple[PureEquilibrium, ...] | None = None
    dominance: DominanceResult | None = None
    equilibria: EquilibriumSet | None = None
    checks: tuple[DeviationCheck, ...] = ()
    explanations: tuple[tuple[Indifference, ...], ...] | None = None
    zero_sum: ZeroSumSolution | None = None
    security_levels: tuple[SecurityLevel, ...] | None = None
    lemke_howson: LemkeHowsonResult | None = None
    plot: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    correlated_equilibria: CorrelatedEquilibria | None = None


def analyze_matrix(
    game: NormalFormGame,
    options: AnalysisOptions | None = None,
    deadline: Deadline | None = None,
) -> MatrixReport:
    """Compute the requested parts of the analysis of ``game`` (by default :data:`DEFAULT_PARTS`).

    Every part is charged to ``deadline`` (the request's by default).

    Raises
    ------
    LimitExceededError, DomainError
        When a part asked for explicitly cannot be computed for this game.
    TimeLimitError
        When the deadline passes.
    ExactSizeError
        When an exact number computed on the way grows past the exact-size limit
        (its pointer is empty: the payoffs are responsible).
    """
    clock = deadline or current_deadline()
    options = options or AnalysisOptions()
    parts = options.parts
    notes: list[str] = []
    exact = {"auto": None, "exact": True, "float": False}[options.arithmetic]
    if "correlated_equilibria" in parts:
        check_size(game.shape)  # before the other parts are spent on
    responses = None
    if "best_responses" in parts:
        cells = math.prod(game.shape)
        if sum(cells // size for size in game.shape) > MAX_BEST_RESPONSE_ROWS:
            notes.append("best_responses skipped: too many opponent profiles to list")
        else:
            responses = tuple(best_responses(game))
    pure = tuple(pure_nash_equilibria(game)) if "pure_equilibria" in parts else None
    dominance = None
    if "dominance" in parts:
        mixed = options.mixed_dominance
        if mixed is None:
            mixed = max(game.shape) <= MAX_AUTO_MIXED_DOMINANCE
            if not mixed:
                notes.append(
                    f"dominance by mixed strategies not searched: more than "
                    f"{MAX_AUTO_MIXED_DOMINANCE} strategies per player (set mixed_dominance: true)"
                )
        dominance = iterated_elimination(
            game, weak=options.weak_dominance, mixed=mixed, deadline=clock
        )
    equilibria = _equilibria(game, options, exact is not False, notes, clock)
    checks: tuple[DeviationCheck, ...] = ()
    explanations = None
    if equilibria is not None:
        check = deviation_check if equilibria.exact else float_deviation_check
        checks = tuple(check(game, (e.row, e.col)) for e in equilibria.equilibria)
    if equilibria is not None and equilibria.exact:
        if "explanations" in parts and explainable(game):
            explained = []
            for e in equilibria.equilibria:
                clock.check()
                explained.append(tuple(indifference_equations(game, e.row, e.col)))
            explanations = tuple(explained)
    clock.check()
    solution = None
    if "zero_sum" in parts:
        if game.is_bimatrix and game.is_zero_sum():
            solution = zero_sum_solution(game, exact)
        elif "zero_sum" in options.explicit:
            notes.append("zero_sum is null: the payoffs do not add up to 0 in every cell")
    clock.check()
    levels = tuple(security_levels(game, exact)) if "security_levels" in parts else None
    clock.check()
    path = None
    if "lemke_howson" in parts:
        path = lemke_howson(game, options.lemke_howson_label, clock)
    plot = None
    if "plot" in parts:
        shown = () if equilibria is None else [(e.row, e.col) for e in equilibria.equilibria]
        plot = matrix_plot_svg(game, shown)
    correlated = None
    if "correlated_equilibria" in parts:
        correlated = correlated_equilibria(game, exact, clock)
    return MatrixReport(
        game,
        parts,
        responses,
        pure,
        dominance,
        equilibria,
        checks,
        explanations,
        solution,
        levels,
        path,
        plot,
        tuple(notes),
        correlated,
    )


def _equilibria(
    game: NormalFormGame, options: AnalysisOptions, exact: bool, notes: list[str], clock: Deadline
) -> EquilibriumSet | None:
    if "equilibria" not in options.parts:
        return None
    explicit = "equilibria" in options.explicit
    if not game.is_bimatrix:
        if explicit:
            raise DomainError(
                "mixed equilibria are computed for two-player games only; "
                "pure_equilibria works for any number of players",
                parameter="parts",
            )
        notes.append("equilibria skipped: mixed equilibria are computed for two players only")
        return None
    if max(game.shape) > options.max_strategies:
        if explicit:
            raise LimitExceededError(
                f"enumerating all equilibria is limited to {options.max_strategies} "
                "strategies per player; ask for lemke_howson to find one equilibrium of a "
                "larger game",
                parameter="parts",
            )
        notes.append(
            f"equilibria skipped: more than {options.max_strategies} strategies per "
            "player; ask for lemke_howson to find one equilibrium"
        )
        return None
    return extreme_equilibria(
        game, exact=exact, max_strategies=options.max_strategies, deadline=clock
    )
