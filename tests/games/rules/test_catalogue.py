"""The catalogue: every game listed, built from parameters, every bad parameter refused by name."""

from __future__ import annotations

import pytest

from games.errors import InvalidInputError
from games.rules.catalogue import CATALOGUE, make_game
from games.rules.connect_four import ConnectFour
from games.rules.nim import Nim
from games.rules.tic_tac_toe import TicTacToe


def refused(name: str, params: dict[str, object]) -> list[str]:
    """The parameters ``make_game`` names when it refuses ``params``."""
    with pytest.raises(InvalidInputError) as caught:
        make_game(name, params)
    return [error.parameter for error in caught.value.errors]


def test_the_catalogue_lists_the_five_games() -> None:
    assert list(CATALOGUE) == ["tic_tac_toe", "connect_four", "hexapawn", "nim", "pig"]
    for name, spec in CATALOGUE.items():
        assert spec.name == name and spec.title and spec.description and spec.notation
        game = make_game(name, {})
        assert game.name == name
        assert game.players == 2
        assert game.has_chance == (name == "pig")
        assert game.loss == (0 if name == "pig" else -1) and game.win == 1
        assert game.evaluations


def test_every_default_is_within_its_range() -> None:
    for spec in CATALOGUE.values():
        for parameter in spec.parameters:
            values = parameter.default if isinstance(parameter.default, tuple) else ()
            if parameter.kind is int:
                values = (int(parameter.default),)
            for value in values:
                assert parameter.low is not None and parameter.high is not None
                assert parameter.low <= value <= parameter.high, parameter
            assert parameter.description


def test_parameters_reach_the_game() -> None:
    game = make_game("tic_tac_toe", {"rows": 4, "columns": 5, "k": 4})
    assert isinstance(game, TicTacToe) and (game.rows, game.columns, game.k) == (4, 5, 4)
    four = make_game("connect_four", {"columns": 5, "rows": 4})
    assert isinstance(four, ConnectFour) and (four.columns, four.rows, four.k) == (5, 4, 4)
    nim = make_game("nim", {"piles": [1, 2, 3, 4], "misere": True})
    assert isinstance(nim, Nim) and nim.piles == (1, 2, 3, 4) and nim.misere
    assert nim.position_text(nim.initial_state()) == "1 2 3 4"


def test_unknown_games_are_refused() -> None:
    assert refused("chess", {}) == ["game"]
    assert refused("Tic_Tac_Toe", {}) == ["game"]
    assert refused(["nim"], {}) == ["game"]  # type: ignore[arg-type]


def test_params_must_be_a_mapping() -> None:
    assert refused("nim", [3, 4, 5]) == ["params"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "params", "names"),
    [
        ("tic_tac_toe", {"size": 3}, ["params.size"]),
        ("tic_tac_toe", {"rows": 0}, ["params.rows"]),
        ("tic_tac_toe", {"rows": 6}, ["params.rows"]),
        ("tic_tac_toe", {"columns": 6}, ["params.columns"]),
        ("tic_tac_toe", {"k": 0}, ["params.k"]),
        ("tic_tac_toe", {"k": 4}, ["params.k"]),  # longer than 3 x 3
        ("tic_tac_toe", {"rows": True}, ["params.rows"]),
        ("tic_tac_toe", {"rows": "3"}, ["params.rows"]),
        ("tic_tac_toe", {"rows": 3.0}, ["params.rows"]),
        (
            "tic_tac_toe",
            {"rows": 9, "k": "x", "extra": 1},
            ["params.extra", "params.rows", "params.k"],
        ),
        ("connect_four", {"columns": 10}, ["params.columns"]),
        ("connect_four", {"columns": 0}, ["params.columns"]),
        ("connect_four", {"rows": 10}, ["params.rows"]),
        ("connect_four", {"k": 10}, ["params.k"]),
        ("connect_four", {"columns": 3, "rows": 3}, ["params.k"]),  # 4 in a row cannot fit
        ("connect_four", {"misere": False}, ["params.misere"]),
        ("hexapawn", {"columns": 0}, ["params.columns"]),
        ("hexapawn", {"columns": 9}, ["params.columns"]),
        ("hexapawn", {"rows": 2}, ["params.rows"]),
        ("hexapawn", {"rows": 9}, ["params.rows"]),
        ("hexapawn", {"k": 3}, ["params.k"]),
        ("nim", {"piles": 3}, ["params.piles"]),
        ("nim", {"piles": []}, ["params.piles"]),
        ("nim", {"piles": [1] * 9}, ["params.piles"]),
        ("nim", {"piles": [3, -1]}, ["params.piles"]),
        ("nim", {"piles": [3, 51]}, ["params.piles"]),
        ("nim", {"piles": [3, 2.5]}, ["params.piles"]),
        ("nim", {"piles": [True, 2]}, ["params.piles"]),
        ("nim", {"piles": "3 4 5"}, ["params.piles"]),
        ("nim", {"misere": 1}, ["params.misere"]),
        ("nim", {"misere": "yes"}, ["params.misere"]),
        ("pig", {"goal": 0}, ["params.goal"]),
        ("pig", {"goal": 201}, ["params.goal"]),
        ("pig", {"die": 1}, ["params.die"]),
        ("pig", {"die": 21}, ["params.die"]),
        ("pig", {"die": None}, ["params.die"]),
    ],
)
def test_bad_parameters_are_refused_by_name(
    name: str, params: dict[str, object], names: list[str]
) -> None:
    assert refused(name, params) == names


def test_messages_quote_the_value_and_the_range() -> None:
    with pytest.raises(InvalidInputError, match=r"params.rows must be 1 to 5, not 6"):
        make_game("tic_tac_toe", {"rows": 6})
    with pytest.raises(InvalidInputError, match=r"must be a list of integers, not '3 4 5'"):
        make_game("nim", {"piles": "3 4 5"})
    with pytest.raises(InvalidInputError, match=r"must have 1 to 8 entries, not 0"):
        make_game("nim", {"piles": []})
    with pytest.raises(InvalidInputError, match=r"has no parameter 'size'"):
        make_game("tic_tac_toe", {"size": 3})


def test_huge_values_are_refused_with_short_messages() -> None:
    with pytest.raises(InvalidInputError, match="not an integer of 33220 bits") as caught:
        make_game("pig", {"goal": 10**10_000})
    assert caught.value.errors[0].parameter == "params.goal"
    with pytest.raises(InvalidInputError) as caught:
        make_game("nim", {"piles": [10**10_000, "x"]})  # str() of that int would raise
    assert len(caught.value.message) < 200
    with pytest.raises(InvalidInputError) as caught:
        make_game("nim", {"piles": list(range(1000))})
    assert caught.value.message == "params.piles must have 1 to 8 entries, not 1000"
