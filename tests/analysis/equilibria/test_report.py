"""``analyze_matrix``: the parts asked for, on games whose answers are known by hand.

Matching pennies has no pure equilibrium and one mixed one, both players 50/50, value 0
(von Neumann and Morgenstern 1944); nothing is dominated; each pure strategy guarantees
only -1, the mix guarantees 0. The prisoner's dilemma (C,C) = (-1,-1), (C,D) = (-3,0),
(D,D) = (-2,-2) has the single equilibrium (D,D), reached by eliminating C for each player.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from analysis.equilibria.report import AnalysisOptions, analyze_matrix
from games.errors import DomainError, LimitExceededError
from games.matrices.model import bimatrix, zero_sum_game
from games.matrices.parser import parse_game

HALF = Fraction(1, 2)
PENNIES = zero_sum_game([[1, -1], [-1, 1]])
DILEMMA = bimatrix([[-1, -3], [0, -2]], [[-1, 0], [-3, -2]])
SAME = [[[1, 0], [0, 0]], [[0, 0], [0, 1]]]


def options(*parts: str, explicit: tuple[str, ...] = (), **kwargs: object) -> AnalysisOptions:
    return AnalysisOptions(frozenset(parts), explicit=frozenset(explicit), **kwargs)  # type: ignore[arg-type]


def test_matching_pennies_report() -> None:
    report = analyze_matrix(
        PENNIES,
        options("pure_equilibria", "equilibria", "zero_sum", "security_levels", "explanations"),
    )
    assert report.pure_equilibria == ()
    assert report.equilibria is not None
    (equilibrium,) = report.equilibria.equilibria
    assert (equilibrium.row, equilibrium.col) == ((HALF, HALF), (HALF, HALF))
    assert report.zero_sum is not None and report.zero_sum.value == 0
    assert report.zero_sum.row_strategy == (HALF, HALF)
    assert report.checks[0].gains == (0, 0)
    assert report.security_levels is not None
    assert [(s.pure, s.mixed) for s in report.security_levels] == [(-1, 0), (-1, 0)]
    assert report.explanations is not None
    assert [i.solution_text for i in report.explanations[0]] == ["q = 1/2", "p = 1/2"]
    assert report.notes == ()


def test_only_the_parts_asked_for_are_computed() -> None:
    report = analyze_matrix(PENNIES, options("pure_equilibria"))
    assert report.pure_equilibria == ()
    assert report.equilibria is None and report.zero_sum is None and report.plot is None
    assert report.dominance is None and report.best_responses is None and report.checks == ()


def test_prisoners_dilemma_dominance_and_equilibrium() -> None:
    report = analyze_matrix(DILEMMA, options("dominance", "pure_equilibria", "equilibria"))
    assert report.dominance is not None and report.dominance.surviving == ((1,), (1,))
    assert report.pure_equilibria is not None
    assert [e.profile for e in report.pure_equilibria] == [(1, 1)]
    assert report.equilibria is not None
    assert [(e.row, e.col) for e in report.equilibria.equilibria] == [((0, 1), (0, 1))]
    assert report.checks[0].payoffs == (-2, -2)


def test_best_responses_of_the_dilemma() -> None:
    # whatever the other does, defecting (strategy 1) is the one best response
    report = analyze_matrix(DILEMMA, options("best_responses"))
    assert report.best_responses is not None
    assert [r.best for r in report.best_responses] == [((1,), (1,)), ((1,), (1,))]


def test_zero_sum_of_a_general_sum_game_is_null_with_a_note_when_asked() -> None:
    quiet = analyze_matrix(DILEMMA, options("zero_sum"))
    assert quiet.zero_sum is None and quiet.notes == ()
    asked = analyze_matrix(DILEMMA, options("zero_sum", explicit=("zero_sum",)))
    assert asked.zero_sum is None
    assert asked.notes == ("zero_sum is null: the payoffs do not add up to 0 in every cell",)


def test_mixed_equilibria_of_three_players_are_skipped_or_refused() -> None:
    game = parse_game({"payoff_arrays": [SAME, SAME, SAME]})
    skipped = analyze_matrix(game, options("equilibria", "pure_equilibria"))
    assert skipped.equilibria is None
    assert skipped.pure_equilibria is not None
    assert [e.profile for e in skipped.pure_equilibria] == [(0, 0, 0), (1, 1, 1)]
    assert any("two players only" in note for note in skipped.notes)
    with pytest.raises(DomainError):
        analyze_matrix(game, options("equilibria", explicit=("equilibria",)))


def test_games_past_the_strategy_limit_skip_or_refuse_enumeration() -> None:
    big = zero_sum_game([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    skipped = analyze_matrix(big, options("equilibria", max_strategies=2))
    assert skipped.equilibria is None
    assert any("lemke_howson" in note for note in skipped.notes)
    with pytest.raises(LimitExceededError):
        analyze_matrix(big, options("equilibria", explicit=("equilibria",), max_strategies=2))


def test_float_arithmetic_checks_gains_in_floats() -> None:
    report = analyze_matrix(PENNIES, options("equilibria", "explanations", arithmetic="float"))
    assert report.equilibria is not None and not report.equilibria.exact
    assert report.checks[0].gains == pytest.approx((0.0, 0.0))
    assert report.explanations is None  # equations are built from exact equilibria only


def test_lemke_howson_and_plot_parts() -> None:
    report = analyze_matrix(PENNIES, options("equilibria", "lemke_howson", "plot"))
    assert report.lemke_howson is not None
    assert report.lemke_howson.row == pytest.approx((0.5, 0.5))
    assert report.plot is not None
    assert ET.fromstring(report.plot).tag == "{http://www.w3.org/2000/svg}svg"
