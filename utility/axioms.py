"""The von Neumann-Morgenstern axioms checked on stated preferences, each with a witness.

The axioms (AIMA 4th ed., 16.2.1) are about the agent's full relation; a request
states only part of it, so each check looks for a violation among what is stated
or follows by chaining statements (:func:`utility.preferences.closure`):

- orderability: every pair of items is ranked, and no pair is ranked two ways;
- transitivity: no cycle through a strict preference (witness: the cycle and the
  money-pump trades an agent holding it would accept);
- continuity: for A > B > C, the stated comparisons of B with lotteries
  [p, A; 1-p, C] leave some p with B ~ [p, A; 1-p, C];
- substitutability: lotteries that differ only by A in place of B in one branch
  rank as A and B do;
- monotonicity: for A > B, [p, A; 1-p, B] > [q, A; 1-q, B] exactly when p > q;
- decomposability: lotteries that reduce to the same distribution over prizes are
  indifferent.

When no axiom fails, the statements are also written as an expected-utility LP
(:mod:`utility.eu_consistency`) over the prizes, which yields a utility for every
prize consistent with them, or the certificate that none exists. Every check is
charged to the request's deadline.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.limits import current_deadline
from games.numbers import normalize
from utility.eu_consistency import Choice, Consistency, eu_consistency
from utility.lottery import Lottery
from utility.preferences import Closure, PreferenceProblem, closure

AXIOMS = (
    "orderability",
    "transitivity",
    "continuity",
    "substitutability",
    "monotonicity",
    "decomposability",
)


@dataclass(frozen=True)
class AxiomResult:
    """Whether one axiom holds on the stated relation, and the evidence.

    Probabilities in a witness are exact values (``int`` or ``Fraction``): continuity's
    ``indifference_points[*].p`` and a failed decomposability's ``same_reduction``.
    """

    holds: bool
    witness: dict[str, Any]


@dataclass(frozen=True)
class AxiomReport:
    """Every axiom's result and, when all hold, a consistent utility on the prizes."""

    axioms: dict[str, AxiomResult]
    consistency: Consistency | None


def check_axioms(problem: PreferenceProblem) -> AxiomReport:
    """Check the six axioms; if all hold, look for a consistent expected utility."""
    relation = closure(problem)
    results = {
        "orderability": _orderability(problem, relation),
        "transitivity": _transitivity(problem, relation),
        "continuity": _continuity(problem, relation),
        "substitutability": _substitutability(problem, relation),
        "monotonicity": _monotonicity(problem, relation),
        "decomposability": _decomposability(problem, relation),
    }
    consistency = None
    if all(r.holds for name, r in results.items() if name != "orderability"):
        consistency = expected_utility_consistency(problem)
    return AxiomReport(results, consistency)


def _orderability(problem: PreferenceProblem, relation: Closure) -> AxiomResult:
    clock = current_deadline()
    items = problem.items
    unranked: list[list[str]] = []
    for i, a in enumerate(items):
        clock.spend(len(items) - i)
        unranked.extend([a, b] for b in items[i + 1 :] if relation.relation(a, b) is None)
    # the first statement of each kind (>, <, ~) about each pair; a later statement of
    # another kind conflicts with it
    first: dict[tuple[str, str], dict[str, int]] = {}
    conflicts = []
    for s in problem.statements:
        clock.spend(4)
        key = (s.better, s.worse) if s.better < s.worse else (s.worse, s.better)
        kind = "~" if s.relation == "~" else (">" if key[0] == s.better else "<")
        seen = first.setdefault(key, {})
        for other_kind, other in seen.items():
            if other_kind != kind:
                conflicts.append({"statements": [other, s.index], "pair": list(key)})
        seen.setdefault(kind, s.index)
    return AxiomResult(
        not unranked and not conflicts, {"unranked": unranked, "conflicts": conflicts}
    )


def _transitivity(problem: PreferenceProblem, relation: Closure) -> AxiomResult:
    for s in problem.statements:
        if s.relation != ">" or s.better not in relation.weak[s.worse]:
            continue  # no chain leads back from worse to better
        path = _path(relation, s.worse, s.better)
        if path is None:
            continue
        cycle = [s.better, *path[:-1]]  # better > worse >= ... >= better
        return AxiomResult(False, {"cycle": cycle, "money_pump": _money_pump(cycle, relation)})
    return AxiomResult(True, {"cycle": None, "money_pump": None})


def _path(relation: Closure, start: str, goal: str) -> list[str] | None:
    """Shortest chain ``start >= ... >= goal`` of stated preferences (BFS)."""
    clock = current_deadline()
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        clock.spend(1 + len(relation.edges[node]))
        if node == goal:
            chain = [node]
            while parent[chain[-1]] is not None:
                chain.append(parent[chain[-1]])  # type: ignore[arg-type]
            return chain[::-1]
        for target, _, _ in relation.edges[node]:
            if target not in parent:
                parent[target] = node
                queue.append(target)
    return None


def _money_pump(cycle: list[str], relation: Closure) -> list[dict[str, Any]]:
    """Trades around the cycle c0 >= c1 >= ... >= c0: holding c0, swap up the chain."""
    trades = []
    holding = cycle[0]
    for wanted in [*reversed(cycle[1:]), cycle[0]]:
        strict = any(
            target == holding and is_strict for target, is_strict, _ in relation.edges[wanted]
        )
        trades.append(
            {
                "give": holding,
                "get": wanted,
                "pays": "a small amount" if strict else "nothing (indifferent)",
            }
        )
        holding = wanted
    return trades


def _two_point(problem: PreferenceProblem, name: str) -> tuple[str, str, Fraction] | None:
    """``(A, C, p)`` when lottery ``name`` is [p, A; 1-p, C] with A != C (direct branches)."""
    branches = problem.branches[name]
    current_deadline().spend(len(branches))
    totals: dict[str, Fraction] = {}
    for p, target in branches:
        totals[target] = totals.get(target, Fraction(0)) + p
    if len(totals) != 2:
        return None
    (a, p), (c, _) = sorted(totals.items())
    return a, c, p


def _continuity(problem: PreferenceProblem, relation: Closure) -> AxiomResult:
    bounds: dict[tuple[str, str, str], list[tuple[str, Fraction, int]]] = {}
    for s in problem.statements:
        for middle, lottery, flip in ((s.better, s.worse, False), (s.worse, s.better, True)):
            if lottery not in problem.branches or middle in problem.branches:
                continue
            shape = _two_point(problem, lottery)
            if shape is None:
                continue
            a, c, p = shape
            if relation.relation(a, c) == "<":
                a, c, p = c, a, 1 - p
            if relation.relation(a, middle) != ">" or relation.relation(middle, c) != ">":
                continue
            # where p* (B ~ [p*, A; 1-p*, C]) lies relative to p: B > L_p means p* > p
            kind = "=" if s.relation == "~" else ("<" if flip else ">")
            bounds.setdefault((a, middle, c), []).append((kind, p, s.index))
    points = []
    for (a, b, c), constraints in bounds.items():
        # p* lies in the open interval (low, high), and equals every stated indifference point
        low = max([Fraction(0)] + [p for kind, p, _ in constraints if kind == ">"])
        high = min([Fraction(1)] + [p for kind, p, _ in constraints if kind == "<"])
        exact = [p for kind, p, _ in constraints if kind == "="]
        feasible = low < high and len(set(exact)) <= 1 and all(low < p < high for p in exact)
        if not feasible:
            return AxiomResult(
                False,
                {
                    "better": a,
                    "middle": b,
                    "worse": c,
                    "statements": [i for _, _, i in constraints],
                    "reason": "no probability p makes the middle prize "
                    "indifferent to [p, better; 1-p, worse]",
                },
            )
        if exact:
            points.append({"better": a, "middle": b, "worse": c, "p": normalize(exact[0])})
    return AxiomResult(True, {"indifference_points": points})


def _substitutability(problem: PreferenceProblem, relation: Closure) -> AxiomResult:
    clock = current_deadline()
    names = list(problem.branches)
    counts: dict[str, Counter[tuple[Fraction, str]]] = {}

    def branches(name: str) -> Counter[tuple[Fraction, str]]:
        if name not in counts:
            clock.spend(len(problem.branches[name]))
            counts[name] = Counter(problem.branches[name])
        return counts[name]

    checked = []
    for i, first in enumerate(names):
        clock.spend(len(names) - i)
        for second in names[i + 1 :]:
            outer = relation.relation(first, second)
            if outer is None:
                continue  # unranked: nothing to compare (checked first: it is cheap)
            if len(problem.branches[first]) != len(problem.branches[second]):
                continue
            clock.spend(len(problem.branches[first]))
            swap = _single_swap(branches(first), branches(second))
            if swap is None:
                continue
            a, b = swap
            inner = relation.relation(a, b)
            if inner is None:
                continue
            checked.append([first, second])
            if inner != outer:
                return AxiomResult(
                    False,
                    {
                        "lotteries": [first, second],
                        "substituted": [a, b],
                        "expected": f"{first} {inner} {second} because {a} {inner} {b}",
                        "stated": f"{first} {outer} {second}",
                    },
                )
    return AxiomResult(True, {"checked": checked})


def _single_swap(
    x: Counter[tuple[Fraction, str]], y: Counter[tuple[Fraction, str]]
) -> tuple[str, str] | None:
    """The one branch target that differs between two lotteries with as many branches,
    at the same probability, or ``None``."""
    left = list((x - y).elements())
    right = list((y - x).elements())
    if len(left) == 1 and len(right) == 1 and left[0][0] == right[0][0]:
        return left[0][1], right[0][1]
    return None


def _monotonicity(problem: PreferenceProblem, relation: Closure) -> AxiomResult:
    clock = current_deadline()
    shapes = {n: s for n in problem.branches if (s := _two_point(problem, n)) is not None}
    names = list(shapes)
    checked = []
    for i, first in enumerate(names):
        clock.spend(len(names) - i)
        for second in names[i + 1 :]:
            a1, c1, p1 = shapes[first]
            a2, c2, p2 = shapes[second]
            if (a1, c1) != (a2, c2) or relation.relation(a1, c1) not in (">", "<"):
                continue
            better_first = p1 > p2 if relation.relation(a1, c1) == ">" else p1 < p2
            expected = "~" if p1 == p2 else (">" if better_first else "<")
            stated = relation.relation(first, second)
            if stated is None:
                continue
            checked.append([first, second])
            if stated != expected:
                return AxiomResult(
                    False,
                    {
                        "lotteries": [first, second],
                        "expected": f"{first} {expected} {second}",
                        "stated": f"{first} {stated} {second}",
                    },
                )
    return AxiomResult(True, {"checked": checked})


def _decomposability(problem: PreferenceProblem, relation: Closure) -> AxiomResult:
    clock = current_deadline()
    names = list(problem.named)
    same = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            clock.spend(1 + len(problem.reduced[first]))
            if problem.reduced[first] != problem.reduced[second]:
                continue
            same.append([first, second])
            stated = relation.relation(first, second)
            if stated in (">", "<"):
                reduced = {k: normalize(v) for k, v in sorted(problem.reduced[first].items())}
                return AxiomResult(
                    False,
                    {"lotteries": [first, second], "stated": stated, "same_reduction": reduced},
                )
    return AxiomResult(True, {"same_reduction": same})


def expected_utility_consistency(problem: PreferenceProblem) -> Consistency:
    """Whether some expected utility over the prizes reproduces every statement."""
    index = {prize: k for k, prize in enumerate(problem.prizes)}
    lotteries: dict[str, Lottery] = {}
    for name, distribution in problem.reduced.items():
        ordered = sorted((index[prize], p) for prize, p in distribution.items())
        lotteries[name] = Lottery(
            tuple(k for k, _ in ordered),
            tuple(p.numerator if p.denominator == 1 else p for _, p in ordered),
        )
    choices = [
        Choice(s.better, ">" if s.relation == ">" else "~", s.worse) for s in problem.statements
    ]
    return eu_consistency(lotteries, choices, labels=dict(enumerate(problem.prizes)))
