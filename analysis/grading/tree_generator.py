"""Fresh game trees for minimax, alpha-beta, expectimax and max^n problems.

A tree is drawn with the generator's ``random.Random`` and kept when it meets the
teacher's constraints. Its key is the grader's own (:func:`analysis.grading.answer_key.
correct_key`), written as an answer a student would post; its figure is the tree as
posted (leaf values and probabilities, no values inside), drawn by the tree renderer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from analysis.grading.answer_key import AnswerKey, correct_key, parse_problem
from analysis.grading.generator_settings import (
    MAX_GENERATED_DEPTH,
    MAX_GENERATED_NODES,
    Draft,
    ProblemSettings,
    draw_probabilities,
)
from analysis.trees.drawing import unsolved_tree
from analysis.trees.solve import solve_tree
from analysis.trees.svg_drawing import render_svg
from games.errors import InvalidInputError
from games.limits import Deadline
from games.trees.document import exact_json, utility_json
from games.trees.model import CHANCE, Tree

NODE_COST: Final = 20
"""Deadline units charged per drawn node (drawing, parsing and solving it: ~20 us)."""
MAX_PLAYERS: Final = 6


def check_tree_settings(settings: ProblemSettings) -> None:
    """Refuse tree settings out of range or that no draw can meet, naming the field."""
    low, high = settings.branching
    if not 1 <= low <= high:
        raise InvalidInputError(
            "branching is [min, max] with 1 <= min <= max", parameter="branching"
        )
    if not 1 <= settings.depth <= MAX_GENERATED_DEPTH:
        raise InvalidInputError(f"depth must be 1..{MAX_GENERATED_DEPTH}", parameter="depth")
    if sum(high**level for level in range(settings.depth + 1)) > MAX_GENERATED_NODES:
        raise InvalidInputError(
            f"depth {settings.depth} with up to {high} children could exceed "
            f"{MAX_GENERATED_NODES} nodes",
            parameter="branching",
        )
    if settings.root not in ("max", "min"):
        raise InvalidInputError(f'root is "max" or "min", got {settings.root!r}', parameter="root")
    if not 2 <= settings.players <= MAX_PLAYERS:
        raise InvalidInputError(f"players must be 2..{MAX_PLAYERS}", parameter="players")
    _check_possible(settings)


def _check_possible(settings: ProblemSettings) -> None:
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


def _draw(rng: random.Random, settings: ProblemSettings, deadline: Deadline) -> Any:
    low, high = settings.values
    chance = settings.type == "expectimax"
    players = settings.players if settings.type == "maxn" else 0

    def build(level: int) -> Any:
        # recursion as deep as the tree: at most MAX_GENERATED_DEPTH
        deadline.spend(NODE_COST)
        if level == settings.depth:
            if players:
                return [rng.randint(low, high) for _ in range(players)]
            value = rng.randint(low, high)
            return {"value": value} if chance else value
        kids = [build(level + 1) for _ in range(rng.randint(*settings.branching))]
        if not chance:
            return kids
        # MAX (or MIN) moves, then chance, alternating down the tree
        if level % 2 == 1:
            probabilities = draw_probabilities(rng, len(kids), settings.denominators)
            for kid, p in zip(kids, probabilities, strict=True):
                kid["p"] = str(p)
            return {"kind": CHANCE, "children": kids}
        return {"children": kids}

    return build(0)


def _ties(tree: Tree, values: Sequence[Any]) -> bool:
    """Whether two children of some deciding node are worth the same to its mover."""

    def worth(node: int, mover: int | None) -> Any:
        value = values[node]
        return value[mover] if mover is not None and isinstance(value, tuple) else value

    return any(
        len({worth(kid, tree.players[node]) for kid in kids}) < len(kids)
        for node, kids in enumerate(tree.children)
        if kids and tree.kinds[node] != CHANCE
    )


def draw_tree(rng: random.Random, settings: ProblemSettings, deadline: Deadline) -> Draft | None:
    """One tree problem, or ``None`` when the tree drawn misses a constraint."""
    raw = _draw(rng, settings, deadline)
    problem: dict[str, Any] = {"type": settings.type, "tree": raw}
    if settings.type != "maxn":
        problem["root"] = settings.root
    if settings.type == "alphabeta":
        problem["prune_on_equality"] = settings.prune_on_equality
    parsed = parse_problem(problem)
    tree = parsed.tree
    key, _ = correct_key(parsed)
    if key.pruned_leaves is not None and len(key.pruned_leaves) < settings.min_pruned_leaves:
        return None
    if settings.unique_best_move and len(key.best_moves) != 1:
        return None
    if settings.no_ties:
        plain = {"minimax": "minimax", "alphabeta": "minimax"}.get(settings.type, settings.type)
        if _ties(tree, solve_tree(tree, plain, deadline=deadline).search.values):
            return None
    # the problem asks what its statement asks (more than a tree problem's default questions)
    asked = ["value", "best_move", "nodes", "principal_variation"]
    if settings.type == "alphabeta":
        asked.append("pruned_leaves")
    problem["questions"] = asked
    answer = tree_answer(tree, key)
    return Draft(
        problem,
        {field: answer[field] for field in asked},
        tree_title(settings),
        tree_statement(settings, tree),
        tree_template(tree, asked),
        lambda: render_svg(unsolved_tree(tree)),
    )


def tree_answer(tree: Tree, key: AnswerKey) -> dict[str, Any]:
    """The key as a student would write it: every field a tree answer may give."""
    ids = tree.ids
    answer: dict[str, Any] = {
        "value": utility_json(key.value),
        "best_move": ids[key.best_move],
        "nodes": {ids[node]: utility_json(value) for node, value in key.nodes.items()},
        "principal_variation": [ids[node] for node in key.principal_variation],
    }
    for name in ("pruned", "pruned_leaves", "evaluated_leaves"):
        listed: list[int] | None = getattr(key, name)
        if listed is not None:
            answer[name] = [ids[node] for node in listed]
    return answer


_TASKS: Final = {
    "minimax": "Run **minimax** on the tree.",
    "alphabeta": "Run **alpha-beta** search on the tree, children left to right.",
    "expectimax": "Run **expectimax** on the tree: a chance node is worth the "
    "probability-weighted average of its children.",
    "maxn": "Run **max^n** on the tree: each player picks the child whose utility tuple is "
    "best for that player (ties go to the leftmost child).",
}


def _leaf_text(tree: Tree, node: int) -> str:
    value = tree.values[node]
    if isinstance(value, tuple):
        return "(" + ", ".join(str(exact_json(v)) for v in value) + ")"
    return str(exact_json(value)) if value is not None else "?"


NUMBER_WORDS: Final = ("", "one", "two", "three", "four", "five", "six")
_TITLES: Final = {
    "minimax": "Minimax",
    "alphabeta": "Alpha-beta pruning",
    "expectimax": "Expectimax",
    "maxn": "Max^n with {players} players",
}


def tree_title(settings: ProblemSettings) -> str:
    """The statement's title: the search asked for (and, for max^n, how many play)."""
    return _TITLES[settings.type].format(players=NUMBER_WORDS[settings.players])


def tree_template(tree: Tree, asked: Sequence[str]) -> dict[str, Any]:
    """The answer to fill in: ``null`` for each value and move, an empty list for each list
    of nodes, and under ``nodes`` every internal node of the tree (not only those the key
    holds: the template does not tell which nodes a search cuts off)."""
    internal = [tree.ids[node] for node, kids in enumerate(tree.children) if kids]
    blank: dict[str, Any] = {
        "value": None,
        "best_move": None,
        "nodes": dict.fromkeys(internal),
        "principal_variation": [],
        "pruned_leaves": [],
    }
    return {name: blank[name] for name in asked}


def tree_statement(settings: ProblemSettings, tree: Tree) -> str:
    """What the problem asks, in Markdown (without its title), with the tree's leaves listed
    by node id."""
    if settings.type == "maxn":
        movers = (
            f"Players 0 to {settings.players - 1} move in turn, player 0 at the root; "
            "each leaf lists one utility per player."
        )
    else:
        top, other = ("MAX", "MIN") if settings.root == "max" else ("MIN", "MAX")
        movers = f"{top} moves at the root, then {other}, in turn."
        if settings.type == "expectimax":
            movers = (
                f"{top} moves at the root; a chance node follows every move, then "
                f"{other}, then chance again. The probabilities are on the edges."
            )
    asks = [
        "the value of the root (`value`)",
        "the best move at the root (`best_move`, a node id such as `root.0`)",
        "the value of every internal node the search backs up (`nodes`)",
        "the principal variation (`principal_variation`: node ids from a child of the root down)",
    ]
    if settings.type == "alphabeta":
        rule = "alpha >= beta" if settings.prune_on_equality else "alpha > beta"
        asks[2] = (
            "the value each internal node the search visits returns (`nodes`; a node cut off "
            "returns the value it had when it stopped; delete from the template the nodes it "
            "never reaches)"
        )
        asks.append(f"the leaves it never evaluates (`pruned_leaves`), pruning when {rule}")
    lines = [
        f"{_TASKS[settings.type]} {movers}",
        "",
        "Give:",
        "",
        *[f"- {ask}" for ask in asks],
        "",
        "Leaves (node id: value):",
        "",
        ", ".join(f"`{tree.ids[leaf]}`: {_leaf_text(tree, leaf)}" for leaf in tree.leaves()),
        "",
    ]
    if settings.type == "expectimax":
        chances = [
            f"`{tree.ids[kid]}`: {exact_json(tree.probabilities[kid] or 0)}"
            for node, kids in enumerate(tree.children)
            if tree.kinds[node] == CHANCE
            for kid in kids
        ]
        lines += ["Chance probabilities (child: p):", "", ", ".join(chances), ""]
    return "\n".join(lines)
