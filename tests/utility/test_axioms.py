"""The vNM axioms on stated preferences (AIMA 4th ed., 16.2.1 and Fig. 16.1: the money pump).

Each case is built so exactly the named axiom fails, derived by hand.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from games.errors import InvalidInputError
from utility.axioms import check_axioms
from utility.preferences import parse_preferences

HALF = "1/2"


def lottery(*pairs: tuple[str, Any]) -> list[dict[str, Any]]:
    return [{"p": p, "x": x} for p, x in pairs]


def check(prizes: list[str], lotteries: dict[str, Any], preferences: list[list[str]]):  # type: ignore[no-untyped-def]
    return check_axioms(parse_preferences(prizes, lotteries, preferences))


def test_intransitive_cycle_and_money_pump() -> None:
    # AIMA Fig. 16.1: A > B, B > C, C > A; an agent holding A pays to get C, then B, then A
    report = check(["A", "B", "C"], {}, [["A", ">", "B"], ["B", ">", "C"], ["C", ">", "A"]])
    result = report.axioms["transitivity"]
    assert not result.holds
    assert result.witness["cycle"] == ["A", "B", "C"]
    trades = [(t["give"], t["get"]) for t in result.witness["money_pump"]]
    assert trades == [("A", "C"), ("C", "B"), ("B", "A")]
    assert report.consistency is None


def test_consistent_relation_gets_a_utility() -> None:
    # A > B > C and B ~ [1/2, A; 1/2, C]: with U(A) = 1, U(C) = 0, U(B) must be 1/2
    report = check(
        ["A", "B", "C"],
        {"L": lottery((HALF, "A"), (HALF, "C"))},
        [["A", ">", "B"], ["B", ">", "C"], ["L", "~", "B"]],
    )
    assert all(r.holds for r in report.axioms.values())
    assert report.axioms["continuity"].witness["indifference_points"][0]["p"] == Fraction(1, 2)
    assert report.consistency is not None and report.consistency.consistent
    assert report.consistency.witness == (1, 0.5, 0)


def test_unranked_pairs_break_orderability() -> None:
    report = check(["A", "B", "C"], {}, [["A", ">", "B"]])
    result = report.axioms["orderability"]
    assert not result.holds
    assert result.witness["unranked"] == [["A", "C"], ["B", "C"]]


def test_conflicting_statements_break_orderability() -> None:
    result = check(["A", "B"], {}, [["A", ">", "B"], ["A", "~", "B"]]).axioms["orderability"]
    assert not result.holds and result.witness["conflicts"][0]["statements"] == [0, 1]


def test_monotonicity() -> None:
    # A > C, yet [0.3, A; 0.7, C] preferred to [0.6, A; 0.4, C]
    lotteries = {
        "L1": lottery(("0.6", "A"), ("0.4", "C")),
        "L2": lottery(("0.3", "A"), ("0.7", "C")),
    }
    report = check(["A", "C"], lotteries, [["A", ">", "C"], ["L2", ">", "L1"]])
    assert not report.axioms["monotonicity"].holds


def test_substitutability() -> None:
    # A ~ B, so [1/2, A; 1/2, C] ~ [1/2, B; 1/2, C]; stating a strict preference breaks it
    lotteries = {"L1": lottery((HALF, "A"), (HALF, "C")), "L2": lottery((HALF, "B"), (HALF, "C"))}
    report = check(["A", "B", "C"], lotteries, [["A", "~", "B"], ["L2", ">", "L1"]])
    result = report.axioms["substitutability"]
    assert not result.holds and result.witness["substituted"] == ["A", "B"]


def test_decomposability() -> None:
    # [1/2, A; 1/2, [1/2, B; 1/2, C]] reduces to [1/2, A; 1/4, B; 1/4, C]
    nested = lottery((HALF, "A"), (HALF, lottery((HALF, "B"), (HALF, "C"))))
    flat = lottery((HALF, "A"), ("1/4", "B"), ("1/4", "C"))
    report = check(["A", "B", "C"], {"L1": nested, "L2": flat}, [["L2", ">", "L1"]])
    result = report.axioms["decomposability"]
    assert not result.holds
    quarter = Fraction(1, 4)
    assert result.witness["same_reduction"] == {"A": Fraction(1, 2), "B": quarter, "C": quarter}


def test_continuity() -> None:
    # A > B > C; B > [0.7, A; 0.3, C] puts p* above 0.7, [0.5, A; 0.5, C] > B puts it below 0.5
    lotteries = {"L1": lottery((HALF, "A"), (HALF, "C")), "L2": lottery(("0.7", "A"), ("0.3", "C"))}
    report = check(
        ["A", "B", "C"],
        lotteries,
        [["A", ">", "B"], ["B", ">", "C"], ["B", ">", "L2"], ["L1", ">", "B"]],
    )
    assert not report.axioms["continuity"].holds


def test_allais_passes_axiom_checks_but_has_no_utility() -> None:
    lotteries = {
        "A": lottery(("0.8", "$4000"), ("0.2", "$0")),
        "B": lottery((1, "$3000")),
        "C": lottery(("0.2", "$4000"), ("0.8", "$0")),
        "D": lottery(("0.25", "$3000"), ("0.75", "$0")),
    }
    report = check(["$0", "$3000", "$4000"], lotteries, [["B", ">", "A"], ["C", ">", "D"]])
    assert report.consistency is not None and not report.consistency.consistent
    assert report.consistency.certificate is not None
    assert "U($3000)" in report.consistency.certificate.explanation


@pytest.mark.parametrize(
    ("lotteries", "preferences", "pointer"),
    [
        ({}, [["A", ">", "Z"]], "/preferences/0/2"),
        ({"L": lottery(("0.5", "A"))}, [], "/lotteries/L"),
        ({"L": lottery((1, "L"))}, [], "/lotteries/L"),
        ({}, [["A", "!", "B"]], "/preferences/0/1"),
    ],
)
def test_bad_problems_point_at_the_field(
    lotteries: dict[str, Any], preferences: list[Any], pointer: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_preferences(["A", "B"], lotteries, preferences)
    assert caught.value.errors[0].pointer == pointer
