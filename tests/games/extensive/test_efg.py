"""Gambit .efg files with information sets: read, refused, written back."""

from __future__ import annotations

import dataclasses
import pickle
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings

from games.errors import ExactSizeError, InvalidInputError, LimitExceededError, TimeLimitError
from games.extensive.efg import read_efg, write_efg
from games.extensive.model import CHANCE, TERMINAL, Builder, ExtensiveGame, ImperfectRecallError
from games.extensive.poker import kuhn_poker, leduc_poker
from games.formats.efg import parse_efg
from games.limits import Limits, limited
from tests.games.extensive.games_compared import meaning, paths
from tests.games.extensive.strategies import extensive_games
from tests.games.formats.test_efg import DICE_BET

# Kuhn poker written by hand: the deal, then for each deal player 1 checks or bets; after a
# check player 2 checks (showdown for 1) or bets, and player 1 folds or calls (showdown for
# 2); after a bet player 2 folds or calls. Information sets are numbered per player:
# player 1's 1-3 hold a card (J, Q, K), 4-6 a card after check-bet; player 2's 1-3 a card
# after a check, 4-6 after a bet. Outcomes are defined once and reused by number.
KUHN = """EFG 2 R "Kuhn poker" { "Player 1" "Player 2" }
"Written by hand"

c "deal" 1 "" { "JQ" 1/6 "JK" 1/6 "QJ" 1/6 "QK" 1/6 "KJ" 1/6 "KQ" 1/6 } 0
p "" 1 1 "J" { "check" "bet" } 0
p "" 2 2 "Q check" { "check" "bet" } 0
t "" 2 "Player 2 wins 1" { -1 1 }
p "" 1 4 "J check bet" { "fold" "call" } 0
t "" 2
t "" 4 "Player 2 wins 2" { -2 2 }
p "" 2 5 "Q bet" { "fold" "call" } 0
t "" 1 "Player 1 wins 1" { 1 -1 }
t "" 4
p "" 1 1 0
p "" 2 3 "K check" { "check" "bet" } 0
t "" 2
p "" 1 4 0
t "" 2
t "" 4
p "" 2 6 "K bet" { "fold" "call" } 0
t "" 1
t "" 4
p "" 1 2 "Q" { "check" "bet" } 0
p "" 2 1 "J check" { "check" "bet" } 0
t "" 1
p "" 1 5 "Q check bet" { "fold" "call" } 0
t "" 2
t "" 3 "Player 1 wins 2" { 2 -2 }
p "" 2 4 "J bet" { "fold" "call" } 0
t "" 1
t "" 3
p "" 1 2 0
p "" 2 3 0
t "" 2
p "" 1 5 0
t "" 2
t "" 4
p "" 2 6 0
t "" 1
t "" 4
p "" 1 3 "K" { "check" "bet" } 0
p "" 2 1 0
t "" 1
p "" 1 6 "K check bet" { "fold" "call" } 0
t "" 2
t "" 3
p "" 2 4 0
t "" 1
t "" 3
p "" 1 3 0
p "" 2 2 0
t "" 1
p "" 1 6 0
t "" 2
t "" 3
p "" 2 5 0
t "" 1
t "" 3
"""


def test_hand_written_kuhn_is_the_model_kuhn_poker() -> None:
    game = read_efg(KUHN)
    assert game.title == "Kuhn poker" and game.comment == "Written by hand"
    assert game.players == ("Player 1", "Player 2")
    assert meaning(game) == meaning(kuhn_poker())
    assert len(game.infosets) == 12 and all(len(s.nodes) == 2 for s in game.infosets)
    # the sets are named on their first node and reused by number
    first = game.infosets[game.nodes[1].infoset]
    assert (first.name, first.player, first.actions) == ("J", 0, ("check", "bet"))
    assert [game.nodes[n].name for n in first.nodes] == ["", ""]
    assert paths(game)[first.nodes[1]] == ("JK",)


# Beer-quiche (Cho and Kreps 1987): nature makes the sender strong (0.9) or weak (0.1);
# the sender has beer or quiche; the receiver, seeing the breakfast only, duels or not.
# Sender: 1 for the breakfast of his type (strong: beer, weak: quiche) plus 2 if no duel.
# Receiver: 1 for dueling the weak or for not dueling the strong. Here the breakfast's
# worth is an outcome on the receiver's node, added to the outcome below it (Gambit sums
# the outcomes on a path), in the decimal dialect.
BEER_QUICHE_D = """EFG 2 D "Beer-quiche" { "Sender" "Receiver" } ""
c "nature" 1 "type" { "strong" 0.9 "weak" 0.1 } 0
p "" 1 1 "strong" { "beer" "quiche" } 0
p "" 2 1 "beer" { "duel" "yield" } 1 "liked" { 1.0 0 }
t "" 2 "duel strong" { 0 0 }
t "" 3 "yield to strong" { 2 1 }
p "" 2 2 "quiche" { "duel" "yield" } 0
t "" 2
t "" 3
p "" 1 2 "weak" { "beer" "quiche" } 0
p "" 2 1 0
t "" 4 "duel weak" { 0 1 }
t "" 5 "yield to weak" { 2 0 }
p "" 2 2 1
t "" 4
t "" 5
"""

# The same game in the rational dialect, the outcomes summed by hand onto the terminals.
BEER_QUICHE_R = """EFG 2 R "Beer-quiche" { "Sender" "Receiver" } ""
c "nature" 1 "type" { "strong" 9/10 "weak" 1/10 } 0
p "" 1 1 "strong" { "beer" "quiche" } 0
p "" 2 1 "beer" { "duel" "yield" } 0
t "" 1 "" { 1 0 }
t "" 2 "" { 3 1 }
p "" 2 2 "quiche" { "duel" "yield" } 0
t "" 3 "" { 0 0 }
t "" 4 "" { 2 1 }
p "" 1 2 "weak" { "beer" "quiche" } 0
p "" 2 1 "" { "duel" "yield" } 0
t "" 5 "" { 0 1 }
t "" 6 "" { 2 0 }
p "" 2 2 "" { "duel" "yield" } 0
t "" 7 "" { 1 1 }
t "" 8 "" { 3 0 }
"""


def test_both_dialects_and_outcomes_summed_along_the_path() -> None:
    decimal, rational = read_efg(BEER_QUICHE_D), read_efg(BEER_QUICHE_R)
    assert decimal == rational
    payoffs, chances, infosets = meaning(decimal)
    assert chances == {(): (Fraction(9, 10), Fraction(1, 10))}
    assert payoffs[("strong", "beer", "yield")] == (3, 1)
    assert payoffs[("weak", "quiche", "yield")] == (3, 0)
    assert payoffs[("weak", "beer", "duel")] == (0, 1)
    receiver = {frozen for player, _, frozen in infosets if player == 1}
    assert receiver == {
        frozenset({("strong", "beer"), ("weak", "beer")}),
        frozenset({("strong", "quiche"), ("weak", "quiche")}),
    }
    assert [s.name for s in decimal.infosets] == ["strong", "beer", "quiche", "weak"]


def test_a_chance_information_set_may_repeat() -> None:
    # two coins from one chance set (the second refers to it by number), a guess unseen
    text = """EFG 2 R "Two coins" { "A" "B" } ""
c "first" 1 "coin" { "H" 1/3 "T" 2/3 } 0
c "second" 1 0
t "" 1 "" { 1 -1 }
t "" 2 "" { 0 0 }
c "third" 1 "" { "H" 1/3 "T" 2/3 } 0
t "" 2
t "" 1
"""
    game = read_efg(text)
    chance = [n for n in game.nodes if n.player == CHANCE]
    assert [n.name for n in chance] == ["first", "second", "third"]
    assert all(n.probabilities == (Fraction(1, 3), Fraction(2, 3)) for n in chance)
    assert [n.payoffs for n in game.nodes if n.player == TERMINAL] == [
        (1, -1),
        (0, 0),
        (0, 0),
        (1, -1),
    ]


OPENSPIEL_HEADER = 'EFG 2 R "kuhn_poker()" { "Pl0" "Pl1" } \n'


def test_openspiel_decimals_that_sum_to_one_exactly_are_read() -> None:
    # 0.1 + 0.2 + 0.7 is 1 as decimals (as floats it is 0.9999999999999999)
    text = OPENSPIEL_HEADER + (
        'c "Chance" 1 "Chance" { "0" 0.1 "1" 0.2 "2" 0.7 } 0\nt "" 1 "" { 1 -1 }\nt "" 1\nt "" 1\n'
    )
    assert read_efg(text).nodes[0].probabilities == (
        Fraction(1, 10),
        Fraction(1, 5),
        Fraction(7, 10),
    )


def test_openspiel_thirds_are_refused_with_their_exact_sum() -> None:
    text = OPENSPIEL_HEADER + (
        'c "Chance" 1 "Chance" { "0" 0.3333333333333333 "1" 0.3333333333333333 '
        '"2" 0.3333333333333333 } 0\nt "" 1 "" { 1 -1 }\nt "" 1\nt "" 1\n'
    )
    with pytest.raises(InvalidInputError) as caught:
        read_efg(text)
    message = caught.value.message
    assert message.startswith("line 2: ")
    assert "(0.3333333333333333, 0.3333333333333333, 0.3333333333333333)" in message
    assert "sum to 0.9999999999999999, not exactly 1" in message
    assert caught.value.errors[0].pointer == "/efg"


FORGETFUL = """EFG 2 R "Forgetful" { "A" "B" } ""
p "" 1 1 "first" { "L" "R" } 0
p "" 1 2 "second" { "l" "r" } 0
t "" 1 "" { 1 -1 }
t "" 2 "" { 0 0 }
p "" 1 2 0
t "" 1
t "" 2
"""


def test_imperfect_recall_is_refused_naming_the_set_and_its_lines() -> None:
    with pytest.raises(ImperfectRecallError) as caught:
        read_efg(FORGETFUL)
    message = caught.value.message
    assert message.startswith("line 6: the game does not have perfect recall")
    assert "information set 'second' of A" in message and "(lines 3 and 6)" in message


def test_absent_mindedness_is_refused() -> None:
    # the absent-minded driver (Piccione and Rubinstein 1997), with an idle second player
    text = """EFG 2 R "Driver" { "Driver" "Nobody" } ""
p "" 1 1 "junction" { "exit" "continue" } 0
t "" 1 "" { 0 0 }
p "" 1 1 0
t "" 2 "" { 4 0 }
t "" 3 "" { 1 0 }
"""
    with pytest.raises(ImperfectRecallError, match="^line 4: .*'junction' of Driver"):
        read_efg(text)


HEADER = 'EFG 2 R "g" { "1" "2" } ""\n'


@pytest.mark.parametrize(
    ("body", "line", "phrase"),
    [
        ('p "" 1 1 "" { "a" "b" 0\nt "" 0\n', 2, "expected an action name in quotes or }"),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { 1 2\nt "" 0\n', 3, "is not closed by }"),
        ('p "" 1 1 "" { "a" "b" } 0\nt "" 0\n', 3, "still expects 1 more child"),
        ('p "" 1 1 "" { "a" } 0\nt "" 0\nt "" 0\n', 4, "already complete"),
        (
            'c "" 1 "" { "a" 1/2 "b" 1/2 } 0\np "" 1 1 "" { "x" } 0\nt "" 0\n'
            'p "" 1 1 "" { "y" } 0\nt "" 0\n',
            5,
            "offers ['x'] at its first node but ['y'] here",
        ),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { 1e500 0 }\n', 3, "beyond +/-400"),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { 1e301 0 }\n', 3, "larger in magnitude"),
        ('p "" 1 1 "" { "a" } 0\nt "" 1 "" { ' + "9" * 250 + " 0 }\n", 3, "longer than 200"),
        ('p "" 1 7 0\n', 2, "expected { and the actions of a new information set"),
        ('p "" 3 1 "" { "a" } 0\n', 2, "player 3 is not one of the 2"),
        ('c "" 1 "" { "a" 1/2 "b" 2/3 } 0\nt "" 0\nt "" 0\n', 2, "(1/2, 2/3) sum to 7/6"),
        ('p "" 1 1 "" { "a" } 0\nt "" 0 "" { 1 }\n', 3, "outcome 0 means no outcome"),
        ("", 1, "no nodes"),
    ],
)
def test_malformed_text_names_the_line(body: str, line: int, phrase: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        read_efg(HEADER + body)
    message = caught.value.message
    assert message.startswith(f"line {line}:"), message
    assert phrase in message
    assert caught.value.errors[0].pointer == "/efg"


def test_one_player_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="^line 1: the game has 1 player"):
        read_efg('EFG 2 R "solo" { "1" } ""\nt "" 1 "" { 1 }\n')


def test_node_and_depth_limits() -> None:
    with pytest.raises(LimitExceededError, match="more than the limit of 20 nodes"):
        read_efg(KUHN, limits=Limits(max_nodes=20))
    with pytest.raises(LimitExceededError, match="^line 9: the game is deeper than .* 3 plies"):
        read_efg(KUHN, limits=Limits(max_depth=3))


def test_payoff_sums_are_bounded_and_reading_spends_on_the_deadline() -> None:
    text = HEADER + 'p "" 1 1 "" { "a" } 1 "" { 1/3 0 }\nt "" 2 "" { 1/7000000 0 }\n'
    with limited(Limits(max_exact_digits=6)), pytest.raises(ExactSizeError):
        read_efg(text)
    leduc = write_efg(leduc_poker())
    with limited(Limits(time_limit=1e-9)), pytest.raises(TimeLimitError):
        read_efg(leduc)


def test_a_deep_chain_is_read_without_recursion() -> None:
    depth = 5000
    lines = [HEADER]
    lines += [f'p "" {1 + i % 2} {i + 1} "" {{ "go" }} 0\n' for i in range(depth)]
    lines.append('t "end" 1 "" { 5, -5 }\n')
    game = read_efg("".join(lines))
    assert len(game.nodes) == depth + 1 and game.nodes[-1].payoffs == (5, -5)


def test_repeated_labels_are_told_apart_by_position() -> None:
    # von Stengel's files label two chance outcomes "1/2"; Gambit knows them by position
    text = HEADER + 'c "" 1 "" { "1/2" 1/2 "1/2" 1/2 } 0\nt "" 1 "" { 1 -1 }\nt "" 0\n'
    assert read_efg(text).nodes[0].actions == ("1/2", "1/2 #2")


def test_a_repeated_node_name_is_written_with_its_count() -> None:
    # Gambit 16 refuses a file whose node labels repeat ("Node label must be unique within
    # the game"); the repeat is numbered, past a name the game already uses
    builder = Builder(("A", "B"))
    builder.chance([("x", Fraction(1, 3)), ("y", Fraction(1, 3)), ("z", Fraction(1, 3))], "deal")
    for name, paid in (("end", 1), ("end", -1), ("end (2)", 0)):
        builder.terminal((Fraction(paid), Fraction(-paid)), name)
    game = builder.build("labels")
    back = read_efg(write_efg(game))
    assert [node.name for node in back.nodes] == ["deal", "end", "end (3)", "end (2)"]
    assert [node.payoffs for node in back.nodes] == [node.payoffs for node in game.nodes]


def test_no_two_nodes_of_the_pokers_share_a_name() -> None:
    for game in (kuhn_poker(), leduc_poker()):
        names = [node.name for node in game.nodes if node.name]
        assert len(set(names)) == len(names)


@pytest.mark.parametrize("game", [kuhn_poker(), leduc_poker()], ids=["kuhn", "leduc"])
def test_the_pokers_round_trip(game: object) -> None:
    assert read_efg(write_efg(game)) == game  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [KUHN, BEER_QUICHE_D, BEER_QUICHE_R])
def test_hand_written_files_round_trip(text: str) -> None:
    game = read_efg(text)
    assert read_efg(write_efg(game)) == game


def test_written_text_is_gambits_rational_dialect() -> None:
    text = write_efg(read_efg(BEER_QUICHE_D))
    assert text.splitlines()[:4] == [
        'EFG 2 R "Beer-quiche" { "Sender" "Receiver" }',
        '""',
        "",
        'c "nature" 1 "" { "strong" 9/10 "weak" 1/10 } 0',
    ]
    assert 'p "" 2 1 "beer" { "duel" "yield" } 0' in text


@settings(max_examples=80, deadline=None)
@given(extensive_games())
def test_round_trip_of_random_games(game: ExtensiveGame) -> None:
    back = read_efg(write_efg(game))
    # node names come back as written: a repeat numbered, so that no two nodes share one
    names = [node.name for node in back.nodes if node.name]
    assert len(set(names)) == len(names)
    seen: set[str] = set()
    for node, read in zip(game.nodes, back.nodes, strict=True):
        if node.name in seen:
            assert re.fullmatch(re.escape(node.name) + r" \(\d+\)", read.name)
        else:
            assert read.name == node.name
            if node.name:  # unnamed nodes stay unnamed
                seen.add(node.name)
    renamed = tuple(
        dataclasses.replace(read, name=node.name)
        for node, read in zip(game.nodes, back.nodes, strict=True)
    )
    assert dataclasses.replace(back, nodes=renamed) == game


def test_the_recall_error_survives_pickling() -> None:
    # (errors may cross from a worker process to the request's)
    with pytest.raises(ImperfectRecallError) as caught:
        read_efg(FORGETFUL)
    again = pickle.loads(pickle.dumps(caught.value))
    assert isinstance(again, ImperfectRecallError) and again.message == caught.value.message


def test_a_perfect_information_file_reads_as_the_tree_reader_reads_it() -> None:
    # the tree reader's hand-derived dice bet: same payoffs at the end of each play
    game = read_efg(DICE_BET)
    tree = parse_efg(DICE_BET).tree
    by_path: dict[tuple[str, ...], object] = {}
    for index in tree.preorder(0):
        if not tree.children[index]:
            moves: list[str] = []
            node = index
            while node != 0:
                moves.append(str(tree.moves[node]))
                node = tree.parents[node]
            by_path[tuple(reversed(moves))] = tree.values[index]
    assert meaning(game)[0] == by_path
    assert all(len(s.nodes) == 1 for s in game.infosets)
