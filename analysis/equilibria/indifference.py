"""Why a mixed equilibrium is what it is: the indifference equations, in words and formulas.

At a mixed equilibrium each player's mix makes the *other* player indifferent
among the strategies that other player uses (otherwise the other would drop
the worse ones). For a 2x2 or 2xn game these equations are small enough to
show: the column player's mix over its support solves "every row in the row
player's support pays the same", and vice versa. Equations are built from the
exact payoffs as SymPy rationals (no user text is ever parsed) and rendered as
LaTeX and plain text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from games.matrices.model import NormalFormGame, ObjectArray
from games.numbers import Exact


@dataclass(frozen=True, slots=True)
class Indifference:
    """The equations one player's mix must satisfy, and their solution.

    Attributes
    ----------
    mixer
        The player whose probabilities are solved for (0 rows, 1 columns).
    indifferent
        The player made indifferent.
    words
        One sentence saying what the equations mean.
    equations_latex, equations_text
        The equations, one per entry.
    solution_latex, solution_text
        The solved probabilities.
    """

    mixer: int
    indifferent: int
    words: str
    equations_latex: tuple[str, ...]
    equations_text: tuple[str, ...]
    solution_latex: str
    solution_text: str


def explainable(game: NormalFormGame) -> bool:
    """Whether explanations are produced: two players, one of them with 2 strategies."""
    return game.is_bimatrix and min(game.shape) <= 2


def indifference_equations(
    game: NormalFormGame, row: Sequence[Exact | float], col: Sequence[Exact | float]
) -> list[Indifference]:
    """The indifference conditions behind the equilibrium ``(row, col)``.

    Empty for a pure equilibrium (nobody needs to be kept indifferent).
    """
    row_support = [i for i, p in enumerate(row) if p]
    col_support = [j for j, q in enumerate(col) if q]
    found = []
    if len(row_support) > 1:
        found.append(
            _conditions(
                game,
                mixer=1,
                mixer_support=col_support,
                indifferent_support=row_support,
                symbol="q",
            )
        )
    if len(col_support) > 1:
        found.append(
            _conditions(
                game,
                mixer=0,
                mixer_support=row_support,
                indifferent_support=col_support,
                symbol="p",
            )
        )
    return found


def _conditions(
    game: NormalFormGame,
    mixer: int,
    mixer_support: list[int],
    indifferent_support: list[int],
    symbol: str,
) -> Indifference:
    indifferent = 1 - mixer
    labels = game.labels
    if len(mixer_support) == 2:
        first = sympy.Symbol(symbol, real=True)
        weights: list[sympy.Expr] = [first, 1 - first]
        unknowns = [first]
    else:
        unknowns = [sympy.Symbol(f"{symbol}_{k + 1}", real=True) for k in range(len(mixer_support))]
        weights = list(unknowns)
    payoffs: ObjectArray = game.payoffs[indifferent]
    expected = []
    for own in indifferent_support:
        terms = [
            _term(_cell(payoffs, indifferent, own, other), weight)
            for other, weight in zip(mixer_support, weights, strict=True)
            if _cell(payoffs, indifferent, own, other) != 0
        ]
        expected.append(sympy.Add(*terms, evaluate=False) if terms else sympy.Integer(0))
    equations = [sympy.Eq(expected[0], other, evaluate=False) for other in expected[1:]]
    if len(mixer_support) != 2:
        equations.append(sympy.Eq(sympy.Add(*unknowns), 1))
    solution = sympy.solve(equations, unknowns, dict=True)
    solved = solution[0] if solution else {}
    solution_pairs = [sympy.Eq(u, solved[u]) for u in unknowns if u in solved]
    mixer_name = "row player" if mixer == 0 else "column player"
    other_name = "column player" if mixer == 0 else "row player"
    mix_words = ", ".join(
        f"{labels[mixer][k]} with probability {w}"
        for k, w in zip(mixer_support, weights, strict=True)
    )
    used = ", ".join(labels[indifferent][k] for k in indifferent_support)
    words = (
        f"The {mixer_name} plays {mix_words}, chosen so that the {other_name} gets the "
        f"same expected payoff from each of {used}; otherwise the {other_name} would "
        "drop the worse ones."
    )
    return Indifference(
        mixer=mixer,
        indifferent=indifferent,
        words=words,
        equations_latex=tuple(sympy.latex(e) for e in equations),
        equations_text=tuple(f"{e.lhs} = {e.rhs}" for e in equations),
        solution_latex=", ".join(sympy.latex(e) for e in solution_pairs),
        solution_text=", ".join(f"{e.lhs} = {e.rhs}" for e in solution_pairs),
    )


def _cell(payoffs: ObjectArray, player: int, own: int, other: int) -> Exact:
    value: Exact = payoffs[own, other] if player == 0 else payoffs[other, own]
    return value


def _term(value: Exact, weight: sympy.Expr) -> sympy.Expr:
    """``value * weight`` kept unexpanded, as one writes it by hand: ``2 (1 - q)``."""
    fraction = Fraction(value)
    if fraction == 1:
        return weight
    coefficient = sympy.Rational(fraction.numerator, fraction.denominator)
    return sympy.Mul(coefficient, weight, evaluate=False)
