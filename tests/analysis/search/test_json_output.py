"""The games' JSON writers: moves and lines in each game's notation, numbers by the one rule."""

from __future__ import annotations

from fractions import Fraction

from analysis.search.json_output import (
    game_solution_json,
    game_spec_json,
    game_tree_json,
    line_text,
    move_choice_json,
)
from analysis.search.solve import best_move, solve_game
from analysis.search.unfold import unfold_game
from games.rules.catalogue import CATALOGUE, make_game


def test_a_line_is_written_move_by_move_in_the_position_it_is_played() -> None:
    # hexapawn writes a capture with x: which depends on the position the move is made in
    game = make_game("tic_tac_toe", {})
    state = game.initial_state()
    assert line_text(game, state, [4, 0, 8]) == ["2,2", "1,1", "3,3"]
    assert line_text(game, state, []) == []


def test_a_list_parameter_is_written_as_a_list() -> None:
    nim = game_spec_json(CATALOGUE["nim"])
    piles, misere = nim["parameters"]
    assert piles["default"] == [3, 4, 5] and piles["kind"] == "list"
    assert (piles["min_length"], piles["max_length"]) == (1, 8)
    assert misere["kind"] == "boolean" and "min_length" not in misere
    assert nim["initial_position"] == "3 4 5"


def test_the_tree_answer_counts_what_it_holds() -> None:
    game = make_game("nim", {"piles": [1, 2]})
    state = game.initial_state()
    answer = game_tree_json(game, state, unfold_game(game, state, 1))
    assert answer == {
        "game": "nim",
        "position": "1 2",
        "to_move": 0,
        "depth": 1,
        "evaluation": "bouton",
        "nodes": 4,
        "leaves": 3,
        "cutoff_leaves": 3,
        # Bouton's estimate for the player at the root: 1:1 leaves 0 2 (nim-sum 2, the
        # opponent to move wins: -1/2), 2:1 leaves 1 1 (nim-sum 0: +1/2), 2:2 leaves 1 0
        # (the opponent takes the last object: -1/2, and not yet terminal)
        "tree": {
            "kind": "max",
            "children": [
                {"move": "1:1", "value": "-1/2"},
                {"move": "2:1", "value": "1/2"},
                {"move": "2:2", "value": "-1/2"},
            ],
        },
    }


# -- these need the engine (analysis.search) ---------------------------------------------------


def test_a_solution_is_written_with_exact_values() -> None:
    game = make_game("nim", {"piles": [1, 2]})
    state = game.initial_state()
    answer = game_solution_json(game, state, solve_game(game, state))
    # an integral Fraction is a JSON integer with no companion
    assert answer["value"] == 1 and "value_exact" not in answer
    assert answer["best_moves"] == ["2:1"]
    assert answer["principal_variation"][0] == "2:1"
    assert answer["algorithm"] == "alphabeta" and "tolerance" not in answer
    assert set(answer["stats"]) == {
        "nodes", "table_hits", "cutoffs", "seconds", "terminals", "evaluations"
    }  # fmt: skip
    assert all(
        set(iteration) == {"depth", "nodes", "table_hits", "cutoffs", "seconds",
                           "effective_branching"}
        for iteration in answer["iterations"]
    )  # fmt: skip


def test_a_win_probability_has_its_exact_companion() -> None:
    game = make_game("pig", {"goal": 3, "die": 2})
    state = game.initial_state()
    answer = game_solution_json(game, state, solve_game(game, state, algorithm="value_iteration"))
    # the one rule: the JSON number is the nearest double of the exact value beside it
    assert answer["value"] == float(Fraction(answer["value_exact"]))
    assert 0 < answer["value"] < 1
    assert answer["complete"] is False  # it stops at a tolerance
    assert (answer["tolerance"], answer["tolerance_exact"]) == (1e-9, "1/1000000000")
    assert answer["sweeps"] >= 1 and answer["residual"] <= 1e-9


def test_a_move_is_written_with_the_position_it_leads_to() -> None:
    # each player has three in a column (1 and 2); the first to move wins on top of its own
    game = make_game("connect_four", {})
    state = game.parse_position("121212")
    answer = move_choice_json(game, state, best_move(game, state, 1.0))
    assert (answer["move"], answer["position_after"]) == ("1", "1212121")
    assert (answer["value"], answer["to_move"]) == (1, 0)
