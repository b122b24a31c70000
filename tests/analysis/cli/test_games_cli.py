"""``arbiter game``: the games endpoints' answers without a server, and one-line errors that
name the option at fault."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from analysis.cli import main
from analysis.cli.games import parameters
from api import create_app


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Exit status, the JSON printed (or None) and standard error."""
    status = main(["game", *argv])
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if captured.out else None, captured.err


def test_list_prints_what_the_api_lists(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed, _ = run(capsys, "list")
    assert status == 0
    assert printed == create_app({"TESTING": True}).test_client().get("/v1/games").get_json()
    assert [game["name"] for game in printed["games"]][0] == "tic_tac_toe"


def test_tree_prints_what_the_api_answers(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed, _ = run(
        capsys, "tree", "tic_tac_toe", "--position", "xx.oo....", "--depth", "2"
    )
    assert status == 0
    answer = (
        create_app({"TESTING": True})
        .test_client()
        .post("/v1/games/tree", json={"game": "tic_tac_toe", "position": "xx.oo....", "depth": 2})
        .get_json()
    )
    assert printed == answer
    # five moves for x, then four for o under the four that do not win at once: 1 + 5 + 16
    assert printed["nodes"] == 22


def test_params_are_read_by_their_kind(capsys: pytest.CaptureFixture[str]) -> None:
    # a 4 x 4 board with 3 in a row, one ply: 16 leaves; nim's piles as a list
    status, printed, _ = run(
        capsys, "tree", "tic_tac_toe", "--param", "rows=4", "--param", "columns=4",
        "--param", "k=3", "--position", "." * 16, "--depth", "1",
    )  # fmt: skip
    assert (status, printed["nodes"]) == (0, 17)
    status, printed, _ = run(
        capsys, "tree", "nim", "--param", "piles=1,2", "--param", "misere=true",
        "--position", "1 2", "--depth", "1",
    )  # fmt: skip
    # moves 1:1, 2:1, 2:2
    assert [child["move"] for child in printed["tree"]["children"]] == ["1:1", "2:1", "2:2"]


def test_parameters_take_the_kind_the_catalogue_states() -> None:
    assert parameters("nim", ["piles=3,4,5", "misere=false"]) == {
        "piles": [3, 4, 5],
        "misere": False,
    }
    assert parameters("tic_tac_toe", ["rows=4", "k=x"]) == {"rows": 4, "k": "x"}
    # unknown games and parameters are passed on, for the catalogue to refuse by name
    assert parameters("chess", ["size=8"]) == {"size": 8}
    assert parameters("nim", ["misere=maybe", "piles="]) == {"misere": "maybe", "piles": []}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "chess"], "arbiter: GAME: unknown game 'chess'"),
        (["solve"], "arbiter: GAME: arbiter game solve needs a game"),
        (
            ["solve", "tic_tac_toe", "--param", "rows=9"],
            "arbiter: --param rows: params.rows must be 1 to 5, not 9",
        ),
        (
            ["solve", "tic_tac_toe", "--param", "rows=three"],
            "arbiter: --param rows: params.rows must be an integer, not 'three'",
        ),
        (["solve", "tic_tac_toe", "--param", "rows"], "arbiter: --param: write NAME=VALUE"),
        (["solve", "tic_tac_toe", "--position", "xx"], "arbiter: --position: 'xx' is not"),
        (["tree", "nim", "--position", "3 4 5"], "arbiter: --depth: arbiter game tree needs"),
        (
            ["tree", "nim", "--position", "3 4 5", "--depth", "1", "--evaluation", "x"],
            "arbiter: --evaluation: nim has no evaluation 'x'",
        ),
        (["tree", "pig", "--position", "1 0 0 3 rolling", "--depth", "1"], "arbiter: --position"),
        (["play", "nim"], "arbiter: action: invalid choice: 'play'"),
        (
            ["solve", "hexapawn", "--depth", "3", "--singular", "0"],
            "arbiter: --singular: the singular margin must be more than 0",
        ),
        (["solve", "hexapawn", "--singular", "1/20"], "arbiter: --singular: singular extensions"),
    ],
)
def test_errors_name_the_option(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, printed, err = run(capsys, *argv)
    assert (status, printed) == (2, None)
    assert err.startswith(message), err


def test_a_tree_past_max_nodes_stops_at_the_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(
        capsys, "tree", "tic_tac_toe", "--position", ".........", "--depth", "3",
        "--max-nodes", "100",
    )  # fmt: skip
    assert status == 3
    assert err.startswith(
        "arbiter: --depth: the tree of this position to depth 3 has more than 100"
    )


# -- these need the engine (analysis.search) ---------------------------------------------------


def test_solve_prints_the_value_for_the_mover(capsys: pytest.CaptureFixture[str]) -> None:
    # Bouton: 1 ^ 2 ^ 3 = 0, so the player to move loses; 1 ^ 2 = 3 wins
    status, printed, _ = run(capsys, "solve", "nim", "--param", "piles=1,2,3")
    assert (status, printed["value"], printed["complete"]) == (0, -1, True)
    status, printed, _ = run(capsys, "solve", "nim", "--param", "piles=1,2")
    assert (status, printed["value"]) == (0, 1)
    # the one move to a zero nim-sum takes 1 from the second pile (leaving 1 1)
    assert printed["best_moves"] == ["2:1"]


def test_solve_counts_every_node_under_minimax(capsys: pytest.CaptureFixture[str]) -> None:
    # from "xx.oo....": each of x's 5 moves; the solve without pruning sees them all
    status, printed, _ = run(
        capsys, "solve", "tic_tac_toe", "--position", "xx.oo....", "--algorithm", "minimax"
    )
    status_tree, tree, _ = run(
        capsys, "tree", "tic_tac_toe", "--position", "xx.oo....", "--depth", "9"
    )
    assert (status, status_tree) == (0, 0)
    assert printed["value"] == 1
    assert printed["stats"]["nodes"] == tree["nodes"]


def test_the_defaults_initial_position_budget_and_algorithm(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Nim 3 4 5 (the default piles): 3 xor 4 xor 5 = 2, so taking 2 from the 3 is the only
    # winning move (Bouton); found within the default budget of 1 s
    status, printed, _ = run(capsys, "move", "nim")
    assert status == 0 and printed["position_after"] == "1 4 5 / 2"
    status, printed, _ = run(capsys, "tree", "nim", "--depth", "1")
    assert (printed["position"], printed["leaves"]) == ("3 4 5", 3 + 4 + 5)
    # Pig's states repeat: value iteration, to 216/271 for goal 5 (issue 29's exact values)
    status, printed, _ = run(capsys, "solve", "pig", "--param", "goal=5")
    assert printed["algorithm"] == "value_iteration"
    assert abs(printed["value"] - 216 / 271) < 1e-6


def test_help_states_the_tolerance_the_engine_uses(capsys: pytest.CaptureFixture[str]) -> None:
    main(["game", "--help"])
    # value iteration stops at 1/10^9 (DEFAULT_TOLERANCE), not the 1/10^6 the help once said
    assert "(default 1/1000000000)" in " ".join(capsys.readouterr().out.split())


def test_move_answers_within_its_budget(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed, _ = run(
        capsys, "move", "tic_tac_toe", "--position", "xx.oo....", "--time-limit", "1"
    )
    assert status == 0
    assert (printed["move"], printed["position_after"]) == ("1,3", "xxxoo....")


def test_a_budget_answers_with_the_deepest_iteration_not_a_limit_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 7 x 6 connect four is far from solved in 0.3 s: the budget ends the search with an
    # answer (exit 0), where the same --time-limit as a hard stop would end it with exit 3
    status, printed, err = run(capsys, "solve", "connect_four", "--time-limit", "0.3")
    assert (status, err) == (0, "")
    assert printed["complete"] is False and printed["depth_completed"] >= 1
    status, printed, _ = run(
        capsys, "move", "connect_four", "--position", "", "--time-limit", "0.3"
    )
    assert status == 0 and printed["move"] in {str(column) for column in range(1, 8)}
    # tree has no budget: there --time-limit is the hard stop, as for every command
    status, _, err = run(
        capsys, "tree", "connect_four", "--position", "", "--depth", "9", "--time-limit", "0.2"
    )
    assert status == 3 and err.startswith("arbiter: --time-limit: ")


def test_solve_with_mcts_prints_what_the_api_answers(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed, _ = run(
        capsys, "solve", "tic_tac_toe", "--position", "x.x.o....", "--algorithm", "mcts",
        "--simulations", "1500", "--seed", "2", "--exploration", "1.0", "--events", "1",
    )  # fmt: skip
    body = {
        "game": "tic_tac_toe",
        "position": "x.x.o....",
        "algorithm": "mcts",
        "simulations": 1500,
        "seed": 2,
        "exploration": 1.0,
        "events": 1,
    }
    answer = create_app({"TESTING": True}).test_client().post("/v1/games/solve", json=body)
    expected = answer.get_json()
    assert status == 0 and printed.pop("seconds") > 0 and expected.pop("seconds") > 0
    assert printed == expected
    assert printed["move"] == "1,2"  # o must block the top row


def test_mcts_options_are_refused_for_other_algorithms(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, printed, error = run(capsys, "solve", "tic_tac_toe", "--seed", "3")
    assert (status, printed) == (2, None) and error.startswith("arbiter: --seed: ")


class Terminal(io.StringIO):
    """Standard error as a terminal shows it."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet", [False, True])
def test_a_terminal_sees_each_probe_of_a_solve_unless_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], quiet: bool
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    # 5 x 4 is a draw (Tromp): the probes narrow the value down to it
    status = main(
        ["game", "solve", "connect_four", "--param", "columns=5", "--param", "rows=4"]
        + (["--quiet"] if quiet else [])
    )
    printed = json.loads(capsys.readouterr().out)
    lines = terminal.getvalue().splitlines()
    assert status == 0 and printed["value"] == 0
    if quiet:
        assert lines == []
        return
    assert len(lines) == len(printed["iterations"]) > 1
    assert lines[-1].startswith("depth  20  value a draw  ")
    assert "between a loss in" in lines[0] and " nodes/s  " in lines[0]


def test_a_pipe_sees_no_progress(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed, err = run(capsys, "solve", "tic_tac_toe", "--depth", "3")
    assert status == 0 and len(printed["iterations"]) == 3 and err == ""


def test_analyze_values_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    # x to move on x x . / o o . / . . . (by hand): 1,3 completes the top row; 2,3 blocks o's
    # middle row, o must then block 1,3 and x 3,1, after which every line of o is blocked and
    # x has no two threats: a draw; any other move lets o complete the middle row next ply
    status, printed, _ = run(capsys, "solve", "tic_tac_toe", "--position", "xx.oo....", "--analyze")
    assert status == 0
    assert {
        (entry["move"], entry["value"], entry["plies_to_end"]) for entry in printed["move_values"]
    } == {
        ("1,3", 1, 1),
        ("2,3", 0, None),
        ("3,1", -1, 2),
        ("3,2", -1, 2),
        ("3,3", -1, 2),
    }
    assert printed["best_moves"] == ["1,3"]
