"""Connect four solved on the exact score (:mod:`analysis.search.score_search`) against
independent answers.

- Pascal Pons's solver (github.com/PascalPons/connect4, ``c4solver -a``, built from its source
  outside this repository) scored every move of the positions below. A Pons score ``s`` of a
  position with ``n`` empty cells is a win in ``d`` plies (``d`` odd) for ``s > 0`` with
  ``(n - d) // 2 + 1 = s``, a loss (``d`` even) for ``s < 0`` with ``(n - d) // 2 + 1 = -s``, a
  draw for 0; each move's score is for the player who makes it.
- Tromp's table of solved sizes: 4 x 4 and 5 x 4 are draws, 6 x 4 a second-player win (Pons's
  solver, built for 6 x 4, gives -1: the loss comes with the last stone, 24 plies on). Allis
  (1988): with an even number of rows and at most six columns the first player cannot win.
  Pons's solver built for each size: 4 x 5, 4 x 6, 5 x 5, 5 x 6, 6 x 5 and 7 x 4 are draws.
- The textbook search (alpha-beta on the depth, without move ordering: no score search) on
  random positions.
- The compiled twin: the same scores, probes and node counts as the Python search.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from analysis.search.alpha_beta import alpha_beta_solution
from analysis.search.budget import SearchBudget
from analysis.search.deepening import reporting
from analysis.search.grid import KERNEL
from analysis.search.results import GameSolution, IterationStats, Outcome
from analysis.search.score_search import ScoreSearch, new_score_search, probe
from analysis.search.solve import solve_game
from games.errors import TimeLimitError
from games.limits import Limits, limited
from games.rules.catalogue import make_game
from games.rules.game import Game

compiled_only = pytest.mark.skipif(KERNEL is None, reason="the compiled search is not built")

PONS = [  # (position, each column's score from column 1 to 7; None: the column is full)
    ("456765465224447213754621", (-9, -9, -8, None, -9, -9, -9)),
    ("271323327217166361255673", (-9, -9, -9, 9, -9, -9, -9)),
    ("735315746232112256135", (-1, 10, 3, 11, 2, 3, 1)),
    ("11131547422632354774147154", (None, 8, 7, None, -8, -8, -8)),
    ("5243341374172733371", (-11, -11, None, -11, -11, -11, 12)),
    ("42736372371615334124161", (-9, 7, -9, -9, -9, -9, -9)),
    ("3457775715145141771", (-6, -4, 0, 5, -6, -5, None)),
    ("1644674331253441", (4, 3, 4, 3, 3, 3, 3)),  # 5 s in Python: compiled only
]


def pons_outcome(score: int, empty: int) -> tuple[int, int | None]:
    """Pons's score of a position with ``empty`` cells as (value, plies to the end)."""
    if score == 0:
        return 0, None
    plies = next(
        d
        for d in range(1, empty + 1)
        if d % 2 == (score > 0) and (empty - d) // 2 + 1 == abs(score)
    )
    return (1 if score > 0 else -1), plies


def solved(
    game: Game[Any, Any], state: Any, *, compiled: bool = True, **options: Any
) -> GameSolution:
    return alpha_beta_solution(
        game,
        state,
        depth=None,
        time_limit=None,
        evaluation=None,
        table=options.pop("table", True),
        ordering=options.pop("ordering", True),
        quiescence_plies=0,
        compiled=compiled,
        **options,
    )


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize(("position", "columns"), PONS)
def test_every_move_valued_as_pons_solver_values_it(
    position: str, columns: tuple[int | None, ...], compiled: bool
) -> None:
    if (not compiled or KERNEL is None) and len(position) < 18:
        pytest.skip("the Python search takes seconds on an early position")
    game = make_game("connect_four", {})
    state = game.parse_position(position)
    empty = 42 - len(position)
    solution = solved(game, state, compiled=compiled, analyze=True)
    assert solution.move_values is not None
    found = {value.move: value.outcome for value in solution.move_values}
    expected = {
        column: Outcome(Fraction(value), plies)
        for column, score in enumerate(columns)
        if score is not None
        for value, plies in [pons_outcome(score, empty)]
    }
    assert found == expected
    best = max(score for score in columns if score is not None)
    assert solution.best_moves == tuple(
        move for move in game.actions(state) if columns[move] == best
    )
    assert (solution.value, solution.plies_to_end) == pons_outcome(best, empty)
    assert [value.move for value in solution.move_values] == list(game.actions(state))


@pytest.mark.parametrize(
    ("columns", "rows", "value", "plies"),
    [
        (4, 4, 0, None),
        pytest.param(5, 4, 0, None, marks=compiled_only),  # 2 to 6 s in Python
        pytest.param(6, 4, -1, 24, marks=compiled_only),
        pytest.param(7, 4, 0, None, marks=compiled_only),
        pytest.param(4, 5, 0, None, marks=compiled_only),
        pytest.param(5, 5, 0, None, marks=compiled_only),
        pytest.param(6, 5, 0, None, marks=compiled_only),
        pytest.param(4, 6, 0, None, marks=compiled_only),
        pytest.param(5, 6, 0, None, marks=compiled_only),
    ],
)
def test_small_boards_solve_as_published(
    columns: int, rows: int, value: int, plies: int | None
) -> None:
    game = make_game("connect_four", {"columns": columns, "rows": rows})
    solution = solve_game(game, game.initial_state())
    assert (solution.value, solution.plies_to_end, solution.complete) == (value, plies, True)
    line = solution.principal_variation
    assert len(line) == rows * columns  # best play fills the board
    state = game.initial_state()
    for move in line:
        state = game.result(state, move)
    assert game.is_terminal(state)
    assert game.utility(state, 0) == value


def test_the_principal_variation_keeps_the_value_at_every_ply() -> None:
    game = make_game("connect_four", {})
    state = game.parse_position("3457775715145141771")  # a win in 15 plies (Pons: 5 for column 4)
    solution = solve_game(game, state)
    assert (solution.value, solution.plies_to_end) == (1, 15)
    assert len(solution.principal_variation) == 15
    for move in solution.principal_variation:
        state = game.result(state, move)
    assert game.is_terminal(state)
    assert game.utility(state, game.to_move(game.parse_position("3457775715145141771"))) == 1


def random_position(game: Game[Any, Any], rng: random.Random, stones: int = 0) -> Any:
    """A position of at least ``stones`` random moves that is not over."""
    while True:
        state = game.initial_state()
        for _ in range(rng.randrange(stones, game.cells)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            return state


@pytest.mark.parametrize(
    "params",
    [{"columns": 5, "rows": 4}, {"columns": 4, "rows": 5, "k": 3}, {"columns": 4, "rows": 4}],
)
def test_outcomes_and_best_moves_agree_with_the_textbook_search(params: dict[str, int]) -> None:
    game = make_game("connect_four", params)
    rng = random.Random(2029)
    for _ in range(25):
        state = random_position(game, rng, 4)
        fast = solved(game, state)
        textbook = solved(game, state, ordering=False)  # alpha-beta on the depth
        assert fast.iterations[-1].bounds is not None and textbook.iterations[-1].bounds is None
        assert (fast.value, fast.plies_to_end, fast.best_moves) == (
            textbook.value,
            textbook.plies_to_end,
            textbook.best_moves,
        )


def test_each_probe_narrows_the_bounds_to_the_value() -> None:
    game = make_game("connect_four", {"columns": 4, "rows": 4})
    solution = solve_game(game, game.initial_state())
    ranks = []
    for iteration in solution.iterations:
        assert iteration.bounds is not None
        low, high = iteration.bounds
        ranks.append((rank(low), rank(high)))
    assert all(a[0] <= b[0] and b[1] <= a[1] for a, b in zip(ranks, ranks[1:], strict=False))
    assert solution.iterations[-1].bounds == (Outcome(Fraction(0), None),) * 2
    assert len(solution.iterations) > 1
    assert sum(i.nodes for i in solution.iterations) == solution.stats.nodes


def rank(outcome: Outcome) -> float:
    """Outcomes in the mover's order of preference: sooner wins, later losses."""
    if outcome.plies_to_end is None:
        return 0
    return float(outcome.value) * (1000 - outcome.plies_to_end)


def test_the_probes_guess_beyond_the_middle_toward_the_ends() -> None:
    # Pons's rule, by hand: the middle of [-21, 21] is 0, whose half-way point to the ends is
    # -10; of [-10, 21] the middle is 5, and half of 21 is 10
    assert probe(-21, 21) == -10
    assert probe(-10, 21) == 10
    assert probe(0, 1) == 0
    assert probe(-3, -1) == -2


def twins_answers(game: Game[Any, Any], state: Any) -> list[tuple[Any, ...]]:
    """What the Python search and the compiled one answer of ``state``, and what they count."""
    mine, mask = game.grid.position(state)
    answers = []
    for compiled in (False, True):
        search = new_score_search(game, SearchBudget(None), None, compiled)
        assert isinstance(search, ScoreSearch) != compiled
        probes: list[tuple[int, int]] = []
        score = search.solve(mine, mask, lambda low, high, seen=probes: seen.append((low, high)))
        legal = search.legal_indices(mask)
        answers.append(
            (
                score,
                probes,
                [search.move_score(mine, mask, index) for index in legal],
                [search.reaches(mine, mask, index, score) for index in legal],
                search.search_order(mine, mask),
                (search.nodes, search.table_hits, search.cutoffs, search.terminals),
                search.longest,
            )
        )
    return answers


@compiled_only
@pytest.mark.parametrize(
    ("params", "stones"),
    [
        ({"columns": 5, "rows": 4}, 4),
        ({"columns": 4, "rows": 5, "k": 3}, 2),
        ({"columns": 6, "rows": 4}, 10),
        ({"columns": 5, "rows": 5}, 10),
        ({"columns": 7, "rows": 6}, 24),
    ],
)
def test_the_compiled_search_is_the_python_search_move_for_move(
    params: dict[str, int], stones: int
) -> None:
    # positions of at least ``stones`` stones: the Python search takes a second or less
    game = make_game("connect_four", params)
    rng = random.Random(7)
    for _ in range(6):
        python, compiled = twins_answers(game, random_position(game, rng, stones))
        assert python == compiled


@compiled_only
@pytest.mark.parametrize(
    ("params", "position"),
    [
        ({"columns": 5, "rows": 4}, ""),
        ({"columns": 4, "rows": 5, "k": 3}, ""),
        ({"columns": 5, "rows": 4}, "3"),
        ({"columns": 6, "rows": 4}, "3434"),
    ],
)
def test_the_twins_agree_where_mirror_images_meet(params: dict[str, int], position: str) -> None:
    # a symmetric position's subtrees are mirror images of each other, so the search meets
    # both sides of one table entry all the time: its moves read as the other side plays them
    game = make_game("connect_four", params)
    python, compiled = twins_answers(game, game.parse_position(position))
    assert python == compiled


def test_a_position_and_its_mirror_image_have_one_table_key() -> None:
    game = make_game("connect_four", {"columns": 5, "rows": 4})
    search = new_score_search(game, SearchBudget(None), None, compiled=False)
    assert isinstance(search, ScoreSearch)
    for position, reflected in (("1123", "5543"), ("12", "54"), ("334", "332")):
        key, flipped = search.table_key(*game.grid.position(game.parse_position(position)))
        other, other_flipped = search.table_key(*game.grid.position(game.parse_position(reflected)))
        assert key == other
        assert flipped != other_flipped
    # a symmetric position is its own mirror image
    assert search.table_key(*game.grid.position(game.parse_position("3"))) == (
        sum(game.grid.position(game.parse_position("3"))),
        False,
    )
    # a stored move reads as the mirror image plays it: column c as column 4 - c
    moves = game.grid.moves
    assert [moves[search.mirror_moves[i]] for i in range(len(moves))] == [4 - m for m in moves]


@compiled_only
def test_the_search_stops_at_the_deadline() -> None:
    game = make_game("connect_four", {})
    with limited(Limits(time_limit=0.3)), pytest.raises(TimeLimitError):
        solve_game(game, game.parse_position("4453"))  # about 15 s to solve


@pytest.mark.parametrize(
    ("name", "params", "options"),
    [
        ("connect_four", {"columns": 4, "rows": 4}, {}),  # probes of the score
        ("tic_tac_toe", {}, {"depth": 3}),  # iterations of the depth
    ],
)
def test_each_finished_iteration_is_reported_as_it_ends(
    name: str, params: dict[str, int], options: dict[str, Any]
) -> None:
    game = make_game(name, params)
    seen: list[IterationStats] = []
    with reporting(seen.append):
        solution = solve_game(game, game.initial_state(), **options)
    assert isinstance(solution, GameSolution)
    assert tuple(seen) == solution.iterations and len(seen) > 1
    solve_game(game, game.initial_state(), **options)  # outside the block: not reported
    assert tuple(seen) == solution.iterations
