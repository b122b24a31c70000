"""The rules of the tree grammar, one at a time."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.errors import InvalidInputError
from games.limits import Limits
from games.numbers import Exact, parse_exact
from games.trees.grammar import (
    EMPTY,
    HANDOVER,
    PARSE_COST,
    default_id,
    probability_problem,
    read_number,
    read_probability,
    settle_chance,
    too_deep,
    too_many_nodes,
)
from games.trees.model import CHANCE, MAX, MIN, PLAYER, ROOT_ID


def test_default_ids_follow_the_path() -> None:
    assert default_id(ROOT_ID, 2) == "root.2"
    assert default_id("B", 0) == "B.0"


def test_turns_alternate_and_pass_through_chance_and_max_n_nodes() -> None:
    assert HANDOVER.get(MAX, MAX) == MIN
    assert HANDOVER.get(MIN, MIN) == MAX
    assert HANDOVER.get(CHANCE, MIN) == MIN
    assert HANDOVER.get(PLAYER, PLAYER) == PLAYER


def test_numbers_are_read_exactly_and_each_string_once() -> None:
    spent: list[int] = []
    cache: dict[str, Exact] = {}
    assert read_number(7, cache, spent.append) == 7
    assert spent == []  # an integer costs no parse
    assert read_number("0.1", cache, spent.append) == Fraction(1, 10)
    assert read_number("0.1", cache, spent.append) == Fraction(1, 10)
    assert spent == [PARSE_COST]
    assert read_number(0.5, cache, spent.append) == Fraction(1, 2)
    with pytest.raises(InvalidInputError) as caught:
        read_number("nan", cache, spent.append)
    assert caught.value.errors[0].pointer == ""  # the reader fills in where
    with pytest.raises(InvalidInputError):
        read_number(10**301, cache, spent.append)


def test_probabilities_lie_in_the_unit_interval() -> None:
    assert probability_problem(0) is None
    assert probability_problem(1) is None
    assert probability_problem(Fraction(3, 2)) == "a probability lies in [0, 1], got 3/2"
    assert probability_problem(-1) == "a probability lies in [0, 1], got -1"


def chance_node(stated: list[Exact | None]) -> tuple[list[range], list[Exact | None]]:
    """Children and probabilities of a chance node (index 0) over ``len(stated)`` leaves."""
    count = len(stated)
    return [range(1, 1 + count)] + [EMPTY] * count, [None, *stated]


def test_silent_outcomes_are_equally_likely() -> None:
    children, probabilities = chance_node([None, None, None])
    assert settle_chance(children, probabilities, [0], ["c", "a", "b", "d"], str) is None
    assert probabilities[1:] == [Fraction(1, 3)] * 3


def test_stated_probabilities_sum_to_exactly_one() -> None:
    children, probabilities = chance_node([Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)])
    assert settle_chance(children, probabilities, [0], ["c", "a", "b", "d"], str) is None
    short, stated = chance_node([Fraction(1, 2), Fraction(1, 3)])
    # (culprit, chance node, sum): 1/2 + 1/3 = 5/6
    assert settle_chance(short, stated, [0], ["c", "a", "b"], str) == (0, 0, Fraction(5, 6))
    mixed, some = chance_node([Fraction(1, 2), None])
    assert settle_chance(mixed, some, [0], ["c", "a", "b"], str) == (2, 0, None)


def test_probabilities_beyond_the_common_denominator_are_summed_as_fractions() -> None:
    # 1/2**300 and 1 - 1/2**300: a common denominator of 300 bits is past the integer
    # route's 256, so the sums are exact fractions; the check is the same.
    tiny = Fraction(1, 2**300)
    children, probabilities = chance_node([tiny, 1 - tiny])
    assert settle_chance(children, probabilities, [0], ["c", "a", "b"], str) is None
    short, stated = chance_node([tiny, Fraction(1, 2)])
    assert settle_chance(short, stated, [0], ["c", "a", "b"], str) == (0, 0, tiny + Fraction(1, 2))


def test_sums_over_a_common_denominator_check_each_node() -> None:
    # two chance nodes (0 and 1) under one common denominator (60): 1/4 + 3/4 = 1 at the
    # first; at the second 1/3 + 1/5 + 2/5 = 14/15, which must be reported
    children = [range(2, 4), range(4, 7)] + [EMPTY] * 5
    probabilities: list[Exact | None] = [
        None,
        None,
        Fraction(1, 4),
        Fraction(3, 4),
        Fraction(1, 3),
        Fraction(1, 5),
        Fraction(2, 5),
    ]
    names = ["c", "d", "a", "b", "e", "f", "g"]
    assert settle_chance(children, probabilities, [0, 1], names, str) == (1, 1, Fraction(14, 15))
    probabilities[6] = Fraction(7, 15)
    assert settle_chance(children, probabilities, [0, 1], names, str) is None


def test_limit_errors_name_the_limit() -> None:
    limits = Limits(max_nodes=10, max_depth=3)
    assert too_many_nodes(limits, "/tree").message == "the tree has more than the limit of 10 nodes"
    assert too_deep(limits, "/tree/0").message == "the tree is deeper than the limit of 3 plies"


PROBABILITY_TEXTS = st.sampled_from(
    ["0.35", "0.05", "1/3", "0", "1", "1.5", "-0.1", "x", 0, 1, 2, True, 0.5, 1.0, [0.5]]
)


@given(PROBABILITY_TEXTS)
def test_a_probability_is_read_exactly_or_refused(chance: Any) -> None:
    # (the compiled reader's probabilities: None leaves the error to the node reader)
    try:
        expected: Exact | None = parse_exact(chance, "")
    except InvalidInputError:
        expected = None
    if expected is not None and not 0 <= expected <= 1:
        expected = None
    read = read_probability(chance, {}, lambda units: None)
    assert read == expected and type(read) is type(expected)  # (1 stays an int)
