"""Grade answers to preference problems: which vNM axioms hold, and a utility that fits.

A problem is the body of ``/v1/preferences/check`` tagged ``"type": "preferences"``.
The answer gives ``axioms`` (name -> ``true``/``false`` or ``{"holds": bool}``),
scored per axiom against :func:`utility.axioms.check_axioms`, and ``utility`` (prize ->
number), which is checked against the statements themselves: any assignment whose
expected utilities reproduce every stated preference is right, whatever its scale.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from analysis.grading.answers import FieldsAnswerGrader, under_problem
from analysis.grading.questions import default_questions
from analysis.grading.results import NONE, Diagnosis, Expected, GradedItem, graded_item
from analysis.grading.rubric import Rubric
from games.errors import ArbiterError, InvalidInputError, join_pointer
from games.limits import current_deadline
from games.numbers import parse_exact
from utility.axioms import (
    AXIOMS,
    AxiomReport,
    AxiomResult,
    check_axioms,
    expected_utility_consistency,
)
from utility.preferences import PreferenceProblem, Statement, parse_preferences

PREFERENCE_FIELDS = ("axioms", "utility")


class PreferenceGrader(FieldsAnswerGrader):
    """Grades answers to one preference problem; the axioms are checked once."""

    fields = PREFERENCE_FIELDS
    kind = "preference"

    def __init__(self, raw: dict[str, Any]) -> None:
        for name in raw:
            if name not in ("type", "prizes", "lotteries", "preferences", "questions"):
                raise InvalidInputError(f"unknown problem field {name!r}", f"/problem/{name}")
        self.ask(raw.get("questions"), default_questions("preferences"))
        prizes, lotteries = raw.get("prizes"), raw.get("lotteries", {})
        preferences = raw.get("preferences")
        if not isinstance(prizes, list) or not prizes:
            raise InvalidInputError("prizes is a non-empty list of names", "/problem/prizes")
        if not isinstance(lotteries, dict):
            raise InvalidInputError("lotteries maps names to lotteries", "/problem/lotteries")
        if not isinstance(preferences, list):
            raise InvalidInputError("preferences is a list of statements", "/problem/preferences")
        deadline = current_deadline()
        try:
            self.problem: PreferenceProblem = parse_preferences(prizes, lotteries, preferences)
            deadline.check()
            self.report: AxiomReport = check_axioms(self.problem)
            deadline.check()
            consistency = self.report.consistency
            if consistency is None:  # an axiom failed; an EU fit may still exist (unranked pairs)
                consistency = expected_utility_consistency(self.problem)
            deadline.check()
        except ArbiterError as error:
            deadline.check()  # an LP stopped by the deadline is the deadline's doing
            raise under_problem(error) from None
        self.representable = consistency.consistent
        # one utility that reproduces the statements (a float where the LP's is not exact)
        self.example: dict[str, Fraction | float] | None = None
        if consistency.witness is not None:
            self.example = {
                self.problem.prizes[int(k)]: v
                for k, v in zip(consistency.prizes, consistency.witness, strict=True)
            }

    def grade_fields(
        self, answer: dict[str, Any], rubric: Rubric, diagnose: bool, pointer: str
    ) -> tuple[list[GradedItem], list[Diagnosis]]:
        items: list[GradedItem] = []
        if rubric.wants("axioms", answer):
            given = self._axioms(answer.get("axioms"), join_pointer(pointer, "axioms"))
            items.append(self._grade_axioms(given, answer.get("axioms"), rubric))
        if rubric.wants("utility", answer):
            raw = answer.get("utility")
            utility = self._utility(raw, join_pointer(pointer, "utility"))
            items.append(self._grade_utility(utility, raw, "utility" in answer, rubric))
        return items, []  # no mistaken conventions are recognised here yet

    # -- reading the answer --------------------------------------------------------

    def _axioms(self, raw: Any, pointer: str) -> dict[str, bool]:
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            raise InvalidInputError("axioms maps axiom names to true/false", pointer)
        given = {}
        for name, entry in raw.items():
            where = join_pointer(pointer, name)
            if name not in AXIOMS:
                raise InvalidInputError(
                    f"unknown axiom {name!r}; the axioms are {', '.join(AXIOMS)}", where
                )
            if isinstance(entry, dict) and "holds" in entry:
                entry, where = entry["holds"], join_pointer(where, "holds")
            if type(entry) is not bool:
                raise InvalidInputError(f"expected true or false, got {entry!r}", where)
            given[name] = entry
        return given

    def _utility(self, raw: Any, pointer: str) -> dict[str, Fraction] | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise InvalidInputError("utility maps prizes to numbers (or is null)", pointer)
        values = {}
        current_deadline().spend(len(raw))
        for prize, entry in raw.items():
            where = join_pointer(pointer, prize)
            if prize not in self.problem.prizes:
                raise InvalidInputError(f"{prize!r} is not one of the prizes", where)
            values[prize] = Fraction(parse_exact(entry, where))
        return values

    # -- scoring -------------------------------------------------------------------

    def _grade_axioms(self, given: dict[str, bool], raw: Any, rubric: Rubric) -> GradedItem:
        results = self.report.axioms
        wrong = [name for name in AXIOMS if name in given and given[name] != results[name].holds]
        missing = [name for name in AXIOMS if name not in given]
        right = len(given) - len(wrong)
        notes = [
            f"{name} {'holds' if results[name].holds else 'fails'}: "
            f"{witness_text(self.problem, name, results[name])}"
            for name in wrong
        ]
        if missing:
            notes.append("not answered: " + ", ".join(missing))
        return graded_item(
            "axioms",
            Fraction(right, len(AXIOMS)),
            rubric,
            Expected({name: results[name].holds for name in AXIOMS}),
            raw,
            "; ".join(notes) or "correct",
            missing,
            [],
            wrong,
        )

    def _grade_utility(
        self, utility: dict[str, Fraction] | None, raw: Any, present: bool, rubric: Rubric
    ) -> GradedItem:
        expected = Expected.of(self.example) if self.representable else NONE
        if utility is None:
            if present and not self.representable:
                return graded_item(
                    "utility",
                    Fraction(1),
                    rubric,
                    NONE,
                    raw,
                    "correct: no expected utility reproduces these statements",
                )
            note = "not given" if not present else "a consistent utility exists"
            return graded_item("utility", Fraction(0), rubric, expected, raw, note)
        statements = self.problem.statements
        broken: list[Statement] = []
        unknown: set[str] = set()
        deadline = current_deadline()
        for s in statements:
            deadline.spend(
                1 + len(self.problem.reduced[s.better]) + len(self.problem.reduced[s.worse])
            )
            needed = set(self.problem.reduced[s.better]) | set(self.problem.reduced[s.worse])
            if needed - set(utility):
                unknown |= needed - set(utility)
                broken.append(s)
            elif not _reproduces(s, self.problem.reduced, utility):
                broken.append(s)
        fraction = Fraction(len(statements) - len(broken), len(statements) or 1)
        notes = []
        for s in broken[:5]:
            if set(self.problem.reduced[s.better]) | set(self.problem.reduced[s.worse]) <= set(
                utility
            ):
                better = _expected(self.problem.reduced[s.better], utility)
                worse = _expected(self.problem.reduced[s.worse], utility)
                notes.append(
                    f"statement {s.index} says {s.better} {s.relation} {s.worse}, but "
                    f"EU({s.better}) = {better} and EU({s.worse}) = {worse}"
                )
        if unknown:
            notes.append("no utility given for " + ", ".join(sorted(unknown)))
        return graded_item(
            "utility",
            fraction,
            rubric,
            expected,
            raw,
            "; ".join(notes) or "correct: it reproduces every statement",
            sorted(unknown),
            [],
            [str(s.index) for s in broken],
        )


def _expected(distribution: Mapping[str, Fraction], utility: Mapping[str, Fraction]) -> Fraction:
    return sum((p * utility[prize] for prize, p in distribution.items()), Fraction(0))


def _reproduces(
    s: Statement, reduced: Mapping[str, Mapping[str, Fraction]], utility: Mapping[str, Fraction]
) -> bool:
    better, worse = _expected(reduced[s.better], utility), _expected(reduced[s.worse], utility)
    return better > worse if s.relation == ">" else better == worse


def _stated(problem: PreferenceProblem, a: str, b: str) -> str:
    """The stated relation of ``a`` to ``b`` (``>`` or ``~``), for reading a cycle."""
    for s in problem.statements:
        if (s.better, s.worse) == (a, b):
            return s.relation
        if s.relation == "~" and (s.better, s.worse) == (b, a):
            return "~"
    return ">="


def witness_text(problem: PreferenceProblem, name: str, result: AxiomResult) -> str:
    """The evidence for one axiom's verdict, in plain words."""
    w = result.witness
    if name == "orderability":
        if result.holds:
            return "every pair is ranked, each one way"
        parts = [f"{a} and {b} are never ranked" for a, b in w["unranked"][:3]]
        parts += [
            f"statements {c['statements'][0]} and {c['statements'][1]} rank "
            f"{c['pair'][0]}, {c['pair'][1]} two ways"
            for c in w["conflicts"][:3]
        ]
        return "; ".join(parts)
    if name == "transitivity":
        if result.holds:
            return "no cycle through a strict preference"
        cycle = [*w["cycle"], w["cycle"][0]]
        chain = cycle[0] + "".join(
            f" {_stated(problem, a, b)} {b}" for a, b in zip(cycle, cycle[1:], strict=False)
        )
        return f"the cycle {chain} (a money pump)"
    if result.holds:
        return "no stated preference breaks it"
    if name == "continuity":
        return (
            f"no p makes {w['middle']} ~ [p, {w['better']}; 1-p, {w['worse']}] "
            f"(statements {', '.join(map(str, w['statements']))})"
        )
    if name == "decomposability":
        first, second = w["lotteries"]
        return f"{first} and {second} reduce to the same lottery but {first} {w['stated']} {second}"
    return f"{w['expected']}, yet stated {w['stated']}"  # substitutability, monotonicity
