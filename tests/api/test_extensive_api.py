"""POST /v1/extensive/solve: games with information sets, over HTTP."""

from __future__ import annotations

import time
from typing import Any

from flask.testing import FlaskClient

from api import create_app
from api.views.extensive import _MYERSON_EXAMPLE
from games.extensive.efg import write_efg
from games.extensive.json_form import read_json_form
from games.extensive.model import Builder
from games.extensive.poker import kuhn_poker, leduc_poker

URL = "/v1/extensive/solve"


def client(**config: object) -> FlaskClient:
    return create_app({"TESTING": True, **config}).test_client()


def exact(entry: dict[str, Any], name: str) -> tuple[str, ...]:
    """The list ``name`` of an answer's entry, every number as its exact string."""
    return tuple(map(str, entry.get(f"{name}_exact", entry[name])))


def refused(response: Any, status: int) -> list[str]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    return [error["pointer"] for error in response.get_json()["errors"]]


def test_myersons_card_game_in_the_json_form_is_worth_a_third() -> None:
    # the spec's example; solved by hand in tests/analysis/extensive/test_sequence_lp.py
    answer = client().post(URL, json=_MYERSON_EXAMPLE).get_json()
    assert answer["method"] == "sequence_lp" and answer["exact"] and answer["zero_sum"]
    assert answer["value_exact"] == "1/3"
    black = answer["strategies"][0]["infosets"][1]
    assert black["infoset"] == "black" and black["probabilities_exact"] == ["1/3", "2/3"]
    assert answer["strategies"][1]["infosets"][0]["probabilities_exact"] == ["2/3", "1/3"]
    certificate = answer["certificate"]
    assert certificate["nash_conv"] == 0
    assert [p["best_response_exact"] for p in certificate["players"]] == ["1/3", "-1/3"]


def test_kuhn_poker_as_efg_text_is_worth_minus_one_eighteenth() -> None:
    answer = client().post(URL, json={"efg": write_efg(kuhn_poker())}).get_json()
    assert answer["value_exact"] == "-1/18"
    assert answer["payoffs_exact"] == ["-1/18", "1/18"]
    # every probability is exact: whole numbers as JSON integers, the rest beside as p/q
    for player in answer["strategies"]:
        for infoset in player["infosets"]:
            if "probabilities_exact" not in infoset:
                assert all(p in (0, 1) and isinstance(p, int) for p in infoset["probabilities"])


def test_cfr_plus_approaches_the_value_and_reports_its_curve() -> None:
    body = {"efg": write_efg(kuhn_poker()), "method": "cfr_plus", "iterations": 300}
    answer = client().post(URL, json=body).get_json()
    assert answer["method"] == "cfr_plus" and not answer["exact"]
    assert abs(answer["value"] + 1 / 18) < 5e-3
    curve = answer["cfr"]["curve"]
    assert curve[0]["iteration"] == 0
    assert abs(curve[0]["nash_conv"] - 11 / 12) < 1e-12  # the uniform profile, in floats
    assert curve[-1]["nash_conv"] == answer["certificate"]["nash_conv"] < 5e-3
    assert "value_exact" not in answer  # floats are all there is


def entry_game() -> dict[str, Any]:
    """Staying out pays (1, 0); coming in, B shares (2, 2) or fights (-1, -1) without seeing
    whether A came in big or small (small pays A 1 when B shares)."""
    share = [["fight", {"payoffs": [-1, -1]}], ["share", {"payoffs": [2, 2]}]]
    small = [["fight", {"payoffs": [-1, -1]}], ["share", {"payoffs": [1, 2]}]]
    return {
        "game": {
            "players": ["A", "B"],
            "root": {
                "player": 0,
                "actions": [
                    ["out", {"payoffs": [1, 0]}],
                    ["big", {"player": 1, "infoset": "in", "actions": share}],
                    ["small", {"player": 1, "infoset": "in", "actions": small}],
                ],
            },
        },
    }


def test_auto_on_a_game_that_is_not_zero_sum_runs_lemke() -> None:
    # Lemke's path from the first
    # action everywhere (out, fight) ends at once: out against the threat to fight is a Nash
    # equilibrium (B's threat costs B nothing, as B is never asked), though not subgame
    # perfect; the path's start decides which equilibrium is found
    body = entry_game()
    answer = client().post(URL, json=body).get_json()
    assert answer["method"] == "lemke" and answer["exact"] and not answer["zero_sum"]
    assert answer["value"] is None and answer["payoffs"] == [1, 0]
    assert [s["infosets"][0]["probabilities"] for s in answer["strategies"]] == [[1, 0, 0], [1, 0]]
    assert [s["infosets"][0]["reached"] for s in answer["strategies"]] == [True, True]
    assert answer["certificate"]["nash_conv"] == 0
    response = client().post(URL, json={**body, "iterations": 20})
    assert refused(response, 422) == ["/iterations"]


def test_the_game_must_be_given_once() -> None:
    assert refused(client().post(URL, json={}), 422) == [""]
    both = {"efg": write_efg(kuhn_poker()), **_MYERSON_EXAMPLE}
    assert refused(client().post(URL, json=both), 422) == ["/game"]


def test_the_lp_refuses_a_game_that_is_not_zero_sum_at_method() -> None:
    game = {
        "players": ["A", "B"],
        "root": {"player": 0, "actions": [["x", {"payoffs": [1, 1]}], ["y", {"payoffs": [0, 0]}]]},
    }
    response = client().post(URL, json={"game": game, "method": "sequence_lp"})
    assert refused(response, 422) == ["/method"]
    response = client().post(
        URL, json={**_MYERSON_EXAMPLE, "method": "sequence_lp", "iterations": 5}
    )
    assert refused(response, 422) == ["/iterations"]


def test_imperfect_recall_is_refused_with_a_pointer_into_the_game() -> None:
    game = {
        "players": ["A", "B"],
        "root": {
            "player": 0,
            "infoset": "first",
            "actions": [
                ["L", {"player": 0, "infoset": "again", "actions": [["l", {"payoffs": [1, -1]}]]}],
                ["R", {"player": 0, "infoset": "again", "actions": [["l", {"payoffs": [0, 0]}]]}],
            ],
        },
    }
    pointers = refused(client().post(URL, json={"game": game}), 422)
    assert pointers and all(p.startswith("/game") for p in pointers)


def test_leduc_past_the_deadline_is_a_413() -> None:
    started = time.perf_counter()
    response = client(ARBITER_TIME_LIMIT=0.3).post(URL, json={"efg": write_efg(leduc_poker())})
    refused(response, 413)
    assert response.get_json()["type"].endswith("/time-limit")
    assert time.perf_counter() - started < 10


def test_a_plot_of_cfrs_convergence_on_request() -> None:
    body = {"efg": write_efg(kuhn_poker()), "method": "cfr", "iterations": 30, "plot": True}
    answer = client().post(URL, json=body).get_json()
    assert answer["plot"].startswith("<svg") and "exploitability" in answer["plot"]
    response = client().post(URL, json={"efg": body["efg"], "plot": True})
    assert refused(response, 422) == ["/plot"]


CONVERT = "/v1/extensive/convert"


def test_a_game_converts_both_ways_to_the_same_game() -> None:
    efg = client().post(CONVERT, json={**_MYERSON_EXAMPLE, "to": "efg"}).get_json()
    assert efg["efg"].startswith("EFG 2 R")
    assert (efg["players"], efg["nodes"], efg["infosets"]) == (["1", "2"], 11, 3)
    assert efg["perfect_information"] is False  # player 2's "raised" holds two nodes
    back = client().post(CONVERT, json={"efg": efg["efg"], "to": "json"}).get_json()
    assert read_json_form(back["game"]) == read_json_form(_MYERSON_EXAMPLE["game"])
    # and Kuhn poker, through the JSON form and back to the .efg text it came from
    text = write_efg(kuhn_poker())
    kuhn = client().post(CONVERT, json={"efg": text, "to": "json"}).get_json()
    again = client().post(CONVERT, json={"game": kuhn["game"], "to": "efg"}).get_json()
    assert again["efg"] == text


def test_a_game_too_deep_for_the_json_form_is_refused_at_to() -> None:
    builder = Builder(["A", "B"])
    for depth in range(100):
        builder.decision(depth % 2, depth, ["stop", "go"])
        builder.terminal([depth, -depth])
    builder.terminal([0, 0])
    text = write_efg(builder.build())
    assert refused(client().post(CONVERT, json={"efg": text, "to": "json"}), 422) == ["/to"]
    assert client().post(CONVERT, json={"efg": text, "to": "efg"}).status_code == 200


def test_every_extreme_equilibrium_of_the_reduced_strategic_form() -> None:
    # by hand: (big, share) pays (2, 2); staying out is an equilibrium while B shares with
    # q <= 2/3 (coming in big pays A 2q - (1 - q) <= 1), a component whose extreme points are
    # q = 0 and q = 2/3
    body = {**entry_game(), "all_equilibria": True}
    found = client().post(URL, json=body).get_json()["equilibria"]
    assert found["reduced_strategies"] == [3, 2]
    seen = {
        (exact(e, "payoffs"), exact(e["strategies"][1]["infosets"][0], "probabilities"))
        for e in found["extreme"]
    }
    assert seen == {
        (("2", "2"), ("0", "1")),
        (("1", "0"), ("1", "0")),
        (("1", "0"), ("1/3", "2/3")),
    }


def test_the_answer_says_the_threat_to_fight_is_not_credible() -> None:
    # Lemke's (out, fight) leaves B's set unreached; trembling A comes in big or small
    # equally often, and against that belief sharing earns 2 where fighting loses 1
    answer = client().post(URL, json=entry_game()).get_json()
    check = answer["sequential_rationality"]
    assert not check["sequentially_rational"]
    assert (check["infosets"], check["unreached"]) == (2, 1)
    (flagged,) = check["flagged"]
    assert (flagged["player"], flagged["infoset"], flagged["reached"]) == ("B", "in", False)
    assert [(b["node"], b["probability_exact"]) for b in flagged["belief"]] == [
        ("big", "1/2"),
        ("small", "1/2"),
    ]
    assert flagged["action_values"] == [-1, 2]
    assert (flagged["chosen_value"], flagged["gain"]) == (-1, 3)


def test_subgame_perfect_solves_each_subgame_backwards() -> None:
    # B now sees how A came in: each of B's nodes starts a subgame, where B shares (sharing
    # pays 2 > -1 after either entry); A then enters big, for (2, 2)
    body = entry_game()
    root = body["game"]["root"]
    for _, node in root["actions"][1:]:
        node["infoset"] = _ + " in"
    answer = client().post(URL, json={**body, "method": "subgame_perfect"}).get_json()
    assert answer["method"] == "subgame_perfect" and answer["exact"]
    assert answer["payoffs"] == [2, 2] and answer["certificate"]["nash_conv"] == 0
    assert [s["infosets"][0]["probabilities"] for s in answer["strategies"]] == [
        [0, 1, 0],
        [0, 1],
    ]
    assert [(s["root"], s["method"], s["payoffs"]) for s in answer["subgames"]] == [
        ("small", "best_action", [1, 2]),
        ("big", "best_action", [2, 2]),
        ("root", "best_action", [2, 2]),
    ]
    assert answer["sequential_rationality"]["sequentially_rational"]


CHECK = "/v1/extensive/check"


def test_checking_a_profile_that_calls_half_the_time_with_the_king() -> None:
    # Kuhn's equilibrium with alpha = 1/3 (player 1 bets every king), but calling a bet
    # after checking a king only half the time, as pygambit's lcp_solve answers: still an
    # equilibrium (the set is never reached), yet a king facing a bet must call
    third = "1/3"
    profile = {
        "Player 1": {
            "J": {"check": "2/3", "bet": third},
            "Q": {"check": 1},
            "K": {"bet": 1},
            "J, check, bet": {"fold": 1},
            "Q, check, bet": {"fold": third, "call": "2/3"},
            "K, check, bet": {"fold": "1/2", "call": "1/2"},
        },
        "Player 2": {
            "J, check": {"check": "2/3", "bet": third},
            "Q, check": {"check": 1},
            "K, check": {"bet": 1},
            "J, bet": {"fold": 1},
            "Q, bet": {"fold": "2/3", "call": third},
            "K, bet": {"call": 1},
        },
    }
    answer = client().post(CHECK, json={"efg": write_efg(kuhn_poker()), "profile": profile})
    body = answer.get_json()
    assert answer.status_code == 200, body
    assert body["equilibrium"] and body["payoffs_exact"] == ["-1/18", "1/18"]
    check = body["sequential_rationality"]
    assert [f["infoset"] for f in check["flagged"]] == ["K, check, bet"]
    assert check["flagged"][0]["gain_exact"] == "3/2"


def test_myersons_equilibrium_checks_out() -> None:
    example = {
        **_MYERSON_EXAMPLE,
        "profile": {
            "1": {"red": {"raise": 1}, "black": {"raise": "1/3", "fold": "2/3"}},
            "2": {"raised": {"meet": "2/3", "pass": "1/3"}},
        },
    }
    body = client().post(CHECK, json=example).get_json()
    assert body["equilibrium"] and body["payoffs_exact"] == ["1/3", "-1/3"]
    assert body["sequential_rationality"]["sequentially_rational"]
    # player 2 meeting every raise is not: player 1 would then fold every black card and
    # raise every red one, for 2/2 - 1/2 = 1/2 instead of 1/3
    example["profile"]["2"]["raised"] = {"meet": 1}
    body = client().post(CHECK, json=example).get_json()
    one = body["certificate"]["players"][0]
    assert not body["equilibrium"] and (one["payoff_exact"], one["best_response"]) == ("1/3", 0.5)


def test_a_profile_is_refused_at_the_entry_that_is_wrong() -> None:
    def pointers(profile: dict[str, Any]) -> list[str]:
        return refused(client().post(CHECK, json={**_MYERSON_EXAMPLE, "profile": profile}), 422)

    good = {"red": {"raise": 1}, "black": {"fold": 1}}
    two = {"raised": {"meet": 1}}
    assert pointers({"1": good, "3": two}) == ["/profile/3"]
    assert pointers({"1": {**good, "blue": {"raise": 1}}, "2": two}) == ["/profile/1/blue"]
    assert pointers({"1": good, "2": {"raised": {"call": 1}}}) == ["/profile/2/raised/call"]
    assert pointers({"1": good, "2": {"raised": {"meet": "x"}}}) == ["/profile/2/raised/meet"]
    assert pointers({"1": good, "2": {"raised": {"meet": "1/2"}}}) == ["/profile/2/raised"]
    assert pointers({"1": good, "2": {"raised": {"meet": 2, "pass": -1}}}) == ["/profile/2/raised"]
    assert pointers({"1": good}) == ["/profile/2"]
    assert pointers({"1": good, "2": ["meet"]}) == ["/profile/2"]


def test_whole_payoffs_of_a_checked_profile_are_json_integers() -> None:
    # a set left unnamed in the JSON form is named by its first node
    profile = {"A": {"node 0": {"out": 1}}, "B": {"in": {"fight": 1}}}
    response = client().post(CHECK, json={**entry_game(), "profile": profile})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["payoffs"] == [1, 0] and all(type(p) is int for p in body["payoffs"])
    assert body["equilibrium"] and "payoffs_exact" not in body
