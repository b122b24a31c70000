"""``report_json``: a matrix report as JSON numbers, with ``_exact`` companions exactly where
``docs/numbers.md`` puts them.

Matching pennies (A = [[1, -1], [-1, 1]], zero-sum): one equilibrium, both players 50/50,
value 0; a pure strategy guarantees only -1. A probability 1/2 is a ``Fraction``, not an
integer, so ``is_json_exact`` says no: it is written 0.5 with the whole vector exactly beside
it ("1/2"), while the integer payoffs (0, 0) need no companion.

Battle of the sexes (A = [[2, 0], [0, 1]], B = [[1, 0], [0, 2]]): pure equilibria on the
diagonal with payoffs (2, 1) and (1, 2); the mixed one makes each player indifferent. The
row player's p on R1 leaves the column player indifferent: p * 1 = (1 - p) * 2, p = 2/3;
the column player's q on C1 leaves the row player indifferent: 2q = 1 - q, q = 1/3; both get
2 * 1/3 = 2/3. The row player's maximin mix x on R1 equalises 2x = 1 - x: x = 1/3, value 2/3.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from analysis.equilibria.json_output import report_json
from analysis.equilibria.report import AnalysisOptions, analyze_matrix
from games.matrices.model import bimatrix, zero_sum_game
from games.numbers import is_json_exact

PENNIES = zero_sum_game([[1, -1], [-1, 1]])
SEXES = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])


def as_json(report: Any) -> dict[str, Any]:
    """The answer after a trip through the JSON encoder, as a client reads it."""
    written: dict[str, Any] = json.loads(json.dumps(report_json(report)))
    return written


def test_a_half_is_not_a_json_exact_number() -> None:
    # the premise of the companions below: only integers within 64 bits are exact
    assert not is_json_exact(Fraction(1, 2))
    assert is_json_exact(0) and is_json_exact(-1)


def test_matching_pennies_numbers_and_companions() -> None:
    out = as_json(analyze_matrix(PENNIES))
    assert (out["players"], out["shape"]) == (2, [2, 2])
    assert out["labels"] == [["R1", "R2"], ["C1", "C2"]]
    assert out["pure_equilibria"] == []
    (equilibrium,) = out["equilibria"]
    assert equilibrium["row"] == [0.5, 0.5] and equilibrium["row_exact"] == ["1/2", "1/2"]
    assert equilibrium["col"] == [0.5, 0.5] and equilibrium["col_exact"] == ["1/2", "1/2"]
    assert equilibrium["payoffs"] == [0, 0] and "payoffs_exact" not in equilibrium
    assert equilibrium["max_deviation_gain"] == 0
    assert "max_deviation_gain_exact" not in equilibrium
    assert out["equilibria_arithmetic"] == "exact" and out["degenerate"] is False
    zero_sum = out["zero_sum"]
    assert (zero_sum["value"], zero_sum["exact"]) == (0, True)
    assert "value_exact" not in zero_sum
    assert zero_sum["row_strategy_exact"] == ["1/2", "1/2"]
    for level in out["security_levels"]:
        assert (level["pure"], level["mixed"]) == (-1, 0)
        assert "pure_exact" not in level and "mixed_exact" not in level
        assert (level["strategy"], level["strategy_exact"]) == ([0.5, 0.5], ["1/2", "1/2"])
    # the one component is the one equilibrium: a nested list, the companion nested alike
    (component,) = out["components"]
    assert component["equilibria"] == [0] and component["continuum"] is False
    assert component["subsets"] == [
        {"row": [[0.5, 0.5]], "row_exact": [["1/2", "1/2"]],
         "col": [[0.5, 0.5]], "col_exact": [["1/2", "1/2"]]},
    ]  # fmt: skip


def test_battle_of_the_sexes_thirds() -> None:
    out = as_json(analyze_matrix(SEXES))
    pure = [(e["profile"], e["labels"], e["payoffs"]) for e in out["pure_equilibria"]]
    assert pure == [([0, 0], ["R1", "C1"], [2, 1]), ([1, 1], ["R2", "C2"], [1, 2])]
    assert all("payoffs_exact" not in e for e in out["pure_equilibria"])
    mixed = [e for e in out["equilibria"] if "row_exact" in e]
    (equilibrium,) = mixed
    assert equilibrium["row"] == [2 / 3, 1 / 3] and equilibrium["row_exact"] == ["2/3", "1/3"]
    assert equilibrium["col"] == [1 / 3, 2 / 3] and equilibrium["col_exact"] == ["1/3", "2/3"]
    assert equilibrium["payoffs"] == [2 / 3, 2 / 3]
    assert equilibrium["payoffs_exact"] == ["2/3", "2/3"]
    # the two pure equilibria as mixed profiles: integers only, so no companion at all
    pure_profiles = [(e["row"], e["col"]) for e in out["equilibria"] if "row_exact" not in e]
    assert sorted(pure_profiles) == [([0, 1], [0, 1]), ([1, 0], [1, 0])]
    assert out["zero_sum"] is None  # a general-sum game has no zero-sum solution
    row_level = out["security_levels"][0]
    assert (row_level["pure"], row_level["mixed"], row_level["mixed_exact"]) == (0, 2 / 3, "2/3")
    assert row_level["strategy_exact"] == ["1/3", "2/3"]


def test_indifference_explanation_is_written_out() -> None:
    out = as_json(analyze_matrix(SEXES))
    (equilibrium,) = [e for e in out["equilibria"] if "row_exact" in e]
    by_mixer = {e["mixer"]: e for e in equilibrium["explanation"]}
    assert by_mixer[1]["solution_text"] == "q = 1/3"  # the column player's mix on C1
    assert by_mixer[0]["solution_text"] == "p = 2/3"  # the row player's mix on R1
    assert by_mixer[1]["indifferent"] == 0


def test_floats_get_no_companion() -> None:
    options = AnalysisOptions(frozenset({"equilibria", "lemke_howson"}), arithmetic="float")
    out = as_json(analyze_matrix(PENNIES, options))
    assert out["equilibria_arithmetic"] == "float"
    (equilibrium,) = out["equilibria"]
    assert equilibrium["row"] == pytest.approx([0.5, 0.5])
    assert "row_exact" not in equilibrium and "col_exact" not in equilibrium
    assert out["lemke_howson"]["row"] == pytest.approx([0.5, 0.5])
    assert "row_exact" not in out["lemke_howson"]
    assert "best_responses" not in out and "pure_equilibria" not in out


def test_parts_not_asked_for_are_left_out() -> None:
    out = report_json(analyze_matrix(PENNIES, AnalysisOptions(frozenset({"pure_equilibria"}))))
    assert set(out) == {"players", "shape", "labels", "pure_equilibria", "notes"}
