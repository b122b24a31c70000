"""The JSON of expected-utility results, one hand-checked case per writer.

Numbers follow ``docs/numbers.md``: an integer is written as itself with no companion; a
fraction as its nearest double with ``x_exact`` beside it; an irrational found exactly with
its formula; a value found in floating point as a bare double.

Hand derivations, U = sqrt(x):
- [1/2, 0; 1/2, 100]: EMV 50, EU (0 + 10)/2 = 5, CE 5**2 = 25, premium 50 - 25 = 25.
- [1/2, 0; 1/2, 36]: EMV 18, EU 3, CE 9; it pays 0 or 36 where the first pays 0 or 100, so
  the first dominates it to the first order.
- [1/3, 0; 2/3, 1]: EMV 2/3, EU 2/3, CE (2/3)**2 = 4/9, premium 2/3 - 4/9 = 2/9.
- On [1, 100]: U' = 1/(2 sqrt x), U'' = -1/(4 x**(3/2)); Arrow-Pratt absolute -U''/U' = 1/(2x),
  relative x * 1/(2x) = 1/2; at x = 25: U = 5, U' = 1/10, A = 1/50.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest

from utility.axioms import check_axioms
from utility.compare import compare
from utility.elicitation import StandardGamble, elicit
from utility.eu_consistency import Choice, eu_consistency
from utility.evaluate import evaluate_lottery
from utility.function import read_utility
from utility.json_output import (
    axioms_json,
    comparison_json,
    consistency_json,
    elicitation_json,
    evaluate_json,
    shape_json,
)
from utility.lottery import Lottery, parse_lottery
from utility.preferences import parse_preferences
from utility.shape import analyze

SQRT = read_utility("sqrt(x)", {})


def lottery(*branches: tuple[str | int, int]) -> Lottery:
    return parse_lottery([{"p": p, "x": x} for p, x in branches]).lottery


EVEN = lottery(("1/2", 0), ("1/2", 100))
THIRDS = lottery(("1/3", 0), ("2/3", 1))


def written(document: Any) -> Any:
    """The document as a client reads it, after the JSON encoder."""
    return json.loads(json.dumps(document))


def test_evaluate_integers_need_no_companion() -> None:
    out = written(evaluate_json(evaluate_lottery(EVEN, SQRT), SQRT.formula, 0, False, EVEN))
    assert {k: out[k] for k in ("emv", "expected_utility", "certainty_equivalent")} == {
        "emv": 50,
        "expected_utility": 5,
        "certainty_equivalent": 25,
    }
    assert out["risk_premium"] == 25 and out["attitude"] == "risk_averse"
    assert not [name for name in out if name.endswith("_exact")]
    assert (out["utility"], out["wealth"], out["compound"]) == ("sqrt(x)", 0, False)
    # the reduced lottery: probabilities 1/2 are fractions, so each carries its companion
    assert out["reduced"] == [
        {"p": 0.5, "p_exact": "1/2", "x": 0},
        {"p": 0.5, "p_exact": "1/2", "x": 100},
    ]


def test_evaluate_fractions_carry_their_exact_form() -> None:
    out = written(evaluate_json(evaluate_lottery(THIRDS, SQRT), SQRT.formula, 0, False, None))
    assert (out["emv"], out["emv_exact"]) == (2 / 3, "2/3")
    assert (out["expected_utility"], out["expected_utility_exact"]) == (2 / 3, "2/3")
    assert (out["certainty_equivalent"], out["certainty_equivalent_exact"]) == (4 / 9, "4/9")
    assert (out["risk_premium"], out["risk_premium_exact"]) == (2 / 9, "2/9")
    assert out["method"] == "closed_form" and out["tolerance"] is None
    assert "reduced" not in out


def test_evaluate_an_irrational_expected_utility_and_a_fractional_wealth() -> None:
    # [1/2, 0; 1/2, 1000] from wealth 0: EU = sqrt(1000)/2 = 5*sqrt(10), CE 250
    even = lottery(("1/2", 1000), ("1/2", 0))
    out = written(evaluate_json(evaluate_lottery(even, SQRT), SQRT.formula, 0, True, None))
    assert out["expected_utility"] == pytest.approx(5 * math.sqrt(10))
    assert out["expected_utility_exact"] == "5*sqrt(10)"
    assert out["certainty_equivalent"] == 250 and "certainty_equivalent_exact" not in out
    assert out["compound"] is True
    # wealth is written by the same rule
    half = Fraction(1, 2)
    out = evaluate_json(evaluate_lottery(EVEN, SQRT, half), SQRT.formula, half, False, None)
    assert (out["wealth"], out["wealth_exact"]) == (0.5, "1/2")


def test_comparison_ranks_and_dominance() -> None:
    smaller = lottery(("1/2", 0), ("1/2", 36))
    out = written(comparison_json(compare({"M": smaller, "L": EVEN}, SQRT), SQRT.formula))
    assert out["utility"] == "sqrt(x)"
    ranked = [
        (e["rank"], e["name"], e["emv"], e["expected_utility"], e["certainty_equivalent"])
        for e in out["ranking"]
    ]
    assert ranked == [(1, "L", 50, 5, 25), (2, "M", 18, 3, 9)]
    assert out["dominance"] == [{"dominant": "L", "dominated": "M", "order": "first"}]


def test_consistency_witness_is_a_map_with_its_exact_companion() -> None:
    # certain 50 ~ [1/3, 100; 2/3, 0] with U(0) = 0, U(100) = 1 forces U(50) = 1/3
    sure = lottery((1, 50))
    risky = lottery(("1/3", 100), ("2/3", 0))
    result = eu_consistency({"S": sure, "R": risky}, [Choice("S", "~", "R")], increasing=True)
    out = written(consistency_json(result))
    assert out["consistent"] is True and out["certificate"] is None
    assert out["prizes"] == [0, 50, 100] and "prizes_exact" not in out
    assert out["witness"] == {"0": 0, "50": 1 / 3, "100": 1}
    assert out["witness_exact"] == {"0": "0", "50": "1/3", "100": "1"}


def test_consistency_certificate_with_monotonicity() -> None:
    # preferring 0 to 50 for sure contradicts an increasing utility: (1) + (U(50) > U(0))
    choices = [Choice("Z", ">", "S")]
    result = eu_consistency({"S": lottery((1, 50)), "Z": lottery((1, 0))}, choices, increasing=True)
    out = written(consistency_json(result))
    assert out["consistent"] is False and out["witness"] is None
    certificate = out["certificate"]
    assert certificate["multipliers"] == [1] and "multipliers_exact" not in certificate
    assert certificate["monotonicity"] == [{"lower": 0, "higher": 50, "multiplier": 1}]
    assert "U(0) > U(50)" in certificate["explanation"]


def test_shape_of_sqrt() -> None:
    out = written(shape_json(analyze(SQRT, 1, 100, [25], {"L": EVEN})))
    assert out["domain"] == [1, 100] and "domain_exact" not in out
    assert (out["curvature"], out["attitude"], out["increasing"]) == (
        "concave",
        "risk_averse",
        True,
    )
    assert (out["arrow_pratt_absolute"], out["arrow_pratt_relative"]) == ("1/(2*x)", "1/2")
    (point,) = out["at_points"]
    assert (point["x"], point["utility"], point["marginal"]) == (25, 5, 0.1)
    assert "utility_exact" not in point
    assert (point["absolute"], point["absolute_exact"]) == (0.02, "1/50")
    assert (point["relative"], point["relative_exact"]) == (0.5, "1/2")
    invariance = out["affine_invariance"]
    assert (invariance["a"], invariance["b"]) == (2, 1)
    assert invariance["arrow_pratt_unchanged"] and invariance["ranking_unchanged"]
    (ce,) = invariance["certainty_equivalents"]
    assert ce["name"] == "L"
    assert ce["certainty_equivalent"] == pytest.approx(25) == ce["transformed"]


def test_elicitation_points_and_implied_cara() -> None:
    # 250 ~ [1/2, 1000; 1/2, 0] and 500 ~ [3/4, 1000; 1/4, 0]. Under CARA,
    # U(x) = (1 - e^(-ax)) / (1 - e^(-1000a)); with y = e^(-250a) the first answer says
    # 1 / ((1 + y)(1 + y^2)) = 1/2, i.e. y^3 + y^2 + y = 1, and the second
    # 1 / (1 + y^2) = 3/4, i.e. e^(-500a) = 1/3, a = ln(3)/500.
    gambles = [StandardGamble(250, Fraction(1, 2)), StandardGamble(500, Fraction(3, 4))]
    out = written(elicitation_json(elicit(0, 1000, gambles, [])))
    assert [(p["x"], p["utility"]) for p in out["points"]] == [
        (0, 0),
        (250, 0.5),
        (500, 0.75),
        (1000, 1),
    ]
    first, second = out["implied_cara"]
    y = math.exp(-250 * first)
    assert y**3 + y**2 + y == pytest.approx(1)
    assert second == pytest.approx(math.log(3) / 500)
    assert out["cara"]["family"] == "cara" and len(out["cara"]["residuals"]) == 2
    assert out["flagged"] == []


def test_axioms_utility_map_and_indifference_probability() -> None:
    # A > B > C and B ~ [1/4, A; 3/4, C]: with U(A) = 1, U(C) = 0, U(B) = 1/4
    problem = parse_preferences(
        ["A", "B", "C"],
        {"L": [{"p": "0.25", "x": "A"}, {"p": "0.75", "x": "C"}]},
        [["A", ">", "B"], ["B", ">", "C"], ["L", "~", "B"]],
    )
    out = written(axioms_json(check_axioms(problem), problem.prizes))
    assert all(axiom["holds"] for axiom in out["axioms"].values())
    assert out["axioms"]["continuity"]["witness"]["indifference_points"] == [
        {"better": "A", "middle": "B", "worse": "C", "p": 0.25, "p_exact": "1/4"}
    ]
    assert out["expected_utility_consistent"] is True
    assert out["utility"] == {"A": 1, "B": 0.25, "C": 0}
    assert out["utility_exact"] == {"A": "1", "B": "1/4", "C": "0"}
