"""Stated preferences over prizes and lotteries: the model, its parsing and its closure.

A problem names ``prizes`` (any labels), ``lotteries`` over prizes and other
lotteries (``[{"p": "1/2", "x": "A"}, ...]``, or a nested array as ``x``) and
``preferences`` such as ``["A", ">", "B"]``, ``["A", "~", "L1"]``. Every lottery
is reduced to a distribution over prizes. The closure of the stated relation
(what follows by chaining statements) tells which pairs are ranked. Reduction is
iterative (lotteries may nest hundreds deep), exact sums and products are checked
against the exact-size limit, and all the work is charged to the request's deadline.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.errors import InvalidInputError, LimitExceededError, join_pointer
from games.limits import check_exact_size, current_deadline, spend_on_size
from games.numbers import exact_text, parse_exact, to_float

MAX_ITEMS = 300
"""Most prizes plus lotteries in one problem."""
MAX_STATEMENTS = 5_000
"""Most stated preferences."""

Distribution = Mapping[str, Fraction]


@dataclass(frozen=True, slots=True)
class Statement:
    """``better relation worse``, relation ``>`` (strict) or ``~``; ``<`` is flipped on input."""

    better: str
    relation: str
    worse: str
    index: int


@dataclass(frozen=True)
class PreferenceProblem:
    """Prizes, lotteries (their direct branches and their reduction) and statements."""

    prizes: tuple[str, ...]
    named: tuple[str, ...]
    branches: Mapping[str, tuple[tuple[Fraction, str], ...]]
    reduced: Mapping[str, Distribution]
    statements: tuple[Statement, ...]

    @property
    def items(self) -> tuple[str, ...]:
        """Prizes and named lotteries (not the anonymous nested ones)."""
        return (*self.prizes, *self.named)


def parse_preferences(
    prizes: list[Any], lotteries: Mapping[str, Any], preferences: list[Any]
) -> PreferenceProblem:
    """Check names, read probabilities exactly, reduce lotteries, read statements.

    Raises
    ------
    InvalidInputError
        With a pointer, for unknown names, bad probabilities or a lottery containing itself.
    ExactSizeError
        When a sum or product of probabilities passes the exact-size limit.
    TimeLimitError
        When the request's deadline passes.
    """
    names: list[str] = []
    for index, prize in enumerate(prizes):
        if not isinstance(prize, str) or not prize:
            raise InvalidInputError("a prize is a non-empty name", join_pointer("/prizes", index))
        if prize in names:
            raise InvalidInputError(
                f"prize {prize!r} is listed twice", join_pointer("/prizes", index)
            )
        names.append(prize)
    for name in lotteries:
        if name in names:
            raise InvalidInputError(
                f"{name!r} is both a prize and a lottery", join_pointer("/lotteries", name)
            )
    if len(names) + len(lotteries) > MAX_ITEMS:
        raise LimitExceededError(f"more than {MAX_ITEMS} prizes and lotteries", "")
    if len(preferences) > MAX_STATEMENTS:
        raise LimitExceededError(f"more than {MAX_STATEMENTS} preferences", "/preferences")
    branches: dict[str, tuple[tuple[Fraction, str], ...]] = {}
    pointers: dict[str, str] = {}
    known = set(names) | set(lotteries)
    for name, raw in lotteries.items():
        _read_lottery(name, raw, join_pointer("/lotteries", name), known, branches, pointers)
    reduced = _reduce_all(names, branches, pointers)
    statements = tuple(_statement(raw, index, known) for index, raw in enumerate(preferences))
    return PreferenceProblem(tuple(names), tuple(lotteries), branches, reduced, statements)


def _read_lottery(
    name: str,
    raw: Any,
    pointer: str,
    known: set[str],
    out: dict[str, tuple[tuple[Fraction, str], ...]],
    pointers: dict[str, str],
) -> None:
    """Read lottery ``name``; nested arrays become anonymous lotteries ``name/i``."""
    clock = current_deadline()
    pending = [(name, raw, pointer)]
    while pending:
        label, body, where = pending.pop()
        if not isinstance(body, list) or not body:
            raise InvalidInputError('a lottery is a non-empty array of {"p", "x"} branches', where)
        entries: list[tuple[Fraction, str]] = []
        total = Fraction(0)
        for index, branch in enumerate(body):
            here = join_pointer(where, index)
            if not isinstance(branch, dict) or set(branch) != {"p", "x"}:
                raise InvalidInputError('a branch is {"p": probability, "x": name}', here)
            p_pointer = join_pointer(here, "p")
            p = Fraction(parse_exact(branch["p"], p_pointer))
            if not 0 <= p <= 1:
                raise InvalidInputError(f"probability must lie in [0, 1], got {p}", p_pointer)
            total += p
            spend_on_size(clock, total)
            check_exact_size(total, p_pointer, "sum of probabilities")
            target = branch["x"]
            if isinstance(target, list):
                inner = f"{label}/{index}"
                if len(known) + len(out) + len(pending) > 4 * MAX_ITEMS:
                    raise LimitExceededError("too many nested lotteries", here)
                pending.append((inner, target, join_pointer(here, "x")))
                target = inner
            elif not isinstance(target, str) or target not in known:
                raise InvalidInputError(
                    f"{target!r} is neither a prize nor a lottery", join_pointer(here, "x")
                )
            entries.append((p, target))
        if total != 1:
            raise InvalidInputError(
                f"probabilities must sum to exactly 1, not {_text(total)}", where
            )
        out[label] = tuple(entries)
        pointers[label] = where


def _text(value: Fraction) -> str:
    """A number for a message: exact when short enough to write, else its nearest double."""
    return exact_text(value) or f"about {to_float(value):.17g}"


Branches = Mapping[str, tuple[tuple[Fraction, str], ...]]


def _reduce_all(
    prizes: list[str], branches: Branches, pointers: Mapping[str, str]
) -> dict[str, Distribution]:
    """Every lottery as a distribution over prizes, by an iterative depth-first walk."""
    clock = current_deadline()
    reduced: dict[str, Distribution] = {p: {p: Fraction(1)} for p in prizes}
    for start in branches:
        # (lottery, whether its branches are reduced already)
        stack = [(start, False)]
        visiting: set[str] = set()
        while stack:
            name, ready = stack.pop()
            if name in reduced:
                continue
            if not ready:
                if name in visiting:
                    raise InvalidInputError(
                        f"lottery {name!r} contains itself",
                        join_pointer("/lotteries", name.split("/")[0]),
                    )
                visiting.add(name)
                stack.append((name, True))
                stack.extend((target, False) for _, target in branches[name])
                continue
            total: dict[str, Fraction] = {}
            for p, target in branches[name]:
                for prize, q in reduced[target].items():
                    weight = total.get(prize, Fraction(0)) + p * q
                    spend_on_size(clock, weight)
                    check_exact_size(weight, pointers[name], "probability of a prize")
                    total[prize] = weight
            visiting.discard(name)
            reduced[name] = {k: v for k, v in total.items() if v}
    return reduced


def _statement(raw: Any, index: int, known: set[str]) -> Statement:
    pointer = join_pointer("/preferences", index)
    if not isinstance(raw, list) or len(raw) != 3 or not all(isinstance(v, str) for v in raw):
        raise InvalidInputError('a preference is ["A", ">", "B"] (or <, ~)', pointer)
    left, relation, right = raw
    if relation not in (">", "<", "~"):
        raise InvalidInputError(
            f"unknown relation {relation!r}; use >, < or ~", join_pointer(pointer, 1)
        )
    for position, name in ((0, left), (2, right)):
        if name not in known:
            raise InvalidInputError(
                f"{name!r} is neither a prize nor a lottery", join_pointer(pointer, position)
            )
    if relation == "<":
        left, right, relation = right, left, ">"
    return Statement(left, relation, right, index)


@dataclass(frozen=True)
class Closure:
    """``weak[a]``: items ``b`` with ``a >= b`` derivable; ``strict[a]``: with ``a > b``."""

    weak: Mapping[str, frozenset[str]]
    strict: Mapping[str, frozenset[str]]
    edges: Mapping[str, tuple[tuple[str, bool, int], ...]]

    def relation(self, a: str, b: str) -> str | None:
        """``">"``, ``"<"``, ``"~"`` or ``None`` (unranked) as far as the closure tells."""
        if b in self.strict[a]:
            return ">"
        if a in self.strict[b]:
            return "<"
        if b in self.weak[a] and a in self.weak[b]:
            return "~"
        return None


def closure(problem: PreferenceProblem) -> Closure:
    """Chain the stated preferences: ``a >= b`` when a path leads from a to b."""
    edges: dict[str, list[tuple[str, bool, int]]] = {
        item: [] for item in (*problem.prizes, *problem.branches)
    }
    for s in problem.statements:
        edges[s.better].append((s.worse, s.relation == ">", s.index))
        if s.relation == "~":
            edges[s.worse].append((s.better, False, s.index))
    clock = current_deadline()
    weak: dict[str, frozenset[str]] = {}
    strict: dict[str, frozenset[str]] = {}
    for start in edges:
        seen = {(start, False)}
        queue = deque([(start, False)])
        while queue:
            node, was_strict = queue.popleft()
            clock.spend(1 + len(edges[node]))
            for target, is_strict, _ in edges[node]:
                state = (target, was_strict or is_strict)
                if state not in seen:
                    seen.add(state)
                    queue.append(state)
        weak[start] = frozenset(n for n, _ in seen)
        strict[start] = frozenset(n for n, s in seen if s)
    return Closure(weak, strict, {k: tuple(v) for k, v in edges.items()})
