"""Grade answers to normal-form (matrix) problems: pure and mixed Nash equilibria.

A problem is the body of ``/v1/matrices/analyze`` tagged ``"type": "matrix"``;
the answer lists ``pure_equilibria``, each a profile of strategy indices or
labels (``[0, 1]`` or ``["Up", "Right"]``), and/or (two-player games)
``equilibria``, each ``{"row": [...], "col": [...]}`` with probabilities as numbers
or ``"p/q"`` strings, in any order. The key of ``equilibria`` is the set of extreme
equilibria (:func:`analysis.equilibria.vertex_enumeration.extreme_equilibria`). Partial credit is
the F1 score of the listed set against the true one (as for pruned leaves).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analysis.equilibria.pure import best_response_masks, pure_nash_equilibria
from analysis.equilibria.vertex_enumeration import extreme_equilibria
from analysis.grading.answers import FieldsAnswerGrader, under_problem
from analysis.grading.questions import default_questions
from analysis.grading.results import Diagnosis, Expected, GradedItem, f1_fraction, graded_item
from analysis.grading.rubric import Rubric
from games.errors import ArbiterError, InvalidInputError, join_pointer
from games.limits import current_deadline
from games.matrices.model import NormalFormGame
from games.matrices.parser import MatrixLimits, parse_game
from games.numbers import parse_exact

MATRIX_FIELDS: tuple[str, ...] = ("pure_equilibria", "equilibria")

Profile = tuple[int, ...]
Mixed = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]


class MatrixGrader(FieldsAnswerGrader):
    """Grades answers to one matrix problem; the equilibria are found once."""

    fields = MATRIX_FIELDS
    kind = "matrix"

    def __init__(
        self, raw: dict[str, Any], limits: MatrixLimits | None = None, questions: Any = None
    ) -> None:
        """``raw`` is the game (the problem without ``type`` and ``questions``), ``questions``
        the problem's."""
        deadline = current_deadline()
        self.game: NormalFormGame = parse_game(raw, limits, base="/problem")
        deadline.check()
        # mixed equilibria are graded for two-player games only
        self.fields = MATRIX_FIELDS if self.game.is_bimatrix else ("pure_equilibria",)
        self.ask(questions, default_questions("matrix", {"players": self.game.players}))
        self.equilibria: list[Profile] = [e.profile for e in pure_nash_equilibria(self.game)]
        self.masks = best_response_masks(self.game)
        deadline.check()
        self._mixed: list[Mixed] | None = None

    def mixed(self, pointer: str) -> list[Mixed]:
        """The extreme equilibria, exactly, found on first use."""
        if self._mixed is None:
            if not self.game.is_bimatrix:
                raise InvalidInputError(
                    "mixed equilibria are graded for two-player games only", pointer
                )
            try:
                found = extreme_equilibria(self.game, deadline=current_deadline()).equilibria
            except ArbiterError as error:
                raise under_problem(error) from None
            self._mixed = [
                (tuple(Fraction(p) for p in e.row), tuple(Fraction(p) for p in e.col))
                for e in found
            ]
        return self._mixed

    def _profile(self, raw: Any, pointer: str) -> Profile:
        game = self.game
        if not isinstance(raw, list) or len(raw) != game.players:
            raise InvalidInputError(
                f"a profile lists one strategy (index or label) per player ({game.players})",
                pointer,
            )
        profile = []
        for player, entry in enumerate(raw):
            where = f"{pointer}/{player}"
            labels = game.labels[player]
            if type(entry) is int and 0 <= entry < len(labels):
                profile.append(entry)
            elif isinstance(entry, str) and entry in labels:
                profile.append(labels.index(entry))
            else:
                raise InvalidInputError(
                    f"player {player} has strategies 0..{len(labels) - 1} "
                    f"({', '.join(labels)}); got {entry!r}",
                    where,
                )
        return tuple(profile)

    def _name(self, profile: Profile) -> str:
        return "(" + ", ".join(self.game.profile_labels(profile)) + ")"

    def grade_fields(
        self, answer: dict[str, Any], rubric: Rubric, diagnose: bool, pointer: str
    ) -> tuple[list[GradedItem], list[Diagnosis]]:
        items: list[GradedItem] = []
        found: list[Diagnosis] = []
        if rubric.wants("pure_equilibria", answer):
            raw = answer.get("pure_equilibria")
            listed = self._listed(raw, f"{pointer}/pure_equilibria")
            items.append(self._grade_equilibria(listed, raw, rubric))
            if diagnose:
                found = self._diagnose(listed)
        if rubric.wants("equilibria", answer):
            raw = answer.get("equilibria")
            where = join_pointer(pointer, "equilibria")
            expected = self.mixed(where)
            given = self._mixtures(raw, where)
            items.append(self._grade_mixed(expected, given, raw, rubric))
            if diagnose:
                found += self._diagnose_mixed(expected, given, rubric)
        return items, found

    def _listed(self, raw: Any, pointer: str) -> list[Profile]:
        if raw is None:
            return []
        if not isinstance(raw, list):
            raise InvalidInputError("pure_equilibria is a list of profiles", pointer)
        current_deadline().spend(len(raw) * (1 + self.game.players))
        return [self._profile(entry, f"{pointer}/{i}") for i, entry in enumerate(raw)]

    def _grade_equilibria(self, listed: list[Profile], raw: Any, rubric: Rubric) -> GradedItem:
        current_deadline().spend(len(listed) + len(self.equilibria))
        wanted, given = set(self.equilibria), set(listed)
        fraction = f1_fraction(len(wanted & given), len(wanted), len(given))
        missing = [self._name(p) for p in self.equilibria if p not in given]
        extra = [self._name(p) for p in sorted(given - wanted)]
        notes = []
        if missing:
            notes.append("missing: " + ", ".join(missing))
        if extra:
            notes.append("not equilibria: " + ", ".join(extra))
        return graded_item(
            "pure_equilibria",
            fraction,
            rubric,
            Expected([list(p) for p in self.equilibria]),
            raw,
            "; ".join(notes) or "correct",
            missing,
            extra,
        )

    def _diagnose(self, listed: list[Profile]) -> list[Diagnosis]:
        found = []
        deadline = current_deadline()
        for profile in sorted(set(listed) - set(self.equilibria)):
            deadline.spend(1 + self.game.players)
            stable = [bool(self.masks[player][profile]) for player in range(self.game.players)]
            if any(stable):
                player = stable.index(False)
                found.append(
                    Diagnosis(
                        "one_sided_best_response",
                        f"at {self._name(profile)} only some players best-respond: player "
                        f"{player} gains by deviating, so it is not an equilibrium",
                        self._name(profile),
                        f"at {self._name(profile)}, which you list, does every player "
                        "best-respond?",
                    )
                )
        return found

    # -- mixed equilibria ------------------------------------------------------------

    def _mixtures(self, raw: Any, pointer: str) -> list[Mixed]:
        if raw is None:
            return []
        if not isinstance(raw, list):
            raise InvalidInputError('equilibria is a list of {"row": [...], "col": [...]}', pointer)
        rows, cols = self.game.shape
        found: list[Mixed] = []
        deadline = current_deadline()
        for i, entry in enumerate(raw):
            deadline.spend(rows + cols)
            where = f"{pointer}/{i}"
            if not isinstance(entry, dict) or set(entry) != {"row", "col"}:
                raise InvalidInputError(
                    'an equilibrium is {"row": [probabilities], "col": [probabilities]}', where
                )
            row = _strategy(entry["row"], rows, f"{where}/row")
            col = _strategy(entry["col"], cols, f"{where}/col")
            found.append((row, col))
        return found

    def _mixed_name(self, profile: Mixed) -> str:
        row, col = profile
        return "row (" + ", ".join(map(str, row)) + "), col (" + ", ".join(map(str, col)) + ")"

    def _grade_mixed(
        self, expected: list[Mixed], given: list[Mixed], raw: Any, rubric: Rubric
    ) -> GradedItem:
        distinct = list(dict.fromkeys(given))
        unmatched = list(expected)
        extra: list[Mixed] = []
        deadline = current_deadline()
        rows, cols = self.game.shape
        for profile in distinct:
            # each comparison may look at every probability of every equilibrium left
            deadline.spend(1 + len(unmatched) * (rows + cols))
            match = next((e for e in unmatched if _close(profile, e, rubric)), None)
            if match is None:
                extra.append(profile)
            else:
                unmatched.remove(match)
        matched = len(expected) - len(unmatched)
        fraction = f1_fraction(matched, len(expected), len(distinct))
        missing = [self._mixed_name(e) for e in unmatched]
        wrong = [self._mixed_name(e) for e in extra]
        notes = []
        if missing:
            notes.append("missing: " + "; ".join(missing))
        for profile in extra:
            if any(sum(mix) != 1 for mix in profile) and rubric.tolerance == "exact":
                notes.append(f"{self._mixed_name(profile)} is not a pair of distributions")
            else:
                notes.append(f"not an equilibrium: {self._mixed_name(profile)}")
        return graded_item(
            "equilibria",
            fraction,
            rubric,
            Expected.of([{"row": list(row), "col": list(col)} for row, col in expected]),
            raw,
            "; ".join(notes) or "correct",
            missing,
            wrong,
        )

    def _diagnose_mixed(
        self, expected: list[Mixed], given: list[Mixed], rubric: Rubric
    ) -> list[Diagnosis]:
        """``own_indifference``: in a 2x2 game, each player mixed to make himself
        indifferent instead of the other player."""
        mistaken = self._own_indifference()
        if mistaken is None or any(_close(mistaken, e, rubric) for e in expected):
            return []
        deadline = current_deadline()
        for profile in given:
            deadline.spend(4)
            if _close(profile, mistaken, rubric):
                return [
                    Diagnosis(
                        "own_indifference",
                        f"{self._mixed_name(profile)} makes each player indifferent between "
                        "his own strategies; in an equilibrium each player's mix makes the "
                        "other player indifferent",
                        self._mixed_name(profile),
                        f"{self._mixed_name(profile)} makes each player indifferent between "
                        "his own strategies; in an equilibrium whose mix makes whom "
                        "indifferent?",
                    )
                ]
        return []

    def _own_indifference(self) -> Mixed | None:
        if self.game.shape != (2, 2):
            return None
        a, b = self.game.row_payoffs, self.game.col_payoffs
        # row's mix x equalises the row player's own column payoffs: x0 * da + x1 * db = 0
        x0 = _root(Fraction(a[0][0] - a[0][1]), Fraction(a[1][0] - a[1][1]))
        y0 = _root(Fraction(b[0][0] - b[1][0]), Fraction(b[0][1] - b[1][1]))
        if x0 is None or y0 is None:
            return None
        return (x0, 1 - x0), (y0, 1 - y0)


def _root(first: Fraction, second: Fraction) -> Fraction | None:
    """``t`` in [0, 1] with ``t * first + (1 - t) * second = 0``, if unique."""
    if first == second:
        return None
    t = second / (second - first)
    return t if 0 <= t <= 1 else None


def _strategy(raw: Any, size: int, pointer: str) -> tuple[Fraction, ...]:
    if not isinstance(raw, list) or len(raw) != size:
        raise InvalidInputError(f"expected a list of {size} probabilities", pointer)
    mix = []
    for i, entry in enumerate(raw):
        p = Fraction(parse_exact(entry, f"{pointer}/{i}"))
        if not 0 <= p <= 1:
            raise InvalidInputError(
                f"a probability lies in [0, 1], got {entry!r}", f"{pointer}/{i}"
            )
        mix.append(p)
    return tuple(mix)


def _close(given: Mixed, expected: Mixed, rubric: Rubric) -> bool:
    return all(
        rubric.close(g, e)
        for given_mix, expected_mix in zip(given, expected, strict=True)
        for g, e in zip(given_mix, expected_mix, strict=True)
    )
