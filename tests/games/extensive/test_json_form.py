"""The JSON form of games with information sets: read, refused with pointers, written back."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings

from games.errors import ExactSizeError, InvalidInputError, LimitExceededError
from games.extensive.efg import read_efg
from games.extensive.json_form import read_json_form, write_json_form
from games.extensive.model import ExtensiveGame, ImperfectRecallError
from games.extensive.poker import kuhn_poker, leduc_poker
from games.limits import Limits, limited
from tests.games.extensive.games_compared import meaning
from tests.games.extensive.strategies import extensive_games


def pennies() -> dict[str, Any]:
    """Matching pennies with a coin first: nature skips the game with probability 1/4
    (paying nothing); else Alice shows heads or tails and Bob, not seeing it, guesses.
    Bob wins 1 on a match and loses 1 otherwise."""
    guess = {
        "player": 1,
        "infoset": "guess",
        "actions": [["h", {"payoffs": [-1, 1]}], ["t", {"payoffs": [1, -1]}]],
    }
    other = copy.deepcopy(guess)
    other["actions"] = [["h", {"payoffs": [1, -1]}], ["t", {"payoffs": [-1, 1]}]]
    return {
        "players": ["Alice", "Bob"],
        "title": "Pennies",
        "root": {
            "name": "coin",
            "chance": [
                ["skip", 0.25, {"payoffs": [0, 0]}],
                [
                    "play",
                    "3/4",
                    {"player": 0, "infoset": "show", "actions": [["H", guess], ["T", other]]},
                ],
            ],
        },
    }


def test_information_sets_gather_nodes_by_player_and_name() -> None:
    game = read_json_form(pennies())
    payoffs, chances, infosets = meaning(game)
    assert chances == {(): (Fraction(1, 4), Fraction(3, 4))}
    assert payoffs[("play", "H", "h")] == (-1, 1) and payoffs[("play", "T", "h")] == (1, -1)
    assert infosets == {
        (0, ("H", "T"), frozenset({("play",)})),
        (1, ("h", "t"), frozenset({("play", "H"), ("play", "T")})),
    }
    assert [(s.name, s.player) for s in game.infosets] == [("show", 0), ("guess", 1)]
    assert game.title == "Pennies" and game.nodes[0].name == "coin"


def test_a_node_without_infoset_is_a_set_of_its_own() -> None:
    raw = {
        "players": ["A", "B"],
        "root": {"player": 0, "actions": [["x", {"payoffs": [1, 2]}], ["y", {"payoffs": [3, 4]}]]},
    }
    game = read_json_form(raw)
    assert [(s.name, s.nodes) for s in game.infosets] == [("node 0", (0,))]


def test_the_same_game_as_efg() -> None:
    text = """EFG 2 R "Pennies" { "Alice" "Bob" } ""
c "coin" 1 "" { "skip" 1/4 "play" 3/4 } 0
t "" 1 "" { 0 0 }
p "" 1 1 "show" { "H" "T" } 0
p "" 2 1 "guess" { "h" "t" } 0
t "" 2 "" { -1 1 }
t "" 3 "" { 1 -1 }
p "" 2 1 0
t "" 3
t "" 2
"""
    assert read_json_form(pennies()) == read_efg(text)


def test_thirds_that_do_not_sum_to_one_are_refused_at_the_chance_field() -> None:
    third = 0.3333333333333333  # as a JSON number: read as the decimal written
    raw = {
        "players": ["A", "B"],
        "root": {"chance": [[str(k), third, {"payoffs": [k, -k]}] for k in range(3)]},
    }
    with pytest.raises(InvalidInputError) as caught:
        read_json_form(raw, pointer="/game")
    assert caught.value.errors[0].pointer == "/game/root/chance"
    assert "sum to 0.9999999999999999, not exactly 1" in caught.value.message
    for row in raw["root"]["chance"]:
        row[1] = "1/3"
    assert read_json_form(raw).nodes[0].probabilities == (Fraction(1, 3),) * 3


def test_imperfect_recall_points_at_the_node() -> None:
    forgetful = {
        "players": ["A", "B"],
        "root": {
            "player": 0,
            "infoset": "first",
            "actions": [
                ["L", {"player": 0, "infoset": "second", "actions": [["l", {"payoffs": [1, 0]}]]}],
                ["R", {"player": 0, "infoset": "second", "actions": [["l", {"payoffs": [0, 1]}]]}],
            ],
        },
    }
    with pytest.raises(ImperfectRecallError) as caught:
        read_json_form(forgetful)
    assert caught.value.errors[0].pointer == "/root/actions/1/1"
    assert "'second' of A" in caught.value.message
    assert "(the first at /root/actions/0/1)" in caught.value.message


def terminal_pair() -> dict[str, Any]:
    return {
        "players": ["A", "B"],
        "root": {
            "player": 0,
            "infoset": "s",
            "actions": [["a", {"payoffs": [1, -1]}], ["b", {"payoffs": [0, 0]}]],
        },
    }


def edited(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    raw = terminal_pair()
    target: Any = raw
    for step in path[:-1]:
        target = target[step]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return raw


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "pointer", "phrase"),
    [
        (("root", "actions", 1, 1, "payoffs", 0), "1e500", "/root/actions/1/1/payoffs/0", "400"),
        (("root", "actions", 1, 1, "payoffs", 0), 10**400, "/root/actions/1/1/payoffs/0", "1e300"),
        (("root", "actions", 1, 1, "payoffs", 0), "two", "/root/actions/1/1/payoffs/0", "not a"),
        (("root", "actions", 1, 1, "payoffs"), [1], "/root/actions/1/1/payoffs", "2 numbers"),
        (("root", "actions", 1), ["b"], "/root/actions/1", "[label, child]"),
        (("root", "actions", 1, 0), "a", "/root/actions/1/0", "also the label of entry 0"),
        (("root", "actions", 0, 1), [], "/root/actions/0/1", "got an array"),
        (("root", "actions", 0, 1), {}, "/root/actions/0/1", "exactly one of"),
        (("root", "actions", 0, 1, "chance"), [], "/root/actions/0/1", "exactly one of"),
        (("root", "player"), 2, "/root/player", "from 0 to 1, got 2"),
        (("root", "player"), True, "/root/player", "got a boolean"),
        (("root", "player"), _DELETE, "/root/player", "got null"),
        (("root", "infoset"), 3, "/root/infoset", "is a string"),
        (("root", "colour"), "red", "/root/colour", "unknown field 'colour' in a decision"),
        (("root", "actions"), [], "/root/actions", "non-empty array"),
        (("root",), _DELETE, "/root", 'needs a "root"'),
        (("players",), ["solo"], "/players", "two or more"),
        (("title",), 7, "/title", "is a string"),
        (("extra",), 1, "/extra", "unknown field 'extra' in a game"),
    ],
)
def test_malformed_input_points_at_the_field(
    path: tuple[Any, ...], value: Any, pointer: str, phrase: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        read_json_form(edited(path, value))
    assert caught.value.errors[0].pointer == pointer
    assert phrase in caught.value.message


def test_one_set_offering_two_action_lists_is_refused() -> None:
    raw = pennies()
    raw["root"]["chance"][1][2]["actions"][1][1]["actions"][1][0] = "tails"
    with pytest.raises(InvalidInputError) as caught:
        read_json_form(raw)
    assert caught.value.errors[0].pointer == "/root/chance/1/2/actions/1/1/actions"
    assert "'guess' of Bob offers ['h', 't'] at its first node" in caught.value.message


def chain(depth: int) -> dict[str, Any]:
    """A decision node above another ``depth`` times, built without recursion."""
    node: dict[str, Any] = {"payoffs": [1, -1]}
    for level in range(depth):
        node = {"player": level % 2, "actions": [["go", node]]}
    return {"players": ["A", "B"], "root": node}


def test_deep_nesting_is_read_without_recursion_and_bounded() -> None:
    deep = chain(20_000)
    game = read_json_form(deep)
    assert len(game.nodes) == 20_001 and game.nodes[-1].payoffs == (1, -1)
    with pytest.raises(LimitExceededError) as caught:
        read_json_form(deep, limits=Limits(max_depth=100))
    assert caught.value.errors[0].pointer == "/root" + "/actions/0/1" * 101
    with pytest.raises(LimitExceededError, match="limit of 1000 nodes"):
        read_json_form(deep, limits=Limits(max_nodes=1000))


def test_a_wide_node_is_refused_before_its_children_are_read() -> None:
    wide = {
        "players": ["A", "B"],
        "root": {"chance": [[str(k), "1/5000", {"payoffs": [0, 0]}] for k in range(5000)]},
    }
    with pytest.raises(LimitExceededError) as caught:
        read_json_form(wide, limits=Limits(max_nodes=100))
    assert caught.value.errors[0].pointer == "/root"


def test_exact_sums_are_bounded() -> None:
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    raw = {
        "players": ["A", "B"],
        "root": {"chance": [[str(p), f"1/{p}", {"payoffs": [0, 0]}] for p in primes]},
    }
    with limited(Limits(max_exact_digits=5)), pytest.raises(ExactSizeError) as caught:
        read_json_form(raw)
    assert caught.value.errors[0].pointer == "/root/chance"


@pytest.mark.parametrize("game", [kuhn_poker(), leduc_poker()], ids=["kuhn", "leduc"])
def test_the_pokers_round_trip_through_json_text(game: ExtensiveGame) -> None:
    assert read_json_form(json.loads(json.dumps(write_json_form(game)))) == game


def test_written_numbers_are_exact() -> None:
    written = write_json_form(kuhn_poker())
    assert written["root"]["chance"][0][:2] == ["JQ", "1/6"]
    assert written["players"] == ["Player 1", "Player 2"]
    assert written["root"]["chance"][0][2]["actions"][1][1] == {
        "player": 1,
        "infoset": "Q, bet",
        "actions": [["fold", {"payoffs": [1, -1]}], ["call", {"payoffs": [-2, 2]}]],
    }


@settings(max_examples=80, deadline=None)
@given(extensive_games())
def test_round_trip_of_random_games(game: ExtensiveGame) -> None:
    assert read_json_form(json.loads(json.dumps(write_json_form(game)))) == game
