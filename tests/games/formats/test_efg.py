"""Gambit .efg import and export, with hand-derived values."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings

from analysis.trees.expectimax import expectimax
from analysis.trees.max_n import maxn, movers
from analysis.trees.minimax import minimax
from games.errors import InvalidInputError, LimitExceededError
from games.formats.efg import parse_efg, tokenize, write_efg
from games.limits import Limits
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER
from games.trees.parser import parse_tree
from tests.strategies import chance_trees, multiplayer_trees

# A bet on a die-like draw. Alice (player 1) bets or passes. Betting costs the stake,
# attached as outcome 1 to the chance node itself, so it is added to every play
# through it (Gambit sums the outcomes along a path):
#   low  (1/3): Bob calls -> (-2, 2) + (-1, 1) = (-3, 3); Bob folds -> (1, -1) + (-1, 1) = (0, 0).
#               Bob minimises Alice's payoff: -3.
#   mid  (1/2): (3, -3) + (-1, 1) = (2, -2).
#   high (1/6): (8, -8) + (-1, 1) = (7, -7).
#   roll = 1/3 * (-3) + 1/2 * 2 + 1/6 * 7 = -1 + 1 + 7/6 = 7/6.
#   pass: outcome 0 everywhere above it and at it: (0, 0).
#   root = max(7/6, 0) = 7/6, Alice bets.
DICE_BET = """EFG 2 R "Dice bet" { "Alice" "Bob" }
"A bet with the stake paid at the chance node"

p "root" 1 1 "bet?" { "bet" "pass" } 0
c "roll" 1 "draw" { "low" 1/3 "mid" 1/2 "high" 1/6 } 1 "stake" { -1, 1 }
p "low" 2 1 "call?" { "call" "fold" } 0
t "low call" 2 "lose" { -2, 2 }
t "low fold" 3 "small" { 1, -1 }
t "mid" 4 "win" { 3, -3 }
t "high" 5 "big" { 8, -8 }
t "pass" 0
"""


def test_chance_game_has_the_hand_derived_expectation() -> None:
    game = parse_efg(DICE_BET, mode="zero_sum")
    tree = game.tree
    assert game.title == "Dice bet"
    assert game.players == ("Alice", "Bob")
    assert [tree.kinds[tree.index_of(name)] for name in ("root", "roll", "low", "mid")] == [
        MAX,
        CHANCE,
        MIN,
        LEAF,
    ]
    assert tree.values[tree.index_of("low call")] == -3
    assert tree.values[tree.index_of("low fold")] == 0
    assert tree.values[tree.index_of("high")] == 7
    assert tree.values[tree.index_of("pass")] == 0
    assert tree.probabilities[tree.index_of("mid")] == Fraction(1, 2)
    assert tree.moves[tree.index_of("pass")] == "pass"
    result = expectimax(tree)
    assert result.value == Fraction(7, 6)
    assert result.values[tree.index_of("roll")] == Fraction(7, 6)
    assert result.values[tree.index_of("low")] == -3
    assert tree.ids[result.principal_variation[0]] == "roll"


def test_maxn_mode_keeps_every_players_accumulated_payoff() -> None:
    tree = parse_efg(DICE_BET).tree
    assert tree.utility_size == 2
    assert tree.kinds[0] == PLAYER and tree.players[0] == 0
    assert tree.players[tree.index_of("low")] == 1
    assert tree.values[tree.index_of("low call")] == (-3, 3)
    assert tree.values[tree.index_of("high")] == (7, -7)
    assert tree.values[tree.index_of("pass")] == (0, 0)


def test_three_players_decimal_payoffs_and_reused_outcomes() -> None:
    text = """EFG 2 D "Three" { "A" "B" "C" } ""
p "" 1 1 "" { "x" "y" } 0
p "" 3 1 "" { "u" "v" } 0
t "" 1 "o1" { 1.5, 0, 2 }
t "" 2 "o2" { 0 1 0.25 }
t "" 1
"""
    tree = parse_efg(text).tree
    # ids are generated from the prefix position where names are empty
    assert tree.ids == ["n0", "n1", "n4", "n2", "n3"]
    assert tree.players[1] == 2
    assert tree.values[tree.index_of("n2")] == (Fraction(3, 2), 0, 2)
    assert tree.values[tree.index_of("n3")] == (0, 1, Fraction(1, 4))
    # outcome 1 was defined on line 4 and is reused without payoffs
    assert tree.values[tree.index_of("n4")] == (Fraction(3, 2), 0, 2)


def test_round_trip_preserves_values() -> None:
    first = parse_efg(DICE_BET, mode="zero_sum").tree
    solved = expectimax(first)
    text = write_efg(first, title="Dice bet")
    second = parse_efg(text, mode="zero_sum").tree
    again = expectimax(second)
    assert second.ids == first.ids
    assert second.moves == first.moves
    assert second.probabilities == first.probabilities
    assert again.values == solved.values
    assert again.value == Fraction(7, 6)


def test_round_trip_of_a_posted_minimax_tree() -> None:
    # AIMA Figure 5.2: MIN values 3, 2, 2 and root 3.
    tree = parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    back = parse_efg(write_efg(tree), mode="zero_sum").tree
    assert minimax(back).values == [3, 3, 2, 2, 3, 12, 8, 2, 4, 6, 14, 5, 2]
    assert back.ids == tree.ids


def test_maxn_round_trip_and_names_with_quotes() -> None:
    tree = parse_tree(
        {
            "id": 'say "hi" \\ there',
            "player": 0,
            "children": [
                {"move": "left", "value": [1, 2, 3]},
                {
                    "kind": "chance",
                    "children": [
                        {"p": "1/4", "value": [0, 0, 4]},
                        {"p": "3/4", "value": ["1/2", 1, 0]},
                    ],
                },
            ],
        }
    )
    text = write_efg(tree)
    assert 'p "say \\"hi\\" \\\\ there" 1 1' in text
    back = parse_efg(text).tree
    assert back.ids == tree.ids
    assert back.values == tree.values
    assert back.players == tree.players
    # actions without a move are named after the child's id
    assert back.moves[1:] == ["left", tree.ids[2], tree.ids[3], tree.ids[4]]


def test_imperfect_information_is_refused() -> None:
    text = """EFG 2 R "Matching pennies" { "1" "2" } ""
p "" 1 1 "" { "H" "T" } 0
p "b" 2 1 "guess" { "h" "t" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "c" 2 1 0
t "" 2
t "" 1
"""
    with pytest.raises(InvalidInputError) as caught:
        parse_efg(text)
    assert "imperfect information" in caught.value.message
    assert caught.value.message.startswith("line 6:")
    assert "line 3" in caught.value.message
    assert caught.value.errors[0].pointer == "/text"


HEADER = 'EFG 2 R "g" { "1" "2" } ""\n'


@pytest.mark.parametrize(
    ("body", "line", "phrase"),
    [
        ('x "" 1 1 "" { "a" } 0\n', 2, "starts with p, c or t"),
        ('p "" 1 1 "" "a" } 0\n', 2, "expected { and the actions"),
        ('p "" 3 1 "" { "a" } 0\nt "" 1 "" { 1 2 }\n', 2, "player 3 is not one of the 2"),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { 1 2 3 }\n', 3, "3 payoffs for 2 players"),
        ('c "" 1 "" { "a" 1/2 "b" 1/3 } 0\nt "" 0\nt "" 0\n', 2, "sum to 5/6"),
        ('c "" 1 "" { "a" 3/2 "b" -1/2 } 0\nt "" 0\nt "" 0\n', 2, "not in [0, 1]"),
        ('p "" 1 1 "" { "a" } 0\nt "" 7\n', 3, "outcome 7 has no payoffs"),
        ('p "" 1 1 "" { "a" } 0\nt "" 0\nt "" 0\n', 4, "already complete"),
        ('p "" 1 1 "" { "a" "b" } 0\nt "" 0\n', 3, "still expects 1 more"),
        ('p "" 1 1 "" { "a" } 0\nt "oops 0\n', 3, "unterminated string"),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { 1 two }\n', 3, "expected a payoff"),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { 1/0 2 }\n', 3, "zero denominator"),
        ('p "" 1 1 "" { "a" } 0\nt "" 0 "" { 1 2 }\n', 3, "outcome 0 means no outcome"),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { 1 2 } @\n', 3, "unexpected character '@'"),
        ("", 1, "no nodes"),
    ],
)
def test_malformed_text_names_the_line(body: str, line: int, phrase: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_efg(HEADER + body)
    message = caught.value.message
    assert message.startswith(f"line {line}:"), message
    assert phrase in message
    assert caught.value.errors[0].pointer == "/text"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ('NFG 1 R "g" { "1" } ""', 'starts with "EFG 2 R"'),
        ('EFG 3 R "g" { "1" } ""', "only EFG version 2"),
        ('EFG 2 Q "g" { "1" } ""', "expected R or D"),
        ('EFG 2 R "g" { } ""', "at least one player"),
    ],
)
def test_bad_headers(text: str, phrase: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_efg(text)
    assert caught.value.message.startswith("line 1:")
    assert phrase in caught.value.message


def test_zero_sum_mode_refuses_other_games() -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_efg(HEADER + 't "end" 1 "" { 1, 1 }\n', mode="zero_sum")
    assert "not zero-sum" in caught.value.message and "line 2" in caught.value.message
    with pytest.raises(InvalidInputError) as caught:
        parse_efg('EFG 2 R "g" { "1" "2" "3" } ""\nt "" 0\n', mode="zero_sum")
    assert caught.value.errors[0].pointer == "/mode"


def test_node_limit() -> None:
    with pytest.raises(LimitExceededError):
        parse_efg(
            HEADER + 'p "" 1 1 "" { "a" "b" } 0\nt "" 0\nt "" 0\n', limits=Limits(max_nodes=2)
        )


def test_deep_chain_is_read_without_recursion() -> None:
    depth = 5000
    lines = [HEADER]
    lines += [f'p "" {1 + i % 2} {i + 1} "" {{ "go" }} 0\n' for i in range(depth)]
    lines.append('t "end" 1 "" { 5, -5 }\n')
    tree = parse_efg("".join(lines), mode="zero_sum").tree
    assert tree.max_depth() == depth
    assert minimax(tree).value == 5


def test_tokens_keep_escaped_quotes_and_lines() -> None:
    tokens = tokenize('"a \\"b\\""\n{ 1/2, -3.5e1 }')
    assert [(t.kind, t.text, t.line) for t in tokens] == [
        ("string", 'a "b"', 1),
        ("open", "{", 2),
        ("number", "1/2", 2),
        ("number", "-3.5e1", 2),
        ("close", "}", 2),
    ]


@settings(max_examples=60, deadline=None)
@given(chance_trees())
def test_round_trip_of_random_chance_trees(raw: object) -> None:
    tree = parse_tree(raw)
    back = parse_efg(write_efg(tree), mode="zero_sum").tree
    assert back.ids == tree.ids
    assert back.kinds == tree.kinds
    assert back.values == tree.values
    assert back.probabilities == tree.probabilities
    assert expectimax(back).values == expectimax(tree).values


@settings(max_examples=60, deadline=None)
@given(multiplayer_trees())
def test_round_trip_of_random_multiplayer_trees(raw: object) -> None:
    tree = parse_tree(raw)
    back = parse_efg(write_efg(tree, movers=movers(tree))).tree
    assert back.ids == tree.ids
    assert back.values == tree.values
    assert back.players[: len(tree)] == [
        turn if kind == PLAYER else None
        for turn, kind in zip(movers(tree), tree.kinds, strict=True)
    ]
    assert maxn(back).values == maxn(tree).values
