"""Parse and validate posted game trees (nested, shorthand and flat forms).

Three input forms are accepted and may be mixed where it makes sense:

* **Nested objects**: ``{"id": "A", "kind": "max", "children": [...]}`` with
  leaves ``{"id": "A1", "value": 3}``.
* **Shorthand**: nested arrays of numbers, ``[[3, 12, 8], [2, 4, 6]]``; an
  array is an internal node, a number (or numeric string) a leaf. A node
  object's ``children`` may use the shorthand too.
* **Flat**: ``{"root": "A", "nodes": [{"id": "A", "children": ["B", "C"]}, ...]}``
  where ``children`` lists ids; for trees deeper than JSON parsers nest.

Nodes without ``kind`` alternate from their parent (the root takes the
request's root kind); nodes without ``id`` are named
``<parent id>.<position>`` with the root called ``root``. The walk is
iterative, so depth is bounded by the configured limit, not by Python's stack.

Every pass over the input spends on the deadline of the computation in progress
(``games.limits.current_deadline``) in proportion to the work it does, and the
exact sum of a chance node's probabilities is bounded by ``Limits.max_exact_digits``
as it is added up, so no input shape keeps the parser busy past the time limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from itertools import accumulate, chain, islice, repeat
from math import gcd
from operator import add
from typing import Any, Final, cast

from games.errors import InvalidInputError, LimitExceededError, join_pointer
from games.limits import Deadline, Limits, active_limits, check_exact_size, current_deadline
from games.numbers import (
    MAX_MAGNITUDE,
    Exact,
    describe_json,
    exact_text,
    normalize,
    parse_exact,
)
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, ROOT_ID, Tree, Utility, node_pointer

NODE_FIELDS: Final = frozenset({"id", "kind", "value", "eval", "move", "children", "p", "player"})
FLAT_FIELDS: Final = frozenset({"root", "nodes"})
KIND_NAMES: Final = (MAX, MIN, CHANCE, PLAYER, LEAF)
INTERNAL_KINDS: Final = frozenset({MAX, MIN, CHANCE, PLAYER})
_EMPTY: Final = range(0)


def parse_tree(
    raw: Any,
    *,
    root: str = MAX,
    limits: Limits | None = None,
    pointer: str = "/tree",
) -> Tree:
    """Build a :class:`Tree` from its JSON form.

    Parameters
    ----------
    raw
        The decoded JSON: a node object, a shorthand array, or a flat-form object.
    root
        Kind of the root when the input does not state it: ``"max"`` or ``"min"``.
    limits
        Node-count and depth limits; defaults to :class:`Limits()`.
    pointer
        JSON pointer of ``raw`` in the request, prefixed to error pointers.

    Raises
    ------
    InvalidInputError
        On any structural or value error, with a pointer to the field.
    LimitExceededError
        When the tree has more nodes or levels than ``limits`` allow.
    ExactSizeError
        When the exact sum of a chance node's probabilities needs more digits than
        ``Limits.max_exact_digits``.
    TimeLimitError
        When the deadline of the computation in progress passes.
    """
    if root not in (MAX, MIN):
        raise InvalidInputError(f'root must be "max" or "min", got {root!r}', "/root")
    limits = limits or Limits()
    if isinstance(raw, dict) and ("nodes" in raw or "root" in raw):
        return _TreeBuilder(root, limits, pointer).build_flat(raw)
    if not isinstance(raw, (dict, list)):
        raise InvalidInputError(
            f'a tree is a node object, a nested array or a flat {{"root", "nodes"}} '
            f"object, got {describe_json(raw)}",
            pointer,
        )
    plain = plain_tree(raw, root, limits, pointer)
    if plain is not None:
        return plain
    return _TreeBuilder(root, limits, pointer).build_nested(raw)


def plain_tree(raw: Any, root: str, limits: Limits, base: str = "/tree") -> Tree | None:
    """Build a *plain* tree a whole level at a time, or return None.

    A tree is plain when every internal node is a non-empty array or an object
    with ``children`` and at most ``kind`` (max, min or chance) and ``p``, and
    every leaf an integer or an object with an integer ``value`` and at most
    ``kind: "leaf"`` and ``p``: the usual shape of large generated trees. Each
    level is then handled by list operations that mostly run in C. Anything else
    (ids, moves, evals, players, fractional values, any error) returns None and
    the general walk reads the tree instead, reporting errors precisely. Both
    number the nodes the same way.
    """
    if not _plain_internal(raw):
        return None
    deadline = current_deadline()
    # Each level is handled by a dozen whole-list passes; the level's width is spent
    # before the first and between the costly ones, so a level of a million nodes
    # reads the clock several times.
    spend = deadline.spend
    ids = [ROOT_ID]
    kinds: list[str] = []
    values: list[Utility | None] = []
    children: list[range] = []
    parents = [-1]
    depths = [0]
    positions = [0]
    array_nodes = bytearray()
    bare_leaves = bytearray()
    probabilities: list[Exact | None] = []
    chance_nodes: list[int] = []
    numbers: dict[str, Exact] = {}
    level: list[Any] = [raw]
    # The kind each node of the level takes if it states none: one kind for the whole
    # level (the usual case: no stated kinds, no chance nodes) or one per node.
    turns: str | list[str] = root
    # what the level's parents were, to check that only chance outcomes state p
    parent_kinds: list[str] = []
    parent_counts: list[int] = []
    depth = 0
    leaves = 0
    while True:
        width = len(level)
        spend(width)
        shapes = list(map(type, level))
        classified = _classify_level(level, shapes)
        if classified is None:
            return None
        spend(width)
        subs, scores, stated, chances = classified
        if not _within_magnitude(scores):
            return None  # the general walk refuses the integer with its pointer
        if stated is None and type(turns) is str:
            internal = scores.count(None)
            if internal == width:
                level_kinds = [turns] * width
            elif internal == 0:
                level_kinds = [LEAF] * width
            else:
                level_kinds = [turns if score is None else LEAF for score in scores]
        elif stated is None:
            level_kinds = [
                turn if score is None else LEAF for turn, score in zip(turns, scores, strict=True)
            ]
        else:
            if type(turns) is str:
                turns = [turns] * width
            level_kinds = [
                (kind or turn) if score is None else LEAF
                for kind, turn, score in zip(stated, turns, scores, strict=True)
            ]
            if not all(
                kind is None or kind == LEAF
                if score is not None
                else kind is None or kind in _PLAIN_INTERNAL_KINDS
                for kind, score in zip(stated, scores, strict=True)
            ):
                return None
        if chances is None:
            probabilities.extend(repeat(None, len(level)))
        else:
            above: list[str | None] = list(
                chain.from_iterable(map(repeat, parent_kinds, parent_counts))
            )
            read = _plain_probabilities(chances, above or [None], numbers, deadline)
            if read is None:
                return None
            probabilities.extend(read)
        spend(width)
        start = len(kinds)
        kinds.extend(level_kinds)
        if CHANCE in level_kinds:
            chance_nodes.extend(start + i for i, kind in enumerate(level_kinds) if kind == CHANCE)
        values.extend(scores)
        shape_set = set(shapes)
        if len(shape_set) == 1:  # one shape for the whole level: flags in one go
            array_nodes.extend((b"\x01" if list in shape_set else b"\x00") * width)
            bare_leaves.extend((b"\x01" if int in shape_set else b"\x00") * width)
        else:
            array_nodes.extend(bytes([shape is list for shape in shapes]))
            bare_leaves.extend(bytes([shape is int for shape in shapes]))
        if level_kinds[0] != LEAF and LEAF not in level_kinds:
            counts = list(map(len, subs))
        else:
            counts = [0 if sub is None else len(sub) for sub in subs]
        leaves += counts.count(0)
        spend(width)
        total = len(ids)
        ends = list(accumulate(counts, initial=total))
        _extend(children, map(range, ends[:-1], ends[1:]), spend)
        added = ends[-1] - total
        if not added:
            break
        if ends[-1] > limits.max_nodes or depth + 1 > limits.max_depth:
            return None  # the general walk raises the limit error with its pointer
        spend(added)
        first = total - len(level)
        slots = [str(slot) for slot in range(max(counts))]
        prefixes = [ids[first + i] + "." for i, count in enumerate(counts) if count]
        sizes = list(filter(None, counts))
        _extend(
            ids,
            map(
                add,
                chain.from_iterable(map(repeat, prefixes, sizes)),
                chain.from_iterable(map(slots.__getitem__, map(slice, sizes))),
            ),
            spend,
        )
        _extend(parents, chain.from_iterable(map(repeat, range(first, total), counts)), spend)
        _extend(positions, chain.from_iterable(map(range, counts)), spend)
        depths.extend(repeat(depth + 1, added))
        spend(added)
        # below MAX comes MIN and below MIN comes MAX; chance passes its turn on
        if type(turns) is str and stated is None and CHANCE not in level_kinds:
            turns = MIN if turns == MAX else MAX
        else:
            per_node: list[str] = turns if isinstance(turns, list) else [turns] * width
            handed: list[str] = [
                MIN if kind == MAX else MAX if kind == MIN else turn
                for kind, turn in zip(level_kinds, per_node, strict=True)
            ]
            turns = list(chain.from_iterable(map(repeat, handed, counts)))
            spend(added)
        parent_kinds, parent_counts = level_kinds, counts
        level = list(chain.from_iterable(filter(None, subs)))
        depth += 1
    if chance_nodes:

        def pointer(index: int) -> str:
            return node_pointer(base, parents, positions, array_nodes, index)

        if _settle_chance(children, probabilities, chance_nodes, ids, pointer) is not None:
            return None
    count = len(ids)
    return Tree(
        ids=ids,
        kinds=kinds,
        children=children,
        parents=parents,
        depths=depths,
        values=values,
        evals=[None] * count,
        moves=[None] * count,
        probabilities=probabilities,
        players=[None] * count,
        _positions=positions,
        _array_nodes=array_nodes,
        _base=base,
        _leaf_count=leaves,
        _bare_leaves=bare_leaves,
    )


_PLAIN_KEYS: Final = frozenset({"children", "value", "kind", "p"})
_PLAIN_INTERNAL_KINDS: Final = frozenset({MAX, MIN, CHANCE})

Level = tuple[list[Any], list[Any], list[Any] | None, list[Any] | None]


def _classify_level(level: list[Any], shapes: list[type]) -> Level | None:
    """One level of a plain tree: children lists, leaf values, stated kinds and
    stated probabilities (None when no node of the level states any), or None.

    A level that is all arrays, all integers, all ``{"children"}`` objects or
    all ``{"value"}`` objects (the usual case) is checked by whole-list
    operations; any other level node by node.
    """
    width = len(level)
    kinds = set(shapes)
    if kinds == {list}:
        if all(level):  # every array non-empty
            return level, [None] * width, None, None
        return None
    if kinds == {int}:
        return [None] * width, level, None, None
    if kinds == {dict} and set(map(len, level)) == {1}:
        subs = list(map(dict.get, level, repeat("children")))
        scores = list(map(dict.get, level, repeat("value")))
        sub_kinds = set(map(type, subs))
        if sub_kinds == {list} and all(subs):
            return subs, scores, None, None
        if sub_kinds == {type(None)} and set(map(type, scores)) == {int}:
            return subs, scores, None, None
    if kinds == {dict}:
        uniform = _uniform_objects(level)
        if uniform is not None:
            return uniform
    if dict in kinds and not all(
        _PLAIN_KEYS.issuperset(node)
        for node, shape in zip(level, shapes, strict=True)
        if shape is dict
    ):
        return None
    subs = [
        node if shape is list else node.get("children") if shape is dict else None
        for node, shape in zip(level, shapes, strict=True)
    ]
    scores = [
        node if shape is int else node.get("value") if shape is dict else None
        for node, shape in zip(level, shapes, strict=True)
    ]
    stated = [
        node.get("kind") if shape is dict else None
        for node, shape in zip(level, shapes, strict=True)
    ]
    chances = [
        node.get("p") if shape is dict else None for node, shape in zip(level, shapes, strict=True)
    ]
    # an object must hold exactly the fields read (no nulls), and be a leaf or a subtree
    if not all(
        (
            shape is not dict
            or len(node)
            == (sub is not None) + (score is not None) + (kind is not None) + (chance is not None)
        )
        and (
            (type(sub) is list and len(sub) > 0)
            if score is None
            else (sub is None and type(score) is int)
        )
        and (kind is None or type(kind) is str)
        for node, shape, sub, score, kind, chance in zip(
            level, shapes, subs, scores, stated, chances, strict=True
        )
    ):
        return None
    return (
        subs,
        scores,
        stated if any(kind is not None for kind in stated) else None,
        chances if any(chance is not None for chance in chances) else None,
    )


def _uniform_objects(level: list[dict[str, Any]]) -> Level | None:
    """A level of objects that all have the same number of fields, every one of them
    among children, value, kind and p and none null (the shape of generated chance
    trees), checked with whole-list operations; None for anything else."""
    lengths = set(map(len, level))
    if len(lengths) != 1:
        return None
    width = len(level)
    subs = list(map(dict.get, level, repeat("children")))
    scores = list(map(dict.get, level, repeat("value")))
    stated = list(map(dict.get, level, repeat("kind")))
    chances = list(map(dict.get, level, repeat("p")))
    missing = [subs.count(None), scores.count(None), stated.count(None), chances.count(None)]
    # every field read and none null, and each node a subtree or a leaf, never both
    if 4 * width - sum(missing) != lengths.pop() * width or missing[0] + missing[1] != width:
        return None
    if not set(map(type, subs)) <= {list, type(None)} or not all(
        sub for sub in subs if sub is not None
    ):
        return None
    if not set(map(type, scores)) <= {int, type(None)}:
        return None
    if not set(map(type, stated)) <= {str, type(None)}:
        return None
    return (
        subs,
        scores,
        None if missing[2] == width else stated,
        None if missing[3] == width else chances,
    )


def _plain_probabilities(
    chances: list[Any], above: list[str | None], numbers: dict[str, Exact], deadline: Deadline
) -> list[Exact | None] | None:
    """Stated probabilities of one level, each distinct string parsed once; None when
    one is malformed, out of [0, 1] or under a node that is not a chance node."""
    read: list[Exact | None] = []
    spend = deadline.spend
    for chance, parent in zip(chances, above, strict=True):
        if chance is None:
            read.append(None)
            continue
        if parent != CHANCE:
            return None
        value = numbers.get(chance) if type(chance) is str else None
        if value is None:
            spend(_PARSE_COST)
            try:
                value = parse_exact(chance, "")
            except InvalidInputError:
                return None
            if value < 0 or value > 1:
                return None
            if type(chance) is str:
                numbers[chance] = value
        read.append(value)
    return read


_PARSE_COST: Final = 8
"""Units of work charged for reading one numeric string (up to 200 characters)."""


def _settle_chance(
    children: list[range],
    probabilities: list[Exact | None],
    chance_nodes: list[int],
    ids: list[str],
    pointer: Callable[[int], str],
) -> tuple[int, int, Exact | None] | None:
    """Give every outcome of an all-silent chance node the uniform probability and check
    that stated ones sum to exactly 1.

    Returns None when all is well, else (culprit, chance node, sum): the sum is None
    when the culprit is an outcome lacking ``p`` among siblings that state it.

    :raises ExactSizeError: the exact sum of one node's probabilities grows past
        ``Limits.max_exact_digits`` (the pointer, from ``pointer``, is that node's
        ``children``).
    """
    deadline = current_deadline()
    for node in chance_nodes:
        kids = children[node]
        deadline.spend(1)
        stated = probabilities[kids.start : kids.stop]
        # (identity tests: == against None would call Fraction.__eq__ for each outcome)
        missing = [slot for slot, chance in enumerate(stated) if chance is None]
        if missing:
            if len(missing) == len(stated):
                uniform = normalize(Fraction(1, len(kids)))
                probabilities[kids.start : kids.stop] = [uniform] * len(kids)
                continue
            return kids.start + missing[0], node, None
        total = exact_sum(
            cast(list[Exact], stated), deadline=deadline, refuse=_refuser(ids, pointer, node)
        )
        if total != 1:
            return node, node, total
    return None


def _refuser(ids: list[str], pointer: Callable[[int], str], node: int) -> Callable[[Exact], None]:
    """Refuse the probability sum of chance node ``node``, pointing at its children."""

    def refuse(total: Exact) -> None:
        check_exact_size(
            total,
            join_pointer(pointer(node), "children"),
            f"sum of the probabilities of chance node {ids[node]!r}",
        )

    return refuse


def exact_sum(
    values: Iterable[Exact],
    *,
    deadline: Deadline | None = None,
    refuse: Callable[[Exact], None] | None = None,
) -> Exact:
    """Exact sum of ``values``: :func:`sum_of_ratios` of their numerators and denominators."""
    return sum_of_ratios(
        ((value.numerator, value.denominator) for value in values),
        deadline=deadline,
        refuse=refuse,
    )


def sum_of_ratios(
    terms: Iterable[tuple[int, int]],
    *,
    deadline: Deadline | None = None,
    refuse: Callable[[Exact], None] | None = None,
) -> Exact:
    """Exact sum of the ratios ``n / d`` in ``terms``, added in integers over a common
    denominator.

    The denominator grows one term at a time (one gcd where it changes, none while the
    terms share it, the usual case), so a sum that grows too large is refused as soon
    as it does, rather than after one huge ``lcm``; intermediate numbers may reach
    twice ``Limits.max_exact_digits``, the sum itself that many. Each term is charged
    to ``deadline`` (by default the one of the computation in progress) by its size.

    :raises ExactSizeError: the sum, or its running denominator, grows past the limit;
        ``refuse`` is called with the number (and only then, so working out its
        pointer costs nothing otherwise) and raises the error naming the field.
    :raises TimeLimitError: the deadline passes.
    """
    clock = deadline if deadline is not None else current_deadline()
    refused = refuse if refuse is not None else _refuse_sum
    bits = active_limits().max_exact_bits
    ceiling = 2 * bits
    numerator = 0
    common = 1
    cost = 1
    for term, denominator in terms:
        if denominator == common:
            numerator += term
        elif not common % denominator:
            numerator += term * (common // denominator)
        else:
            shared = gcd(common, denominator)
            scale = denominator // shared
            numerator = numerator * scale + term * (common // shared)
            common *= scale
            size = common.bit_length()
            if size > ceiling:
                refused(common)
            cost = 1 + size // 512
        clock.spend(cost)
    total = normalize(Fraction(numerator, common))
    if total.numerator.bit_length() > bits or total.denominator.bit_length() > bits:
        refused(total)
    return total


def _refuse_sum(total: Exact) -> None:
    check_exact_size(total, "", "sum")


def short_text(value: Exact) -> str:
    """``value`` for an error message: exact when short, else to six significant digits.

    Messages never convert an unbounded number to a string (Python refuses integers
    past 4,300 digits, and a message that long helps nobody).
    """
    text = _short_exact(value)
    if text is not None:
        return text
    return f"{_approximate(value)} (exact form too long to show)"


def sum_text(total: Exact, target: int = 1) -> str:
    """A sum that should have been ``target``, for an error message: as
    :func:`short_text`, but ``target`` plus or minus the difference when the sum rounds
    to ``target`` (so a sum that misses 1 by 1e-400 does not read "sums to 1, not 1")."""
    text = _short_exact(total)
    if text is not None:
        return text
    if _approximate(total) != _approximate(target):
        return short_text(total)
    difference = total - target
    sign = "+" if difference > 0 else "-"
    return f"{target} {sign} {short_text(-difference if difference < 0 else difference)}"


def _approximate(value: Exact) -> str:
    """Six significant digits of ``value``, worked out in integers (no float overflow or
    underflow, whatever the exponent)."""
    if value == 0:
        return "0"
    numerator, denominator = abs(value.numerator), value.denominator
    # log10(n / d) from the binary lengths, then corrected by at most a step or two
    exponent = int((numerator.bit_length() - denominator.bit_length()) * 0.30103)
    if exponent >= 0:
        mantissa = Fraction(numerator, denominator * 10**exponent)
    else:
        mantissa = Fraction(numerator * 10**-exponent, denominator)
    while mantissa >= 10:
        mantissa /= 10
        exponent += 1
    while mantissa < 1:
        mantissa *= 10
        exponent -= 1
    digits = f"{float(mantissa):.6g}"
    if digits == "10":  # rounding carried into the next power of ten
        digits, exponent = "1", exponent + 1
    sign = "-" if value < 0 else ""
    if -4 <= exponent < 6:
        return f"{sign}{float(Fraction(digits) * Fraction(10) ** exponent):.6g}"
    return f"{sign}{digits}e{exponent:+03d}"


def _short_exact(value: Exact, longest: int = 80) -> str | None:
    """The exact text of ``value`` if at most ``longest`` characters, else None (without
    converting a long number: 3 bits per digit bounds the digits from above)."""
    bits = 3 * longest
    if value.numerator.bit_length() > bits or value.denominator.bit_length() > bits:
        return None
    text = exact_text(value)
    return text if text is not None and len(text) <= longest else None


_CHUNK: Final = 32_768
"""Items one whole-list step of :func:`plain_tree` adds between two spends."""


def _extend(target: list[Any], items: Iterator[Any], spend: Callable[[int], None]) -> None:
    """``target.extend(items)`` a chunk at a time (each chunk in C), spending on each."""
    while True:
        size = len(target)
        target.extend(islice(items, _CHUNK))
        added = len(target) - size
        spend(added)
        if added < _CHUNK:
            return


def _within_magnitude(scores: list[Any]) -> bool:
    """Whether every integer leaf value of a level (None elsewhere) is within 1e300."""
    return (
        max(filter(None, scores), default=0) <= MAX_MAGNITUDE
        and min(filter(None, scores), default=0) >= -MAX_MAGNITUDE
    )


def _plain_internal(node: Any) -> bool:
    if type(node) is list:
        return len(node) > 0
    if type(node) is dict and "p" not in node and _PLAIN_KEYS.issuperset(node):
        kids = node.get("children")
        return type(kids) is list and len(kids) > 0
    return False


class _TreeBuilder:
    """One iterative breadth-first walk that fills the Tree's parallel lists."""

    def __init__(self, root: str, limits: Limits, base: str):
        self.root = root
        self.limits = limits
        self.base = base
        self.ids: list[str] = []
        self.kinds: list[str] = []
        self.children: list[Any] = []
        self.parents: list[int] = []
        self.depths: list[int] = []
        self.values: list[Utility | None] = []
        self.evals: list[Utility | None] = []
        self.moves: list[str | None] = []
        self.probabilities: list[Exact | None] = []
        self.players: list[int | None] = []
        self.chance_nodes: list[int] = []
        self.utility_size: int | None = None
        self.size_source = 0
        self.positions: list[int] = []
        self.array_nodes = bytearray()
        self.given_ids = bytearray()
        self.bare_leaves = bytearray()
        self.number_cache: dict[str, Exact] = {}
        self.spend = current_deadline().spend
        self.any_given = False
        self.any_array = False
        self.source_pointers: list[str] | None = None
        # Flat form only: node objects by position and child positions per position.
        self.flat_nodes: list[dict[str, Any]] = []
        self.flat_children: list[list[int] | None] = []

    # -- pointers -------------------------------------------------------------

    def pointer(self, index: int) -> str:
        if self.source_pointers is not None:
            return self.source_pointers[index]
        return node_pointer(self.base, self.parents, self.positions, self.array_nodes, index)

    def fail(self, index: int, field: str | None, message: str) -> InvalidInputError:
        where = self.pointer(index)
        if field is not None:
            where = join_pointer(where, field)
        return InvalidInputError(message, where)

    # -- entry points ---------------------------------------------------------

    def build_nested(self, raw: dict[str, Any] | list[Any]) -> Tree:
        self.walk(raw, -1, flat=False)
        return self.finish()

    def build_flat(self, raw: dict[str, Any]) -> Tree:
        base = self.base
        unknown = sorted(raw.keys() - FLAT_FIELDS)
        if unknown:
            raise InvalidInputError(
                f'unknown field {unknown[0]!r} in a flat tree (expected "root" and "nodes")',
                join_pointer(base, unknown[0]),
            )
        nodes = raw.get("nodes")
        root_id = raw.get("root")
        if not isinstance(nodes, list) or not nodes:
            raise InvalidInputError(
                '"nodes" must be a non-empty array of node objects', join_pointer(base, "nodes")
            )
        if not isinstance(root_id, str):
            raise InvalidInputError(
                f'"root" must be the id of the root node, got {describe_json(root_id)}',
                join_pointer(base, "root"),
            )
        if len(nodes) > self.limits.max_nodes:
            raise _too_many_nodes(self.limits, join_pointer(base, "nodes"))
        spend = current_deadline().spend
        by_id: dict[str, int] = {}
        for position, node in enumerate(nodes):
            spend(1)
            where = f"{base}/nodes/{position}"
            if not isinstance(node, dict):
                raise InvalidInputError(
                    f"a flat-form node is an object, got {describe_json(node)}", where
                )
            node_id = node.get("id")
            if not isinstance(node_id, str) or not node_id:
                raise InvalidInputError(
                    'every node of a flat tree needs a non-empty string "id"',
                    where + "/id",
                )
            if node_id in by_id:
                raise InvalidInputError(
                    f"duplicate id {node_id!r} (first used at {base}/nodes/{by_id[node_id]})",
                    where + "/id",
                )
            by_id[node_id] = position
        parent_of = [-1] * len(nodes)
        flat_children: list[list[int] | None] = [None] * len(nodes)
        for position, node in enumerate(nodes):
            kids = node.get("children")
            if kids is None:
                continue
            spend(1 + len(kids) if isinstance(kids, list) else 1)
            where = f"{base}/nodes/{position}/children"
            if not isinstance(kids, list):
                raise InvalidInputError(
                    f"children must be an array of node ids, got {describe_json(kids)}", where
                )
            resolved: list[int] = []
            for slot, child_id in enumerate(kids):
                if not isinstance(child_id, str):
                    raise InvalidInputError(
                        "in the flat form, children lists node ids (strings), got "
                        f"{describe_json(child_id)}",
                        f"{where}/{slot}",
                    )
                child = by_id.get(child_id)
                if child is None:
                    raise InvalidInputError(f"unknown node id {child_id!r}", f"{where}/{slot}")
                earlier = parent_of[child]
                if earlier == position:
                    raise InvalidInputError(
                        f"child {child_id!r} is listed twice", f"{where}/{slot}"
                    )
                if earlier != -1:
                    raise InvalidInputError(
                        f"node {child_id!r} is already a child of "
                        f"{nodes[earlier]['id']!r}; a tree node has exactly one parent",
                        f"{where}/{slot}",
                    )
                parent_of[child] = position
                resolved.append(child)
            flat_children[position] = resolved
        root_position = by_id.get(root_id)
        if root_position is None:
            raise InvalidInputError(f"unknown root id {root_id!r}", join_pointer(base, "root"))
        if parent_of[root_position] != -1:
            raise InvalidInputError(
                f"the root {root_id!r} is a child of {nodes[parent_of[root_position]]['id']!r}, "
                "which makes a cycle",
                f"{base}/nodes/{parent_of[root_position]}/children",
            )
        self.flat_nodes = nodes
        self.flat_children = flat_children
        self.source_pointers = []
        self.walk(nodes[root_position], root_position, flat=True)
        if len(self.ids) < len(nodes):
            self.raise_unreachable(nodes, parent_of, by_id)
        return self.finish()

    def raise_unreachable(
        self, nodes: list[dict[str, Any]], parent_of: list[int], by_id: dict[str, int]
    ) -> None:
        spend = current_deadline().spend
        spend(len(self.ids))
        reached = {by_id[name] for name in self.ids}
        for position in range(len(nodes)):
            if position in reached:
                continue
            # Each node has at most one parent, so following parents either ends at a
            # node with none (a second root) or comes back round (a cycle).
            seen = {position}
            step = parent_of[position]
            while step != -1 and step not in seen:
                spend(1)
                seen.add(step)
                step = parent_of[step]
            where = f"{self.base}/nodes/{position}"
            if step != -1:
                raise InvalidInputError(
                    f"node {nodes[position]['id']!r} lies on a cycle of children", where
                )
            raise InvalidInputError(
                f"node {nodes[position]['id']!r} is not reachable from the root", where
            )

    # -- the walk -------------------------------------------------------------

    def walk(self, top: Any, top_source: int, *, flat: bool) -> None:
        """Number the nodes breadth-first, validating each one as it is dequeued."""
        limits = self.limits
        max_nodes = limits.max_nodes
        max_depth = limits.max_depth
        ids = self.ids
        kinds = self.kinds
        children = self.children
        parents = self.parents
        depths = self.depths
        values = self.values
        evals = self.evals
        moves = self.moves
        probabilities = self.probabilities
        players = self.players
        positions = self.positions
        array_nodes = self.array_nodes
        given_ids = self.given_ids
        bare_leaves = self.bare_leaves
        source_pointers = self.source_pointers
        flat_nodes = self.flat_nodes
        flat_children = self.flat_children
        base = self.base
        node_fields = NODE_FIELDS
        spend = current_deadline().spend
        # queue entries: (raw node, parent index, position among siblings, default kind, source)
        queue: list[tuple[Any, int, int, str, int] | None] = [(top, -1, 0, self.root, top_source)]
        enqueue = queue.append
        head = 0
        while head < len(queue):
            entry = queue[head]
            queue[head] = None  # let the raw node go as soon as it is read
            assert entry is not None
            node, parent, position, turn, source = entry
            index = head
            head += 1
            spend(1)
            parents.append(parent)
            positions.append(position)
            if parent >= 0:
                depth = depths[parent] + 1
                if depth > max_depth:
                    raise LimitExceededError(
                        f"the tree is deeper than the limit of {max_depth} plies",
                        self.pointer(parent),
                    )
            else:
                depth = 0
            depths.append(depth)
            if flat:
                source_pointers.append(f"{base}/nodes/{source}")  # type: ignore[union-attr]
            kind_of = type(node)
            if kind_of is dict:
                array_nodes.append(0)
                bare_leaves.append(0)
                if not node.keys() <= node_fields:
                    unknown = sorted(node.keys() - node_fields)[0]
                    raise self.fail(
                        index,
                        unknown,
                        f"unknown field {unknown!r}; a node has "
                        "id, kind, value, eval, move, p, player and children",
                    )
                node_id = node.get("id")
                if node_id is None:
                    if flat:
                        raise self.fail(index, "id", "every flat-form node needs an id")
                    node_id = f"{ids[parent]}.{position}" if parent >= 0 else ROOT_ID
                    given_ids.append(0)
                elif type(node_id) is not str or not node_id:
                    raise self.fail(index, "id", "id must be a non-empty string")
                else:
                    given_ids.append(1)
                    self.any_given = True
                ids.append(node_id)
                move = node.get("move")
                if move is not None and type(move) is not str:
                    raise self.fail(
                        index, "move", f"move must be a string, got {describe_json(move)}"
                    )
                moves.append(move)
                chance = node.get("p")
                probabilities.append(
                    None if chance is None else self.read_probability(chance, index, parent)
                )
                player = node.get("player")
                if player is not None and (type(player) is not int or player < 0):
                    raise self.fail(index, "player", "player must be a 0-based integer")
                players.append(player)
                kind = node.get("kind")
                kids = node.get("children")
                if kids is None:
                    self.read_leaf(node, index, kind)
                    children.append(_EMPTY)
                    continue
                if flat:
                    kids = flat_children[source]
                elif type(kids) is not list:
                    raise self.fail(
                        index,
                        "children",
                        f"children must be an array, got {describe_json(kids)}",
                    )
                if not kids:
                    raise self.fail(
                        index,
                        "children",
                        "an internal node needs at least one child; omit children for a leaf",
                    )
                if kind is None:
                    kind = turn if player is None else PLAYER
                elif type(kind) is not str or kind not in INTERNAL_KINDS:
                    raise self.bad_internal_kind(index, kind)
                if player is not None and kind != PLAYER:
                    raise self.fail(
                        index,
                        "player",
                        f"player marks a max^n node (kind 'player'), not a {kind} node",
                    )
                if kind == CHANCE:
                    self.chance_nodes.append(index)
                if "value" in node:
                    raise self.fail(
                        index,
                        "value",
                        "value is a leaf's utility; give an internal node's static "
                        "evaluation as eval",
                    )
                static = node.get("eval")
                evals.append(None if static is None else self.read_utility(static, index, "eval"))
                values.append(None)
                kinds.append(kind)
            elif kind_of is list:
                if flat:
                    raise self.fail(index, None, "a flat-form node is an object")
                array_nodes.append(1)
                bare_leaves.append(0)
                self.any_array = True
                given_ids.append(0)
                ids.append(f"{ids[parent]}.{position}" if parent >= 0 else ROOT_ID)
                moves.append(None)
                if not node:
                    raise self.fail(
                        index,
                        None,
                        "an empty array is not a tree node; a subtree needs at least one child",
                    )
                kids = node
                kind = turn
                probabilities.append(None)
                players.append(None)
                evals.append(None)
                values.append(None)
                kinds.append(kind)
            else:
                array_nodes.append(0)
                given_ids.append(0)
                bare_leaves.append(1)
                ids.append(f"{ids[parent]}.{position}" if parent >= 0 else ROOT_ID)
                moves.append(None)
                probabilities.append(None)
                players.append(None)
                if self.utility_size != 0:
                    self.check_size(0, index, None)
                if kind_of is int and -MAX_MAGNITUDE <= node <= MAX_MAGNITUDE:
                    values.append(node)
                else:
                    values.append(self.number(node, index, None))
                evals.append(None)
                kinds.append(LEAF)
                children.append(_EMPTY)
                continue
            # an internal node: its children take the next free indices, in order
            first = len(queue)
            if first + len(kids) > max_nodes:
                raise _too_many_nodes(limits, self.pointer(index))
            children.append(range(first, first + len(kids)))
            # Below MAX comes MIN and below MIN comes MAX; chance and max^n nodes pass
            # on the turn they were given, so MAX, chance, MIN alternate by default.
            next_turn = MIN if kind == MAX else MAX if kind == MIN else turn
            if flat:
                for slot, child in enumerate(kids):
                    enqueue((flat_nodes[child], index, slot, next_turn, child))
            else:
                for slot, child in enumerate(kids):
                    enqueue((child, index, slot, next_turn, -1))

    def read_leaf(self, node: dict[str, Any], index: int, kind: object) -> None:
        if kind is not None and kind != LEAF:
            if type(kind) is str and kind in INTERNAL_KINDS:
                raise self.fail(
                    index,
                    "kind",
                    f"a node of kind {kind!r} needs children; a node without children is a leaf",
                )
            raise self.bad_kind(index, kind)
        if "eval" in node:
            raise self.fail(
                index,
                "eval",
                "eval is the static evaluation of an internal node; a leaf's utility is its value",
            )
        if "value" not in node:
            raise self.fail(index, "value", "a leaf needs a value (its utility)")
        if "player" in node:
            raise self.fail(index, "player", "player belongs on internal max^n nodes, not leaves")
        raw = node["value"]
        self.values.append(
            raw
            if type(raw) is int
            and self.utility_size == 0
            and -MAX_MAGNITUDE <= raw <= MAX_MAGNITUDE
            else self.read_utility(raw, index, "value")
        )
        self.evals.append(None)
        self.kinds.append(LEAF)

    def read_utility(self, raw: Any, index: int, field: str) -> Utility:
        """A number, or a list of numbers (one utility per player, for max^n)."""
        if type(raw) is not list:
            value = self.number(raw, index, field)
            self.check_size(0, index, field)
            return value
        if not raw:
            raise self.fail(index, field, "a utility list needs one number per player")
        current_deadline().spend(len(raw))
        utilities = tuple(
            self.number(item, index, f"{field}/{slot}") for slot, item in enumerate(raw)
        )
        self.check_size(len(utilities), index, field)
        return utilities

    def number(self, raw: Any, index: int, field: str | None) -> Exact:
        """An exact number; the pointer is only worked out when the input is bad.

        Numeric strings repeat a lot in large trees (probabilities such as "0.25"),
        so each distinct string is parsed once.
        """
        if type(raw) is int and -MAX_MAGNITUDE <= raw <= MAX_MAGNITUDE:
            return raw
        if type(raw) is str:
            known = self.number_cache.get(raw)
            if known is not None:
                return known
        self.spend(_PARSE_COST)
        try:
            value = parse_exact(raw, "")
        except InvalidInputError as error:
            where = self.pointer(index) if field is None else f"{self.pointer(index)}/{field}"
            raise InvalidInputError(error.message, where) from None
        if type(raw) is str and len(self.number_cache) < 65536:
            self.number_cache[raw] = value
        return value

    def check_size(self, size: int, index: int, field: str | None) -> None:
        """Every utility in a tree is a number, or every one a list of the same length."""
        if self.utility_size is None:
            self.utility_size = size
            self.size_source = index
        elif size != self.utility_size:

            def shape(n: int) -> str:
                return "a single number" if n == 0 else f"a list of {n} numbers"

            raise self.fail(
                index,
                field,
                f"utilities must all have one shape: this is {shape(size)}, but the one at "
                f"{self.pointer(self.size_source)} is {shape(self.utility_size)}",
            )

    def read_probability(self, raw: Any, index: int, parent: int) -> Exact:
        if parent < 0:
            raise self.fail(index, "p", "the root is not the outcome of a chance node")
        if self.kinds[parent] != CHANCE:
            raise self.fail(
                index,
                "p",
                f"p is the probability of a chance outcome, but the parent "
                f"{self.ids[parent]!r} is a {self.kinds[parent]} node",
            )
        chance = self.number(raw, index, "p")
        if chance < 0 or chance > 1:
            raise self.fail(index, "p", f"a probability lies in [0, 1], got {chance}")
        return chance

    def check_chance_nodes(self) -> None:
        """Fill in uniform probabilities; make sure stated ones sum to exactly 1."""
        problem = _settle_chance(
            self.children, self.probabilities, self.chance_nodes, self.ids, self.pointer
        )
        if problem is None:
            return
        index, node, total = problem
        if total is None:
            raise self.fail(
                index,
                "p",
                f"either every outcome of chance node {self.ids[node]!r} states p or none "
                "does (then they are equally likely)",
            )
        raise self.fail(
            node,
            "children",
            f"the probabilities of the outcomes of chance node {self.ids[node]!r} sum to "
            f"{sum_text(total)}, not 1",
        )

    def bad_internal_kind(self, index: int, kind: object) -> InvalidInputError:
        if kind == LEAF:
            return self.fail(index, "kind", "a node of kind 'leaf' cannot have children")
        return self.bad_kind(index, kind)

    def bad_kind(self, index: int, kind: object) -> InvalidInputError:
        return self.fail(
            index,
            "kind",
            f"unknown kind {kind!r}; expected one of {', '.join(KIND_NAMES)}",
        )

    def finish(self) -> Tree:
        if self.any_given:
            self.check_unique_ids()
        self.check_chance_nodes()
        return Tree(
            ids=self.ids,
            kinds=self.kinds,
            children=self.children,
            parents=self.parents,
            depths=self.depths,
            values=self.values,
            evals=self.evals,
            moves=self.moves,
            probabilities=self.probabilities,
            players=self.players,
            utility_size=self.utility_size or 0,
            source_pointers=self.source_pointers,
            _positions=self.positions,
            _array_nodes=self.array_nodes if self.any_array else bytearray(),
            _base=self.base,
            _bare_leaves=self.bare_leaves,
        )

    def check_unique_ids(self) -> None:
        seen: dict[str, int] = {}
        spend = self.spend
        for index, node_id in enumerate(self.ids):
            spend(1)
            first = seen.setdefault(node_id, index)
            if first == index:
                continue
            # Blame a given id, not a generated one.
            culprit, other = (index, first) if self.given_ids[index] else (first, index)
            detail = "" if self.given_ids[other] else " (the default id of that node)"
            raise self.fail(
                culprit,
                "id",
                f"duplicate id {node_id!r}: also the id of the node at "
                f"{self.pointer(other)}{detail}",
            )


def _too_many_nodes(limits: Limits, pointer: str) -> LimitExceededError:
    return LimitExceededError(
        f"the tree has more than the limit of {limits.max_nodes} nodes", pointer
    )
