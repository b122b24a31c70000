"""Fresh homework trees with their answer keys, reproducible from a seed.

A tree is drawn with ``random.Random(seed)`` and redrawn (a bounded number of
times) until it meets the teacher's constraints; the same settings and seed
always give the same problem. Every draw and every search spends on the
deadline of the computation in progress (:func:`games.limits.current_deadline`),
and settings that no draw can ever meet are refused before the first one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, Final

from analysis.trees.json_output import solution_json
from analysis.trees.solve import solve_tree
from games.errors import InvalidInputError
from games.limits import Deadline, current_deadline
from games.trees.model import CHANCE, Tree
from games.trees.parser import parse_tree

MAX_GENERATED_NODES: Final = 2_000
MAX_GENERATED_DEPTH: Final = 8
MAX_ATTEMPTS: Final = 1_000
"""Most draws one request may ask for (each costs up to a few tens of milliseconds)."""
MAX_LEAF_VALUE: Final = 10**15
"""Largest leaf value in magnitude (exact as a JSON number in every client)."""
NODE_COST: Final = 20
"""Deadline units charged per drawn node (drawing, parsing and solving it: ~20 us)."""


@dataclass(frozen=True, slots=True)
class ProblemSettings:
    """What the teacher asks for.

    ``branching`` and ``values`` are inclusive ranges; ``denominators`` the
    allowed denominators of chance probabilities; ``min_pruned_leaves`` applies
    to alpha-beta problems.
    """

    type: str = "alphabeta"
    depth: int = 3
    branching: tuple[int, int] = (2, 3)
    values: tuple[int, int] = (0, 20)
    root: str = "max"
    prune_on_equality: bool = True
    seed: int = 0
    min_pruned_leaves: int = 0
    unique_best_move: bool = False
    no_ties: bool = False
    denominators: tuple[int, ...] = (2, 3, 4)
    max_attempts: int = 200


@dataclass(frozen=True, slots=True)
class GeneratedProblem:
    """A problem body (as posted to the solve endpoint), its answer key and the draws it took."""

    problem: dict[str, Any]
    answer: dict[str, Any]
    attempts: int


def _check(settings: ProblemSettings) -> None:
    low, high = settings.branching
    if not 1 <= low <= high:
        raise InvalidInputError(
            "branching is [min, max] with 1 <= min <= max", parameter="branching"
        )
    if settings.values[0] > settings.values[1]:
        raise InvalidInputError("values is [min, max] with min <= max", parameter="values")
    if any(abs(v) > MAX_LEAF_VALUE for v in settings.values):
        raise InvalidInputError(f"values must lie within +/-{MAX_LEAF_VALUE}", parameter="values")
    if not 1 <= settings.max_attempts <= MAX_ATTEMPTS:
        raise InvalidInputError(f"max_attempts must be 1..{MAX_ATTEMPTS}", parameter="max_attempts")
    if not 1 <= settings.depth <= MAX_GENERATED_DEPTH:
        raise InvalidInputError(f"depth must be 1..{MAX_GENERATED_DEPTH}", parameter="depth")
    if sum(high**level for level in range(settings.depth + 1)) > MAX_GENERATED_NODES:
        raise InvalidInputError(
            f"depth {settings.depth} with up to {high} children could exceed "
            f"{MAX_GENERATED_NODES} nodes",
            parameter="branching",
        )
    if any(d < 1 for d in settings.denominators) or not settings.denominators:
        raise InvalidInputError("denominators are positive integers", parameter="denominators")
    _check_possible(settings)


def _check_possible(settings: ProblemSettings) -> None:
    """Refuse constraints that no draw can meet, naming the field that rules them out."""
    low, high = settings.branching
    depth, (least, most) = settings.depth, settings.values
    if settings.min_pruned_leaves > 0:
        if settings.type != "alphabeta":
            raise InvalidInputError(
                f"min_pruned_leaves applies to alphabeta problems; a {settings.type} "
                "problem prunes nothing, so no draw could meet it",
                parameter="min_pruned_leaves",
            )
        if depth == 1 or high == 1:
            # a root over leaves (or a single line) leaves nothing to cut
            raise InvalidInputError(
                "alpha-beta prunes nothing in a tree of depth 1 or with one child per node; "
                "ask for 0 pruned leaves or a deeper, wider tree",
                parameter="min_pruned_leaves",
            )
        if settings.min_pruned_leaves >= high**depth:
            raise InvalidInputError(
                f"a tree of depth {depth} with up to {high} children has at most "
                f"{high**depth} leaves, and alpha-beta evaluates at least one",
                parameter="min_pruned_leaves",
            )
    distinct = most - least + 1
    if low < 2:
        return
    if distinct == 1:
        # every node is worth the one leaf value: every MAX/MIN choice is a tie
        for name in ("unique_best_move", "no_ties"):
            if getattr(settings, name):
                raise InvalidInputError(
                    f"with a single leaf value ({least}) every move ties, so {name} can never "
                    "hold; widen values",
                    parameter="values",
                )
    # the parents of the leaves are MAX/MIN nodes (in expectimax trees, on even levels)
    leaf_parents_choose = settings.type != "expectimax" or (depth - 1) % 2 == 0
    if settings.no_ties and leaf_parents_choose and distinct < low:
        raise InvalidInputError(
            f"no_ties needs at least {low} distinct leaf values (each node above the leaves "
            f"has {low} or more children), but values allows {distinct}; widen values",
            parameter="values",
        )


def _probabilities(rng: random.Random, count: int, denominators: tuple[int, ...]) -> list[str]:
    usable = [d for d in denominators if d >= count] or [count]
    whole = rng.choice(usable)
    cuts = sorted(rng.sample(range(1, whole), count - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, whole], strict=True)]
    return [str(Fraction(part, whole)) for part in parts]


def _draw(rng: random.Random, settings: ProblemSettings, deadline: Deadline) -> Any:
    low, high = settings.values
    chance = settings.type == "expectimax"

    def build(level: int) -> Any:
        # recursion as deep as the tree: at most MAX_GENERATED_DEPTH
        deadline.spend(NODE_COST)
        if level == settings.depth:
            value = rng.randint(low, high)
            return {"value": value} if chance else value
        kids = [build(level + 1) for _ in range(rng.randint(*settings.branching))]
        if not chance:
            return kids
        # MAX (or MIN) moves, then chance, alternating down the tree
        if level % 2 == 1:
            probabilities = _probabilities(rng, len(kids), settings.denominators)
            for kid, p in zip(kids, probabilities, strict=True):
                kid["p"] = p
            return {"kind": CHANCE, "children": kids}
        return {"children": kids}

    return build(0)


def _ties(tree: Tree, values: Sequence[Any]) -> bool:
    """Whether two children of some MAX/MIN node share a value."""
    return any(
        len({values[kid] for kid in kids}) < len(kids)
        for node, kids in enumerate(tree.children)
        if kids and tree.kinds[node] != CHANCE
    )


def generate_problem(
    settings: ProblemSettings, deadline: Deadline | None = None
) -> GeneratedProblem:
    """Draw trees until one meets the constraints.

    Parameters
    ----------
    settings
        What the teacher asks for.
    deadline
        Budget for all the draws together; by default the deadline of the
        computation in progress (:func:`games.limits.current_deadline`).

    Raises
    ------
    InvalidInputError
        If the settings are out of range or can never be met (the pointer names the
        field), or no tree within ``max_attempts`` draws meets the constraints.
    TimeLimitError
        If the deadline passes first.
    """
    _check(settings)
    clock = deadline if deadline is not None else current_deadline()
    rng = random.Random(settings.seed)
    for attempt in range(1, settings.max_attempts + 1):
        clock.check()
        raw = _draw(rng, settings, clock)
        tree = parse_tree(raw, root=settings.root)
        problem: dict[str, Any] = {"type": settings.type, "tree": raw, "root": settings.root}
        render: Callable[[], dict[str, Any]]
        values: Sequence[Any]
        plain = "expectimax" if settings.type == "expectimax" else "minimax"
        exact = solve_tree(tree, plain, deadline=clock)
        values, best_moves = exact.search.values, exact.best_moves
        render = partial(solution_json, exact)
        if settings.type == "alphabeta":
            problem["prune_on_equality"] = settings.prune_on_equality
            searched = solve_tree(
                tree, "alphabeta", prune_on_equality=settings.prune_on_equality, deadline=clock
            )
            if len(searched.pruned_leaves) < settings.min_pruned_leaves:
                continue
            render = partial(solution_json, searched)
        if settings.unique_best_move and len(best_moves) != 1:
            continue
        if settings.no_ties and _ties(tree, values):
            continue
        # the answer is written for the draw that qualifies only
        answer = render()
        return GeneratedProblem(problem, answer, attempt)
    raise InvalidInputError(
        f"no tree met the constraints in {settings.max_attempts} draws; widen the value "
        "range or the branching, or ask for fewer pruned leaves",
        parameter="max_attempts",
    )
