"""The rules of the tree grammar, written once.

:mod:`games.trees.node_reader` reads any tree node by node by these rules (which fields a
node has, which kinds, how turns pass down, how ids default, what a leaf value and a
probability may be, how a chance node's probabilities settle, the size limits); its compiled
twin for plain trees (``games/trees/_reader.pyx``) takes its constants from here, and
:mod:`games.trees.parser` settles the twin's chance nodes with :func:`settle_chance`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from operator import attrgetter
from typing import Any, Final, cast

from games.errors import InvalidInputError, LimitExceededError, join_pointer
from games.limits import Deadline, Limits, check_exact_size, current_deadline
from games.numbers import MAX_MAGNITUDE, Exact, normalize, parse_exact
from games.trees.exact_sums import bounded_lcm, exact_sum
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER

NODE_FIELDS: Final = frozenset({"id", "kind", "value", "eval", "move", "children", "p", "player"})
"""Every field a node object may have."""
FLAT_FIELDS: Final = frozenset({"root", "nodes"})
KIND_NAMES: Final = (MAX, MIN, CHANCE, PLAYER, LEAF)
INTERNAL_KINDS: Final = frozenset({MAX, MIN, CHANCE, PLAYER})
ROOT_KINDS: Final = (MAX, MIN, PLAYER)
"""Kinds a caller may give the root when the input states none."""
EMPTY: Final = range(0)
"""The children of a leaf."""

HANDOVER: Final = {MAX: MIN, MIN: MAX}
"""The turn below a node without ``kind``: below MAX comes MIN and below MIN comes MAX;
chance and max^n nodes pass on the turn they were given (``HANDOVER.get(kind, turn)``),
so MAX, chance, MIN alternate by default."""

ID_SEPARATOR: Final = "."
"""A node without an id is named ``<parent id>.<position>`` (see ``ROOT_ID``)."""

PARSE_COST: Final = 8
"""Units of work charged for reading one numeric string (up to 200 characters)."""

NUMBER_CACHE_SIZE: Final = 65536
"""Distinct numeric strings remembered per tree (probabilities such as "0.25" repeat)."""


def default_id(parent_id: str, position: int) -> str:
    """The id of a node that states none: its parent's id and its position among siblings."""
    return f"{parent_id}{ID_SEPARATOR}{position}"


def read_number(raw: Any, cache: dict[str, Exact], spend: Callable[[int], None]) -> Exact:
    """An exact number: an integer within 1e300 as itself, anything else through
    :func:`games.numbers.parse_exact`, each distinct string once (``cache``).

    :raises InvalidInputError: ``raw`` is not a number; the pointer is empty, for the
        caller to fill in.
    """
    if type(raw) is int and -MAX_MAGNITUDE <= raw <= MAX_MAGNITUDE:
        return raw
    if type(raw) is str:
        known = cache.get(raw)
        if known is not None:
            return known
    spend(PARSE_COST)
    value = parse_exact(raw, "")
    if type(raw) is str and len(cache) < NUMBER_CACHE_SIZE:
        cache[raw] = value
    return value


def read_probability(
    raw: Any, cache: dict[str, Exact], spend: Callable[[int], None]
) -> Exact | None:
    """A stated probability (:func:`read_number`, then within [0, 1]), or None when it is
    malformed or out of range (the node reader then reports it with its pointer)."""
    try:
        value = read_number(raw, cache, spend)
    except InvalidInputError:
        return None
    if probability_problem(value) is not None:
        return None
    return value


def probability_problem(chance: Exact) -> str | None:
    """Why ``chance`` cannot be a probability, or None when it can."""
    # (on the numerator: Fraction's comparisons run in Python, and a tree has many outcomes)
    if type(chance) is Fraction:
        if 0 <= chance.numerator <= chance.denominator:
            return None
    elif 0 <= chance <= 1:
        return None
    return f"a probability lies in [0, 1], got {chance}"


def too_many_nodes(limits: Limits, pointer: str) -> LimitExceededError:
    return LimitExceededError(
        f"the tree has more than the limit of {limits.max_nodes} nodes", pointer
    )


def too_deep(limits: Limits, pointer: str) -> LimitExceededError:
    return LimitExceededError(
        f"the tree is deeper than the limit of {limits.max_depth} plies", pointer
    )


def settle_chance(
    children: list[range],
    probabilities: list[Exact | None],
    chance_nodes: list[int],
    ids: Sequence[str],
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
    weights = _common_weights(probabilities, deadline)
    if weights is not None and _all_sum_to_one(children, chance_nodes, *weights, deadline):
        return None
    for node in chance_nodes:
        kids = children[node]
        deadline.spend(1)
        if weights is not None:
            # in integers over the common denominator: sums to 1 exactly when the
            # integers sum to it (a None among them is a missing p, handled below)
            shares, common = weights[0][kids.start : kids.stop], weights[1]
            if None not in shares and sum(shares) == common:  # type: ignore[arg-type]
                deadline.spend(len(shares))
                continue
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


COMMON_DENOMINATOR_BITS: Final = 256
"""Largest common denominator of a tree's probabilities that :func:`settle_chance` adds
over in integers; beyond it, each node's probabilities are added as fractions."""


def _common_weights(
    probabilities: list[Exact | None], deadline: Deadline
) -> tuple[list[int | None], int] | None:
    """Each probability times the least common denominator of them all (None where a
    node states none), and that denominator; None when it is large.

    Whole-list operations: the parser reads each distinct string once, so the distinct
    probability objects are few, and each is converted once.
    """
    deadline.spend(len(probabilities))
    distinct = dict(zip(map(id, probabilities), probabilities, strict=True))
    numbers = [number for number in distinct.values() if number is not None]
    deadline.spend(len(numbers))
    if not set(map(type, numbers)) <= {int, Fraction}:
        return None
    common = bounded_lcm((number.denominator for number in numbers), COMMON_DENOMINATOR_BITS)
    if common is None:
        return None
    share: dict[int, int | None] = {
        key: None if number is None else number.numerator * (common // number.denominator)
        for key, number in distinct.items()
    }
    deadline.spend(len(probabilities))
    return list(map(share.__getitem__, map(id, probabilities))), common


def _all_sum_to_one(
    children: list[range],
    chance_nodes: list[int],
    weights: list[int | None],
    common: int,
    deadline: Deadline,
) -> bool:
    """Whether every chance node states each outcome's ``p`` and they sum to exactly 1, by
    whole-list steps over the integer ``weights`` (``common`` is 1 on their scale)."""
    deadline.spend(1 + len(chance_nodes) // 4)
    kids = list(map(children.__getitem__, chance_nodes))
    blocks = map(slice, map(attrgetter("start"), kids), map(attrgetter("stop"), kids))
    try:
        totals = list(map(sum, map(weights.__getitem__, blocks)))  # type: ignore[arg-type]
    except TypeError:  # a None: an outcome without p (all silent is uniform, else an error)
        return False
    deadline.spend(len(weights) // 8)
    return totals.count(common) == len(totals)


def _refuser(
    ids: Sequence[str], pointer: Callable[[int], str], node: int
) -> Callable[[Exact], None]:
    """Refuse the probability sum of chance node ``node``, pointing at its children."""

    def refuse(total: Exact) -> None:
        check_exact_size(
            total,
            join_pointer(pointer(node), "children"),
            f"sum of the probabilities of chance node {ids[node]!r}",
        )

    return refuse
