"""Unfold a game defined by its rules into an explicit game tree, to a depth.

The tree is written in Arbiter's node-object form (``docs/trees.md``), the JSON a user
posts to ``/v1/trees/*``, and read back by :func:`games.trees.parser.parse_tree`, so a
position of a catalogue game becomes a tree every tree search, the renderer, the grader
and the problem generator take. The player to move at the root is MAX and the other
player MIN; a chance state is a chance node whose outcomes carry exact probabilities;
every edge is labelled with the move's notation. A terminal state is a leaf worth its
utility to the root player, and a state at the depth cutoff a leaf worth the static
evaluation from the root player's view (so the tree's minimax value is the depth-limited
search's value, H-minimax).

The walk uses an explicit stack, so the depth asked for never meets Python's recursion
limit; the node count is bounded by the limits in force (and any smaller bound the
caller gives), and the walk spends on the deadline of the computation in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from games.errors import InvalidInputError, LimitExceededError
from games.limits import active_limits, current_deadline
from games.rules.game import CHANCE, EvaluationInfo, Game
from games.trees.document import exact_json
from games.trees.model import CHANCE as CHANCE_KIND
from games.trees.model import MAX, MIN, Tree
from games.trees.parser import parse_tree

NODE_COST: Final = 8
"""Units of deadline work charged per node unfolded (a few game calls, a small dict)."""


@dataclass(frozen=True, slots=True)
class UnfoldedGame:
    """A game position unfolded to a depth, as a tree document and its counts.

    Attributes
    ----------
    document
        The tree as a node object (``{"kind", "move", "p", "value", "children"}``), ready
        to post to any tree endpoint.
    nodes
        Nodes in the tree, the root included.
    leaves
        Leaves: terminal states and states at the cutoff.
    cutoff_leaves
        Leaves valued by the evaluation (non-terminal states at the depth cutoff).
    evaluation
        Name of the evaluation used at the cutoff (``None`` when the game has none).
    root_player
        The player to move at the root (MAX in the tree).
    depth
        The depth asked for, in plies (chance levels count as plies).
    """

    document: dict[str, Any]
    nodes: int
    leaves: int
    cutoff_leaves: int
    evaluation: str | None
    root_player: int
    depth: int


def unfold_tree(
    game: Game[Any, Any],
    state: Any,
    depth: int,
    evaluation: str | None = None,
    *,
    max_nodes: int | None = None,
) -> Tree:
    """The game tree from ``state`` to ``depth`` plies as Arbiter's tree model.

    See :func:`unfold_game` for the parameters and errors; the tree is the one its
    document describes, parsed as a posted tree is.
    """
    unfolded = unfold_game(game, state, depth, evaluation, max_nodes=max_nodes)
    return parse_tree(unfolded.document, root=MAX, limits=active_limits(), pointer="")


def unfold_game(
    game: Game[Any, Any],
    state: Any,
    depth: int,
    evaluation: str | None = None,
    *,
    max_nodes: int | None = None,
) -> UnfoldedGame:
    """Unfold ``game`` from ``state`` to ``depth`` plies into a tree document.

    Parameters
    ----------
    depth
        Plies below the root (each chance level is one). 0 gives the root alone.
    evaluation
        Name of one of ``game.evaluations``; ``None`` takes the first (the default).
    max_nodes
        Most nodes the tree may have, at most the limit in force (``Limits.max_nodes``).

    :raises InvalidInputError: ``depth`` is negative (``parameter="depth"``); the
        evaluation is unknown (``parameter="evaluation"``); the root is a chance state
        (``parameter="position"``: a tree needs a player at its root to be MAX).
    :raises LimitExceededError: the tree would have more nodes than allowed, or be
        deeper than ``Limits.max_depth`` (``parameter="depth"``).
    :raises TimeLimitError: the deadline of the computation in progress passed.
    """
    limits = active_limits()
    if type(depth) is not int or depth < 0:
        raise InvalidInputError(
            f"depth must be a whole number of plies, 0 or more, got {depth!r}", parameter="depth"
        )
    if depth > limits.max_depth:
        raise LimitExceededError(
            f"depth {depth} is deeper than the limit of {limits.max_depth} plies",
            parameter="depth",
        )
    bound = limits.max_nodes if max_nodes is None else min(max_nodes, limits.max_nodes)
    info = _evaluation(game, evaluation)
    root_player = game.to_move(state)
    if root_player == CHANCE:
        raise InvalidInputError(
            "the tree is unfolded from a position where a player moves (its MAX), "
            "but here chance moves next",
            parameter="position",
        )
    spend = current_deadline().spend
    root: dict[str, Any] = {}
    nodes = 1
    leaves = 0
    cutoff_leaves = 0
    # (state, its node object, its depth); children are written when the node is popped
    stack: list[tuple[Any, dict[str, Any], int]] = [(state, root, 0)]
    while stack:
        current, node, level = stack.pop()
        spend(NODE_COST)
        if game.is_terminal(current):
            node["value"] = exact_json(_exact(game.utility(current, root_player)))
            leaves += 1
            continue
        if level == depth:
            if info is None:
                raise InvalidInputError(
                    f"the game {game.name} has no evaluation to value the states at the "
                    f"depth cutoff ({depth} plies)",
                    parameter="depth",
                )
            node["value"] = exact_json(_exact(info.function(current, root_player)))
            leaves += 1
            cutoff_leaves += 1
            continue
        mover = game.to_move(current)
        children: list[dict[str, Any]] = []
        pending: list[tuple[Any, dict[str, Any], int]] = []
        if mover == CHANCE:
            node["kind"] = CHANCE_KIND
            for outcome, probability in game.chance_outcomes(current):
                child = {
                    "move": game.move_text(current, outcome),
                    "p": exact_json(_exact(probability)),
                }
                children.append(child)
                pending.append((game.result(current, outcome), child, level + 1))
        else:
            node["kind"] = MAX if mover == root_player else MIN
            for move in game.actions(current):
                child = {"move": game.move_text(current, move)}
                children.append(child)
                pending.append((game.result(current, move), child, level + 1))
        nodes += len(children)
        if nodes > bound:
            raise LimitExceededError(
                f"the tree of this position to depth {depth} has more than {bound} nodes; "
                "ask for a smaller depth",
                parameter="depth",
            )
        node["children"] = children
        pending.reverse()  # popped left to right, so the count grows in reading order
        stack.extend(pending)
    return UnfoldedGame(
        document=root,
        nodes=nodes,
        leaves=leaves,
        cutoff_leaves=cutoff_leaves,
        evaluation=None if info is None else info.name,
        root_player=root_player,
        depth=depth,
    )


def _evaluation(game: Game[Any, Any], name: str | None) -> EvaluationInfo | None:
    """The evaluation called ``name``, the game's first when ``None`` (``None`` if it has none).

    :raises InvalidInputError: the game has no evaluation of that name.
    """
    if name is None:
        return next(iter(game.evaluations.values()), None)
    info = game.evaluations.get(name)
    if info is None:
        known = ", ".join(game.evaluations) or "none"
        raise InvalidInputError(
            f"{game.name} has no evaluation {name!r} (it has: {known})", parameter="evaluation"
        )
    return info


def _exact(value: Fraction | int) -> Fraction | int:
    """An integral value as an ``int``, so the document writes ``1``, not ``"1"``."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value
