"""The generator's settings read from JSON, and the seed of a student's variant."""

from __future__ import annotations

import pytest

from analysis.grading.generator_settings import (
    ProblemSettings,
    fresh_seed,
    read_settings,
    variant_seed,
)
from games.errors import InvalidInputError


def test_variant_seed_is_pinned_across_machines() -> None:
    # SHA-256("7:ada") starts b2820fa7945e91f7; its top 63 bits, fixed once and for all
    assert variant_seed(7, "ada") == 0xB2820FA7945E91F7 >> 1 == 6431430349073369339
    assert variant_seed(7, "bob") == 2478168870908231828
    assert variant_seed(7, "élève") == 7318225614542760736  # UTF-8 ids
    assert variant_seed(7, None) == 7  # no student: the teacher's own seed


def test_fresh_seeds_differ() -> None:
    # 20 draws from 2**32 values: a repeat has odds below 1e-7
    assert len({fresh_seed() for _ in range(20)}) == 20


def test_read_settings_takes_one_integer_for_a_range() -> None:
    read = read_settings({"type": "minimax", "branching": 3, "values": 5, "denominators": 4})
    assert read == ProblemSettings(
        type="minimax", branching=(3, 3), values=(5, 5), denominators=(4,)
    )
    assert read_settings({"branching": [2, 4], "seed": None}).branching == (2, 4)


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ({"branch": 3}, "/branch"),
        ({"branching": [1, 2, 3]}, "/branching"),
        ({"branching": [1, "2"]}, "/branching/1"),
        ({"depth": True}, "/depth"),
        ({"seed": 1.5}, "/seed"),
        ({"no_ties": 1}, "/no_ties"),
        ({"consistent": "yes"}, "/consistent"),
        ({"student": 12}, "/student"),
        ({"type": None}, "/type"),
    ],
)
def test_read_settings_names_the_bad_field(raw: object, pointer: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        read_settings(raw)
    assert error.value.errors[0].pointer == pointer
