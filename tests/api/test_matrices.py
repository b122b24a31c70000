"""POST /v1/matrices/analyze: the response fields the issue names, and problem details."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.contract.number_rule import exact_strings, rule_violations

URL = "/v1/matrices/analyze"


def test_battle_of_the_sexes_full_report(client: FlaskClient) -> None:
    body = {"A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]], "labels": [["O", "F"], ["O", "F"]]}
    data = client.post(URL, json=body).get_json()
    assert [e["labels"] for e in data["pure_equilibria"]] == [["O", "O"], ["F", "F"]]
    mixed = [e for e in data["equilibria"] if exact_strings(e, "row") == ["2/3", "1/3"]]
    assert len(data["equilibria"]) == 3 and len(mixed) == 1
    assert mixed[0]["row"] == [2 / 3, 1 / 3]
    assert mixed[0]["col_exact"] == ["1/3", "2/3"]
    assert mixed[0]["payoffs_exact"] == ["2/3", "2/3"]
    assert rule_violations(data) == []
    assert all(e["max_deviation_gain"] == 0 for e in data["equilibria"])
    assert data["degenerate"] is False
    assert data["zero_sum"] is None
    solutions = {e["solution_text"] for e in mixed[0]["explanation"]}
    assert solutions == {"q = 1/3", "p = 2/3"}
    assert data["dominance"]["steps"] == []
    assert data["security_levels"][0]["mixed_exact"] == "2/3"
    assert data["best_responses"][0]["responses"][0]["best_labels"] == ["O"]


def test_lecture_game_in_pairs_form(client: FlaskClient) -> None:
    data = client.post(URL, json={"payoffs": [[[3, 4], [1, 2]], [[4, 1], [2, 3]]]}).get_json()
    assert data["equilibria"] == [
        # every number an integer, so no companions (docs/numbers.md)
        {
            "row": [0, 1],
            "col": [0, 1],
            "payoffs": [2, 3],
            "max_deviation_gain": 0,
            "explanation": [],
        }
    ]
    steps = data["dominance"]["steps"]
    assert [(s["player"], s["label"], s["dominated_by"][0]["label"]) for s in steps] == [
        (0, "R1", "R2"),
        (1, "C1", "C2"),
    ]
    assert data["dominance"]["reduced"]["labels"] == [["R2"], ["C2"]]


def test_zero_sum_value_and_plot(client: FlaskClient) -> None:
    body = {
        "A": [[2, -1], [-1, 1]],
        "zero_sum": True,
        "include": ["zero_sum", "equilibria", "plot"],
    }
    data = client.post(URL, json=body).get_json()
    assert data["zero_sum"]["value_exact"] == "1/5"
    assert data["zero_sum"]["row_strategy"] == [0.4, 0.6]
    assert data["zero_sum"]["row_strategy_exact"] == ["2/5", "3/5"]
    plot = data["plot"]
    assert plot.startswith("<svg")
    # matplotlib's SVG with text as text: the title, the legend, the optimal mix exactly
    # (p = 2/5 and the value 1/5, as the zero_sum part says)
    assert ">Lower envelope of the row player's payoff against P(R1)</text>" in plot
    assert ">optimal mix t = 2/5, payoff 1/5</text>" in plot
    assert ">C1</text>" in plot and ">C2</text>" in plot
    assert "dominance" not in data


def test_rock_paper_scissors_value(client: FlaskClient) -> None:
    body = {"A": [[0, -1, 1], [1, 0, -1], [-1, 1, 0]], "zero_sum": True}
    zero_sum = client.post(URL, json=body).get_json()["zero_sum"]
    assert zero_sum["value"] == 0 and zero_sum["row_strategy_exact"] == ["1/3"] * 3
    assert "value_exact" not in zero_sum


def test_lemke_howson_on_request(client: FlaskClient) -> None:
    body = {
        "A": [[2, 0], [0, 1]],
        "B": [[1, 0], [0, 2]],
        "include": ["lemke_howson"],
        "lemke_howson_label": 2,
    }
    result = client.post(URL, json=body).get_json()["lemke_howson"]
    assert result["label"] == 2 and result["max_deviation_gain"] < 1e-9


def test_three_player_game_pure_only(client: FlaskClient) -> None:
    same = [[[1, 0], [0, 0]], [[0, 0], [0, 1]]]
    data = client.post(URL, json={"payoff_arrays": [same, same, same]}).get_json()
    assert [e["profile"] for e in data["pure_equilibria"]] == [[0, 0, 0], [1, 1, 1]]
    assert data["equilibria"] is None
    assert any("two players" in note for note in data["notes"])


def test_errors_are_problem_details_with_pointers(client: FlaskClient) -> None:
    response = client.post(URL, json={"A": [[1, 2], [3]], "B": [[1, 2], [3, 4]]})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["errors"][0]["pointer"] == "/A/1"
    bad_option = client.post(URL, json={"A": [[1]], "B": [[1]], "include": ["everything"]})
    assert bad_option.status_code == 422
    assert bad_option.get_json()["errors"][0]["pointer"] == "/include/0"
    too_big = client.post(
        URL, json={"A": [[0] * 16] * 2, "B": [[0] * 16] * 2, "include": ["equilibria"]}
    )
    assert too_big.status_code == 413


def test_large_game_skips_enumeration_by_default(client: FlaskClient) -> None:
    data = client.post(
        URL,
        json={
            "A": [[0] * 16] * 2,
            "B": [[0] * 16] * 2,
            "include": ["pure_equilibria", "equilibria"][:1],
        },
    ).get_json()
    assert len(data["pure_equilibria"]) == 32


def test_float_arithmetic_reports_float_deviation_gains(client: FlaskClient) -> None:
    body = {
        "A": [[2, 0], [0, 1]],
        "B": [[1, 0], [0, 2]],
        "arithmetic": "float",
        "include": ["equilibria"],
    }
    data = client.post(URL, json=body).get_json()
    assert data["equilibria_arithmetic"] == "float"
    assert len(data["equilibria"]) == 3
    for equilibrium in data["equilibria"]:
        assert equilibrium["max_deviation_gain"] < 1e-12
        assert "max_deviation_gain_exact" not in equilibrium
        assert "row_exact" not in equilibrium  # floats are their own value


def test_unknown_fields_and_string_booleans_are_refused(client: FlaskClient) -> None:
    unknown = client.post(URL, json={"A": [[1]], "B": [[1]], "colour": "red"})
    assert unknown.status_code == 422
    assert unknown.get_json()["errors"][0]["pointer"] == "/colour"
    stringly = client.post(URL, json={"A": [[1]], "zero_sum": "yes"})
    assert stringly.status_code == 422
    assert stringly.get_json()["errors"][0]["pointer"] == "/zero_sum"


def test_large_zero_sum_game_with_defaults_answers_quickly(client: FlaskClient) -> None:
    # A 60x60 game: no enumeration, no mixed-dominance LPs by default, value by HiGHS.
    size = 60
    matrix = [[(i * 7 + j * 13) % 17 - 8 for j in range(size)] for i in range(size)]
    data = client.post(URL, json={"A": matrix, "zero_sum": True}).get_json()
    assert data["equilibria"] is None
    assert any("mixed strategies not searched" in note for note in data["notes"])
    row_level, col_level = data["security_levels"]
    assert row_level["mixed"] == data["zero_sum"]["value"] == -col_level["mixed"]


def test_payoffs_beyond_64_bits(client: FlaskClient) -> None:
    big = "1" + "0" * 30
    response = client.post(URL, json={"A": [[big, 0], [0, 1]], "zero_sum": True})
    assert response.status_code == 200
    data = response.get_json()
    # Row mixes p: 10^30 p = 1 - p, so p = 1/(10^30 + 1) and the value is 10^30/(10^30 + 1).
    assert data["zero_sum"]["value_exact"] == f"{big}/{big[:-1]}1"
    assert data["security_levels"][0]["pure"] == 0
    assert data["pure_equilibria"] == []
