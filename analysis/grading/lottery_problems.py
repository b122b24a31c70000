"""Grade answers to lottery problems: EMV, expected utility, certainty equivalent,
risk premium and risk attitude.

A problem is the body of ``/v1/lotteries/evaluate`` tagged ``"type": "lottery"``.
Numbers are compared exactly when the answer is exact; a decimal answer is
also right when it is the true value correctly rounded to the decimals written
(``0.732`` for ``sqrt(3) - 1``), unless the rubric sets a tolerance.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from analysis.grading.answers import FieldsAnswerGrader
from analysis.grading.questions import default_questions
from analysis.grading.results import Diagnosis, Expected, GradedItem, graded_item
from analysis.grading.rubric import Rubric
from games.errors import InvalidInputError, join_pointer
from games.limits import current_deadline
from games.numbers import Exact, parse_exact
from utility.evaluate import Evaluation, evaluate_lottery
from utility.formula import parse_parameters
from utility.function import read_utility
from utility.lottery import parse_lottery

NUMBER_FIELDS: Final = ("emv", "expected_utility", "certainty_equivalent", "risk_premium")
LOTTERY_FIELDS: Final = (*NUMBER_FIELDS, "attitude")
ATTITUDES: Final = ("risk_averse", "risk_neutral", "risk_seeking", "mixed")


def _decimals(raw: Any) -> int:
    """Decimal places the student wrote (0 for integers and fractions)."""
    text = repr(raw) if isinstance(raw, float) else str(raw) if isinstance(raw, str) else ""
    if "e" in text.lower() or "." not in text:
        return 0
    return len(text.split(".")[1].strip())


class LotteryGrader(FieldsAnswerGrader):
    """Grades answers to one lottery problem; the lottery is evaluated once."""

    fields = LOTTERY_FIELDS
    kind = "lottery"

    def __init__(self, raw: dict[str, Any]) -> None:
        for name in raw:
            if name not in (
                "type",
                "lottery",
                "utility",
                "parameters",
                "wealth",
                "reduce",
                "questions",
            ):
                raise InvalidInputError(f"unknown problem field {name!r}", f"/problem/{name}")
        if "lottery" not in raw:
            raise InvalidInputError("the problem has no lottery", "/problem/lottery")
        self.ask(raw.get("questions"), default_questions("lottery"))
        parameters = parse_parameters(raw.get("parameters") or {}, "/problem/parameters")
        utility = read_utility(raw.get("utility"), parameters, "/problem/utility")
        wealth = parse_exact(raw.get("wealth", 0), "/problem/wealth")
        deadline = current_deadline()
        parsed = parse_lottery(raw["lottery"], "/problem/lottery")
        deadline.check()
        self.result: Evaluation = evaluate_lottery(parsed.lottery, utility, wealth, parsed.pointers)
        deadline.check()

    def expected(self, name: str) -> tuple[Exact | None, float]:
        """The exact value where it is rational, and the float value."""
        if name == "emv":
            return self.result.emv, float(self.result.emv)
        text = getattr(self.result, f"{name}_exact")
        try:
            exact = parse_exact(text, "") if text is not None else None
        except InvalidInputError:
            exact = None  # irrational, such as sqrt(3) - 1
        return exact, float(getattr(self.result, name))

    def matches(self, name: str, given: Exact, raw: Any, rubric: Rubric) -> bool:
        exact, approximate = self.expected(name)
        target: Exact = exact if exact is not None else Fraction(approximate)
        if rubric.tolerance != "exact":
            return rubric.close(given, target)
        if exact is not None and given == exact:
            return True
        places = _decimals(raw)
        return places > 0 and abs(Fraction(given) - Fraction(approximate)) <= Fraction(
            1, 2 * 10**places
        ) + Fraction(1, 10**12)

    def grade_fields(
        self, answer: dict[str, Any], rubric: Rubric, diagnose: bool, pointer: str
    ) -> tuple[list[GradedItem], list[Diagnosis]]:
        given: dict[str, Any] = {}
        for name, raw in answer.items():
            where = join_pointer(pointer, name)
            if name == "attitude":
                if raw not in ATTITUDES:
                    raise InvalidInputError(f"attitude is one of {', '.join(ATTITUDES)}", where)
                given[name] = raw
            else:
                given[name] = parse_exact(raw, where)
        items = [
            self._item(name, given.get(name), answer.get(name), rubric)
            for name in LOTTERY_FIELDS
            if rubric.wants(name, given)
        ]
        return items, self._diagnose(given, answer, rubric) if diagnose else []

    def _item(self, name: str, given: Any, raw: Any, rubric: Rubric) -> GradedItem:
        if name == "attitude":
            expected = Expected(self.result.attitude)
            shown: Any = self.result.attitude
            right = given == self.result.attitude
        else:
            exact, approximate = self.expected(name)
            # an irrational value has no exact form: its float is all there is
            expected = Expected.of(exact if exact is not None else approximate)
            shown = exact if exact is not None else approximate
            right = given is not None and self.matches(name, given, raw, rubric)
        if given is None:
            feedback = "not given"
        elif right:
            feedback = "correct"
        else:
            feedback = f"your {name.replace('_', ' ')} {raw} is wrong; it is {shown}"
        return graded_item(name, Fraction(1 if right else 0), rubric, expected, raw, feedback)

    def _diagnose(self, given: dict[str, Any], raw: Any, rubric: Rubric) -> list[Diagnosis]:
        found = []
        ce = given.get("certainty_equivalent")
        result = self.result
        if ce is not None and not self.matches(
            "certainty_equivalent", ce, raw.get("certainty_equivalent"), rubric
        ):
            if self.matches("emv", ce, raw.get("certainty_equivalent"), rubric):
                found.append(
                    Diagnosis(
                        "emv_as_certainty_equivalent",
                        f"the certainty equivalent given is the EMV ({result.emv}); it is "
                        f"U^-1(E[U]) = {result.certainty_equivalent}",
                        hint="the certainty equivalent you give is the EMV; the certainty "
                        "equivalent is U^-1(E[U])",
                    )
                )
            elif self.matches("expected_utility", ce, raw.get("certainty_equivalent"), rubric):
                found.append(
                    Diagnosis(
                        "utility_not_inverted",
                        "the certainty equivalent given is the expected utility; apply U^-1 "
                        f"to it: {result.certainty_equivalent}",
                        hint="the certainty equivalent you give is the expected utility; "
                        "apply U^-1 to it",
                    )
                )
        premium = given.get("risk_premium")
        if premium is not None and result.risk_premium != 0:
            raw_premium = raw.get("risk_premium")
            negated = -Fraction(premium)
            if not self.matches("risk_premium", premium, raw_premium, rubric) and self.matches(
                "risk_premium", negated, raw_premium, rubric
            ):
                found.append(
                    Diagnosis(
                        "risk_premium_sign",
                        f"the risk premium is EMV - CE, not CE - EMV: {result.risk_premium}",
                        hint="the risk premium is EMV - CE, not CE - EMV",
                    )
                )
        return found
