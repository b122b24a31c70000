"""Grade answers to EU-consistency problems: can an expected utility explain the choices?

A problem is the body of ``/v1/lotteries/eu-consistency`` tagged
``"type": "eu-consistency"``. The answer gives ``consistent`` (a boolean), scored
against :func:`utility.eu_consistency.eu_consistency`, and optionally ``witness``
(prize -> utility), which is checked against the choices themselves in exact
arithmetic: any utility that makes every choice hold is right.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analysis.grading.answers import FieldsAnswerGrader
from analysis.grading.questions import default_questions
from analysis.grading.results import NONE, Diagnosis, Expected, GradedItem, graded_item
from analysis.grading.rubric import Rubric
from games.errors import InvalidInputError, LimitExceededError, join_pointer
from games.limits import current_deadline
from games.numbers import Exact, parse_exact
from utility.eu_consistency import TIME_LIMIT, Choice, Consistency, eu_consistency, parse_choice
from utility.lottery import Lottery, parse_lottery

CONSISTENCY_FIELDS = ("consistent", "witness")


class ConsistencyGrader(FieldsAnswerGrader):
    """Grades answers to one EU-consistency problem; the LP is solved once."""

    fields = CONSISTENCY_FIELDS
    kind = "EU-consistency"

    def __init__(self, raw: dict[str, Any]) -> None:
        for name in raw:
            if name not in ("type", "lotteries", "choices", "increasing", "questions"):
                raise InvalidInputError(f"unknown problem field {name!r}", f"/problem/{name}")
        self.ask(raw.get("questions"), default_questions("eu-consistency"))
        lotteries, choices = raw.get("lotteries"), raw.get("choices")
        if not isinstance(lotteries, dict) or not lotteries:
            raise InvalidInputError("lotteries maps names to lotteries", "/problem/lotteries")
        if not isinstance(choices, list) or not choices:
            raise InvalidInputError("choices is a non-empty list", "/problem/choices")
        self.increasing = raw.get("increasing", False)
        if type(self.increasing) is not bool:
            raise InvalidInputError("increasing must be true or false", "/problem/increasing")
        self.lotteries: dict[str, Lottery] = {
            name: parse_lottery(value, join_pointer("/problem/lotteries", name)).lottery
            for name, value in lotteries.items()
        }
        names = list(self.lotteries)
        self.choices: list[Choice] = [
            parse_choice(entry, names, join_pointer("/problem/choices", i))
            for i, entry in enumerate(choices)
        ]
        deadline = current_deadline()
        deadline.check()
        left = deadline.remaining()
        try:
            # HiGHS stops itself at the time left (it takes no deadline object)
            self.result: Consistency = eu_consistency(
                self.lotteries,
                self.choices,
                increasing=self.increasing,
                time_limit=TIME_LIMIT if left is None else min(left, TIME_LIMIT),
            )
        except LimitExceededError:
            deadline.check()  # the LP stopped at the request's deadline: say so
            raise
        deadline.check()
        self.prizes = self.result.prizes

    def grade_fields(
        self, answer: dict[str, Any], rubric: Rubric, diagnose: bool, pointer: str
    ) -> tuple[list[GradedItem], list[Diagnosis]]:
        claimed = answer.get("consistent")
        if "consistent" in answer and type(claimed) is not bool:
            raise InvalidInputError(
                f"consistent must be true or false, got {claimed!r}",
                join_pointer(pointer, "consistent"),
            )
        items: list[GradedItem] = []
        if rubric.wants("consistent", answer):
            items.append(self._grade_claim(claimed, rubric))
        if rubric.wants("witness", answer):
            raw = answer.get("witness")
            witness = self._witness(raw, join_pointer(pointer, "witness"))
            items.append(self._grade_witness(witness, raw, "witness" in answer, rubric))
        return items, self._diagnose(claimed) if diagnose else []

    def _witness(self, raw: Any, pointer: str) -> dict[Exact, Fraction] | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise InvalidInputError("witness maps prizes to utilities (or is null)", pointer)
        values: dict[Exact, Fraction] = {}
        current_deadline().spend(4 * len(raw))
        for key, entry in raw.items():
            where = join_pointer(pointer, key)
            prize = parse_exact(key, where)
            if prize not in self.prizes:
                raise InvalidInputError(
                    f"{key!r} is not a prize of these lotteries "
                    f"({', '.join(str(x) for x in self.prizes)})",
                    where,
                )
            values[prize] = Fraction(parse_exact(entry, where))
        return values

    def _example(self) -> dict[str, Fraction | float] | None:
        """Our witness, prize -> utility (prizes written as JSON keys; a float when the LP's
        answer could not be made exact), or ``None``."""
        witness = self.result.witness
        if witness is None:
            return None
        return {str(x): v for x, v in zip(self.prizes, witness, strict=True)}

    def _example_text(self) -> str:
        example = self._example()
        if example is None:
            return "None"
        return str({prize: str(utility) for prize, utility in example.items()})

    def _grade_claim(self, claimed: bool | None, rubric: Rubric) -> GradedItem:
        expected = self.result.consistent
        if claimed is None:
            feedback = "not given"
        elif claimed == expected:
            feedback = "correct"
        elif expected:
            feedback = f"an expected utility explains every choice, e.g. {self._example_text()}"
        else:
            feedback = "no expected utility explains these choices (see the diagnosis)"
        right = Fraction(1 if claimed == expected else 0)
        return graded_item("consistent", right, rubric, Expected(expected), claimed, feedback)

    def _grade_witness(
        self, witness: dict[Exact, Fraction] | None, raw: Any, present: bool, rubric: Rubric
    ) -> GradedItem:
        example = Expected.of(self._example())
        if witness is None:
            if present and not self.result.consistent:
                return graded_item(
                    "witness",
                    Fraction(1),
                    rubric,
                    NONE,
                    raw,
                    "correct: no utility explains these choices",
                )
            note = "not given" if not present else f"a witness exists, e.g. {self._example_text()}"
            return graded_item("witness", Fraction(0), rubric, example, raw, note)
        missing = sorted(x for x in self.prizes if x not in witness)
        broken: list[int] = []
        notes = []
        deadline = current_deadline()
        for index, choice in enumerate(self.choices):
            deadline.spend(1 + len(self.lotteries[choice.left]) + len(self.lotteries[choice.right]))
            needed = set(self.lotteries[choice.left].outcomes)
            needed |= set(self.lotteries[choice.right].outcomes)
            if needed - set(witness):
                broken.append(index)
                continue
            left = _expected(self.lotteries[choice.left], witness)
            right = _expected(self.lotteries[choice.right], witness)
            if not _holds(left, choice.relation, right):
                broken.append(index)
                notes.append(
                    f"choice {index} says {choice.left} {choice.relation} {choice.right}, but "
                    f"EU({choice.left}) = {left} and EU({choice.right}) = {right}"
                )
        constraints = len(self.choices)
        if self.increasing:
            constraints += 1
            values = [witness.get(x) for x in self.prizes]
            if None in values or any(
                a is not None and b is not None and a >= b
                for a, b in zip(values, values[1:], strict=False)
            ):
                broken.append(len(self.choices))
                notes.append("the utility must increase with money")
        if missing:
            notes.append("no utility given for " + ", ".join(str(x) for x in missing))
        fraction = Fraction(constraints - len(broken), constraints)
        return graded_item(
            "witness",
            fraction,
            rubric,
            example,
            raw,
            "; ".join(notes[:5]) or "correct: it explains every choice",
            [str(x) for x in missing],
            [],
            [str(i) for i in broken if i < len(self.choices)],
        )

    def _diagnose(self, claimed: bool | None) -> list[Diagnosis]:
        if claimed is True and not self.result.consistent:
            certificate = self.result.certificate
            why = f":\n{certificate.explanation}" if certificate is not None else ""
            return [
                Diagnosis(
                    "missed_eu_violation",
                    "the choices are not consistent with any expected utility (as in the "
                    f"Allais paradox){why}",
                    hint="look for choices that no expected utility explains together "
                    "(as in the Allais paradox)",
                )
            ]
        if claimed is False and self.result.consistent:
            return [
                Diagnosis(
                    "spurious_eu_violation",
                    f"an expected utility explains every choice: {self._example_text()}",
                    hint="look for a utility that explains every choice",
                )
            ]
        return []


def _expected(lottery: Lottery, utility: dict[Exact, Fraction]) -> Fraction:
    return sum((Fraction(p) * utility[x] for p, x in lottery), Fraction(0))


def _holds(left: Fraction, relation: str, right: Fraction) -> bool:
    return {
        ">": left > right,
        "<": left < right,
        "~": left == right,
        ">=": left >= right,
        "<=": left <= right,
    }[relation]
