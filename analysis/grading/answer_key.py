"""Answer keys: what a correct (or a mistaken) student writes for a tree problem.

A problem is the body of a solve endpoint tagged with its type
(``{"type": "alphabeta", "tree": ..., "prune_on_equality": true}``). Its key
holds, by node index, the fields a student may write down; the grader compares
an answer with the key of the right search, and the diagnosis with the keys of
the usual mistaken searches (see :mod:`analysis.grading.diagnosis`). Every search runs
under the deadline of the computation in progress.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from analysis.trees.alpha_beta import AlphaBetaResult
from analysis.trees.expectimax import ExpectimaxResult
from analysis.trees.horizon import horizon
from analysis.trees.max_n import MaxnResult
from analysis.trees.minimax import MinimaxResult
from analysis.trees.solve import solve_tree
from games.errors import InvalidInputError
from games.limits import Limits, current_deadline
from games.numbers import Exact, parse_exact
from games.trees.model import CHANCE, PLAYER, Tree
from games.trees.parser import parse_tree

PROBLEM_TYPES: Final = ("minimax", "alphabeta", "expectimax", "maxn")
MAX_TRACED_NODES: Final = 20_000
PROBLEM_FIELDS: Final = frozenset(
    {
        "type",
        "tree",
        "root",
        "depth",
        "prune_on_equality",
        "trace",
        "move_ordering",
        "tie_break",
        "max_sum",
        "paranoid",
        "questions",
    }
)

Value = Exact | tuple[Exact, ...]
"""A node's value: a number, or one utility per player (max^n)."""


@dataclass(frozen=True, slots=True)
class TreeProblem:
    """A parsed tree problem: its type, tree and search options."""

    type: str
    tree: Tree
    depth: int | None
    prune_on_equality: bool
    raw: Mapping[str, Any]
    tie_break: str = "leftmost"
    max_sum: Exact | None = None


@dataclass(frozen=True, slots=True)
class AnswerKey:
    """Everything a student may be asked to write, by node index.

    Attributes
    ----------
    value
        Value of the root.
    best_move, best_moves
        The move shown as the answer, and every move accepted (ties).
    nodes
        Values of the internal nodes the search backs up (visited ones only,
        for alpha-beta: fail-soft values, bounds included).
    statics
        Values of the static nodes (leaves or frontier nodes) the search reads.
    principal_variation
        The line shown as the answer.
    optimal
        Per internal node, the children a correct line may take.
    pruned, pruned_leaves, evaluated_leaves
        Alpha-beta only (``None`` otherwise).
    """

    value: Value
    best_move: int
    best_moves: frozenset[int]
    nodes: dict[int, Value]
    statics: dict[int, Value]
    principal_variation: list[int]
    optimal: Mapping[int, frozenset[int]]
    pruned: list[int] | None = None
    pruned_leaves: list[int] | None = None
    evaluated_leaves: list[int] | None = None


def parse_problem(raw: Any, pointer: str = "/problem", limits: Limits | None = None) -> TreeProblem:
    """Check a problem body and parse its tree.

    Raises
    ------
    InvalidInputError
        If a field is missing, unknown or of the wrong type (the pointer names it).
    """
    if not isinstance(raw, dict):
        raise InvalidInputError("a problem is an object with a type and a tree", pointer)
    kind = raw.get("type")
    if kind not in PROBLEM_TYPES:
        raise InvalidInputError(
            f"problem type must be one of {', '.join(PROBLEM_TYPES)}, matrix, lottery, "
            "preferences, eu-consistency, extensive; "
            f"got {kind!r}",
            f"{pointer}/type",
        )
    for name in raw:
        if name not in PROBLEM_FIELDS:
            raise InvalidInputError(f"unknown problem field {name!r}", f"{pointer}/{name}")
    if "tree" not in raw:
        raise InvalidInputError("the problem has no tree", f"{pointer}/tree")
    root = raw.get("root", "max")
    if root not in ("max", "min"):
        raise InvalidInputError(f'root must be "max" or "min", got {root!r}', f"{pointer}/root")
    depth = raw.get("depth")
    if depth is not None and (type(depth) is not int or depth < 0):
        raise InvalidInputError(
            f"depth must be a non-negative integer or null, got {depth!r}", f"{pointer}/depth"
        )
    equality = raw.get("prune_on_equality", True)
    if type(equality) is not bool:
        raise InvalidInputError(
            f"prune_on_equality must be true or false, got {equality!r}",
            f"{pointer}/prune_on_equality",
        )
    tie_break = raw.get("tie_break", "leftmost")
    if tie_break not in ("leftmost", "rightmost"):
        raise InvalidInputError(
            f'tie_break must be "leftmost" or "rightmost", got {tie_break!r}',
            f"{pointer}/tie_break",
        )
    max_sum = raw.get("max_sum")
    if max_sum is not None:
        max_sum = parse_exact(max_sum, f"{pointer}/max_sum")
    # in a max^n problem a bare list of numbers is one leaf's utilities (docs/trees.md)
    reading = PLAYER if kind == "maxn" and "root" not in raw else root
    tree = parse_tree(raw["tree"], root=reading, limits=limits, pointer=f"{pointer}/tree")
    return TreeProblem(kind, tree, depth, equality, raw, tie_break, max_sum)


def _optimal(
    children: Sequence[Sequence[int]], values: Sequence[Value | None]
) -> dict[int, frozenset[int]]:
    current_deadline().spend(2 * len(children))
    return {
        node: frozenset(kid for kid in kids if values[kid] == values[node])
        for node, kids in enumerate(children)
        if kids and values[node] is not None
    }


def _chance_lines(
    tree: Tree, children: Sequence[Sequence[int]], optimal: dict[int, frozenset[int]]
) -> dict[int, frozenset[int]]:
    """A line through a chance node may follow any of its outcomes."""
    for node, kids in enumerate(children):
        if kids and tree.kinds[node] == CHANCE:
            optimal[node] = frozenset(kids)
    return optimal


def leaves_under(tree: Tree, tops: Sequence[int], children: Sequence[Sequence[int]]) -> list[int]:
    """The static nodes of the subtrees under ``tops`` (as searched), left to right."""
    deadline = current_deadline()
    found: list[int] = []
    for top in tops:
        below = tree.leaves_below(top, children) if children[top] else (top,)
        deadline.spend(1 + len(below))
        found.extend(below)
    return found


def _split(
    children: Sequence[Sequence[int]], values: Sequence[Value | None]
) -> tuple[dict[int, Value], dict[int, Value]]:
    internal: dict[int, Value] = {}
    static: dict[int, Value] = {}
    current_deadline().spend(len(values))
    for node, value in enumerate(values):
        if value is not None:
            (internal if children[node] else static)[node] = value
    return internal, static


def minimax_key(tree: Tree, depth: int | None) -> AnswerKey:
    """Key of a minimax problem: every node's value, any optimal move and line."""
    result = solve_tree(tree, "minimax", depth=depth).search
    assert isinstance(result, MinimaxResult)
    children = horizon(tree, depth).children
    internal, static = _split(children, result.values)
    return AnswerKey(
        value=result.value,
        best_move=result.best_child[0],
        best_moves=frozenset(result.best_moves),
        nodes=internal,
        statics=static,
        principal_variation=result.principal_variation,
        optimal=_optimal(children, result.values),
    )


def expectimax_key(tree: Tree, depth: int | None) -> AnswerKey:
    """Key of an expectimax problem; the line follows the most likely outcome at chance nodes."""
    result = solve_tree(tree, "expectimax", depth=depth).search
    assert isinstance(result, ExpectimaxResult)
    children = horizon(tree, depth).children
    internal, static = _split(children, result.values)
    optimal = _chance_lines(tree, children, _optimal(children, result.values))
    best = result.best_child[0] if tree.kinds[0] != CHANCE else -1
    return AnswerKey(
        value=result.value,
        best_move=best,
        best_moves=frozenset(result.best_moves),
        nodes=internal,
        statics=static,
        principal_variation=result.principal_variation,
        optimal=optimal,
    )


def alpha_beta_key(
    result: AlphaBetaResult,
    children: Sequence[Sequence[int]],
    accepted: AnswerKey | None = None,
) -> AnswerKey:
    """Key of an alpha-beta search.

    ``children`` is the tree as searched (cut at the depth limit, in the posted
    order), used to list the leaves under pruned subtrees. With ``accepted`` (the
    minimax key), any optimal move and optimal line is accepted; without, only
    the search's own.
    """
    tree = result.tree
    internal, static = _split(children, result.values)
    pruned_leaves = leaves_under(tree, result.pruned, children)
    if accepted is not None:
        best_moves, optimal = accepted.best_moves, accepted.optimal
    else:
        best_moves = frozenset({result.best_move})
        optimal = {node: frozenset({kid}) for node, kid in enumerate(result.best_child) if kid >= 0}
    return AnswerKey(
        value=result.value,
        best_move=result.best_move,
        best_moves=best_moves,
        nodes=internal,
        statics=static,
        principal_variation=result.principal_variation,
        optimal=optimal,
        pruned=list(result.pruned),
        pruned_leaves=pruned_leaves,
        evaluated_leaves=list(result.evaluated_leaves),
    )


def maxn_key(tree: Tree, depth: int | None, tie_break: str, max_sum: Exact | None) -> AnswerKey:
    """Key of a max^n problem: utility tuples; with ``max_sum``, the shallow-pruned nodes."""
    result = solve_tree(tree, "maxn", depth=depth, tie_break=tie_break, max_sum=max_sum).search
    assert isinstance(result, MaxnResult)
    children = horizon(tree, depth).children
    internal, static = _split(children, result.values)
    optimal = _chance_lines(tree, children, _optimal(children, result.values))
    best = result.best_child[0] if tree.kinds[0] != CHANCE else -1
    pruned_leaves = None if max_sum is None else leaves_under(tree, result.pruned, children)
    return AnswerKey(
        value=result.value,
        best_move=best,
        best_moves=frozenset(optimal.get(0, ())) if best >= 0 else frozenset(),
        nodes=internal,
        statics=static,
        principal_variation=result.principal_variation,
        optimal=optimal,
        pruned=list(result.pruned) if max_sum is not None else None,
        pruned_leaves=pruned_leaves,
    )


def correct_key(problem: TreeProblem) -> tuple[AnswerKey, AlphaBetaResult | None]:
    """The key of the problem, and for alpha-beta the traced search behind it."""
    tree, depth = problem.tree, problem.depth
    if problem.type == "expectimax":
        return expectimax_key(tree, depth), None
    if problem.type == "maxn":
        return maxn_key(tree, depth, problem.tie_break, problem.max_sum), None
    exact = minimax_key(tree, depth)
    if problem.type == "minimax":
        return exact, None
    # the trace feeds the "first departure" feedback; it is skipped on very large trees
    traced = len(tree) <= MAX_TRACED_NODES
    result = solve_tree(
        tree, "alphabeta", depth=depth, prune_on_equality=problem.prune_on_equality, trace=traced
    ).search
    assert isinstance(result, AlphaBetaResult)
    return alpha_beta_key(result, horizon(tree, depth).children, exact), result
