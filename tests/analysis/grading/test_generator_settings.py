"""The generator's settings read from JSON and written back (the settings of the type only),
and the seed of a student's variant."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from analysis.grading.generator_settings import (
    PROBLEM_TYPES,
    SETTINGS_OF_TYPE,
    ProblemSettings,
    fresh_seed,
    read_settings,
    settings_json,
    variant_seed,
)
from analysis.grading.problem_generator import generate_problem
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


# per type, settings that differ from the defaults wherever the type reads them
TREE: dict[str, Any] = {
    "depth": 2, "branching": (3, 3), "values": (-5, 5), "root": "min",
    "unique_best_move": True, "no_ties": True,
}  # fmt: skip
CHANGED: dict[str, dict[str, Any]] = {
    "minimax": TREE,
    "alphabeta": {**TREE, "prune_on_equality": False, "min_pruned_leaves": 2},
    "expectimax": {**TREE, "denominators": (2, 5)},
    "maxn": {**{k: v for k, v in TREE.items() if k != "root"}, "players": 4},
    "matrix": {"matrix": "dominance", "values": (0, 9)},
    "lottery": {"utility": "square", "denominators": (10,)},
    "preferences": {"consistent": False, "denominators": (3,)},
    "eu-consistency": {"consistent": True},
    "extensive": {"depth": 2, "branching": (2, 2), "values": (-9, 9), "denominators": (3,)},
}


@pytest.mark.parametrize("kind", PROBLEM_TYPES)
def test_settings_json_reads_back_to_the_same_settings(kind: str) -> None:
    assert set(CHANGED[kind]) == set(SETTINGS_OF_TYPE[kind])  # every one changed
    for changes in ({}, CHANGED[kind]):
        settings = ProblemSettings(type=kind, seed=12, max_attempts=50, **changes)
        written = settings_json(settings)
        assert read_settings(json.loads(json.dumps(written))) == settings
        # a student's variant keeps its student
        variant = dataclasses.replace(settings, student="bob")
        assert read_settings(settings_json(variant)) == variant


@pytest.mark.parametrize("kind", PROBLEM_TYPES)
def test_settings_json_lists_only_the_settings_of_its_type(kind: str) -> None:
    written = settings_json(ProblemSettings(type=kind, seed=12))
    assert list(written)[:2] == ["type", "seed"] and list(written)[-1] == "max_attempts"
    assert set(written) == {"type", "seed", "max_attempts", *SETTINGS_OF_TYPE[kind]}
    assert "student" not in written  # a template is for every student


def test_an_alpha_beta_assignment_lists_no_other_type_s_settings() -> None:
    written = settings_json(ProblemSettings(type="alphabeta", seed=12))
    assert written == {
        "type": "alphabeta", "seed": 12, "depth": 3, "branching": [2, 3], "values": [0, 20],
        "root": "max", "prune_on_equality": True, "min_pruned_leaves": 0,
        "unique_best_move": False, "no_ties": False, "max_attempts": 200,
    }  # fmt: skip


def test_a_setting_its_type_never_reads_is_left_out_and_draws_the_same() -> None:
    # players shapes max^n trees only: an alpha-beta template drops it, and the same
    # problem is drawn without it
    settings = ProblemSettings(type="alphabeta", seed=3, players=5, utility="sqrt")
    read = read_settings(settings_json(settings))
    assert read == dataclasses.replace(settings, players=3, utility=None)
    assert generate_problem(read) == generate_problem(settings)
