"""Can ANY expected-utility function explain a set of choices? A linear-programming answer.

With one unknown utility ``u_k`` per money prize, each choice between lotteries is
linear in ``u``: ``L > R`` means ``sum_k (L_k - R_k) u_k > 0`` and ``L ~ R`` means
``= 0``. The system is homogeneous, so "> 0" can be written ">= 1" without loss
(scale any solution up). Asking for an increasing utility adds
``u_{k+1} - u_k >= 1`` for consecutive prizes.

Feasible: HiGHS (via :func:`scipy.optimize.linprog`) finds a witness ``u``, which is
normalised to ``u(worst) = 0, u(best) = 1`` and rationalised; the exact values are
reported only after they are checked against every constraint in exact arithmetic.

Infeasible: by Farkas' lemma there are multipliers ``lambda >= 0`` on the strict
constraints (free on indifferences), not all zero on the strict ones, that combine
the constraints into ``0 > 0``. A second LP finds them; they are scaled so the
largest is 1 and checked exactly. For AIMA's Allais choices (B > A, C > D) they
are 1/4 and 1.

Rows are sparse (a choice involves the prizes of two lotteries only), so the LPs stay
small however many prizes there are; HiGHS is given the time left of the request's
deadline, and the exact checks are charged to it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, csr_matrix, vstack

from games.errors import InvalidInputError, LimitExceededError, TimeLimitError, join_pointer
from games.limits import Deadline, current_deadline, spend_on_size
from games.numbers import Exact, normalize
from utility.lottery import Lottery

Relation = Literal[">", "~", "<", ">=", "<="]
RELATIONS: frozenset[str] = frozenset({">", "~", "<", ">=", "<="})
MAX_PRIZES = 5_000
"""Most distinct prizes across all lotteries."""
DENOMINATOR = 10**6
"""Largest denominator tried when rationalising LP solutions."""
TIME_LIMIT = 60.0
"""Default seconds HiGHS may spend on each of the (at most two) LPs (less when the
request's deadline is nearer)."""

Row = dict[int, Fraction]
"""One linear constraint: prize index to coefficient (zero coefficients left out)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A stated choice ``left relation right`` between named lotteries."""

    left: str
    relation: Relation
    right: str


@dataclass(frozen=True, slots=True)
class Certificate:
    """Multipliers combining the choices into a contradiction.

    Attributes
    ----------
    multipliers
        One per choice (0 for choices not used); scaled so the largest is 1.
    monotonicity
        ``(lower prize, higher prize, multiplier)`` for each "U increasing" constraint used.
    exact
        True when the multipliers were verified in exact arithmetic.
    explanation
        The argument as readable inequalities, one per line.
    """

    multipliers: tuple[Fraction | float, ...]
    monotonicity: tuple[tuple[Exact, Exact, Fraction | float], ...]
    exact: bool
    explanation: str


@dataclass(frozen=True, slots=True)
class Consistency:
    """Whether some (increasing) expected-utility function explains the choices.

    ``witness_verified``: the witness is exact (``Fraction``s checked against every
    constraint in exact arithmetic) rather than the LP's floats.
    """

    consistent: bool
    prizes: tuple[Exact, ...]
    witness: tuple[Fraction | float, ...] | None
    witness_verified: bool
    certificate: Certificate | None


def parse_choice(raw: object, names: Collection[str], pointer: str) -> Choice:
    """Read ``["B", ">", "A"]``; the names must be declared lotteries."""
    if not isinstance(raw, list) or len(raw) != 3 or not all(isinstance(item, str) for item in raw):
        raise InvalidInputError('a choice is ["B", ">", "A"] (relation >, <, ~, >= or <=)', pointer)
    left, relation, right = raw
    if relation not in RELATIONS:
        raise InvalidInputError(
            f"unknown relation {relation!r}; use >, <, ~, >= or <=", join_pointer(pointer, 1)
        )
    for index, name in ((0, left), (2, right)):
        if name not in names:
            raise InvalidInputError(
                f"{name!r} is not one of the lotteries", join_pointer(pointer, index)
            )
    return Choice(left, relation, right)


def _difference(
    choice: Choice, lotteries: Mapping[str, Lottery], index: Mapping[Exact, int]
) -> tuple[Row, bool, bool]:
    """Row ``better - worse``, whether it is strict, whether it is an equality."""
    better, worse = choice.left, choice.right
    if choice.relation in ("<", "<="):
        better, worse = worse, better
    row: Row = {}
    for p, x in lotteries[better]:
        k = index[x]
        row[k] = row.get(k, Fraction(0)) + p
    for p, x in lotteries[worse]:
        k = index[x]
        row[k] = row.get(k, Fraction(0)) - p
    return (
        {k: v for k, v in row.items() if v},
        choice.relation in (">", "<"),
        choice.relation == "~",
    )


def eu_consistency(
    lotteries: Mapping[str, Lottery],
    choices: Sequence[Choice],
    increasing: bool = False,
    labels: Mapping[Exact, str] | None = None,
    time_limit: float | None = TIME_LIMIT,
) -> Consistency:
    """Decide whether an expected-utility function (optionally increasing) fits ``choices``.

    ``labels`` names the prizes in the explanation (default: the amounts themselves);
    ``time_limit`` bounds each LP (HiGHS stops itself; no signal or thread is needed).

    Raises
    ------
    LimitExceededError
        With more than ``MAX_PRIZES`` distinct prizes.
    TimeLimitError
        When the request's deadline passes (HiGHS stops itself at it).
    """
    clock = current_deadline()
    clock.spend(sum(len(lottery) for lottery in lotteries.values()))
    prizes = tuple(sorted({x for lottery in lotteries.values() for x in lottery.outcomes}))
    if len(prizes) > MAX_PRIZES:
        raise LimitExceededError(f"more than {MAX_PRIZES} distinct prizes", "/lotteries")
    index = {x: k for k, x in enumerate(prizes)}
    rows: list[Row] = []
    kinds: list[str] = []  # "strict", "weak" or "equal"
    for choice in choices:
        clock.spend(len(lotteries[choice.left]) + len(lotteries[choice.right]))
        row, strict, equal = _difference(choice, lotteries, index)
        rows.append(row)
        kinds.append("equal" if equal else "strict" if strict else "weak")
    monotone: list[tuple[int, int]] = []
    if increasing:
        for k in range(len(prizes) - 1):
            rows.append({k: Fraction(-1), k + 1: Fraction(1)})
            kinds.append("strict")
            monotone.append((k, k + 1))
    witness = _witness(rows, kinds, len(prizes), clock, time_limit)
    if witness is not None:
        values, exact = witness
        return Consistency(True, prizes, values, exact, None)
    certificate = _certificate(rows, kinds, choices, lotteries, prizes, monotone, clock, time_limit)
    if labels:
        names = {str(prize): name for prize, name in labels.items()}
        text = re.sub(
            r"U\(([^()]*)\)",
            lambda m: f"U({names.get(m.group(1), m.group(1))})",
            certificate.explanation,
        )
        certificate = replace(certificate, explanation=text)
    return Consistency(False, prizes, None, False, certificate)


def _matrix(rows: Sequence[Row], width: int) -> csr_matrix:
    """The rows as a sparse float matrix with ``width`` columns."""
    entries = [(i, k, float(v)) for i, row in enumerate(rows) for k, v in row.items()]
    data = [v for _, _, v in entries]
    at = ([i for i, _, _ in entries], [k for _, k, _ in entries])
    return coo_matrix((data, at), shape=(len(rows), width)).tocsr()


def _options(clock: Deadline, time_limit: float | None) -> dict[str, Any]:
    """HiGHS options: the time left of the deadline, or ``time_limit`` if sooner."""
    left = clock.remaining()
    limits = [t for t in (left, time_limit) if t is not None]
    return {"time_limit": max(min(limits), 1e-3)} if limits else {}


def _stopped(result: Any, clock: Deadline, what: str) -> LimitExceededError:
    """The error for an LP that HiGHS gave up on."""
    clock.check()
    if result.status == 1 and clock.seconds is not None:
        return TimeLimitError(
            f"the LP solver ran out of the time limit of {clock.seconds} s {what}"
        )
    return LimitExceededError(f"the LP solver stopped {what}: {result.message}", "")


def _witness(
    rows: list[Row], kinds: list[str], size: int, clock: Deadline, time_limit: float | None
) -> tuple[tuple[Fraction | float, ...], bool] | None:
    clock.spend(sum(len(row) for row in rows))
    inequality = [r for r, k in zip(rows, kinds, strict=True) if k != "equal"]
    lower = [1.0 if k == "strict" else 0.0 for k in kinds if k != "equal"]
    equality = [r for r, k in zip(rows, kinds, strict=True) if k == "equal"]
    result = linprog(
        np.zeros(size),
        A_ub=-_matrix(inequality, size) if inequality else None,
        b_ub=-np.array(lower) if inequality else None,
        A_eq=_matrix(equality, size) if equality else None,
        b_eq=np.zeros(len(equality)) if equality else None,
        bounds=[(None, None)] * size,
        method="highs",
        options=_options(clock, time_limit),
    )
    if result.status == 2:
        return None
    if result.status != 0:
        raise _stopped(result, clock, "looking for a utility")
    values = np.asarray(result.x, dtype=float)
    low, high = float(values.min()), float(values.max())
    scaled = (values - low) / (high - low) if high > low else values - low
    exact = _rationalise(scaled)
    if exact is not None and _satisfies(rows, kinds, exact, clock):
        return tuple(normalize(v) for v in exact), True
    return tuple(float(v) for v in scaled), False


def _rationalise(values: np.ndarray) -> list[Fraction] | None:
    try:
        return [Fraction(float(v)).limit_denominator(DENOMINATOR) for v in values]
    except (ValueError, OverflowError):
        return None


def _dot(row: Row, values: Sequence[Fraction], clock: Deadline) -> Fraction:
    total = sum((a * values[k] for k, a in row.items()), Fraction(0))
    clock.spend(len(row))
    spend_on_size(clock, total)
    return total


def _satisfies(rows: list[Row], kinds: list[str], values: list[Fraction], clock: Deadline) -> bool:
    for row, kind in zip(rows, kinds, strict=True):
        total = _dot(row, values, clock)
        if (
            (kind == "strict" and total <= 0)
            or (kind == "weak" and total < 0)
            or (kind == "equal" and total != 0)
        ):
            return False
    return True


def _certificate(
    rows: list[Row],
    kinds: list[str],
    choices: Sequence[Choice],
    lotteries: Mapping[str, Lottery],
    prizes: tuple[Exact, ...],
    monotone: list[tuple[int, int]],
    clock: Deadline,
    time_limit: float | None,
) -> Certificate:
    count = len(rows)
    strict = np.array([1.0 if k == "strict" else 0.0 for k in kinds])
    # variables: one multiplier per row; sum_i m_i row_i = 0, sum over strict rows = 1
    a_eq = vstack([_matrix(rows, len(prizes)).T, csr_matrix(strict[None, :])]).tocsr()
    b_eq = np.zeros(len(prizes) + 1)
    b_eq[-1] = 1.0
    bounds = [(None, None) if k == "equal" else (0, None) for k in kinds]
    result = linprog(
        np.zeros(count),
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=bounds,
        method="highs",
        options=_options(clock, time_limit),
    )
    if result.status != 0:
        raise _stopped(result, clock, "looking for the certificate")
    raw = np.asarray(result.x, dtype=float)
    raw[np.abs(raw) < 1e-12] = 0.0
    largest = float(np.abs(raw).max())
    scaled = raw / largest
    exact = _rationalise(scaled)
    verified = exact is not None and _is_certificate(rows, kinds, exact, len(prizes), clock)
    multipliers: list[Fraction | float] = [float(v) for v in scaled]
    if verified and exact is not None:
        multipliers = [normalize(v) for v in exact]
    choice_multipliers = tuple(multipliers[: len(choices)])
    monotonicity = tuple(
        (prizes[lo], prizes[hi], multipliers[len(choices) + j])
        for j, (lo, hi) in enumerate(monotone)
        if multipliers[len(choices) + j] != 0
    )
    explanation = _explain(choices, lotteries, choice_multipliers, monotonicity)
    return Certificate(choice_multipliers, monotonicity, verified, explanation)


def _is_certificate(
    rows: list[Row], kinds: list[str], values: list[Fraction], width: int, clock: Deadline
) -> bool:
    if any(v < 0 for v, k in zip(values, kinds, strict=True) if k != "equal"):
        return False
    if sum((v for v, k in zip(values, kinds, strict=True) if k == "strict"), Fraction(0)) <= 0:
        return False
    combined = [Fraction(0)] * width
    for v, row in zip(values, rows, strict=True):
        if v:
            clock.spend(len(row))
            for k, a in row.items():
                combined[k] += v * a
    return not any(combined)


# -- the readable argument --------------------------------------------------------


def _form(terms: Mapping[Exact, Fraction | float]) -> str:
    parts = []
    for prize, weight in sorted(terms.items()):
        if weight == 0:
            continue
        coefficient = "" if weight == 1 else f"{_text(weight)}*"
        parts.append(f"{coefficient}U({prize})")
    return " + ".join(parts) if parts else "0"


def _text(value: Fraction | float) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _side(lottery: Lottery, scale: Fraction | float = 1) -> dict[Exact, Fraction | float]:
    return {x: p * scale for p, x in lottery}


def _explain(
    choices: Sequence[Choice],
    lotteries: Mapping[str, Lottery],
    multipliers: Sequence[Fraction | float],
    monotonicity: Sequence[tuple[Exact, Exact, Fraction | float]],
) -> str:
    lines = ["Each choice states an inequality between expected utilities:"]
    used: list[str] = []
    left_total: dict[Exact, Fraction | float] = {}
    right_total: dict[Exact, Fraction | float] = {}
    for number, (choice, weight) in enumerate(zip(choices, multipliers, strict=True), start=1):
        if weight == 0:
            continue
        better, worse = choice.left, choice.right
        symbol = {">": ">", "<": ">", ">=": ">=", "<=": ">=", "~": "="}[choice.relation]
        if choice.relation in ("<", "<="):
            better, worse = worse, better
        if choice.relation == "~" and weight < 0:
            better, worse, weight = worse, better, -weight
        lines.append(
            f"  ({number}) {better} {symbol} {worse}: "
            f"{_form(_side(lotteries[better]))} {symbol} {_form(_side(lotteries[worse]))}"
        )
        used.append(f"{_text(weight)} x ({number})")
        for prize, value in _side(lotteries[better], weight).items():
            left_total[prize] = left_total.get(prize, 0) + value
        for prize, value in _side(lotteries[worse], weight).items():
            right_total[prize] = right_total.get(prize, 0) + value
    for lower, higher, weight in monotonicity:
        lines.append(f"  (U increasing) U({higher}) > U({lower})")
        used.append(f"{_text(weight)} x (U({higher}) > U({lower}))")
        left_total[higher] = left_total.get(higher, 0) + weight
        right_total[lower] = right_total.get(lower, 0) + weight
    lines.append(f"Adding {' + '.join(used)}:")
    lines.append(f"  {_form(left_total)} > {_form(right_total)}")
    lines.append(
        "Both sides are the same combination of utilities, so this says a number "
        "exceeds itself: no utility function can satisfy all these choices."
    )
    return "\n".join(lines)
