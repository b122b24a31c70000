"""A student's answer to a tree problem, read into node indices and exact numbers, and the
checks every answer goes through: an object of known fields, nested at most
:data:`MAX_ANSWER_NESTING` deep, its integers beyond 64 bits echoed as exact strings.

Reading spends on the deadline of the computation in progress.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from analysis.grading.answer_key import Value
from analysis.grading.questions import (
    Questions,
    maximum,
    parse_questions,
    settle_unanswered,
    split_answer,
)
from analysis.grading.results import Diagnosis, Grade, GradedItem
from analysis.grading.rubric import DEFAULT_POINTS, FIELDS, Rubric
from games.errors import (
    ArbiterError,
    FieldError,
    InvalidInputError,
    TimeLimitError,
    join_pointer,
)
from games.limits import current_deadline
from games.numbers import JSON_INT_LIMIT, exact_text, is_json_exact, parse_exact, to_float
from games.trees.model import Tree

MAX_ANSWER_NESTING: Final = 32
"""Deepest nesting of arrays and objects read in an answer (real answers nest 4 deep)."""


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
    ignored: tuple[str, ...] = ()
    """Fields given that the problem does not ask: not read, not graded."""

    def present(self) -> list[str]:
        return [name for name in FIELDS if getattr(self, name) is not None]


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
        if entry is None:
            continue  # a node the answer template names and the student left blank
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
            text = exact_text(value)
            copied = text if text is not None else to_float(value)
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


def parse_answer(
    tree: Tree, raw: Any, pointer: str = "/answer", asked: Iterable[str] = FIELDS
) -> Answer:
    """Read an answer: the fields of the solve response, or a plain ``{id: value}`` map.

    Only the fields ``asked`` are read; the others are listed in ``ignored``.

    Raises
    ------
    InvalidInputError
        For unknown fields, unknown node ids and values of the wrong type, pointing into
        ``raw``.
    """
    if not isinstance(raw, dict):
        raise InvalidInputError("an answer is an object", pointer)
    wanted = set(asked)
    if raw and not any(name in DEFAULT_POINTS for name in raw):
        if "nodes" not in wanted:
            # a map of node ids, not asked; any other name is a misspelt field
            for name in raw:
                try:
                    tree.index_of(name)
                except KeyError:
                    raise InvalidInputError(
                        f"unknown answer field {name!r}; answers use {', '.join(FIELDS)}",
                        join_pointer(pointer, name),
                    ) from None
            return Answer(raw={}, ignored=("nodes",))
        return Answer(nodes=_value_map(tree, raw, pointer), raw={"nodes": raw})
    parsed: dict[str, Any] = {}
    ignored: list[str] = []
    names = _NodeNames(tree)
    for name, entry in raw.items():
        where = join_pointer(pointer, name)
        if name not in FIELDS and name != "value_exact":
            raise InvalidInputError(
                f"unknown answer field {name!r}; answers use {', '.join(FIELDS)}", where
            )
        if name not in wanted:
            if name != "value_exact" or "value" not in raw:
                ignored.append(name)
            continue
        if name == "value":
            exact = raw.get("value_exact", entry)
            parsed[name] = _value(tree, exact if not tree.utility_size else entry, where)
        elif name == "best_move":
            parsed[name] = names.index(entry, where)
        elif name == "nodes":
            parsed[name] = _value_map(tree, entry, where)
        else:
            parsed[name] = names.indices(entry, where)
    kept = {name: entry for name, entry in raw.items() if name in wanted}
    return Answer(**parsed, raw=kept, ignored=tuple(ignored))


def under_problem(error: ArbiterError) -> ArbiterError:
    """``error`` with its pointers moved under ``/problem``, for a grader that solves the
    problem with a library function whose pointers start at the problem's own fields; the
    deadline, which points at no field, as it is."""
    if isinstance(error, TimeLimitError):
        return error
    moved = [FieldError(f"/problem{e.pointer}", e.message) for e in error.errors]
    return type(error)(error.message, moved[0].pointer, moved)


class FieldsAnswerGrader(ABC):
    """A grader whose answers are one object of named fields (matrix, lottery, preference
    and EU-consistency problems): reads the object, grades the fields the problem asks,
    totals the items."""

    fields: tuple[str, ...]
    kind: str
    """The problem's name in messages (``"lottery"``)."""
    questions: Questions
    """What the problem asks (set by each grader from the problem's ``questions``)."""

    def ask(self, raw: Any, default: tuple[str, ...]) -> None:
        """Read the problem's ``questions`` (``raw``; ``None``: ``default``) among
        :attr:`fields`."""
        self.questions = parse_questions(raw, self.fields, default)

    def rubric_for(self, rubric: Rubric | None = None) -> Rubric:
        """``rubric`` (default: the default rubric) with this problem's questions required."""
        return self.questions.rubric(rubric or Rubric(), self.fields)

    def maximum(self, rubric: Rubric | None = None) -> float:
        """The maximum score of every answer to this problem."""
        return maximum(self.rubric_for(rubric))

    def grade(
        self,
        raw_answer: Any,
        rubric: Rubric | None = None,
        diagnose: bool = True,
        pointer: str = "/answer",
    ) -> Grade:
        """Grade one answer; ``InvalidInputError`` (pointing under ``pointer``) if malformed."""
        answer = answer_object(raw_answer, self.fields, self.kind, pointer)
        asked = self.rubric_for(rubric)
        kept, ignored = split_answer(answer, asked.required)
        items, found = self.grade_fields(kept, asked, diagnose, pointer)
        return Grade.of(settle_unanswered(items, kept), found, ignored)

    @abstractmethod
    def grade_fields(
        self, answer: dict[str, Any], rubric: Rubric, diagnose: bool, pointer: str
    ) -> tuple[list[GradedItem], list[Diagnosis]]:
        """The items of the fields graded and, when asked, the mistakes recognised."""
