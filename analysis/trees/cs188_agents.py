"""Search a CS188 ``GraphGameTreeTest`` exactly as the grader's student agents do.

The Berkeley multiagent project grades ``MinimaxAgent``, ``AlphaBetaAgent``
and ``ExpectimaxAgent`` on small game graphs by two things: the action the
agent returns from the start state, and the set of states it *generated*
(the start state plus every state returned by ``generateSuccessor``). This
module reproduces both:

* Plies alternate agents ``0, 1, ..., n-1, 0, ...``; ``depth`` counts rounds,
  so the search stops at ply ``depth * n``. Agent 0 maximises; the others
  minimise (minimax, alpha-beta) or pick a legal action uniformly at random
  (expectimax: the plain average of the successors' values).
* A successor is scored by its evaluation, without expanding it, when it is a
  win or lose state, when ``depth`` rounds are done, or when it has no legal
  actions. The start state is always expanded (``getAction`` loops over its
  actions).
* Successors are generated one at a time, left to right, in the file's action
  order, so alpha-beta generates only what it visits. Its pruning is the
  project's: stop at a MAX node when ``v > beta`` and at a MIN node when
  ``v < alpha`` (strict; equality does not prune), with one ``alpha, beta``
  window shared down through the MIN agents of a round.
* The root keeps the first action with the highest value (later ties do
  not replace it).

Values are exact (the grader reads floats; only ties could tell them apart).
The walk keeps its own stack, so deep searches do not recurse; it spends on the
deadline of the computation in progress at every step, and an expectimax average
whose exact form grows past ``Limits.max_exact_digits`` stops it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from games.errors import InvalidInputError, LimitExceededError
from games.formats.cs188 import GraphGame, unfolded_size
from games.limits import Limits, check_exact_size, current_deadline, spend_on_size
from games.numbers import Exact, normalize

MINIMAX: Final = "minimax"
ALPHABETA: Final = "alphabeta"
EXPECTIMAX: Final = "expectimax"
GRAPH_ALGORITHMS: Final = (MINIMAX, ALPHABETA, EXPECTIMAX)

Window = Exact | float


@dataclass(frozen=True, slots=True)
class GraphSearchResult:
    """What the grader compares, and the search behind it.

    Attributes
    ----------
    action
        The action the agent returns from the start state.
    value
        The value of the start state under the algorithm.
    generated
        The generated states, sorted as the grader sorts them (string order).
    generation_order
        Every ``generateSuccessor`` result in call order (repeats included).
    evaluated
        States scored by the evaluation, in order.
    action_values
        ``(action, value)`` for each root action: the value its subtree
        returned (for alpha-beta, possibly a bound).
    """

    algorithm: str
    action: str
    value: Exact
    generated: tuple[str, ...]
    generation_order: tuple[str, ...]
    evaluated: tuple[str, ...]
    action_values: tuple[tuple[str, Exact], ...]


@dataclass(slots=True)
class _Frame:
    """A state being expanded: its successors so far and its running value.

    A deep search holds a frame per ply, so a frame owns nothing it could share: the
    successors are the state's one tuple, the sum starts as the int 0, and only the root
    keeps the values its actions returned.
    """

    state: str
    ply: int
    kind: str
    successors: tuple[tuple[str, str], ...]
    alpha: Window
    beta: Window
    value: Window
    slot: int = 0
    best: int = -1
    done: bool = False
    total: Exact = 0
    returned: list[Exact] | None = None


def graph_search(
    game: GraphGame,
    algorithm: str | None = None,
    *,
    limits: Limits | None = None,
    pointer: str = "/text",
) -> GraphSearchResult:
    """Run the grader's agent on ``game``.

    Parameters
    ----------
    algorithm
        ``minimax``, ``alphabeta`` or ``expectimax``; defaults to the file's ``alg``.

    Raises
    ------
    InvalidInputError
        If no algorithm is known, the start state has no actions, or a scored
        state has no evaluation.
    LimitExceededError
        If the search generates more states than ``limits.max_nodes`` (minimax and
        expectimax generate the whole unfolded tree, so it is counted before they start),
        or goes deeper than ``limits.max_depth`` plies.
    ExactSizeError
        If an expectimax average needs more digits than ``Limits.max_exact_digits``.
    TimeLimitError
        If the deadline of the computation in progress passes.
    """
    chosen = algorithm or game.algorithm
    if chosen is None:
        raise InvalidInputError(
            'name the algorithm: "minimax", "alphabeta" or "expectimax" (the file has no alg)',
            parameter="algorithm",
        )
    if chosen not in GRAPH_ALGORITHMS:
        raise InvalidInputError(
            f"algorithm must be one of {', '.join(GRAPH_ALGORITHMS)}, got {chosen!r}",
            parameter="algorithm",
        )
    limits = limits or Limits()
    deadline = current_deadline()
    pruning = chosen == ALPHABETA
    others = "chance" if chosen == EXPECTIMAX else "min"
    agents = game.num_agents
    transitions = game.transitions
    start = game.start_state
    if not transitions.get(start):
        raise InvalidInputError(
            f"the start state {start!r} has no successors, so the agent has no action to choose",
            pointer,
        )
    if not pruning:  # every node is generated: refuse a tree past the limits before it
        unfolded_size(
            game,
            max_nodes=limits.max_nodes,
            max_id_chars=None,
            max_depth=limits.max_depth,
            generated=True,
            pointer=pointer,
        )
    successors = {state: tuple(actions.items()) for state, actions in transitions.items()}
    generated = {start}
    order: list[str] = []
    evaluated: list[str] = []

    def score(state: str) -> Exact:
        evaluated.append(state)
        return game.score(state, pointer)

    def frame(state: str, ply: int, alpha: Window, beta: Window) -> _Frame:
        kind = "max" if ply % agents == 0 else others
        start_value: Window = float("-inf") if kind == "max" else float("inf")
        return _Frame(state, ply, kind, successors[state], alpha, beta, start_value)

    root = frame(start, 0, float("-inf"), float("inf"))
    root.returned = []
    stack = [root]
    while stack:
        top = stack[-1]
        if top.slot < len(top.successors) and not top.done:
            _, following = top.successors[top.slot]
            top.slot += 1
            generated.add(following)
            order.append(following)
            deadline.spend(2)
            if len(order) > limits.max_nodes:
                raise LimitExceededError(
                    f"the search generated more than the limit of {limits.max_nodes} states",
                    pointer,
                )
            ply = top.ply + 1
            if ply > limits.max_depth:
                raise LimitExceededError(
                    f"the search went deeper than the limit of {limits.max_depth} plies",
                    pointer,
                )
            if game.stops_at(following, ply):
                _fold(top, score(following), pruning, pointer)
            else:
                stack.append(frame(following, ply, top.alpha, top.beta))
            continue
        stack.pop()
        deadline.spend(1)
        if top.kind == "chance":
            result: Exact = normalize(Fraction(top.total) / len(top.successors))
            check_exact_size(result, pointer, f"expectimax value of state {top.state!r}")
            spend_on_size(deadline, result)
        else:
            assert not isinstance(top.value, float)
            result = top.value
        if stack:
            _fold(stack[-1], result, pruning, pointer)
    assert root.best >= 0 and not isinstance(root.value, float)
    actions = [action for action, _ in root.successors]
    return GraphSearchResult(
        algorithm=chosen,
        action=actions[root.best],
        value=root.value,
        generated=tuple(sorted(generated)),
        generation_order=tuple(order),
        evaluated=tuple(evaluated),
        action_values=tuple(zip(actions, root.returned or [], strict=False)),
    )


def _fold(top: _Frame, value: Exact, pruning: bool, pointer: str) -> None:
    """Take one successor's value into its parent, as the student agents do.

    :raises ExactSizeError: an expectimax sum grows past ``Limits.max_exact_digits``.
    """
    slot = top.slot - 1
    if top.returned is not None:  # the root
        top.returned.append(value)
    if top.kind == "max":
        if value > top.value:
            top.value = value
            top.best = slot
        if pruning:
            if top.value > top.beta:
                top.done = True
                return
            top.alpha = max(top.alpha, top.value)
    elif top.kind == "min":
        if value < top.value:
            top.value = value
            top.best = slot
        if pruning:
            if top.value < top.alpha:
                top.done = True
                return
            top.beta = min(top.beta, top.value)
    else:
        top.total += value
        check_exact_size(top.total, pointer, f"expectimax sum at state {top.state!r}")
        spend_on_size(current_deadline(), top.total)
