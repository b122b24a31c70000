"""Behaviour profiles: payoffs, best responses and NashConv against independently known answers.

Sources: OpenSpiel's tests of ``exploitability.nash_conv`` give the uniform profile's NashConv
(Kuhn poker 11/12, Leduc hold'em 1709/360 = 4.747222...); Kuhn (1950) gives Kuhn poker's
equilibria and value -1/18; the small game below is worked by hand; random small games are
checked against a brute-force enumeration of pure strategies.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.extensive.policy import (
    BehaviourProfile,
    TreeArrays,
    as_fraction,
    best_response,
    evaluate_profile,
    expected_payoffs,
    exploitability,
    nash_conv,
    profile_from_mapping,
    uniform_profile,
)
from games.errors import DomainError, InvalidInputError, TimeLimitError
from games.extensive.model import CHANCE, TERMINAL, Builder, ExtensiveGame
from games.extensive.poker import kuhn_poker, leduc_poker
from games.limits import Limits, limited

F = Fraction


def test_uniform_nash_conv_of_kuhn_poker_is_11_12_exactly() -> None:
    game = kuhn_poker()
    result = evaluate_profile(game, uniform_profile(game))
    assert result.exact
    assert result.nash_conv == F(11, 12)
    assert isinstance(result.nash_conv, Fraction)
    assert result.exploitability == F(11, 24)


def test_uniform_nash_conv_of_leduc_poker_is_1709_360_exactly() -> None:
    game = leduc_poker()
    assert nash_conv(game, uniform_profile(game)) == F(1709, 360)


@pytest.mark.parametrize("make, expected", [(kuhn_poker, 11 / 12), (leduc_poker, 1709 / 360)])
def test_float_nash_conv_of_the_uniform_profile(make: object, expected: float) -> None:
    game = make()  # type: ignore[operator]
    arrays = TreeArrays(game)
    floats = arrays.flat(uniform_profile(game)).astype(float)
    assert arrays.nash_conv(floats) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("make", [kuhn_poker, leduc_poker])
def test_always_the_first_action_has_nash_conv_2(make: object) -> None:
    """OpenSpiel's FirstActionPolicy (its test: NashConv 2): both players check to the
    showdown (worth 0 by symmetry) and fold to any bet, so each one's best response bets at
    once and wins the other's ante of 1: NashConv 1 + 1."""
    game = make()  # type: ignore[operator]
    first = BehaviourProfile(
        tuple(tuple(F(int(a == 0)) for a in range(len(s.actions))) for s in game.infosets)
    )
    assert nash_conv(game, first) == 2


def kuhn_equilibrium(alpha: Fraction) -> dict[str, list[Fraction]]:
    """Kuhn (1950): player 1 bets a jack with alpha in [0, 1/3], a king with 3 alpha, never
    a queen; after check and bet, folds a jack, calls with a queen with alpha + 1/3, always
    calls with a king. Player 2 (unique): after a check bets a king, bluffs a jack with 1/3,
    checks a queen; facing a bet calls a king, calls a queen with 1/3, folds a jack.
    Probabilities are (check, bet) and (fold, call)."""
    return {
        "J": [1 - alpha, alpha],
        "Q": [F(1), F(0)],
        "K": [1 - 3 * alpha, 3 * alpha],
        "J, check, bet": [F(1), F(0)],
        "Q, check, bet": [F(2, 3) - alpha, alpha + F(1, 3)],
        "K, check, bet": [F(0), F(1)],
        "J, check": [F(2, 3), F(1, 3)],
        "Q, check": [F(1), F(0)],
        "K, check": [F(0), F(1)],
        "J, bet": [F(1), F(0)],
        "Q, bet": [F(2, 3), F(1, 3)],
        "K, bet": [F(0), F(1)],
    }


@pytest.mark.parametrize("alpha", [F(0), F(1, 6), F(1, 3)])
def test_kuhns_equilibria_have_nash_conv_zero_and_value_minus_1_18(alpha: Fraction) -> None:
    game = kuhn_poker()
    profile = profile_from_mapping(game, kuhn_equilibrium(alpha))  # type: ignore[arg-type]
    result = evaluate_profile(game, profile)
    assert result.nash_conv == 0
    assert result.payoffs == (F(-1, 18), F(1, 18))
    assert [r.value for r in result.best_responses] == [F(-1, 18), F(1, 18)]


def test_a_deviation_from_kuhns_equilibrium_is_exploitable() -> None:
    game = kuhn_poker()
    strategy = kuhn_equilibrium(F(1, 6))
    strategy["Q, bet"] = [F(1, 2), F(1, 2)]  # player 2 calls too often with a queen
    profile = profile_from_mapping(game, strategy)  # type: ignore[arg-type]
    assert exploitability(game, profile) > 0


def tiny_game() -> ExtensiveGame:
    """Chance draws a (1/3) or b (2/3), unseen. Player 1 (set X) plays L or R; after L player
    2 (set Y, both draws) plays l or r; after b, L, l player 1 again (set Z) plays u or d.

    a: L l (3, 0), L r (0, 1), R (1, 1);  b: L l u (0, 2), L l d (4, -1), L r (2, 2), R (-1, 3).
    """
    builder = Builder(["P1", "P2"])
    builder.chance([("a", F(1, 3)), ("b", F(2, 3))])
    builder.decision(0, "X", ["L", "R"])
    builder.decision(1, "Y", ["l", "r"])
    builder.terminal([F(3), F(0)])
    builder.terminal([F(0), F(1)])
    builder.terminal([F(1), F(1)])
    builder.decision(0, "X", ["L", "R"])
    builder.decision(1, "Y", ["l", "r"])
    builder.decision(0, "Z", ["u", "d"])
    builder.terminal([F(0), F(2)])
    builder.terminal([F(4), F(-1)])
    builder.terminal([F(2), F(2)])
    builder.terminal([F(-1), F(3)])
    return builder.build()


def test_best_responses_of_a_tiny_game_by_hand() -> None:
    """X: L 1/2; Y: l 1/3; Z: u 1/4. By hand:

    - payoffs: player 1 1/3 * 1 + 2/3 * 2/3 = 7/9 (at b, L is worth 1/3 * 3 + 2/3 * 2);
      player 2 1/3 * 5/6 + 2/3 * 17/8 = 61/36.
    - player 1's best response: Z first (own depth 1): d (4 > 0); then X by counterfactual
      values: L = 1/3 * (1/3 * 3) + 2/3 * (1/3 * 4 + 2/3 * 2) = 19/9 > R = 1/3 - 2/3 = -1/3.
      Value 19/9 (with Z at its profile value 3, L would be worth only 17/9).
    - player 2's best response at Y, nodes reached by the others with 1/6 (a) and 1/3 (b):
      l = 1/6 * 0 + 1/3 * (-1/4) < r = 1/6 * 1 + 1/3 * 2; value 1/6 + 1 + 5/6 = 2.
    - NashConv (19/9 - 7/9) + (2 - 61/36) = 59/36.
    """
    game = tiny_game()
    profile = profile_from_mapping(
        game,
        {
            "X": {"L": F(1, 2), "R": F(1, 2)},
            "Y": {"l": F(1, 3), "r": F(2, 3)},
            "Z": [F(1, 4), F(3, 4)],
        },
    )
    assert expected_payoffs(game, profile) == (F(7, 9), F(61, 36))
    first = best_response(game, profile, 0)
    assert (first.value, first.actions) == (F(19, 9), (0, 1))  # X: L, Z: d
    second = best_response(game, profile, 1)
    assert (second.value, second.actions) == (F(2), (1,))  # Y: r
    assert nash_conv(game, profile) == F(59, 36)
    with pytest.raises(DomainError):
        exploitability(game, profile)  # not zero-sum
    with pytest.raises(InvalidInputError) as caught:
        best_response(game, profile, 2)
    assert caught.value.errors[0].parameter == "player"


def test_profiles_from_mappings() -> None:
    game = tiny_game()
    uniform = profile_from_mapping(game, {}, missing="uniform")
    assert uniform == uniform_profile(game)
    assert profile_from_mapping(game, {0: [1, 0], (1, "Y"): {"r": 1}, "Z": [0.5, 0.5]}) == (
        BehaviourProfile(((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)))
    )
    assert not profile_from_mapping(game, {}, missing="uniform").probabilities[0][0] != F(1, 2)
    for bad in (
        {"X": [F(1, 2), F(1, 3)], "Y": [1, 0], "Z": [1, 0]},  # sums to 5/6
        {"X": [2, -1], "Y": [1, 0], "Z": [1, 0]},  # negative
        {"X": [1, 0, 0], "Y": [1, 0], "Z": [1, 0]},  # three actions
        {"X": {"up": 1}, "Y": [1, 0], "Z": [1, 0]},  # no such action
        {"W": [1, 0]},  # no such set
        {"X": [1, 0]},  # Y and Z missing
        {"X": [F(10**400), 1 - F(10**400)], "Y": [1, 0], "Z": [1, 0]},  # no float form
        {"X": [float("nan"), 1.0], "Y": [1, 0], "Z": [1, 0]},
        {"X": ["1/2", "1/2"], "Y": [1, 0], "Z": [1, 0]},  # not a number
        {"X": [True, False], "Y": [1, 0], "Z": [1, 0]},
    ):
        with pytest.raises(InvalidInputError) as caught:
            profile_from_mapping(game, bad)  # type: ignore[arg-type]
        assert caught.value.errors[0].parameter == "profile"


# -- random small games against brute force ------------------------------------------


@st.composite
def small_games(draw: st.DrawFn) -> ExtensiveGame:
    """Games of 2 or 3 players with chance, perfect recall by construction (a set's key holds
    its player's own history), sets spanning nodes at different depths, zero weights."""
    players = draw(st.sampled_from([2, 2, 3]))
    builder = Builder([f"P{p + 1}" for p in range(players)])
    sizes: dict[tuple[object, ...], int] = {}
    budget = [draw(st.integers(1, 25))]

    def node(depth: int, histories: tuple[tuple[object, ...], ...]) -> None:
        if depth == 5 or budget[0] <= 0 or (depth and draw(st.integers(0, 3)) == 0):
            builder.terminal([F(draw(st.integers(-4, 4))) for _ in range(players)])
            return
        budget[0] -= 1
        # mostly chance at the root, so that later sets span its outcomes
        movers = [CHANCE, 0, 0, *range(1, players)] if depth else [CHANCE, CHANCE, 0]
        mover = draw(st.sampled_from(movers))
        if mover == CHANCE:
            weights = draw(st.lists(st.integers(0, 3), min_size=2, max_size=3).filter(sum))
            builder.chance([(f"c{k}", F(w, sum(weights))) for k, w in enumerate(weights)])
            for _ in weights:
                node(depth + 1, histories)
            return
        key = (histories[mover], draw(st.sampled_from([0, 0, 0, 1])))
        count = sizes.setdefault(key, draw(st.integers(1, 3)))
        builder.decision(mover, key, [f"a{k}" for k in range(count)])
        for action in range(count):
            extended = histories[mover] + (key, action)
            node(depth + 1, histories[:mover] + (extended,) + histories[mover + 1 :])

    node(0, ((),) * players)
    return builder.build()


@st.composite
def games_and_profiles(draw: st.DrawFn) -> tuple[ExtensiveGame, BehaviourProfile]:
    game = draw(small_games())
    rows = []
    for infoset in game.infosets:
        size = len(infoset.actions)
        weights = draw(st.lists(st.integers(0, 3), min_size=size, max_size=size).filter(sum))
        rows.append(tuple(F(w, sum(weights)) for w in weights))
    return game, BehaviourProfile(tuple(rows))


def reference_payoff(
    game: ExtensiveGame, rows: list[tuple[Fraction, ...]], player: int
) -> Fraction:
    """The player's expected payoff by plain recursion over the nodes."""

    def value(index: int) -> Fraction:
        node = game.nodes[index]
        if node.player == TERMINAL:
            return node.payoffs[player]
        weights = node.probabilities if node.player == CHANCE else rows[node.infoset]
        return sum((w * value(c) for w, c in zip(weights, node.children, strict=True)), F(0))

    return value(0)


@settings(max_examples=100, deadline=None)
@given(games_and_profiles())
def test_best_responses_match_brute_force_and_floats_match_fractions(
    case: tuple[ExtensiveGame, BehaviourProfile],
) -> None:
    game, profile = case
    result = evaluate_profile(game, profile)
    rows = list(profile.probabilities)
    for player, response in enumerate(result.best_responses):
        assert result.payoffs[player] == reference_payoff(game, rows, player)  # type: ignore[arg-type]
        mine = game.player_infosets(player)
        sizes = [len(game.infosets[i].actions) for i in mine]
        best = None
        for pure in itertools.islice(itertools.product(*map(range, sizes)), 100):
            trial = list(rows)
            for infoset, action in zip(mine, pure, strict=True):
                trial[infoset] = tuple(F(int(a == action)) for a in range(len(trial[infoset])))
            value = reference_payoff(game, trial, player)  # type: ignore[arg-type]
            best = value if best is None else max(best, value)
            if pure == response.actions:
                assert value == response.value  # the response earns its value
        if math.prod(sizes) <= 100:  # enumerated in full
            assert response.value == (best if mine else result.payoffs[player])
    assert result.nash_conv >= 0
    arrays = TreeArrays(game)
    flat = arrays.flat(profile)
    assert arrays.profile(flat) == profile
    edge = arrays.edge_probabilities(flat)
    for player, payoff in enumerate(result.payoffs):  # bottom-up values agree at the root
        assert as_fraction(arrays.values(edge, player)[0]) == payoff
    floats = BehaviourProfile(tuple(tuple(float(p) for p in row) for row in rows))
    assert not floats.exact or not rows
    float_result = evaluate_profile(game, floats)
    assert float_result.nash_conv == pytest.approx(float(result.nash_conv), abs=1e-9)
    for exact, rough in zip(result.payoffs, float_result.payoffs, strict=True):
        assert rough == pytest.approx(float(exact), abs=1e-9)


def test_an_exact_evaluation_stops_at_the_deadline() -> None:
    game = leduc_poker()
    profile = uniform_profile(game)
    with limited(Limits(time_limit=0.002)), pytest.raises(TimeLimitError):
        evaluate_profile(game, profile)
