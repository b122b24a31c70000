"""Fresh homework trees with their answer keys, reproducible from a seed.

A tree is drawn with ``random.Random(seed)`` and redrawn (a bounded number of
times) until it meets the teacher's constraints; the same settings and seed
always give the same problem.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from analysis.alphabeta import alpha_beta
from analysis.expectimax import expectimax
from analysis.minimax import minimax
from analysis.tree_json import alpha_beta_json, expectimax_json, minimax_json
from games.errors import InvalidInputError
from games.tree import CHANCE
from games.tree_format import parse_tree

MAX_GENERATED_NODES: Final = 2_000
MAX_GENERATED_DEPTH: Final = 8


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
        raise InvalidInputError("branching is [min, max] with 1 <= min <= max", "/branching")
    if settings.values[0] > settings.values[1]:
        raise InvalidInputError("values is [min, max] with min <= max", "/values")
    if not 1 <= settings.depth <= MAX_GENERATED_DEPTH:
        raise InvalidInputError(f"depth must be 1..{MAX_GENERATED_DEPTH}", "/depth")
    if sum(high**level for level in range(settings.depth + 1)) > MAX_GENERATED_NODES:
        raise InvalidInputError(
            f"depth {settings.depth} with up to {high} children could exceed "
            f"{MAX_GENERATED_NODES} nodes",
            "/branching",
        )
    if any(d < 1 for d in settings.denominators) or not settings.denominators:
        raise InvalidInputError("denominators are positive integers", "/denominators")


def _probabilities(rng: random.Random, count: int, denominators: tuple[int, ...]) -> list[str]:
    usable = [d for d in denominators if d >= count] or [count]
    whole = rng.choice(usable)
    cuts = sorted(rng.sample(range(1, whole), count - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, whole], strict=True)]
    return [str(Fraction(part, whole)) for part in parts]


def _draw(rng: random.Random, settings: ProblemSettings) -> Any:
    low, high = settings.values
    chance = settings.type == "expectimax"

    def build(level: int) -> Any:
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


def generate_problem(settings: ProblemSettings) -> GeneratedProblem:
    """Draw trees until one meets the constraints.

    Raises
    ------
    InvalidInputError
        If the settings are out of range, or no tree within ``max_attempts``
        draws meets the constraints.
    """
    _check(settings)
    rng = random.Random(settings.seed)
    for attempt in range(1, settings.max_attempts + 1):
        raw = _draw(rng, settings)
        tree = parse_tree(raw, root=settings.root)
        problem: dict[str, Any] = {"type": settings.type, "tree": raw, "root": settings.root}
        if settings.type == "expectimax":
            solved = expectimax(tree)
            values, best_moves = solved.values, solved.best_moves
            answer = expectimax_json(solved)
        else:
            exact = minimax(tree)
            values, best_moves = exact.values, exact.best_moves
            answer = minimax_json(exact)
        pruned = 0
        if settings.type == "alphabeta":
            problem["prune_on_equality"] = settings.prune_on_equality
            searched = alpha_beta(tree, prune_on_equality=settings.prune_on_equality)
            pruned = len(searched.pruned_leaves)
            answer = alpha_beta_json(searched, None)
        if pruned < settings.min_pruned_leaves:
            continue
        if settings.unique_best_move and len(best_moves) != 1:
            continue
        if settings.no_ties and any(
            len({values[kid] for kid in kids}) < len(kids)
            for node, kids in enumerate(tree.children)
            if kids and tree.kinds[node] != CHANCE
        ):
            continue
        return GeneratedProblem(problem, answer, attempt)
    raise InvalidInputError(
        f"no tree met the constraints in {settings.max_attempts} draws; widen the value "
        "range or the branching, or ask for fewer pruned leaves",
        "",
    )
