"""Grade a student's answer to a tree problem, with partial credit and diagnosis.

Only the fields the answer holds are graded (plus those the rubric requires).
The partial-credit rules, documented in ``docs/grading.md``:

* ``value``, ``best_move``: all or nothing; any optimal move is accepted.
* ``nodes``: per node. ``score = points * right / (expected + wrong_static + extra)``
  where ``expected`` are the internal nodes the search backs up, ``wrong_static``
  leaves quoted with a wrong value, and ``extra`` nodes given a value that the
  search never reaches (pruned or beyond the depth cutoff).
* ``pruned``, ``pruned_leaves``, ``evaluated_leaves``: F1 score
  ``2 * matched / (expected + given)``; as ordered lists ``matched`` is the
  longest common subsequence, so both missing and extra entries cost.
* ``principal_variation``: the longest correct prefix (each step an optimal
  child) over the longer of the expected and the given line.

With ``partial_credit`` off, a field scores its points only when fully right.

Grading spends on the deadline of the computation in progress
(:func:`games.limits.current_deadline`): building the key, reading the answer,
scoring each field and replaying mistakes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from analysis.grading.answer_key import AnswerKey, TreeProblem, Value, correct_key, parse_problem
from analysis.trees.alpha_beta import AlphaBetaResult
from analysis.trees.horizon import horizon
from games.errors import FieldError, InvalidInputError, join_pointer
from games.limits import Limits, current_deadline
from games.numbers import JSON_INT_LIMIT, exact_text, is_json_exact, parse_exact, to_float
from games.trees.model import Tree

FIELDS: Final = (
    "value",
    "best_move",
    "nodes",
    "principal_variation",
    "pruned",
    "pruned_leaves",
    "evaluated_leaves",
)
SEARCH_FIELDS: Final = frozenset({"pruned", "pruned_leaves", "evaluated_leaves"})
DEFAULT_POINTS: Final[Mapping[str, Fraction]] = {
    "value": Fraction(1),
    "best_move": Fraction(1),
    "nodes": Fraction(4),
    "principal_variation": Fraction(1),
    "pruned": Fraction(2),
    "pruned_leaves": Fraction(2),
    "evaluated_leaves": Fraction(2),
    "pure_equilibria": Fraction(2),  # matrix problems: analysis.grading.matrix_problems
    "equilibria": Fraction(2),
    # lottery problems: analysis.grading.lottery_problems
    "emv": Fraction(1),
    "expected_utility": Fraction(1),
    "certainty_equivalent": Fraction(1),
    "risk_premium": Fraction(1),
    "attitude": Fraction(1),
    # preference problems: analysis.grading.preference_problems
    "axioms": Fraction(6),
    "utility": Fraction(2),
    # EU-consistency problems: analysis.grading.consistency_problems
    "consistent": Fraction(1),
    "witness": Fraction(2),
}
TOLERANCES: Final = ("exact", "absolute", "relative")
MAX_ANSWER_NESTING: Final = 32
"""Deepest nesting of arrays and objects read in an answer (real answers nest 4 deep)."""


@dataclass(frozen=True, slots=True)
class Rubric:
    """How an answer is scored.

    Attributes
    ----------
    points
        Points per field (defaults in ``DEFAULT_POINTS``).
    required
        Fields graded even when the answer leaves them out (they score 0).
    partial_credit
        Whether a partly right field earns part of its points.
    tolerance, tolerance_amount
        ``exact``, or ``absolute``/``relative`` with the allowed difference.
    ordered
        Grade ``pruned``/``pruned_leaves``/``evaluated_leaves`` as ordered lists
        (left to right, as the search meets them) rather than as sets.
    """

    points: Mapping[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_POINTS))
    required: tuple[str, ...] = ()
    partial_credit: bool = True
    tolerance: str = "exact"
    tolerance_amount: Fraction = Fraction(0)
    ordered: bool = False

    def close(self, given: Value, expected: Value) -> bool:
        if self.tolerance == "exact":
            return given == expected
        if isinstance(given, tuple) or isinstance(expected, tuple):
            return (
                isinstance(given, tuple)
                and isinstance(expected, tuple)
                and len(given) == len(expected)
                and all(self.close(g, e) for g, e in zip(given, expected, strict=True))
            )
        gap = abs(Fraction(given) - Fraction(expected))
        if self.tolerance == "absolute":
            return gap <= self.tolerance_amount
        return gap <= self.tolerance_amount * abs(Fraction(expected))


@dataclass(frozen=True, slots=True)
class GradedItem:
    """The grade of one field of the answer (JSON-ready ``expected``/``given``)."""

    field: str
    score: float
    max_score: float
    correct: bool
    expected: Any
    given: Any
    missing: list[str]
    extra: list[str]
    wrong: list[str]
    feedback: str


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """A mistake recognised in the answer, with a stable ``code``."""

    code: str
    message: str
    node: str | None = None


@dataclass(frozen=True, slots=True)
class Grade:
    """Total and per-field scores, and the mistakes recognised.

    ``error`` is set (and the score 0) for a malformed answer in a batch.
    """

    score: float
    max_score: float
    items: list[GradedItem]
    diagnosis: list[Diagnosis]
    error: FieldError | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """A student's answer, parsed: node indices and exact numbers."""

    value: Value | None = None
    best_move: int | None = None
    nodes: dict[int, Value] | None = None
    principal_variation: list[int] | None = None
    pruned: list[int] | None = None
    pruned_leaves: list[int] | None = None
    evaluated_leaves: list[int] | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)

    def present(self) -> list[str]:
        return [name for name in FIELDS if getattr(self, name) is not None]


def parse_rubric(raw: Any, pointer: str = "/rubric") -> Rubric:
    """Read a rubric: ``points``, ``required``, ``partial_credit``, ``tolerance``, ``sets``."""
    if raw is None:
        return Rubric()
    if not isinstance(raw, dict):
        raise InvalidInputError("a rubric is an object", pointer)
    known = {"points", "required", "partial_credit", "tolerance", "sets"}
    for name in raw:
        if name not in known:
            raise InvalidInputError(f"unknown rubric field {name!r}", join_pointer(pointer, name))
    points = dict(DEFAULT_POINTS)
    given_points = raw.get("points", {})
    if not isinstance(given_points, dict):
        raise InvalidInputError("points maps answer fields to numbers", f"{pointer}/points")
    for name, amount in given_points.items():
        where = join_pointer(pointer, "points", name)
        if name not in DEFAULT_POINTS:
            raise InvalidInputError(f"unknown answer field {name!r}", where)
        value = parse_exact(amount, where)
        if value < 0:
            raise InvalidInputError(f"points must be >= 0, got {amount!r}", where)
        points[name] = Fraction(value)
    # fields given points are graded even when the answer leaves them out
    required = raw.get("required", list(given_points))
    if not isinstance(required, list) or any(name not in DEFAULT_POINTS for name in required):
        raise InvalidInputError(
            f"required lists answer fields among {', '.join(FIELDS)}", f"{pointer}/required"
        )
    partial = raw.get("partial_credit", True)
    if type(partial) is not bool:
        raise InvalidInputError("partial_credit must be true or false", f"{pointer}/partial_credit")
    tolerance, amount = "exact", Fraction(0)
    raw_tolerance = raw.get("tolerance", "exact")
    if isinstance(raw_tolerance, dict):
        tolerance = raw_tolerance.get("mode", "absolute")
        amount = Fraction(
            parse_exact(raw_tolerance.get("amount", 0), f"{pointer}/tolerance/amount")
        )
        if amount < 0:
            raise InvalidInputError("tolerance must be >= 0", f"{pointer}/tolerance/amount")
    elif raw_tolerance != "exact":
        tolerance = "invalid"
    if tolerance not in TOLERANCES:
        raise InvalidInputError(
            '"tolerance" is "exact" or {"mode": "absolute" | "relative", "amount": x}',
            f"{pointer}/tolerance",
        )
    sets = raw.get("sets", "set")
    if sets not in ("set", "ordered"):
        raise InvalidInputError('sets is "set" or "ordered"', f"{pointer}/sets")
    return Rubric(points, tuple(required), partial, tolerance, amount, sets == "ordered")


class _NodeNames:
    """Reads node ids, or the move labels of the root's children, in one tree."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self._labels: dict[str, int] | None = None

    def index(self, raw: Any, pointer: str) -> int:
        if not isinstance(raw, str):
            raise InvalidInputError(f"expected a node id (a string), got {raw!r}", pointer)
        try:
            return self.tree.index_of(raw)
        except KeyError:
            pass
        # a move label names the (first) child of the root that carries it
        if self._labels is None:
            moves = self.tree.moves
            self._labels = {}
            for kid in reversed(self.tree.children[0]):
                label = moves[kid]
                if label is not None:
                    self._labels[label] = kid
        found = self._labels.get(raw)
        if found is None:
            raise InvalidInputError(f"there is no node {raw!r} in the tree", pointer)
        return found

    def indices(self, raw: Any, pointer: str) -> list[int]:
        if not isinstance(raw, list):
            raise InvalidInputError("expected a list of node ids", pointer)
        current_deadline().spend(len(raw))
        index = self.index
        return [index(item, f"{pointer}/{i}") for i, item in enumerate(raw)]


def _value(tree: Tree, raw: Any, pointer: str) -> Value:
    """A number, or (max^n) a list of one utility per player."""
    size = tree.utility_size
    if not size:
        return parse_exact(raw, pointer)
    if not isinstance(raw, list) or len(raw) != size:
        raise InvalidInputError(f"expected a list of {size} utilities, one per player", pointer)
    return tuple(parse_exact(item, f"{pointer}/{i}") for i, item in enumerate(raw))


def _value_map(tree: Tree, raw: Any, pointer: str) -> dict[int, Value]:
    if not isinstance(raw, dict):
        raise InvalidInputError("expected an object mapping node ids to values", pointer)
    found: dict[int, Value] = {}
    spend = current_deadline().spend
    for name, entry in raw.items():
        spend(2)
        where = join_pointer(pointer, name)
        try:
            index = tree.index_of(name)
        except KeyError:
            raise InvalidInputError(f"there is no node {name!r} in the tree", where) from None
        if isinstance(entry, dict):
            if "value" not in entry:
                raise InvalidInputError("a node entry needs a value", where)
            entry = entry.get("value_exact", entry["value"])
            where = join_pointer(where, "value")
        found[index] = _value(tree, entry, where)
    return found


def answer_json(raw: Any, pointer: str = "/answer") -> Any:
    """The answer as it is read and echoed back: integers beyond 64 bits become their
    exact strings (every numeric field reads those as the same number), so that the
    ``given`` of each item is written as Arbiter writes every number.

    One walk without recursion; an answer without such integers is returned as is.

    :raises InvalidInputError: arrays and objects nest deeper than
        :data:`MAX_ANSWER_NESTING` (the pointer names the first too deep).
    """
    deadline = current_deadline()
    big = type(raw) is int and not is_json_exact(raw)
    # containers only, each with its path: (parent's path, parent, itself), so that the
    # pointer is spelt out only for the container reported
    stack: list[tuple[Any, Any, int]] = []
    if isinstance(raw, (dict, list)):
        stack.append((raw, None, 0))
    while stack:
        value, path, level = stack.pop()
        if level == MAX_ANSWER_NESTING:
            raise InvalidInputError(
                f"arrays and objects nest deeper than {MAX_ANSWER_NESTING} levels here",
                _pointer_of(pointer, path),
            )
        deadline.spend(1 + len(value) // 4)
        for kid in value.values() if type(value) is dict else value:
            kind = type(kid)
            if kind is dict or kind is list:
                stack.append((kid, (path, value, kid), level + 1))
            elif kind is int and not big and not -JSON_INT_LIMIT <= kid < JSON_INT_LIMIT:
                big = True
    return _exact_big_integers(raw) if big else raw


def _pointer_of(pointer: str, path: Any) -> str:
    keys: list[Any] = []
    while path is not None:
        path, parent, kid = path
        entries = parent.items() if isinstance(parent, dict) else enumerate(parent)
        keys.append(next(key for key, value in entries if value is kid))
    return join_pointer(pointer, *reversed(keys))


def _exact_big_integers(raw: Any) -> Any:
    """A copy of ``raw`` with every integer beyond 64 bits written as its exact string."""
    top: list[Any] = [raw]
    stack: list[tuple[Any, Any]] = [(top, 0)]
    while stack:
        holder, key = stack.pop()
        value = holder[key]
        if isinstance(value, dict):
            copied: Any = dict(value)
            stack.extend((copied, name) for name in copied)
        elif isinstance(value, list):
            copied = list(value)
            stack.extend((copied, index) for index in range(len(copied)))
        elif type(value) is int and not is_json_exact(value):
            copied = number_json(value)
        else:
            continue
        holder[key] = copied
    return top[0]


def answer_object(
    raw: Any, allowed: Iterable[str], kind: str, pointer: str = "/answer"
) -> dict[str, Any]:
    """The answer (as :func:`answer_json` reads it), refused with a pointer unless it is
    an object whose every field is one that ``kind`` answers give."""
    if not isinstance(raw, dict):
        raise InvalidInputError("an answer is an object", pointer)
    names = tuple(allowed)
    for name in raw:
        if name not in names:
            raise InvalidInputError(
                f"unknown answer field {name!r}; {kind} answers give {', '.join(names)}",
                join_pointer(pointer, name),
            )
    read: dict[str, Any] = answer_json(raw, pointer)
    return read


def parse_answer(tree: Tree, raw: Any, pointer: str = "/answer") -> Answer:
    """Read an answer: the fields of the solve response, or a plain ``{id: value}`` map.

    Raises
    ------
    InvalidInputError
        For unknown node ids and values of the wrong type, pointing into ``raw``.
    """
    if not isinstance(raw, dict):
        raise InvalidInputError("an answer is an object", pointer)
    if raw and not any(name in DEFAULT_POINTS for name in raw):
        return Answer(nodes=_value_map(tree, raw, pointer), raw={"nodes": raw})
    parsed: dict[str, Any] = {}
    names = _NodeNames(tree)
    for name, entry in raw.items():
        where = join_pointer(pointer, name)
        if name == "value":
            exact = raw.get("value_exact", entry)
            parsed[name] = _value(tree, exact if not tree.utility_size else entry, where)
        elif name == "best_move":
            parsed[name] = names.index(entry, where)
        elif name == "nodes":
            parsed[name] = _value_map(tree, entry, where)
        elif name in FIELDS:
            parsed[name] = names.indices(entry, where)
        elif name != "value_exact":
            raise InvalidInputError(
                f"unknown answer field {name!r}; answers use {', '.join(FIELDS)}", where
            )
    return Answer(**parsed, raw=raw)


def number_json(value: Value) -> Any:
    """JSON form of an exact number: an integer within 64 bits as itself, any other value
    as its exact string (``"9/2"``, ``"18446744073709551616"``); a list for tuples.

    Written by :mod:`games.numbers` (the one writer of numbers): past the longest exact
    string it writes, the nearest double.
    """
    if isinstance(value, tuple):
        return [number_json(item) for item in value]
    if is_json_exact(value):
        return value
    text = exact_text(value)
    return text if text is not None else to_float(value)


def _ids(tree: Tree, indices: Iterable[int]) -> list[str]:
    ids = tree.ids
    return [ids[i] for i in indices]


def _lcs(expected: Sequence[int], given: Sequence[int]) -> int:
    """Longest common subsequence; ``expected`` has no repeats, so it is the longest
    increasing run of the positions (in ``expected``) of the given entries: O(n log n)."""
    where = {node: position for position, node in enumerate(expected)}
    tails: list[int] = []
    for node in given:
        position = where.get(node)
        if position is None:
            continue
        slot = bisect_left(tails, position)
        if slot == len(tails):
            tails.append(position)
        else:
            tails[slot] = position
    return len(tails)


class KeyJson:
    """The key's entries as JSON (the ``expected`` of each item), each built on first use
    and kept: a batch writes the ``nodes`` map of a large key once, not once per student."""

    def __init__(self, tree: Tree, key: AnswerKey) -> None:
        self.tree = tree
        self.key = key
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            self._built[name] = self._build(name)
        return self._built[name]

    def _build(self, name: str) -> Any:
        tree, key = self.tree, self.key
        if name == "value":
            return number_json(key.value)
        if name == "best_move":
            return tree.ids[key.best_move] if key.best_move >= 0 else None
        if name == "nodes":
            current_deadline().spend(len(key.nodes))
            ids = tree.ids
            return {ids[i]: number_json(v) for i, v in key.nodes.items()}
        if name == "principal_variation":
            return _ids(tree, key.principal_variation)
        listed: list[int] | None = getattr(key, name)
        return None if listed is None else _ids(tree, listed)


class Grader:
    """Grades answers to one problem; the key (and diagnosis searches) are built once."""

    def __init__(self, problem: TreeProblem) -> None:
        self.problem = problem
        self.tree = problem.tree
        key, traced = correct_key(problem)
        self.key: AnswerKey = key
        self.shown = KeyJson(self.tree, key)
        self.traced: AlphaBetaResult | None = traced
        self.children = horizon(self.tree, problem.depth).children
        self._variants: list[tuple[str, str, AnswerKey]] | None = None

    @classmethod
    def from_json(cls, raw: Any, limits: Limits | None = None) -> Grader:
        return cls(parse_problem(raw, limits=limits))

    def variants(self) -> list[tuple[str, str, AnswerKey]]:
        """Keys of the mistaken conventions, built on first use."""
        if self._variants is None:
            from analysis.grading.diagnosis import mistaken_keys

            self._variants = mistaken_keys(self.problem, self.key)
        return self._variants

    def check(self, raw_answer: Any, pointer: str = "/answer") -> Answer:
        answer = parse_answer(self.tree, answer_json(raw_answer, pointer), pointer)
        for name in SEARCH_FIELDS:
            if getattr(answer, name) is not None and getattr(self.key, name) is None:
                raise InvalidInputError(
                    f"{name} is not part of answers to this {self.problem.type} problem",
                    join_pointer(pointer, name),
                )
        return answer

    def grade(
        self,
        raw_answer: Any,
        rubric: Rubric | None = None,
        diagnose: bool = True,
        pointer: str = "/answer",
    ) -> Grade:
        """Grade one answer; ``InvalidInputError`` (pointing under ``pointer``) if malformed."""
        rubric = rubric or Rubric()
        answer = self.check(raw_answer, pointer)
        items = score_answer(self.tree, self.key, answer, rubric, self.shown)
        total = sum(item.score for item in items)
        most = sum(item.max_score for item in items)
        found: list[Diagnosis] = []
        if diagnose and any(not item.correct for item in items):
            from analysis.grading.diagnosis import diagnose as run_diagnosis

            found = run_diagnosis(self, answer, rubric)
        return Grade(total, most, items, found)


def graded_item(
    name: str,
    points: Fraction,
    fraction: Fraction,
    rubric: Rubric,
    expected: Any,
    given: Any,
    feedback: str,
    missing: list[str] | None = None,
    extra: list[str] | None = None,
    wrong: list[str] | None = None,
) -> GradedItem:
    correct = fraction == 1
    if not rubric.partial_credit and not correct:
        fraction = Fraction(0)
    return GradedItem(
        field=name,
        score=float(points * fraction),
        max_score=float(points),
        correct=correct,
        expected=expected,
        given=given,
        missing=missing or [],
        extra=extra or [],
        wrong=wrong or [],
        feedback=feedback,
    )


def score_answer(
    tree: Tree, key: AnswerKey, answer: Answer, rubric: Rubric, shown: KeyJson | None = None
) -> list[GradedItem]:
    """Per-field grades of ``answer`` against ``key`` (see the module docstring).

    ``shown`` gives each item's ``expected``; without it (when an answer is only scored
    against a mistaken key) ``expected`` is ``None``.
    """
    items = []
    names = answer.present() + [n for n in rubric.required if getattr(answer, n) is None]
    for name in FIELDS:
        if name not in names:
            continue
        if name in SEARCH_FIELDS and getattr(key, name) is None:
            continue
        points = rubric.points.get(name, DEFAULT_POINTS[name])
        given_raw = answer.raw.get(name)
        expected = None if shown is None else shown[name]
        if name == "value":
            items.append(_grade_value(key, answer.value, points, rubric, expected, given_raw))
        elif name == "best_move":
            items.append(
                _grade_move(tree, key, answer.best_move, points, rubric, expected, given_raw)
            )
        elif name == "nodes":
            items.append(_grade_nodes(tree, key, answer.nodes, points, rubric, expected, given_raw))
        elif name == "principal_variation":
            line = answer.principal_variation
            items.append(_grade_line(tree, key, line, points, rubric, expected, given_raw))
        else:
            wanted: list[int] = getattr(key, name)
            given: list[int] | None = getattr(answer, name)
            items.append(
                _grade_list(tree, name, wanted, given, points, rubric, expected, given_raw)
            )
    return items


def _grade_value(
    key: AnswerKey,
    given: Value | None,
    points: Fraction,
    rubric: Rubric,
    expected: Any,
    raw: Any,
) -> GradedItem:
    if given is None:
        return graded_item(
            "value", points, Fraction(0), rubric, expected, None, "no root value given"
        )
    if rubric.close(given, key.value):
        return graded_item("value", points, Fraction(1), rubric, expected, raw, "correct")
    return graded_item(
        "value",
        points,
        Fraction(0),
        rubric,
        expected,
        raw,
        f"the root value is {key.value}, not {given}",
    )


def _grade_move(
    tree: Tree,
    key: AnswerKey,
    given: int | None,
    points: Fraction,
    rubric: Rubric,
    expected: Any,
    raw: Any,
) -> GradedItem:
    if given is None:
        return graded_item(
            "best_move", points, Fraction(0), rubric, expected, None, "no move given"
        )
    current_deadline().spend(len(key.best_moves))
    if given in key.best_moves:
        note = "correct"
        if len(key.best_moves) > 1:
            note += f" (optimal moves: {', '.join(_ids(tree, sorted(key.best_moves)))})"
        return graded_item("best_move", points, Fraction(1), rubric, expected, raw, note)
    moves = ", ".join(_ids(tree, sorted(key.best_moves)))
    return graded_item(
        "best_move",
        points,
        Fraction(0),
        rubric,
        expected,
        raw,
        f"{tree.ids[given]} is not an optimal move; optimal: {moves}",
    )


def _grade_nodes(
    tree: Tree,
    key: AnswerKey,
    given: dict[int, Value] | None,
    points: Fraction,
    rubric: Rubric,
    expected: Any,
    raw: Any,
) -> GradedItem:
    ids = tree.ids
    given = given or {}
    # a comparison per given node, a look-up per node of the key
    current_deadline().spend(
        len(given) * (1 if rubric.tolerance == "exact" else 4) + len(key.nodes)
    )
    right: list[int] = []
    wrong: list[int] = []
    extra: list[int] = []
    for node, value in given.items():
        if node in key.nodes:
            (right if rubric.close(value, key.nodes[node]) else wrong).append(node)
        elif node in key.statics:
            if not rubric.close(value, key.statics[node]):
                wrong.append(node)
        else:
            extra.append(node)
    missing = [node for node in key.nodes if node not in given]
    wrong_static = sum(1 for node in wrong if node not in key.nodes)
    denominator = len(key.nodes) + wrong_static + len(extra)
    fraction = Fraction(len(right), denominator) if denominator else Fraction(1)
    notes = []
    if wrong:
        notes.append(
            "wrong values at "
            + ", ".join(f"{ids[n]} (is {key.nodes.get(n, key.statics.get(n))})" for n in wrong[:10])
        )
    if missing:
        notes.append(f"{len(missing)} node(s) missing: " + ", ".join(_ids(tree, missing[:10])))
    if extra:
        notes.append(
            "value(s) given for node(s) the search never reaches: "
            + ", ".join(_ids(tree, extra[:10]))
        )
    feedback = "; ".join(notes) or "correct"
    return graded_item(
        "nodes",
        points,
        fraction,
        rubric,
        expected,
        raw,
        feedback,
        _ids(tree, missing),
        _ids(tree, extra),
        _ids(tree, wrong),
    )


def _grade_line(
    tree: Tree,
    key: AnswerKey,
    given: list[int] | None,
    points: Fraction,
    rubric: Rubric,
    expected: Any,
    raw: Any,
) -> GradedItem:
    given = given or []
    current_deadline().spend(len(given))
    parent, good = 0, 0
    for step in given:
        if step not in key.optimal.get(parent, ()):
            break
        good += 1
        parent = step
    complete = good == len(given) and parent not in key.optimal
    longest = max(len(given), len(key.principal_variation))
    fraction = Fraction(1) if complete else Fraction(good, longest or 1)
    if complete:
        feedback = "correct"
    elif good < len(given):
        feedback = f"step {good + 1} ({tree.ids[given[good]]}) is not an optimal move"
    else:
        feedback = f"the line stops at {tree.ids[parent]} before the search does"
    return graded_item("principal_variation", points, fraction, rubric, expected, raw, feedback)


def _grade_list(
    tree: Tree,
    name: str,
    wanted: list[int],
    given: list[int] | None,
    points: Fraction,
    rubric: Rubric,
    expected: Any,
    raw: Any,
) -> GradedItem:
    given = given or []
    current_deadline().spend(2 * (len(wanted) + len(given)))
    expected_set, seen = set(wanted), set(given)
    missing = [n for n in wanted if n not in seen]
    extra = [n for n in given if n not in expected_set]
    matched = _lcs(wanted, given) if rubric.ordered else len(expected_set & seen)
    total = len(wanted) + len(given)
    fraction = Fraction(2 * matched, total) if total else Fraction(1)
    notes = []
    if missing:
        notes.append("missing: " + ", ".join(_ids(tree, missing[:10])))
    if extra:
        notes.append("should not be listed: " + ", ".join(_ids(tree, extra[:10])))
    if rubric.ordered and not missing and not extra and fraction < 1:
        notes.append("right nodes, wrong order (the search goes left to right)")
    return graded_item(
        name,
        points,
        fraction,
        rubric,
        expected,
        raw,
        "; ".join(notes) or "correct",
        _ids(tree, missing),
        _ids(tree, extra),
    )
