"""Lotteries over money: parsing, compound reduction, merging, EMV and the CDF.

A lottery is written ``[{"p": "0.8", "x": 4000}, {"p": "0.2", "x": 0}]`` (AIMA's
``[0.8, $4000; 0.2, $0]``); the pair form ``[["0.8", 4000], ["0.2", 0]]`` is
accepted too. An outcome ``x`` may itself be a lottery (a compound lottery), which
is reduced to a simple one by multiplying probabilities along each branch.
Probabilities are exact (:mod:`games.numbers`) and must sum to exactly 1.
Parsing is iterative, so nesting depth is bounded by the limit, not by recursion.
Exact sums and products are checked against the exact-size limit as they grow
(the error points at the probability that pushed them past it) and charged to the
request's deadline.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.errors import InvalidInputError, LimitExceededError, join_pointer
from games.limits import active_limits, check_exact_size, current_deadline, spend_on_size
from games.numbers import Exact, describe_json, exact_text, normalize, parse_exact, to_float

MAX_OUTCOMES = 100_000
"""Most branches one request's lottery may have, counted over all nesting levels."""

MAX_NESTING = 32
"""Deepest nesting of compound lotteries."""


@dataclass(frozen=True, slots=True)
class Lottery:
    """A simple lottery: distinct outcomes in increasing order with positive probabilities.

    Attributes
    ----------
    outcomes
        Distinct money outcomes, smallest first.
    probabilities
        Probability of each outcome; every one is positive and they sum to 1.
    """

    outcomes: tuple[Exact, ...]
    probabilities: tuple[Exact, ...]

    def __iter__(self) -> Iterator[tuple[Exact, Exact]]:
        return iter(zip(self.probabilities, self.outcomes, strict=True))

    def __len__(self) -> int:
        return len(self.outcomes)

    @property
    def degenerate(self) -> bool:
        """True when one outcome is certain."""
        return len(self.outcomes) == 1

    def shifted(self, wealth: Exact) -> Lottery:
        """The same lottery with ``wealth`` added to every outcome."""
        if wealth == 0:
            return self
        return Lottery(
            tuple(normalize(Fraction(o + wealth)) for o in self.outcomes), self.probabilities
        )


@dataclass(frozen=True, slots=True)
class ParsedLottery:
    """A parsed lottery and what parsing did to it.

    Attributes
    ----------
    lottery
        The simple lottery (compound lotteries reduced, duplicates merged).
    compound
        True when some outcome was itself a lottery.
    merged
        True when equal outcomes were merged or zero-probability branches dropped.
    pointers
        For each outcome of ``lottery``, the pointer of the first ``x`` that produced it.
    """

    lottery: Lottery
    compound: bool
    merged: bool
    pointers: tuple[str, ...]


def expected_value(lottery: Lottery, pointers: Sequence[str] | None = None) -> Exact:
    """The expected monetary value (EMV), exactly.

    :raises ExactSizeError: the sum passes the exact-size limit; the error points at the
        outcome whose term pushed it there (``pointers`` gives each outcome's pointer).
    :raises TimeLimitError: the request's deadline passed.
    """
    clock = current_deadline()
    total = Fraction(0)
    for index, (p, o) in enumerate(lottery):
        total += Fraction(p) * o
        spend_on_size(clock, total)
        check_exact_size(total, pointers[index] if pointers else "", "expected monetary value")
    return normalize(total)


def from_pairs(pairs: Mapping[Exact, Exact]) -> Lottery:
    """Build a simple lottery from ``{outcome: probability}``, dropping zero probabilities."""
    kept = sorted((o, p) for o, p in pairs.items() if p != 0)
    return Lottery(tuple(o for o, _ in kept), tuple(p for _, p in kept))


def parse_lottery(
    raw: object,
    pointer: str = "/lottery",
    *,
    max_outcomes: int = MAX_OUTCOMES,
    max_nesting: int = MAX_NESTING,
) -> ParsedLottery:
    """Read a lottery from JSON, reducing compound lotteries and merging equal outcomes.

    Raises
    ------
    InvalidInputError
        With a pointer to the field, for a malformed lottery, a negative probability,
        probabilities not summing to exactly 1, or a non-finite outcome.
    LimitExceededError
        If the lottery has more than ``max_outcomes`` branches or deeper nesting.
    ExactSizeError
        If a sum or product of probabilities passes the exact-size limit (pointing at
        the probability responsible).
    TimeLimitError
        When the request's deadline passes.
    """
    clock = current_deadline()
    bits = active_limits().max_exact_bits
    totals: dict[Exact, Fraction] = {}
    first_pointer: dict[Exact, str] = {}
    branches = 0
    compound = False
    dropped = False
    # (raw lottery, its pointer, probability of reaching it, nesting level)
    stack: list[tuple[object, str, Fraction, int]] = [(raw, pointer, Fraction(1), 0)]
    while stack:
        node, where, reach, level = stack.pop()
        entries = _branches(node, where)
        branches += len(entries)
        if branches > max_outcomes:
            raise LimitExceededError(f"the lottery has more than {max_outcomes} branches", pointer)
        total: Exact = 0
        for index, entry in enumerate(entries):
            # array indices need no RFC 6901 escaping, so pointers are plain f-strings (fast)
            p, x, p_pointer, x_pointer = _branch(entry, f"{where}/{index}")
            total += p
            if type(total) is int:
                clock.spend(1)
            else:
                size = total.denominator.bit_length()
                clock.spend(1 + size // 256)
                if size > bits or total.numerator.bit_length() > bits:
                    check_exact_size(total, p_pointer, "sum of probabilities")
            if isinstance(x, (list, dict)):
                compound = True
                if level + 1 > max_nesting:
                    raise LimitExceededError(
                        f"compound lotteries nest deeper than {max_nesting} levels", x_pointer
                    )
                inner = reach * p
                check_exact_size(inner, p_pointer, "probability of reaching a branch")
                stack.append((x, x_pointer, inner, level + 1))
                continue
            outcome = parse_exact(x, x_pointer)
            if p == 0:
                dropped = True
                continue
            if level == 0:
                weight = p  # read, not computed: the number cap bounds it
            else:
                weight = reach * p
                check_exact_size(weight, p_pointer, "probability of an outcome")
            if outcome in totals:
                dropped = True
                merged = totals[outcome] + weight
                spend_on_size(clock, merged)
                check_exact_size(merged, p_pointer, "probability of an outcome")
                totals[outcome] = merged
            else:
                totals[outcome] = Fraction(weight)
                first_pointer[outcome] = x_pointer
        if total != 1:
            raise InvalidInputError(
                f"probabilities must sum to exactly 1, but they sum to {_text(total)}", where
            )
    if not totals:
        raise InvalidInputError("the lottery has no outcome with positive probability", pointer)
    lottery = from_pairs({o: normalize(p) for o, p in totals.items()})
    return ParsedLottery(
        lottery, compound, dropped, tuple(first_pointer[o] for o in lottery.outcomes)
    )


def parse_named_lotteries(raw: Mapping[str, object], pointer: str) -> dict[str, Lottery]:
    """Read ``{name: lottery}``, each reduced; errors point under ``pointer``."""
    return {
        name: parse_lottery(value, join_pointer(pointer, name)).lottery
        for name, value in raw.items()
    }


def _text(value: Exact) -> str:
    """A number for a message: exact when short enough to write, else its nearest double."""
    return exact_text(value) or f"about {to_float(value):.17g}"


def _branches(node: object, where: str) -> list[Any]:
    if not isinstance(node, list):
        raise InvalidInputError(
            f'a lottery is an array of {{"p": ..., "x": ...}} branches, got {describe_json(node)}',
            where,
        )
    if not node:
        raise InvalidInputError("a lottery needs at least one branch", where)
    return node


def _branch(entry: object, here: str) -> tuple[Exact, object, str, str]:
    if type(entry) is dict and len(entry) == 2 and "p" in entry and "x" in entry:
        p_raw, x_raw = entry["p"], entry["x"]
        p_pointer, x_pointer = here + "/p", here + "/x"
    elif isinstance(entry, dict):
        unknown = set(entry) - {"p", "x"}
        if unknown:
            name = sorted(unknown)[0]
            raise InvalidInputError(
                f"unknown field {name!r} in a branch (use p and x)", join_pointer(here, name)
            )
        for name in ("p", "x"):
            if name not in entry:
                raise InvalidInputError(f"a branch needs {name!r}", join_pointer(here, name))
        p_raw, x_raw = entry["p"], entry["x"]
        p_pointer, x_pointer = join_pointer(here, "p"), join_pointer(here, "x")
    elif isinstance(entry, list) and len(entry) == 2:
        p_raw, x_raw = entry
        p_pointer, x_pointer = join_pointer(here, 0), join_pointer(here, 1)
    else:
        raise InvalidInputError(
            f'a branch is {{"p": probability, "x": outcome}} or [p, x], got {describe_json(entry)}',
            here,
        )
    p = parse_exact(p_raw, p_pointer)
    if p < 0 or p > 1:
        raise InvalidInputError(f"probability must lie in [0, 1], got {p}", p_pointer)
    return p, x_raw, p_pointer, x_pointer
