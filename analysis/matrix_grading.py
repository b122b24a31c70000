"""Grade answers to normal-form (matrix) problems: the pure Nash equilibria.

A problem is the body of ``/v1/matrices/analyze`` tagged ``"type": "matrix"``;
the answer lists ``pure_equilibria``, each a profile of strategy indices or
labels (``[0, 1]`` or ``["Up", "Right"]``), in any order. Partial credit is
the F1 score of the listed set against the true one (as for pruned leaves).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analysis.grading import DEFAULT_POINTS, Diagnosis, Grade, GradedItem, Rubric, graded_item
from analysis.pure_equilibria import best_response_masks, pure_nash_equilibria
from games.errors import InvalidInputError, join_pointer
from games.matrix import NormalFormGame
from games.matrix_format import MatrixLimits, parse_game

MATRIX_FIELDS = frozenset({"pure_equilibria"})
EQUILIBRIA_POINTS = DEFAULT_POINTS["pure_equilibria"]

Profile = tuple[int, ...]


class MatrixGrader:
    """Grades answers to one matrix problem; the equilibria are found once."""

    def __init__(self, raw: dict[str, Any], limits: MatrixLimits | None = None) -> None:
        self.game: NormalFormGame = parse_game(raw, limits, base="/problem")
        self.equilibria: list[Profile] = [e.profile for e in pure_nash_equilibria(self.game)]
        self.masks = best_response_masks(self.game)

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

    def grade(
        self,
        raw_answer: Any,
        rubric: Rubric | None = None,
        diagnose: bool = True,
        pointer: str = "/answer",
    ) -> Grade:
        rubric = rubric or Rubric()
        if not isinstance(raw_answer, dict):
            raise InvalidInputError("an answer is an object", pointer)
        for name in raw_answer:
            if name not in MATRIX_FIELDS:
                raise InvalidInputError(
                    f"unknown answer field {name!r}; matrix answers give pure_equilibria",
                    join_pointer(pointer, name),
                )
        items: list[GradedItem] = []
        found: list[Diagnosis] = []
        raw = raw_answer.get("pure_equilibria")
        if raw is not None or "pure_equilibria" in rubric.required:
            listed = self._listed(raw, f"{pointer}/pure_equilibria")
            items.append(self._grade_equilibria(listed, raw, rubric))
            if diagnose:
                found = self._diagnose(listed)
        total = sum(item.score for item in items)
        return Grade(total, sum(item.max_score for item in items), items, found)

    def _listed(self, raw: Any, pointer: str) -> list[Profile]:
        if raw is None:
            return []
        if not isinstance(raw, list):
            raise InvalidInputError("pure_equilibria is a list of profiles", pointer)
        return [self._profile(entry, f"{pointer}/{i}") for i, entry in enumerate(raw)]

    def _grade_equilibria(self, listed: list[Profile], raw: Any, rubric: Rubric) -> GradedItem:
        points = rubric.points.get("pure_equilibria", EQUILIBRIA_POINTS)
        wanted, given = set(self.equilibria), set(listed)
        matched = len(wanted & given)
        total = len(wanted) + len(given)
        fraction = Fraction(2 * matched, total) if total else Fraction(1)
        missing = [self._name(p) for p in self.equilibria if p not in given]
        extra = [self._name(p) for p in sorted(given - wanted)]
        notes = []
        if missing:
            notes.append("missing: " + ", ".join(missing))
        if extra:
            notes.append("not equilibria: " + ", ".join(extra))
        return graded_item(
            "pure_equilibria",
            points,
            fraction,
            rubric,
            [list(p) for p in self.equilibria],
            raw,
            "; ".join(notes) or "correct",
            missing,
            extra,
        )

    def _diagnose(self, listed: list[Profile]) -> list[Diagnosis]:
        found = []
        for profile in sorted(set(listed) - set(self.equilibria)):
            stable = [bool(self.masks[player][profile]) for player in range(self.game.players)]
            if any(stable):
                player = stable.index(False)
                found.append(
                    Diagnosis(
                        "one_sided_best_response",
                        f"at {self._name(profile)} only some players best-respond: player "
                        f"{player} gains by deviating, so it is not an equilibrium",
                        self._name(profile),
                    )
                )
        return found
