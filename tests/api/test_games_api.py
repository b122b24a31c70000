"""The games endpoints over HTTP: the catalogue, solving positions against published
results, the engine's move, the game tree posted on to the tree endpoints and the grader,
and a problem at the field for every bad input."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient

from api import create_app
from games.rules.catalogue import make_game


def problem(response: Any, status: int) -> list[dict[str, str]]:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/problem+json"
    errors: list[dict[str, str]] = response.get_json(force=True)["errors"]
    return errors


def pointers(response: Any, status: int = 422) -> list[str]:
    return [error["pointer"] for error in problem(response, status)]


def exact(body: dict[str, Any], name: str = "value") -> Fraction:
    return Fraction(body.get(f"{name}_exact", body[name]))


# -- the catalogue ---------------------------------------------------------------------------


def test_the_catalogue_lists_every_game_with_its_parameters(client: FlaskClient) -> None:
    body = client.get("/v1/games").get_json()
    games = {game["name"]: game for game in body["games"]}
    assert list(games) == ["tic_tac_toe", "connect_four", "hexapawn", "nim", "pig"]
    tic_tac_toe = games["tic_tac_toe"]
    assert tic_tac_toe["parameters"][0] == {
        "name": "rows",
        "kind": "integer",
        "default": 3,
        "minimum": 1,
        "maximum": 5,
        "description": "Rows of the board.",
    }
    assert tic_tac_toe["initial_position"] == "........."
    assert [e["name"] for e in tic_tac_toe["evaluations"]][0] == "open_lines"
    assert games["connect_four"]["initial_position"] == ""
    piles = games["nim"]["parameters"][0]
    assert (piles["kind"], piles["default"], piles["min_length"]) == ("list", [3, 4, 5], 1)
    assert games["nim"]["parameters"][1]["kind"] == "boolean"
    assert [g["has_chance"] for g in games.values()] == [False, False, False, False, True]
    for game in games.values():
        assert game["players"] == 2
        assert game["notation"] and game["evaluations"]


# -- the game tree ---------------------------------------------------------------------------


def test_the_tree_of_the_empty_board_one_ply_deep_holds_the_open_lines(
    client: FlaskClient,
) -> None:
    # AIMA's open-lines evaluation over 8 + 1: the centre leaves o 4 open lines (8 - 4),
    # a corner 5 (8 - 5), an edge 6 (8 - 6)
    body = client.post(
        "/v1/games/tree", json={"game": "tic_tac_toe", "position": ".........", "depth": 1}
    ).get_json()
    assert (body["nodes"], body["leaves"], body["cutoff_leaves"]) == (10, 9, 9)
    assert body["evaluation"] == "open_lines"
    corner, edge, centre = "1/3", "2/9", "4/9"
    assert body["tree"] == {
        "kind": "max",
        "children": [
            {"move": f"{row},{column}", "value": value}
            for (row, column), value in zip(
                [(r, c) for r in (1, 2, 3) for c in (1, 2, 3)],
                [corner, edge, corner, edge, centre, edge, corner, edge, corner],
                strict=True,
            )
        ],
    }
    solved = client.post("/v1/trees/minimax", json={"tree": body["tree"]}).get_json()
    assert solved["value_exact"] == "4/9"
    assert solved["best_move_label"] == "2,2"


def test_the_whole_tree_of_a_won_position_goes_to_every_tree_endpoint(
    client: FlaskClient,
) -> None:
    # x on 1,1 and 1,2, o on 2,1 and 2,2: x to move completes the top row
    body = client.post(
        "/v1/games/tree", json={"game": "tic_tac_toe", "position": "xx.oo....", "depth": 9}
    ).get_json()
    assert body["cutoff_leaves"] == 0
    tree = body["tree"]
    assert [child["move"] for child in tree["children"]] == ["1,3", "2,3", "3,1", "3,2", "3,3"]
    assert tree["children"][0] == {"move": "1,3", "value": 1}
    minimax = client.post("/v1/trees/minimax", json={"tree": tree}).get_json()
    alphabeta = client.post("/v1/trees/alphabeta", json={"tree": tree}).get_json()
    assert minimax["value"] == alphabeta["value"] == 1
    assert alphabeta["best_move_label"] == "1,3"
    assert minimax["stats"]["nodes"] == body["nodes"]
    drawing = client.post("/v1/trees/render", json={"tree": tree, "algorithm": "alphabeta"})
    assert drawing.status_code == 200 and drawing.mimetype == "image/svg+xml"
    assert "1,3" in drawing.get_data(as_text=True)
    # a student who answers the move by its label and the value gets full marks (the
    # problem asks those two; by default a minimax problem asks every node's value too)
    grade = client.post(
        "/v1/grade",
        json={
            "problem": {"type": "minimax", "tree": tree, "questions": ["value", "best_move"]},
            "answer": {"value": 1, "best_move": "1,3"},
        },
    ).get_json()
    assert grade["score"] == grade["max_score"] > 0


def test_the_tree_of_a_dice_game_has_chance_nodes_with_exact_probabilities(
    client: FlaskClient,
) -> None:
    # Pig to 5 from the start: the first player must roll; a 1 passes the turn (the score
    # difference estimate: 1/2), faces 2 to 4 are cut off at a turn total of 2 to 4 (1/2 +
    # t / 10), and 5 or 6 reach the goal: a win (1)
    body = client.post(
        "/v1/games/tree",
        json={"game": "pig", "params": {"goal": 5}, "position": "1 0 0 0", "depth": 2},
    ).get_json()
    assert (body["nodes"], body["leaves"], body["cutoff_leaves"]) == (8, 6, 4)
    [roll] = body["tree"]["children"]
    assert (roll["move"], roll["kind"]) == ("roll", "chance")
    assert [(c["move"], c["p"], c["value"]) for c in roll["children"]] == [
        ("1", "1/6", "1/2"),
        ("2", "1/6", "7/10"),
        ("3", "1/6", "4/5"),
        ("4", "1/6", "9/10"),
        ("5", "1/6", 1),
        ("6", "1/6", 1),
    ]
    solved = client.post("/v1/trees/expectimax", json={"tree": body["tree"]}).get_json()
    # (1/2 + 7/10 + 4/5 + 9/10 + 1 + 1) / 6 = (49/10) / 6
    assert solved["value_exact"] == "49/60"


def test_tree_errors_point_at_their_fields(client: FlaskClient) -> None:
    tree = "/v1/games/tree"
    base = {"game": "tic_tac_toe", "position": ".........", "depth": 1}
    assert pointers(client.post(tree, json={**base, "game": "chess"})) == ["/game"]
    assert sorted(pointers(client.post(tree, json={**base, "params": {"rows": 9, "size": 2}}))) == [
        "/params/rows",
        "/params/size",
    ]
    assert pointers(client.post(tree, json={**base, "position": "xx"})) == ["/position"]
    assert pointers(client.post(tree, json={**base, "evaluation": "material"})) == ["/evaluation"]
    assert pointers(client.post(tree, json={**base, "depth": -1})) == ["/depth"]
    assert pointers(client.post(tree, json={**base, "depth": 65})) == ["/depth"]
    assert pointers(client.post(tree, json={**base, "depth": "2"})) == ["/depth"]
    assert pointers(client.post(tree, json={key: base[key] for key in ("game", "position")})) == [
        "/depth"
    ]
    assert pointers(client.post(tree, json={**base, "colour": "red"})) == ["/colour"]
    chance = {"game": "pig", "position": "1 0 0 4 rolling", "depth": 1}
    assert pointers(client.post(tree, json=chance)) == ["/position"]


def test_a_tree_past_the_node_setting_is_a_413_at_depth() -> None:
    # 1 + 9 + 72 + 504 = 586 nodes to depth 3 from the empty board
    client = create_app({"TESTING": True, "ARBITER_MAX_GAME_TREE_NODES": 586}).test_client()
    body = {"game": "tic_tac_toe", "position": ".........", "depth": 3}
    assert client.post("/v1/games/tree", json=body).get_json()["nodes"] == 586
    small = create_app({"TESTING": True, "ARBITER_MAX_GAME_TREE_NODES": 585}).test_client()
    [error] = problem(small.post("/v1/games/tree", json=body), 413)
    assert error["pointer"] == "/depth"
    assert "more than 585 nodes" in error["message"]


def test_the_depth_and_time_settings_bound_the_requests() -> None:
    client = create_app(
        {"TESTING": True, "ARBITER_MAX_GAME_DEPTH": 3, "ARBITER_MAX_GAME_TIME_LIMIT": 2.0}
    ).test_client()
    deep = {"game": "tic_tac_toe", "position": ".........", "depth": 4}
    [error] = problem(client.post("/v1/games/tree", json=deep), 422)
    assert error["pointer"] == "/depth" and "0 to 3 plies" in error["message"]
    long = {"game": "tic_tac_toe", "position": ".........", "time_limit": 2.5}
    [error] = problem(client.post("/v1/games/move", json=long), 422)
    assert error["pointer"] == "/time_limit" and "at most 2 seconds" in error["message"]


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"game": "nim", "time_limit": 0}, "/time_limit"),
        ({"game": "nim", "time_limit": -1}, "/time_limit"),
        ({"game": "nim", "time_limit": "1"}, "/time_limit"),
        ({"game": "nim", "time_limit": True}, "/time_limit"),
        ({"game": "nim", "time_limit": 31}, "/time_limit"),
        ({"game": "nim", "depth": 0}, "/depth"),
        ({"game": "nim", "algorithm": "negascout"}, "/algorithm"),
        ({"game": "nim", "algorithm": "mcts"}, "/simulations"),
        ({"game": "nim", "algorithm": "mcts", "simulations": 10, "events": 501}, "/events"),
        ({"game": "nim", "algorithm": "mcts", "simulations": 10, "depth": 2}, "/depth"),
        ({"game": "nim", "algorithm": "mcts", "simulations": 0}, "/simulations"),
        ({"game": "nim", "algorithm": "mcts", "simulations": 9, "exploration": -1}, "/exploration"),
        ({"game": "nim", "seed": 3}, "/seed"),
        ({"game": "hexapawn", "depth": 2, "singular": {"margin": 0}}, "/singular/margin"),
        ({"game": "hexapawn", "depth": 2, "singular": {"margin": "1/0"}}, "/singular/margin"),
        ({"game": "hexapawn", "depth": 2, "singular": {}}, "/singular/margin"),
        ({"game": "hexapawn", "singular": {"margin": "1/20"}}, "/singular"),
        ({"game": "nim", "table": "yes"}, "/table"),
        ({"game": "nim", "params": {"piles": [1, -2]}}, "/params/piles"),
        ({"game": "nim", "params": {"misere": 1}}, "/params/misere"),
        ({"game": "nim", "position": "1 2"}, "/position"),
        ({"params": {}}, "/game"),
    ],
)
def test_solve_errors_point_at_their_fields(
    client: FlaskClient, body: dict[str, Any], pointer: str
) -> None:
    assert pointers(client.post("/v1/games/solve", json=body)) == [pointer]


def test_move_and_tree_default_to_the_initial_position_and_a_budget(
    client: FlaskClient,
) -> None:
    # Nim 3 4 5: 3 xor 4 xor 5 = 2, a win for the player to move (Bouton), by taking 2 from
    # the 3 (1 xor 4 xor 5 = 0, the only winning move)
    move = client.post("/v1/games/move", json={"game": "nim"})
    assert move.status_code == 200
    body = move.get_json()
    assert (body["position"], body["value"], body["complete"]) == ("3 4 5", 1, True)
    assert body["position_after"] == "1 4 5 / 2"  # the second player to move
    # tic-tac-toe from the empty board within the default budget of 1 s
    body = client.post("/v1/games/move", json={"game": "tic_tac_toe"}).get_json()
    assert body["position"] == "........." and body["stats"]["seconds"] < 1.5
    body = client.post("/v1/games/tree", json={"game": "tic_tac_toe", "depth": 1}).get_json()
    assert body["position"] == "........." and body["leaves"] == 9


# -- solving (these need the engine, analysis.search) ------------------------------------------


def test_tic_tac_toe_is_a_draw(client: FlaskClient) -> None:
    body = client.post("/v1/games/solve", json={"game": "tic_tac_toe"}).get_json()
    assert body["value"] == 0 and "value_exact" not in body
    assert body["complete"] is True
    assert (body["game"], body["position"], body["to_move"]) == ("tic_tac_toe", ".........", 0)
    assert replay("tic_tac_toe", ".........", body["principal_variation"]) is not None
    assert set(body["best_moves"]) <= {f"{r},{c}" for r in (1, 2, 3) for c in (1, 2, 3)}
    assert body["best_moves"]
    assert body["stats"]["nodes"] > 0
    assert body["iterations"][-1]["depth"] == body["depth_completed"]


def test_minimax_counts_the_whole_tic_tac_toe_tree(client: FlaskClient) -> None:
    # the full game tree of tic-tac-toe has 549,945 nodes below the root
    body = client.post(
        "/v1/games/solve", json={"game": "tic_tac_toe", "algorithm": "minimax"}
    ).get_json()
    assert body["value"] == 0
    assert body["stats"]["nodes"] == 549_946


def test_a_won_position_is_won_by_its_winning_move(client: FlaskClient) -> None:
    body = client.post(
        "/v1/games/solve", json={"game": "tic_tac_toe", "position": "xx.oo...."}
    ).get_json()
    assert body["value"] == 1 and body["complete"] is True
    assert "1,3" in body["best_moves"]
    final = replay("tic_tac_toe", "xx.oo....", body["principal_variation"])
    game = make_game("tic_tac_toe", {})
    assert game.is_terminal(final) and game.utility(final, 0) == 1


def test_hexapawn_is_won_by_the_second_player(client: FlaskClient) -> None:
    body = client.post("/v1/games/solve", json={"game": "hexapawn"}).get_json()
    assert (body["value"], body["complete"]) == (-1, True)


@pytest.mark.parametrize(
    ("piles", "misere", "value"),
    [
        ([1, 2, 3], False, -1),  # 1 ^ 2 ^ 3 = 0: the mover loses
        ([3, 4, 5], False, 1),  # 3 ^ 4 ^ 5 = 2
        ([1, 1], True, 1),  # misere, only 1-piles, an even count: the mover wins
        ([1, 1, 1], True, -1),
        ([2, 2], True, -1),  # misere with a larger pile: as normal play, xor 0 loses
        ([1, 2], True, 1),
    ],
)
def test_nim_follows_boutons_rule(
    client: FlaskClient, piles: list[int], misere: bool, value: int
) -> None:
    body = client.post(
        "/v1/games/solve", json={"game": "nim", "params": {"piles": piles, "misere": misere}}
    ).get_json()
    assert (body["value"], body["complete"]) == (value, True)


def test_connect_four_four_by_four_is_a_draw(client: FlaskClient) -> None:
    body = client.post(
        "/v1/games/solve", json={"game": "connect_four", "params": {"columns": 4, "rows": 4}}
    ).get_json()
    assert (body["value"], body["complete"]) == (0, True)


def test_a_budget_gives_the_deepest_iteration_finished(client: FlaskClient) -> None:
    body = client.post(
        "/v1/games/solve", json={"game": "connect_four", "position": "", "time_limit": 0.3}
    ).get_json()
    assert body["complete"] is False
    assert body["depth_completed"] >= 1
    assert [it["depth"] for it in body["iterations"]] == list(range(1, body["depth_completed"] + 1))
    assert -1 < exact(body) < 1  # an evaluation, never a proven result
    assert replay("connect_four", "", body["principal_variation"]) is not None


@pytest.mark.parametrize(
    ("game", "position", "depths"),
    [
        ("tic_tac_toe", "xxo.o.x..", (1, 2, 3, 4)),
        ("tic_tac_toe", "x...o....", (1, 2, 3)),
        ("connect_four", "4453", (1, 2, 3)),
        ("hexapawn", "bbb/.../www w", (1, 2, 3, 4)),
        ("nim", "3 4 5", (1, 2)),
    ],
)
def test_the_engine_to_a_depth_values_the_position_as_its_unfolded_tree(
    client: FlaskClient, game: str, position: str, depths: tuple[int, ...]
) -> None:
    # two independent roads to H-minimax: alpha-beta on the game (no table, so no result
    # proven deeper elsewhere enters) and minimax on the tree the game unfolds into
    for depth in depths:
        request = {"game": game, "position": position, "depth": depth}
        tree = client.post("/v1/games/tree", json=request).get_json()["tree"]
        by_tree = client.post("/v1/trees/minimax", json={"tree": tree}).get_json()
        by_engine = client.post("/v1/games/solve", json={**request, "table": False}).get_json()
        assert exact(by_engine) == exact(by_tree), (game, position, depth)
        best = {
            tree["children"][int(node.rsplit(".", 1)[1])]["move"] for node in by_tree["best_moves"]
        }
        assert set(by_engine["best_moves"]) <= best, (game, position, depth)


def test_pig_is_solved_by_value_iteration(client: FlaskClient) -> None:
    body = client.post(
        "/v1/games/solve",
        json={"game": "pig", "params": {"goal": 10}, "algorithm": "value_iteration"},
    ).get_json()
    # the first player's chance of winning: better than even, short of certain
    assert Fraction(1, 2) < exact(body) < 1
    assert body["best_moves"] == ["roll"]


def test_singular_extensions_cure_a_horizon_effect(client: FlaskClient) -> None:
    # 4 x 4 hexapawn, White to move: solved exactly, d2-d3 loses in 4 plies and c2-c3 wins
    # in 5 (tests/analysis/search/test_singular.py); a 3-ply search falls for d2-d3
    body = {
        "game": "hexapawn",
        "params": {"columns": 4, "rows": 4},
        "position": "...b/b.../.bww/.w.. w",
        "depth": 3,
    }
    plain = client.post("/v1/games/solve", json=body).get_json()
    assert plain["best_moves"] == ["d2-d3"] and "extensions" not in plain["stats"]
    extended = client.post(
        "/v1/games/solve", json={**body, "singular": {"margin": "1/20"}}
    ).get_json()
    assert extended["best_moves"] == ["c2-c3"] and extended["stats"]["extensions"] > 0


def test_the_default_algorithm_is_the_one_that_suits_the_game(client: FlaskClient) -> None:
    # Pig's states repeat: value iteration, to 7776/10961 for goal 10 (the optimality
    # equations solved exactly, as in Neller and Presser's analysis)
    pig = client.post("/v1/games/solve", json={"game": "pig", "params": {"goal": 10}})
    assert pig.status_code == 200
    body = pig.get_json()
    assert body["algorithm"] == "value_iteration"
    assert abs(body["value"] - 7776 / 10961) < 1e-6
    # Pig to a depth: expectimax; a game without chance: alpha-beta
    shallow = {"game": "pig", "params": {"goal": 10}, "depth": 2}
    assert client.post("/v1/games/solve", json=shallow).get_json()["algorithm"] == "expectimax"
    nim = client.post("/v1/games/solve", json={"game": "nim"}).get_json()
    assert (nim["algorithm"], nim["value"]) == ("alphabeta", 1)  # 3 xor 4 xor 5 = 2: a win


def test_the_engine_takes_the_winning_move(client: FlaskClient) -> None:
    body = client.post(
        "/v1/games/move", json={"game": "tic_tac_toe", "position": "xx.oo....", "time_limit": 1}
    ).get_json()
    assert body["move"] == "1,3"
    assert body["position_after"] == "xxxoo...."
    assert body["value"] == 1
    assert body["depth_completed"] >= 1


def test_a_move_for_connect_four_within_its_budget(client: FlaskClient) -> None:
    body = client.post(
        "/v1/games/move", json={"game": "connect_four", "position": "4453", "time_limit": 0.5}
    ).get_json()
    assert body["move"] in {str(column) for column in range(1, 8)}
    assert body["position_after"] == "4453" + body["move"]
    assert body["stats"]["seconds"] < 1.5


def replay(name: str, position: str, moves: list[str]) -> Any:
    """The state after ``moves`` (each parsed where it is played: so each must be legal)."""
    game = make_game(name, {})
    state = game.parse_position(position)
    for text in moves:
        state = game.result(state, game.parse_move(state, text))
    return state


# -- Monte Carlo tree search ------------------------------------------------------------------


def test_mcts_finds_the_win_and_lists_its_simulations(client: FlaskClient) -> None:
    """x completes the top row at 1,3: every simulation through it is a win (reward 1)."""
    body = {
        "game": "tic_tac_toe",
        "position": "xx.oo....",
        "algorithm": "mcts",
        "simulations": 300,
        "seed": 5,
        "events": 2,
    }
    answer = client.post("/v1/games/solve", json=body).get_json()
    assert (answer["algorithm"], answer["move"], answer["complete"]) == ("mcts", "1,3", False)
    assert (answer["reward"], answer["value"], answer["player"]) == (1, 1, 0)
    assert sum(child["visits"] for child in answer["root_moves"]) == answer["simulations"] == 300
    win = answer["root_moves"][0]
    assert win["move"] == "1,3" and win["mean"] == 1 and win["total"] == win["visits"]
    first, second = answer["events"]
    assert (first["simulation"], first["selection"], first["expansion"]["parent"]) == (1, [], 0)
    assert [update["node"] for update in second["backpropagation"]] == [0, 2]
    again = client.post("/v1/games/solve", json=body).get_json()
    assert again["root_moves"] == answer["root_moves"] and again["events"] == answer["events"]


def test_mcts_estimates_pigs_win_probability(client: FlaskClient) -> None:
    """Pig to 2 from the start: a win unless the first roll is a 1, 6/7 with best play."""
    body = {"game": "pig", "params": {"goal": 2}, "algorithm": "mcts", "simulations": 700}
    answer = client.post("/v1/games/solve", json=body).get_json()
    assert answer["move"] == "roll" and abs(exact(answer, "reward") - Fraction(6, 7)) < 0.07
