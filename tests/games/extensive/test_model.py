"""The extensive-form model: building, information sets, perfect recall, the two pokers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.errors import InvalidInputError
from games.extensive.model import CHANCE, TERMINAL, Builder, perfect_recall_violation
from games.extensive.poker import kuhn_poker, leduc_poker

HALF = Fraction(1, 2)


def test_kuhn_poker_has_six_deals_and_twelve_information_sets() -> None:
    game = kuhn_poker()
    # 6 deals, each: player 1's two moves, player 2's two, and five terminal nodes
    assert len(game.nodes) == 1 + 6 * 9
    assert [len(game.player_infosets(p)) for p in (0, 1)] == [6, 6]
    assert all(len(infoset.nodes) == 2 for infoset in game.infosets)  # two cards unseen
    assert game.zero_sum and game.constant_sum == 0
    assert game.nodes[0].player == CHANCE and game.nodes[0].probabilities == (Fraction(1, 6),) * 6


def test_leduc_has_openspiel_information_sets() -> None:
    # OpenSpiel's leduc_poker: 936 information states (468 a player) and 9,457 histories
    game = leduc_poker()
    assert len(game.nodes) == 9457
    assert [len(game.player_infosets(p)) for p in (0, 1)] == [468, 468]
    assert game.zero_sum


def test_a_terminal_payoff_is_the_money_won() -> None:
    game = leduc_poker()
    payoffs = {n.payoffs[0] for n in game.nodes if n.player == TERMINAL}
    # the most a player can win: 1 ante + 2 raises of 2 + 2 raises of 4 = 13
    assert max(payoffs) == 13 and min(payoffs) == -13 and 0 in payoffs


def forgetful() -> Builder:
    # player 1 moves, then moves again without knowing what they did: not perfect recall
    builder = Builder(["A", "B"])
    builder.decision(0, "first", ["L", "R"])
    for _ in range(2):
        builder.decision(0, "second", ["l", "r"], infoset_name="second")
        builder.terminal([1, -1])
        builder.terminal([0, 0])
    return builder


def test_forgetting_ones_own_move_is_refused_naming_the_information_set() -> None:
    with pytest.raises(InvalidInputError, match="'second' of A holds node 1 and node 4"):
        forgetful().build()


def test_absent_mindedness_is_not_perfect_recall() -> None:
    builder = Builder(["A", "B"])
    builder.decision(0, "driver", ["exit", "continue"])
    builder.terminal([0, 0])
    builder.decision(0, "driver", ["exit", "continue"])
    builder.terminal([4, 0])
    builder.terminal([1, 0])
    with pytest.raises(InvalidInputError, match="'driver'"):
        builder.build()


def test_not_knowing_the_other_players_move_is_perfect_recall() -> None:
    builder = Builder(["A", "B"])
    builder.decision(0, "a", ["L", "R"])
    for _ in range(2):
        builder.decision(1, "b", ["l", "r"])
        builder.terminal([1, -1])
        builder.terminal([0, 0])
    game = builder.build()
    assert perfect_recall_violation(game) is None
    assert game.infosets[1].nodes == (1, 4)


def test_chance_probabilities_must_sum_to_one_exactly() -> None:
    builder = Builder(["A", "B"])
    with pytest.raises(InvalidInputError, match=r"\[1/3, 1/3, 333/1000\] sum to 2999/3000"):
        builder.chance([("a", Fraction(1, 3)), ("b", Fraction(1, 3)), ("c", Fraction("0.333"))])


def test_an_information_set_offers_the_same_actions_everywhere() -> None:
    builder = Builder(["A", "B"])
    builder.chance([("h", HALF), ("t", HALF)])
    builder.decision(0, "x", ["L", "R"])
    builder.terminal([1, -1])
    builder.terminal([0, 0])
    with pytest.raises(InvalidInputError, match=r"offers \['L', 'R'\] at its first node"):
        builder.decision(0, "x", ["L", "M"])


def test_an_unfinished_tree_is_refused() -> None:
    builder = Builder(["A", "B"])
    builder.decision(0, "x", ["L", "R"])
    builder.terminal([1, -1])
    with pytest.raises(InvalidInputError, match="1 children still to come"):
        builder.build()
