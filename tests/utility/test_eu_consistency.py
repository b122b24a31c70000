"""EU consistency as LP feasibility. Source: AIMA 4th ed., ch. 16.3.4 (the Allais paradox):
A = [0.8, $4000; 0.2, $0], B = [1.0, $3000], C = [0.2, $4000; 0.8, $0], D = [0.25, $3000; 0.75, $0].
Most people choose B > A and C > D; with U($0) = 0, B > A gives 0.8 U(4000) < U(3000) and
C > D gives 0.2 U(4000) > 0.25 U(3000), i.e. 0.8 U(4000) > U(3000): a contradiction, reached
by adding 1/4 x (B > A) and 1 x (C > D). B > A with D > C is consistent (U(3000) near U(4000)).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.errors import InvalidInputError
from utility.eu_consistency import Choice, eu_consistency, parse_choice
from utility.lottery import parse_lottery

ALLAIS = {
    name: parse_lottery(raw).lottery
    for name, raw in {
        "A": [["0.8", 4000], ["0.2", 0]],
        "B": [[1, 3000]],
        "C": [["0.2", 4000], ["0.8", 0]],
        "D": [["0.25", 3000], ["0.75", 0]],
    }.items()
}


def test_allais_choices_are_inconsistent_with_multipliers_quarter_and_one() -> None:
    result = eu_consistency(ALLAIS, [Choice("B", ">", "A"), Choice("C", ">", "D")])
    assert not result.consistent
    assert result.certificate is not None
    assert result.certificate.exact
    assert result.certificate.multipliers == (Fraction(1, 4), 1)
    assert "1/4 x (1) + 1 x (2)" in result.certificate.explanation


@pytest.mark.parametrize("increasing", [False, True])
def test_b_over_a_with_d_over_c_is_consistent(increasing: bool) -> None:
    choices = [Choice("B", ">", "A"), Choice("D", ">", "C")]
    result = eu_consistency(ALLAIS, choices, increasing=increasing)
    assert result.consistent and result.witness is not None
    u = dict(zip(result.prizes, result.witness, strict=True))
    # check the witness by hand: EU(B) > EU(A) and EU(D) > EU(C)
    assert u[3000] > Fraction(4, 5) * u[4000] + Fraction(1, 5) * u[0]
    eu_d = Fraction(1, 4) * u[3000] + Fraction(3, 4) * u[0]
    assert eu_d > Fraction(1, 5) * u[4000] + Fraction(4, 5) * u[0]
    if increasing:
        assert u[0] < u[3000] < u[4000]


def test_indifference_and_monotonicity_certificate() -> None:
    # C gives 4000 with less probability than A and 0 otherwise: any increasing U has A > C
    result = eu_consistency(ALLAIS, [Choice("C", "~", "A")], increasing=True)
    assert not result.consistent
    assert result.certificate is not None and result.certificate.monotonicity
    assert eu_consistency(ALLAIS, [Choice("C", "~", "A")]).consistent  # constant U works


def test_choice_must_name_declared_lotteries() -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_choice(["B", ">", "Z"], list(ALLAIS), "/choices/0")
    assert caught.value.errors[0].pointer == "/choices/0/2"
