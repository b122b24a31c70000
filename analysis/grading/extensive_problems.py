"""Grade answers to problems on games with information sets: the value, and a behaviour
strategy or a whole profile, graded by what it guarantees rather than by the key's numbers.

A problem is the body of ``/v1/extensive/solve`` (``efg`` or ``game``) tagged
``"type": "extensive"``, with the ``player`` whose strategy is asked (a name of the game's
players; default the first). The answer gives, under the game's own names:

* ``value``: player 1's equilibrium payoff in a two-player zero-sum (constant-sum) game,
  exact (``"-1/18"``) or a decimal, compared within the rubric's tolerance;
* ``strategy``: a behaviour strategy of the problem's player in such a game,
  ``{information set: {action: probability}}`` (actions left out get 0; a list in the
  set's action order is read too). It is right when it is an equilibrium strategy: its
  worst case, the payoff the opponent's exact best response leaves it, equals the player's
  value (in zero-sum games every equilibrium strategy does, whichever the key holds);
* ``profile``: a strategy for every player, ``{player: {information set: {action: p}}}``
  (the body of ``/v1/extensive/check``), right when its exact NashConv is 0: no player
  gains by deviating. It is the question of games that are not zero-sum.

A set the player's own strategy never reaches may be left out (nothing there changes what
the strategy guarantees). Partial credit (``docs/grading.md``): a strategy that is not an
equilibrium one earns half its points times the share of the uniform strategy's
exploitability it removes, ``1/2 * max(0, 1 - gap / uniform_gap)``; probabilities that do
not sum to 1 at a set are normalised and a reached set left out is played uniformly, the
strategy so repaired graded the same way, so that it earns at most half.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np

from analysis.extensive.policy import BehaviourProfile, TreeArrays, as_fraction
from analysis.extensive.solve import ExtensiveSolution, Method, solve_extensive
from analysis.grading.answers import FieldsAnswerGrader
from analysis.grading.questions import NOT_ANSWERED, default_questions
from analysis.grading.results import NONE, Diagnosis, Expected, GradedItem, graded_item
from analysis.grading.rubric import Rubric
from games.errors import InvalidInputError, join_pointer
from games.extensive.efg import read_efg
from games.extensive.json_form import read_json_form
from games.extensive.model import ExtensiveGame
from games.limits import Limits, current_deadline
from games.numbers import Exact, parse_exact

EXTENSIVE_FIELDS: Final[tuple[str, ...]] = ("value", "strategy", "profile")
PROBLEM_FIELDS: Final = frozenset({"type", "efg", "game", "player", "questions"})
MAX_NAMED: Final = 10
"""Most information sets a diagnosis names (the rest are counted)."""

Row = tuple[Fraction, ...]


def read_problem_game(raw: dict[str, Any], limits: Limits | None = None) -> ExtensiveGame:
    """The problem's game, given once as ``efg`` (Gambit text) or ``game`` (the JSON form)."""
    given = [name for name in ("efg", "game") if raw.get(name) is not None]
    if len(given) != 1:
        raise InvalidInputError(
            'give the game once: "efg" (Gambit .efg text) or "game" (the JSON form)'
            + (", not both" if given else ""),
            "/problem/game" if given else "/problem",
        )
    if given[0] == "efg":
        if not isinstance(raw["efg"], str):
            raise InvalidInputError("efg is the .efg file's text", "/problem/efg")
        return read_efg(raw["efg"], limits=limits, pointer="/problem/efg")
    return read_json_form(raw["game"], limits=limits, pointer="/problem/game")


@dataclass(frozen=True, slots=True)
class ReadStrategy:
    """One player's strategy as read from an answer: a distribution at every set of theirs
    (repaired where it was not one), and what was repaired."""

    rows: dict[int, Row]
    """Information set -> probabilities, for every set of the player."""
    unsummed: list[tuple[int, Fraction]]
    """Sets whose probabilities summed to something else than 1 (normalised), with the sum."""
    missing: list[int]
    """Sets left out that the player's own strategy reaches (played uniformly)."""
    given: int
    """How many sets the answer gave."""

    @property
    def well_formed(self) -> bool:
        return not self.unsummed and not self.missing


class ExtensiveGrader(FieldsAnswerGrader):
    """Grades answers to one problem on a game with information sets; the game is solved
    once, each answer's strategy evaluated by exact best responses."""

    fields = EXTENSIVE_FIELDS
    kind = "extensive"

    def __init__(self, raw: dict[str, Any], limits: Limits | None = None) -> None:
        for name in raw:
            if name not in PROBLEM_FIELDS:
                raise InvalidInputError(
                    f"unknown problem field {name!r}; an extensive problem has "
                    f"{', '.join(sorted(PROBLEM_FIELDS))}",
                    join_pointer("/problem", name),
                )
        deadline = current_deadline()
        self.game = game = read_problem_game(raw, limits)
        self.zero_sum = game.zero_sum
        self.fields = EXTENSIVE_FIELDS if self.zero_sum else ("profile",)
        self.player = _player(game, raw.get("player"))
        self.opponent = 1 - self.player if self.zero_sum else -1
        self.ask(raw.get("questions"), default_questions("extensive", {"zero_sum": self.zero_sum}))
        deadline.check()
        self.arrays = TreeArrays(game)
        self._solution: ExtensiveSolution | None = None
        self._uniform_gaps: dict[str, Fraction] = {}

    # -- the key ----------------------------------------------------------------------

    @property
    def solution(self) -> ExtensiveSolution:
        """The exact equilibrium (the sequence-form LP, or Lemke's algorithm), on first use."""
        if self._solution is None:
            method: Method = "sequence_lp" if self.zero_sum else "lemke"
            self._solution = solve_extensive(self.game, method)
        return self._solution

    @property
    def value(self) -> Fraction:
        """Player 1's value (zero-sum games)."""
        found = self.solution.value
        assert isinstance(found, Fraction)
        return found

    def player_value(self, player: int) -> Fraction:
        """What ``player`` can guarantee in the zero-sum game."""
        total = self.game.constant_sum
        assert total is not None
        return self.value if player == 0 else total - self.value

    def key_rows(self) -> list[Row]:
        rows = self.solution.profile.probabilities
        return [tuple(Fraction(p) for p in row) for row in rows]

    def strategy_json(
        self, player: int, rows: Sequence[Row]
    ) -> dict[str, dict[str, Fraction] | None]:
        """``{information set: {action: probability}}`` of ``player``, ``null`` at the sets
        ``player``'s own strategy never reaches (any play there guarantees the same)."""
        mine = self.game.player_infosets(player)
        reached = self._own_reach(player, {h: rows[h] for h in mine})
        shown: dict[str, dict[str, Fraction] | None] = {}
        for h in mine:
            infoset = self.game.infosets[h]
            row = dict(zip(infoset.actions, rows[h], strict=True))
            shown[infoset.name] = row if reached[h] else None
        return shown

    # -- grading ----------------------------------------------------------------------

    def grade_fields(
        self, answer: dict[str, Any], rubric: Rubric, diagnose: bool, pointer: str
    ) -> tuple[list[GradedItem], list[Diagnosis]]:
        items: list[GradedItem] = []
        found: list[Diagnosis] = []
        if rubric.wants("value", answer):
            item, more = self._grade_value(answer.get("value"), pointer, rubric)
            items.append(item)
            found += more
        if rubric.wants("strategy", answer):
            item, more = self._grade_strategy(answer.get("strategy"), pointer, rubric)
            items.append(item)
            found += more
        if rubric.wants("profile", answer):
            item, more = self._grade_profile(answer.get("profile"), pointer, rubric)
            items.append(item)
            found += more
        return items, found if diagnose else []

    def _grade_value(
        self, raw: Any, pointer: str, rubric: Rubric
    ) -> tuple[GradedItem, list[Diagnosis]]:
        value = self.value
        expected = Expected.of(value)
        if raw is None:
            return graded_item("value", Fraction(0), rubric, expected, raw, NOT_ANSWERED), []
        given = Fraction(parse_exact(raw, join_pointer(pointer, "value")))
        right = rubric.close(given, value)
        feedback = "correct" if right else f"your value {raw} is wrong; it is {value}"
        item = graded_item("value", Fraction(int(right)), rubric, expected, raw, feedback)
        if right:
            return item, []
        found = []
        names = self.game.players
        other = self.player_value(1)
        if other != value and rubric.close(given, other):
            found.append(
                Diagnosis(
                    "value_of_other_player",
                    f"{raw} is what {names[1]} can guarantee; the value asked is {names[0]}'s "
                    f"payoff, {value}",
                    hint=f"the value asked is {names[0]}'s payoff; the one you give is "
                    f"{names[1]}'s",
                )
            )
        else:
            uniform = self.arrays.expected_payoffs(self.arrays.flat(self._uniform()))[0]
            if uniform != value and rubric.close(given, Fraction(uniform)):
                found.append(
                    Diagnosis(
                        "value_of_uniform_play",
                        f"{raw} is {names[0]}'s payoff when both players choose uniformly at "
                        f"random; the value is what {names[0]} can guarantee against a best "
                        f"response: {value}",
                        hint="the value you give is the payoff of uniformly random play; the "
                        "value is what a player can guarantee against a best response",
                    )
                )
        return item, found

    def _grade_strategy(
        self, raw: Any, pointer: str, rubric: Rubric
    ) -> tuple[GradedItem, list[Diagnosis]]:
        player, opponent = self.player, self.opponent
        where = join_pointer(pointer, "strategy")
        key = self.key_rows()
        expected = Expected.of(self.strategy_json(player, key))
        read = self._read_strategy(raw, player, where) if raw is not None else None
        if read is None or read.given == 0:
            return graded_item("strategy", Fraction(0), rubric, expected, raw, NOT_ANSWERED), []
        rows = list(key)  # the opponent's part is the key's: only their best response counts
        for h, row in read.rows.items():
            rows[h] = row
        flat = self.arrays.flat(BehaviourProfile(tuple(rows)))
        response = self.arrays.best_response(flat, opponent)
        total = self.game.constant_sum
        assert total is not None
        worst = total - as_fraction_of(response.value)
        target = self.player_value(player)
        gap = target - worst
        unexploited = rubric.close(worst, target)
        right = read.well_formed and unexploited
        uniform_gap = self._uniform_gap("strategy")
        fraction = Fraction(1) if right else _half_credit(gap, uniform_gap, unexploited)
        names = self.game.players
        notes = _repair_notes(self.game, read)
        exploited: list[tuple[int, Fraction]] = []
        if unexploited:
            notes.append(f"it guarantees {names[player]}'s value {target}")
        else:
            exploited = deviation_gains(self.game, self.arrays, flat, opponent, key)
            notes.append(
                f"against it {names[opponent]}'s best response holds {names[player]} to "
                f"{worst}, not the value {target}: {names[opponent]} gains {gap} by deviating "
                "from equilibrium play"
                + (f", at {_gains(self.game, exploited)}" if exploited else "")
            )
        item = graded_item(
            "strategy",
            fraction,
            rubric,
            expected,
            raw,
            "correct" if right else "; ".join(notes),
            missing=[self.game.infosets[h].name for h in read.missing],
            wrong=[self.game.infosets[h].name for h, _ in read.unsummed],
        )
        found = _repair_diagnoses(self.game, read)
        if not unexploited:
            found.append(
                _deviation(
                    self.game,
                    "exploitable_strategy",
                    f"the strategy is not an equilibrium strategy: {names[opponent]}'s best "
                    f"response holds {names[player]} to {worst} instead of the value {target}, "
                    f"a gain of {gap} for {names[opponent]}",
                    exploited,
                    f"{names[opponent]} can exploit your strategy",
                    f"what does each of {names[opponent]}'s actions earn against it there?",
                )
            )
        return item, found

    def _grade_profile(
        self, raw: Any, pointer: str, rubric: Rubric
    ) -> tuple[GradedItem, list[Diagnosis]]:
        game = self.game
        where = join_pointer(pointer, "profile")
        expected = NONE
        if len(game.players) == 2:
            key = self.key_rows()
            expected = Expected.of(
                {name: self.strategy_json(p, key) for p, name in enumerate(game.players)}
            )
        if raw is None:
            return graded_item("profile", Fraction(0), rubric, expected, raw, NOT_ANSWERED), []
        if not isinstance(raw, dict):
            raise InvalidInputError(
                "a profile maps each player to their strategy: {player: {information set: "
                "{action: probability}}}",
                where,
            )
        players = {name: index for index, name in reversed(list(enumerate(game.players)))}
        for name in raw:
            if name not in players:
                raise InvalidInputError(
                    f"the game has no player {name!r} (its players: {list(game.players)})",
                    join_pointer(where, name),
                )
        reads = [
            self._read_strategy(raw.get(name, {}) or {}, p, join_pointer(where, name))
            for p, name in enumerate(game.players)
        ]
        if all(read.given == 0 for read in reads):
            return graded_item("profile", Fraction(0), rubric, expected, raw, NOT_ANSWERED), []
        rows: list[Row] = [()] * len(game.infosets)
        for read in reads:
            for h, row in read.rows.items():
                rows[h] = row
        flat = self.arrays.flat(BehaviourProfile(tuple(rows)))
        evaluation = self.arrays.evaluate_flat(flat)
        conv = as_fraction_of(evaluation.nash_conv)
        stable = rubric.close(conv, Fraction(0))
        well_formed = all(read.well_formed for read in reads)
        right = well_formed and stable
        fraction = (
            Fraction(1) if right else _half_credit(conv, self._uniform_gap("profile"), stable)
        )
        notes: list[str] = []
        found: list[Diagnosis] = []
        for read in reads:
            notes += _repair_notes(game, read)
            found += _repair_diagnoses(game, read)
        if stable:
            notes.append("no player gains by deviating: a Nash equilibrium")
        else:
            notes.append(f"NashConv {conv}: the players' gains from deviating add up to it")
        for p, name in enumerate(game.players):
            response = evaluation.best_responses[p]
            gain = as_fraction_of(response.value) - as_fraction_of(evaluation.payoffs[p])
            if gain <= 0 or stable:
                continue
            gains = deviation_gains(game, self.arrays, flat, p, rows)
            found.append(
                _deviation(
                    game,
                    "profitable_deviation",
                    f"{name} gains {gain} by deviating: {as_fraction_of(response.value)} "
                    f"against the others instead of {as_fraction_of(evaluation.payoffs[p])}",
                    gains,
                    f"{name} gains by deviating from your profile",
                    f"is {name}'s choice there a best reply to the others'?",
                )
            )
        item = graded_item(
            "profile",
            fraction,
            rubric,
            expected,
            raw,
            "correct" if right else "; ".join(notes),
            missing=[game.infosets[h].name for read in reads for h in read.missing],
            wrong=[game.infosets[h].name for read in reads for h, _ in read.unsummed],
        )
        return item, found

    # -- reading ----------------------------------------------------------------------

    def _read_strategy(self, raw: Any, player: int, pointer: str) -> ReadStrategy:
        """Read one player's strategy (see the module); refuse unknown sets and actions and
        probabilities outside [0, 1] with a pointer."""
        game = self.game
        mine = game.player_infosets(player)
        by_name: dict[str, int] = {}
        for h in mine:
            name = game.infosets[h].name
            if name in by_name:
                raise InvalidInputError(
                    f"two information sets of {game.players[player]} are named {name!r}: "
                    "strategies name sets, so give them different names",
                    "/problem",
                )
            by_name[name] = h
        if not isinstance(raw, dict):
            raise InvalidInputError(
                "a strategy maps information sets to {action: probability}", pointer
            )
        current_deadline().spend(len(raw) + len(mine))
        given: dict[int, tuple[Exact, ...]] = {}
        for name, row in raw.items():
            here = join_pointer(pointer, name)
            found = by_name.get(name)
            if found is None:
                raise InvalidInputError(
                    f"{game.players[player]} has no information set {name!r} (theirs: "
                    f"{_listed([game.infosets[k].name for k in mine])})",
                    here,
                )
            if row is None:
                continue  # a set the answer template names and the student left blank
            given[found] = _row(row, game.infosets[found].actions, here)
        rows: dict[int, Row] = {}
        unsummed: list[tuple[int, Fraction]] = []
        for h, probabilities in given.items():
            total = Fraction(sum(probabilities))
            size = len(probabilities)
            if total == 1:
                rows[h] = tuple(Fraction(p) for p in probabilities)
                continue
            unsummed.append((h, total))
            if total == 0:
                rows[h] = tuple(Fraction(1, size) for _ in range(size))
            else:
                rows[h] = tuple(Fraction(p) / total for p in probabilities)
        absent = [h for h in mine if h not in rows]
        for h in absent:
            size = len(game.infosets[h].actions)
            rows[h] = tuple(Fraction(1, size) for _ in range(size))
        reached = self._own_reach(player, rows)
        missing = [h for h in absent if reached[h]]
        return ReadStrategy(rows, unsummed, missing, len(given))

    def _own_reach(self, player: int, rows: dict[int, Row]) -> dict[int, bool]:
        """Whether the player's own moves under ``rows`` can lead to each of their sets."""
        game = self.game
        reach = [False] * len(game.nodes)
        reach[0] = True
        found: dict[int, bool] = {}
        for index, node in enumerate(game.nodes):  # parents come first
            if node.player == player:
                found[node.infoset] = found.get(node.infoset, False) or reach[index]
                row = rows[node.infoset]
                for action, child in enumerate(node.children):
                    reach[child] = reach[index] and row[action] > 0
            else:
                for child in node.children:
                    reach[child] = reach[index]
        return found

    def _uniform(self) -> BehaviourProfile:
        game = self.game
        return BehaviourProfile(
            tuple(tuple(Fraction(1, len(s.actions)) for _ in s.actions) for s in game.infosets)
        )

    def _uniform_gap(self, field: str) -> Fraction:
        """The uniform strategy's exploitability (``strategy``: what the asked player loses
        against a best response; ``profile``: NashConv), the yardstick of partial credit."""
        if field not in self._uniform_gaps:
            flat = self.arrays.flat(self._uniform())
            if field == "strategy":
                response = self.arrays.best_response(flat, self.opponent)
                total = self.game.constant_sum
                assert total is not None
                worst = total - as_fraction_of(response.value)
                gap = self.player_value(self.player) - worst
            else:
                gap = as_fraction_of(self.arrays.evaluate_flat(flat).nash_conv)
            self._uniform_gaps[field] = gap
        return self._uniform_gaps[field]


def deviation_gains(
    game: ExtensiveGame,
    arrays: TreeArrays,
    flat: Any,
    player: int,
    mixes: Sequence[Row],
) -> list[tuple[int, Fraction]]:
    """The sets of ``player`` where playing ``mixes`` is not a best reply to the others'
    strategies in ``flat``, and what the best action gains there (counterfactually:
    weighted by the probability that chance and the others bring play there), each with
    ``player``'s best response below it. Sets the others never bring play to gain nothing."""
    response = arrays.best_response(flat, player)
    rows = list(arrays.profile(flat).probabilities)
    for h, action in zip(game.player_infosets(player), response.actions, strict=True):
        size = len(game.infosets[h].actions)
        rows[h] = tuple(Fraction(int(a == action)) for a in range(size))
    edge = arrays.edge_probabilities(arrays.flat(BehaviourProfile(tuple(rows))))
    values = arrays.values(edge, player)
    others = arrays.reach(np.where(arrays.acting == player, 1, edge).astype(edge.dtype))
    position = arrays.position
    spend = current_deadline().spend
    found = []
    for h in game.player_infosets(player):
        infoset = game.infosets[h]
        spend(len(infoset.nodes) * len(infoset.actions))
        q = [Fraction(0)] * len(infoset.actions)
        for node in infoset.nodes:
            weight = as_fraction(others[position[node]])
            if weight == 0:
                continue
            for a, child in enumerate(game.nodes[node].children):
                q[a] += weight * as_fraction(values[position[child]])
        mix = mixes[h]
        gain = max(q) - sum((Fraction(p) * v for p, v in zip(mix, q, strict=True)), Fraction(0))
        if gain > 0:
            found.append((h, gain))
    return found


def as_fraction_of(value: Fraction | float) -> Fraction:
    """An exact evaluation's number (always a Fraction here) as a Fraction."""
    return value if isinstance(value, Fraction) else Fraction(value)


def _half_credit(gap: Fraction, uniform_gap: Fraction, unexploited: bool) -> Fraction:
    """Half the points times the share of the uniform strategy's gap removed."""
    if unexploited:
        return Fraction(1, 2)
    if uniform_gap <= 0:
        return Fraction(0)
    return max(Fraction(0), 1 - gap / uniform_gap) / 2


def _row(raw: Any, actions: tuple[str, ...], pointer: str) -> tuple[Exact, ...]:
    """One set's probabilities, ``{action: p}`` or a list in action order, each in [0, 1]."""
    if isinstance(raw, list):
        if len(raw) != len(actions):
            raise InvalidInputError(
                f"expected {len(actions)} probabilities, one per action ({_listed(actions)})",
                pointer,
            )
        entries = [(join_pointer(pointer, i), entry) for i, entry in enumerate(raw)]
    elif isinstance(raw, dict):
        for action in raw:
            if action not in actions:
                raise InvalidInputError(
                    f"no action {action!r} here (the actions: {_listed(actions)})",
                    join_pointer(pointer, action),
                )
        entries = [(join_pointer(pointer, a), raw.get(a, 0)) for a in actions]
    else:
        raise InvalidInputError(
            "an information set's entry is {action: probability} (or a list in action order)",
            pointer,
        )
    row = []
    for where, entry in entries:
        p = parse_exact(entry if entry is not None else 0, where)
        if not 0 <= p <= 1:
            raise InvalidInputError(f"a probability lies in [0, 1], got {entry!r}", where)
        row.append(p)
    return tuple(row)


def _player(game: ExtensiveGame, raw: Any) -> int:
    """The problem's ``player``: one of the game's player names (default the first)."""
    if raw is None:
        return 0
    if isinstance(raw, str) and raw in game.players:
        return game.players.index(raw)
    raise InvalidInputError(
        f"player is one of the game's players ({_listed(game.players)}), got {raw!r}",
        "/problem/player",
    )


def _listed(names: Sequence[str]) -> str:
    return ", ".join(repr(name) for name in names)


def _named(game: ExtensiveGame, sets: Sequence[int]) -> str:
    shown = [repr(game.infosets[h].name) for h in sets[:MAX_NAMED]]
    more = len(sets) - MAX_NAMED
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _gains(game: ExtensiveGame, gains: Sequence[tuple[int, Fraction]]) -> str:
    shown = [f"{game.infosets[h].name!r} +{gain}" for h, gain in gains[:MAX_NAMED]]
    more = len(gains) - MAX_NAMED
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _deviation(
    game: ExtensiveGame,
    code: str,
    message: str,
    gains: Sequence[tuple[int, Fraction]],
    hint: str,
    question: str,
) -> Diagnosis:
    """A diagnosis of a player who gains by deviating: the message with each set's gain,
    the hint with the sets only."""
    sets = _named(game, [h for h, _ in gains])
    return Diagnosis(
        code,
        message + (f" ({_gains(game, gains)})" if gains else ""),
        sets or None,
        hint + (f", at {sets}" if sets else "") + f": {question}",
    )


def _repair_notes(game: ExtensiveGame, read: ReadStrategy) -> list[str]:
    notes = [
        f"the probabilities at {game.infosets[h].name!r} sum to {total}, not 1 (graded normalised)"
        for h, total in read.unsummed
    ]
    if read.missing:
        notes.append(
            f"no probabilities at {_named(game, read.missing)}, which the strategy reaches "
            "(graded as uniform)"
        )
    return notes


def _repair_diagnoses(game: ExtensiveGame, read: ReadStrategy) -> list[Diagnosis]:
    """What had to be repaired: named from the student's answer alone."""
    found = []
    if read.unsummed:
        sums = ", ".join(f"{game.infosets[h].name!r} ({total})" for h, total in read.unsummed)
        text = f"the probabilities do not sum to 1 at {sums}"
        found.append(Diagnosis("not_a_distribution", text, None, text))
    if read.missing:
        text = (
            f"no probabilities at {_named(game, read.missing)}, which your strategy can "
            "reach: a behaviour strategy plays at every set it reaches"
        )
        found.append(Diagnosis("missing_infoset", text, None, text))
    return found
