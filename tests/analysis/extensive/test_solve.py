"""The one entry point: which method runs, and the second check of its answer."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.extensive.json_output import solution_json
from analysis.extensive.solve import solve_extensive
from games.errors import DomainError, InvalidInputError
from games.extensive.model import Builder, ExtensiveGame
from games.extensive.poker import kuhn_poker


def entry_game() -> ExtensiveGame:
    # not zero-sum: player 1 stays out (1, 0) or enters; player 2 then fights (-1, -1) or
    # shares (2, 1), without seeing whether player 1 came in "big" or "small"
    builder = Builder(["entrant", "incumbent"])
    builder.decision(0, "e", ["out", "big", "small"])
    builder.terminal([1, 0])
    for share in (2, 1):
        builder.decision(1, "i", ["fight", "share"])
        builder.terminal([-1, -1])
        builder.terminal([share, 1])
    return builder.build()


def test_auto_solves_a_zero_sum_game_exactly() -> None:
    solution = solve_extensive(kuhn_poker())
    assert solution.method == "sequence_lp" and solution.exact
    assert solution.value == Fraction(-1, 18)
    assert solution.evaluation.nash_conv == 0
    # with player 1's strategy from HiGHS's basis: Kuhn's alpha = 1/3, which bets every king,
    # so the set after a checked king followed by a bet is never reached by player 1
    reached = dict(zip((s.name for s in kuhn_poker().infosets), solution.reached, strict=True))
    assert reached["K, check, bet"] is False and reached["J"] is True


def test_auto_runs_lemke_on_a_general_sum_game() -> None:
    # Lemke's path starts from the first action everywhere, (out, fight), which is already an
    # equilibrium: against the threat to fight, staying out (1) beats entering (-1), and the
    # threat costs the incumbent nothing since it is never carried out. (Sharing is what the
    # incumbent would do if asked, so it is not subgame perfect: entering big is.)
    solution = solve_extensive(entry_game())
    assert solution.method == "lemke" and solution.exact and solution.value is None
    assert solution.evaluation.payoffs == (1, 0)
    assert solution.profile.probabilities == ((1, 0, 0), (1, 0))
    assert solution.evaluation.nash_conv == 0


def three_player_game() -> ExtensiveGame:
    # the third player, unseen by the others' moves, matches the first: a three-player game
    builder = Builder(["a", "b", "c"])
    builder.decision(0, "a", ["L", "R"])
    for first in (1, -1):
        builder.decision(1, "b", ["l", "r"])
        for _ in range(2):
            builder.decision(2, "c", ["x", "y"])
            builder.terminal([first, 0, -first])
            builder.terminal([-first, 0, first])
    return builder.build()


def test_auto_runs_cfr_plus_for_more_than_two_players() -> None:
    solution = solve_extensive(three_player_game(), iterations=200)
    assert solution.method == "cfr_plus" and not solution.exact and solution.value is None
    assert solution.cfr is not None and solution.cfr.iterations <= 200
    with pytest.raises(DomainError) as caught:
        solve_extensive(three_player_game(), "lemke")
    assert caught.value.errors[0].parameter == "method"


def test_the_lp_is_refused_for_a_general_sum_game_naming_the_method() -> None:
    with pytest.raises(DomainError) as caught:
        solve_extensive(entry_game(), "sequence_lp")
    assert caught.value.errors[0].parameter == "method"


def test_unknown_methods_and_misplaced_options_name_their_parameter() -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve_extensive(kuhn_poker(), "simplex")  # type: ignore[arg-type]
    assert caught.value.errors[0].parameter == "method"
    with pytest.raises(InvalidInputError) as caught:
        solve_extensive(kuhn_poker(), "sequence_lp", target_nash_conv=0.1)
    assert caught.value.errors[0].parameter == "target_nash_conv"


def test_the_answer_writes_exact_numbers_by_the_rule() -> None:
    game = kuhn_poker()
    answer = solution_json(game, solve_extensive(game))
    assert answer["value"] == -1 / 18 and answer["value_exact"] == "-1/18"
    jack = answer["strategies"][0]["infosets"][0]
    assert jack["infoset"] == "J" and jack["probabilities_exact"] == ["2/3", "1/3"]
    queen_facing_bet = answer["strategies"][1]["infosets"][1]
    assert queen_facing_bet["probabilities_exact"] == ["2/3", "1/3"]
    assert (
        answer["certificate"]["nash_conv"] == 0 and "nash_conv_exact" not in answer["certificate"]
    )
