"""Matrix problems: pure, fully mixed and dominance-solvable games, each checked against an
independent support enumeration (``tests/reference.py``)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.grading.generator_settings import ProblemSettings
from analysis.grading.matrix_generator import _degenerate, check_matrix_settings
from analysis.grading.problem_generator import generate_problem
from games.errors import InvalidInputError
from tests.analysis.grading.full_marks import assert_full_marks
from tests.reference import exact_support_enumeration


def _pure(a: list[list[int]], b: list[list[int]]) -> set[tuple[int, int]]:
    rows, cols = len(a), len(a[0])
    return {
        (i, j)
        for i, j in itertools.product(range(rows), range(cols))
        if a[i][j] == max(a[k][j] for k in range(rows))
        and b[i][j] == max(b[i][k] for k in range(cols))
    }


def _dominance_survivors(a: list[list[int]], b: list[list[int]]) -> tuple[list[int], list[int]]:
    rows, cols = list(range(len(a))), list(range(len(a[0])))
    changed = True
    while changed:
        changed = False
        for r in list(rows):
            if any(all(a[o][c] > a[r][c] for c in cols) for o in rows if o != r):
                rows.remove(r)
                changed = True
        for c in list(cols):
            if any(all(b[r][o] > b[r][c] for r in rows) for o in cols if o != c):
                cols.remove(c)
                changed = True
    return rows, cols


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), kind=st.sampled_from(["pure", "mixed", "dominance"]))
def test_matrix_key_matches_support_enumeration(seed: int, kind: str) -> None:
    made = generate_problem(ProblemSettings(type="matrix", matrix=kind, seed=seed))
    a, b = made.problem["A"], made.problem["B"]
    labels = made.problem["labels"]
    given_pure = {
        (labels[0].index(r), labels[1].index(c)) for r, c in made.answer["pure_equilibria"]
    }
    assert given_pure == _pure(a, b)
    exact = [[Fraction(x) for x in row] for row in a], [[Fraction(x) for x in row] for row in b]
    expected = set(exact_support_enumeration(*exact))
    written = {
        (tuple(Fraction(p) for p in e["row"]), tuple(Fraction(q) for q in e["col"]))
        for e in made.answer["equilibria"]
    }
    assert written == expected
    if kind == "pure":
        assert given_pure
    elif kind == "mixed":
        assert (len(a), len(a[0])) == (2, 2) and not given_pure and len(written) == 1
    else:
        rows, cols = _dominance_survivors(a, b)
        assert len(rows) == len(cols) == 1 and given_pure == {(rows[0], cols[0])}
    assert_full_marks(made)


def test_mixed_game_by_hand() -> None:
    made = generate_problem(ProblemSettings(type="matrix", matrix="mixed", seed=3, student="ada"))
    # A = [[4, 19], [17, 16]], B = [[9, 8], [5, 7]]: the column player is indifferent when
    # 9p + 5(1 - p) = 8p + 7(1 - p), p = 2/3; the row player when 4q + 19(1 - q) =
    # 17q + 16(1 - q), q = 3/16
    assert made.problem["A"] == [[4, 19], [17, 16]] and made.problem["B"] == [[9, 8], [5, 7]]
    assert made.answer["equilibria"] == [{"row": ["2/3", "1/3"], "col": ["3/16", "13/16"]}]
    assert "| **T** | 4, 9 | 19, 8 |" in made.statement
    assert made.figure is None


def test_too_few_payoffs_refused() -> None:
    with pytest.raises(InvalidInputError) as error:
        check_matrix_settings(ProblemSettings(type="matrix", values=(0, 1)))
    assert error.value.errors[0].parameter == "values"


def test_a_mixture_that_ties_three_rows_is_degenerate() -> None:
    # against the column mix (0, 3/5, 2/5) every row pays 7.6 (2*3/5 + 16*2/5, 0 + 19*2/5,
    # 4*3/5 + 13*2/5), though no column ties two rows: three best responses to two columns
    a = [[4, 2, 16], [5, 0, 19], [3, 4, 13]]
    mix = (Fraction(0), Fraction(3, 5), Fraction(2, 5))
    assert _degenerate(a, a, (Fraction(1), Fraction(0), Fraction(0)), mix)
    half = (Fraction(1, 2), Fraction(1, 2))
    assert not _degenerate([[1, 0], [0, 1]], [[1, 0], [0, 1]], half, half)
