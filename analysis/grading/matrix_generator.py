"""Fresh two-player matrix games: with pure equilibria, with one fully mixed equilibrium,
or solvable by iterated elimination of strictly dominated strategies.

Payoffs are integers from the teacher's ``values``, drawn without ties within any
player's payoffs against one strategy of the other; a draw is kept only when every
equilibrium is non-degenerate too (each player's pure best responses to the other's
strategy are exactly as many as the strategies the other mixes: a mixture can tie
payoffs that no pure strategy ties), so its equilibria are isolated and exact. The key
is the grader's own (:class:`analysis.grading.matrix_problems.MatrixGrader`): the pure equilibria by
label and the extreme equilibria as exact probabilities. No figure: the payoff table
is in the statement, and the best-response diagram would give the answer away.
"""

from __future__ import annotations

import random
from typing import Any, Final

from analysis.equilibria.iterated_dominance import iterated_elimination
from analysis.grading.generator_settings import Draft, ProblemSettings
from analysis.grading.matrix_problems import MatrixGrader
from games.errors import InvalidInputError
from games.limits import Deadline
from games.trees.document import exact_json

ROW_LABELS: Final = {2: ("T", "B"), 3: ("T", "M", "B")}
COLUMN_LABELS: Final = {2: ("L", "R"), 3: ("L", "C", "R")}
TITLES: Final = {
    "pure": "Nash equilibria of a normal-form game",
    "mixed": "Mixed-strategy Nash equilibrium",
    "dominance": "Iterated elimination of dominated strategies",
}
"""The statement's title for each kind of game."""
PAIR_COST: Final = 40
"""Deadline units charged per drawn game (parsing it and finding its equilibria)."""


def check_matrix_settings(settings: ProblemSettings) -> None:
    """Refuse a value range too narrow for payoffs without ties (three per column)."""
    least, most = settings.values
    if most - least + 1 < 3:
        raise InvalidInputError(
            f"matrix games are drawn without ties among three payoffs, so values needs at "
            f"least 3 distinct integers; it allows {most - least + 1}",
            parameter="values",
        )


def _shape(rng: random.Random, kind: str) -> tuple[int, int]:
    if kind == "mixed":
        return 2, 2
    if kind == "dominance":
        return 3, 3
    return rng.randint(2, 3), rng.randint(2, 3)


def _payoffs(rng: random.Random, rows: int, cols: int, values: tuple[int, int]) -> Any:
    """Row's payoffs with no tie within a column, column's with no tie within a row."""
    pool = range(values[0], values[1] + 1)
    by_column = [rng.sample(pool, rows) for _ in range(cols)]
    a = [[by_column[c][r] for c in range(cols)] for r in range(rows)]
    b = [rng.sample(pool, cols) for _ in range(rows)]
    return a, b


def draw_matrix(rng: random.Random, settings: ProblemSettings, deadline: Deadline) -> Draft | None:
    """One matrix problem of ``settings.matrix`` kind, or ``None`` if the game drawn is not."""
    deadline.spend(PAIR_COST)
    rows, cols = _shape(rng, settings.matrix)
    a, b = _payoffs(rng, rows, cols, settings.values)
    labels = [list(ROW_LABELS[rows]), list(COLUMN_LABELS[cols])]
    problem: dict[str, Any] = {"type": "matrix", "A": a, "B": b, "labels": labels}
    grader = MatrixGrader({"A": a, "B": b, "labels": labels})
    pure = grader.equilibria
    if settings.matrix == "pure" and not pure:
        return None
    if settings.matrix == "mixed" and pure:
        return None
    if settings.matrix == "dominance":
        steps = iterated_elimination(grader.game, mixed=False, deadline=deadline)
        if any(len(alive) != 1 for alive in steps.surviving):
            return None
    mixed = grader.mixed("/answer/equilibria")
    if any(_degenerate(a, b, row, col) for row, col in mixed):
        return None
    answer = {
        "pure_equilibria": [[labels[0][r], labels[1][c]] for r, c in pure],
        "equilibria": [
            {"row": [exact_json(p) for p in row], "col": [exact_json(q) for q in col]}
            for row, col in mixed
        ],
    }
    return Draft(
        problem,
        answer,
        TITLES[settings.matrix],
        _statement(settings.matrix, a, b, labels),
        {"pure_equilibria": [], "equilibria": []},
    )


def _degenerate(a: Any, b: Any, row: Any, col: Any) -> bool:
    """Whether a player has more pure best responses to the other's strategy than the other
    mixes strategies, or mixes a different number of strategies than the other."""
    rows, cols = range(len(a)), range(len(a[0]))
    against_col = [sum(a[r][c] * col[c] for c in cols) for r in rows]
    against_row = [sum(b[r][c] * row[r] for r in rows) for c in cols]
    row_best = sum(value == max(against_col) for value in against_col)
    col_best = sum(value == max(against_row) for value in against_row)
    row_mixes = sum(p != 0 for p in row)
    col_mixes = sum(q != 0 for q in col)
    return not row_best == col_mixes == row_mixes == col_best


def _statement(kind: str, a: Any, b: Any, labels: list[list[str]]) -> str:
    header = "| |" + "".join(f" {c} |" for c in labels[1])
    rule = "|---|" + "---|" * len(labels[1])
    body = [
        f"| **{r}** |" + "".join(f" {a[i][j]}, {b[i][j]} |" for j in range(len(labels[1])))
        for i, r in enumerate(labels[0])
    ]
    intro = {
        "pure": "Find the Nash equilibria of this game.",
        "mixed": "This game has no equilibrium in pure strategies: find its equilibrium in "
        "mixed strategies.",
        "dominance": "Solve this game by iterated elimination of strictly dominated "
        "strategies, then give its equilibria.",
    }[kind]
    return "\n".join(
        [
            f"{intro} The row player picks a row, the column player a column; each cell "
            "gives the row player's payoff, then the column player's.",
            "",
            header,
            rule,
            *body,
            "",
            "Give:",
            "",
            "- every pure Nash equilibrium (`pure_equilibria`: pairs such as "
            f'`["{labels[0][0]}", "{labels[1][0]}"]`)',
            "- every Nash equilibrium in mixed strategies (`equilibria`: "
            '`{"row": [p, ...], "col": [q, ...]}`, probabilities as exact fractions such as '
            '`"2/3"`; a pure equilibrium is written with 1 and 0)',
            "",
        ]
    )
