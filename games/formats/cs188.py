r'''The Berkeley CS188 multiagent autograder's ``GraphGameTreeTest`` files.

A test file is a list of ``key: "value"`` lines; a multi-line value opens
with ``key: """`` on its own line and closes at a line holding only
``"""`` (the autograder's ``testParser``). ``#`` starts a comment on one-line
entries, as there; inside a block every line is data. The keys read here:

``start_state``
    The state the agent moves from.
``win_states``, ``lose_states``
    Space-separated states where the game ends (``isWin``/``isLose``).
``successors``
    Block of ``state action next`` lines; a state's legal actions are its
    lines' actions in file order (a repeated ``state action`` pair keeps its
    first place and takes the last ``next``, as the grader's dict does).
``evaluation``
    Block of ``state value`` lines: what ``getScore`` returns.
``num_agents``, ``depth``
    Agents (agent 0 is MAX), and the search depth in rounds (every agent
    moves once per round).
``alg`` (optional)
    ``MinimaxAgent``, ``AlphaBetaAgent`` or ``ExpectimaxAgent``.

Blank lines in a block are skipped (the grader would stop on them); any
other line without exactly 3 (successors) or 2 (evaluation) fields is an
error naming its line. Reading the file and unfolding the graph spend on the
deadline of the computation in progress, line by line and node by node.
'''

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from games.errors import InvalidInputError, LimitExceededError
from games.limits import Limits, current_deadline
from games.numbers import Exact, parse_exact
from games.trees.document import exact_json, unique_id
from games.trees.model import CHANCE, MAX, MIN, Tree
from games.trees.parser import parse_tree

ALGORITHMS: Final = {
    "MinimaxAgent": "minimax",
    "AlphaBetaAgent": "alphabeta",
    "ExpectimaxAgent": "expectimax",
}
"""The grader's agent class names and the algorithm each one runs."""

REQUIRED: Final = (
    "start_state",
    "win_states",
    "lose_states",
    "successors",
    "evaluation",
    "num_agents",
    "depth",
)

_ONE_LINE: Final = re.compile(r'([^"]*?):\s*"([^"]*)"\s*')
_BLOCK_OPEN: Final = re.compile(r'([^"]*?):\s*"""\s*')
_BLOCK_CLOSE: Final = re.compile(r'\s*"""\s*')


@dataclass(frozen=True, slots=True)
class GraphGame:
    """A ``GraphGameTreeTest`` problem.

    Attributes
    ----------
    transitions
        ``state -> {action: next state}``, actions in the grader's order.
    evaluation
        Exact score of each listed state.
    algorithm
        ``minimax``, ``alphabeta`` or ``expectimax`` from the file's ``alg``, or None.
    entries
        Every ``key -> value`` entry of the file, as read.
    """

    start_state: str
    win_states: frozenset[str]
    lose_states: frozenset[str]
    transitions: dict[str, dict[str, str]]
    evaluation: dict[str, Exact]
    num_agents: int
    depth: int
    algorithm: str | None
    entries: dict[str, str]

    def is_terminal(self, state: str) -> bool:
        return state in self.win_states or state in self.lose_states

    def stops_at(self, state: str, ply: int) -> bool:
        """Whether the agents score ``state``, reached at ``ply``, instead of expanding it.

        A win or lose state, the end of the last round, or a state without
        actions; never the start state, whose actions ``getAction`` loops over.
        """
        if ply == 0:
            return False
        return (
            self.is_terminal(state)
            or ply == self.depth * self.num_agents
            or not self.transitions.get(state)
        )

    def score(self, state: str, pointer: str = "/text") -> Exact:
        """The evaluation of ``state``, as ``getScore`` returns it."""
        value = self.evaluation.get(state)
        if value is None:
            raise InvalidInputError(
                f"state {state!r} is scored (win, lose, depth reached or no successors) but "
                "has no evaluation; the grader's getScore would fail there",
                pointer,
            )
        return value


def read_test_file(text: str, pointer: str = "/text") -> tuple[dict[str, str], dict[str, int]]:
    """The ``key -> value`` entries of a test file and the line where each starts."""
    lines = text.split("\n")
    entries: dict[str, str] = {}
    starts: dict[str, int] = {}
    spend = current_deadline().spend
    at = 0
    while at < len(lines):
        raw = lines[at]
        # a line is matched by regular expressions in time proportional to its length
        spend(1 + len(raw) // 64)
        bare = raw.split("#", 1)[0]
        number = at + 1
        at += 1
        if not bare.strip():
            continue
        single = _ONE_LINE.fullmatch(bare)
        if single:
            entries[single.group(1).strip()] = single.group(2)
            starts[single.group(1).strip()] = number
            continue
        opened = _BLOCK_OPEN.fullmatch(bare)
        if opened is None:
            raise InvalidInputError(
                f'line {number}: expected key: "value" or key: """ opening a block, '
                f"got {raw.strip()[:80]!r}",
                pointer,
            )
        block: list[str] = []
        while at < len(lines) and not _BLOCK_CLOSE.fullmatch(lines[at]):
            spend(1 + len(lines[at]) // 64)
            block.append(lines[at])
            at += 1
        if at == len(lines):
            raise InvalidInputError(
                f'line {number}: the block {opened.group(1).strip()!r} is never closed by """',
                pointer,
            )
        at += 1
        entries[opened.group(1).strip()] = "\n".join(block)
        starts[opened.group(1).strip()] = number + 1
    return entries, starts


def parse_graph_game(text: str, *, pointer: str = "/text") -> GraphGame:
    """Read a ``GraphGameTreeTest`` file.

    Raises
    ------
    InvalidInputError
        On a malformed line or a missing or bad key (the message names the line).
    """
    entries, starts = read_test_file(text, pointer)
    for key in REQUIRED:
        if key not in entries:
            raise InvalidInputError(f"the test file has no {key!r} entry", pointer)

    def whole(key: str, low: int) -> int:
        raw = entries[key].strip()
        if not re.fullmatch(r"\d{1,6}", raw) or int(raw) < low:
            raise InvalidInputError(
                f"line {starts[key]}: {key} must be a whole number >= {low}, got {raw!r}",
                pointer,
            )
        return int(raw)

    num_agents = whole("num_agents", 1)
    depth = whole("depth", 1)
    start = entries["start_state"].strip()
    if not start or len(start.split()) != 1:
        raise InvalidInputError(
            f"line {starts['start_state']}: start_state must be one state name", pointer
        )
    spend = current_deadline().spend
    transitions: dict[str, dict[str, str]] = {}
    first = starts["successors"]
    for offset, line in enumerate(entries["successors"].split("\n")):
        spend(1 + len(line) // 64)
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3:
            raise InvalidInputError(
                f"line {first + offset}: a successor line is 'state action next', "
                f"got {line.strip()[:80]!r}",
                pointer,
            )
        state, action, following = fields
        transitions.setdefault(state, {})[action] = following
    evaluation: dict[str, Exact] = {}
    first = starts["evaluation"]
    for offset, line in enumerate(entries["evaluation"].split("\n")):
        spend(4 + len(line) // 64)
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2:
            raise InvalidInputError(
                f"line {first + offset}: an evaluation line is 'state value', "
                f"got {line.strip()[:80]!r}",
                pointer,
            )
        try:
            evaluation[fields[0]] = parse_exact(fields[1], pointer)
        except InvalidInputError as error:
            raise InvalidInputError(f"line {first + offset}: {error.message}", pointer) from None
    algorithm = None
    if "alg" in entries:
        algorithm = ALGORITHMS.get(entries["alg"].strip())
        if algorithm is None:
            raise InvalidInputError(
                f"line {starts['alg']}: alg must be one of {', '.join(ALGORITHMS)}, "
                f"got {entries['alg']!r}",
                pointer,
            )
    return GraphGame(
        start_state=start,
        win_states=frozenset(entries["win_states"].split(" ")),
        lose_states=frozenset(entries["lose_states"].split(" ")),
        transitions=transitions,
        evaluation=evaluation,
        num_agents=num_agents,
        depth=depth,
        algorithm=algorithm,
        entries=entries,
    )


@dataclass(frozen=True, slots=True)
class UnfoldedSize:
    """The size of a game graph unfolded as the agents search it, counted without building it.

    Attributes
    ----------
    nodes
        Nodes of the tree, the root included (the grader generates one state per other node).
    id_chars
        Characters of the nodes' ids together, named as :func:`graph_game_tree` names them
        (``state``, then ``state#2``, ``state#3``, ...).
    plies
        Depth of the deepest node.
    """

    nodes: int
    id_chars: int
    plies: int


def unfolded_size(
    game: GraphGame,
    *,
    max_nodes: int,
    max_id_chars: int | None,
    max_depth: int,
    generated: bool = False,
    pointer: str = "/text",
) -> UnfoldedSize:
    """Count the tree :func:`graph_game_tree` would build, a level at a time, by how many of
    its nodes hold each state: the work and memory go by the states of a level, not the nodes,
    so an unfolding past the limits is refused before any of it is built.

    Raises
    ------
    LimitExceededError
        As soon as the tree has more than ``max_nodes`` nodes (with ``generated``: below
        the root, the states the grader's agents generate), ids of more than
        ``max_id_chars`` characters together (``None``: ids are not counted), or a node
        deeper than ``max_depth`` plies.
    """
    spend = current_deadline().spend
    level = {game.start_state: 1}
    held = {game.start_state: 1}
    nodes = 1
    id_chars = len(game.start_state)
    ply = 0
    while True:
        below: dict[str, int] = {}
        for state, count in level.items():
            actions = game.transitions.get(state)
            spend(1 + (len(actions) if actions else 0))
            if not actions or game.stops_at(state, ply):
                continue
            for following in actions.values():
                below[following] = below.get(following, 0) + count
        if not below:
            return UnfoldedSize(nodes, id_chars, ply)
        ply += 1
        rounds = f"{game.depth} rounds of {game.num_agents} agents"
        if ply > max_depth:
            raise LimitExceededError(
                f"the game graph unfolded to {rounds} is deeper than the limit of "
                f"{max_depth} plies",
                pointer,
            )
        for state, count in below.items():
            before = held.get(state, 0)
            held[state] = before + count
            id_chars += count * len(state) + _suffix_chars(before + count) - _suffix_chars(before)
            nodes += count
        if (nodes - 1 if generated else nodes) > max_nodes:
            what = "generates more than the limit of" if generated else "has more than the limit of"
            noun = "states" if generated else "nodes"
            raise LimitExceededError(
                f"the game graph unfolded to {rounds} {what} {max_nodes} {noun} (counted "
                "before any is built)",
                pointer,
            )
        if max_id_chars is not None and id_chars > max_id_chars:
            raise LimitExceededError(
                f"the node ids of the game graph unfolded to {rounds} hold more than the limit "
                f"of {max_id_chars} characters together (each node is named after its state; "
                "shorten the state names or the depth)",
                pointer,
            )
        level = below


def _suffix_chars(count: int) -> int:
    """Characters of the suffixes ``#2`` ... ``#count`` that tell apart ``count`` nodes
    named after one state."""
    total = 0
    digits = 1
    low = 2
    while low <= count:
        high = min(count, 10**digits - 1)
        total += (high - low + 1) * (1 + digits)
        low = 10**digits
        digits += 1
    return total


def graph_game_tree(
    game: GraphGame,
    *,
    algorithm: str = "minimax",
    limits: Limits | None = None,
    pointer: str = "/text",
) -> Tree:
    """Unfold the game graph into a tree, as the grader's agents search it.

    Agent 0's turns are MAX nodes; the other agents' turns are MIN nodes, or
    uniform chance nodes for ``expectimax``. A state ends the unfolding when it
    is a win or lose state, when ``depth`` rounds have been played, or when it
    has no successors; it is then a leaf valued by ``evaluation``. A state
    reached along several paths gives several nodes: the first is named after
    the state, later ones ``state#2``, ``state#3``, ... Moves are the actions.

    Raises
    ------
    InvalidInputError
        If a leaf state has no evaluation.
    LimitExceededError
        If the unfolded tree would have more nodes, levels or id characters than
        ``limits`` allow (:func:`unfolded_size`, before any node is built).
    """
    limits = limits or Limits()
    unfolded_size(
        game,
        max_nodes=limits.max_nodes,
        max_id_chars=limits.max_id_chars,
        max_depth=limits.max_depth,
        pointer=pointer,
    )
    other = CHANCE if algorithm == "expectimax" else MIN
    used: dict[str, int] = {}
    nodes: list[dict[str, Any]] = []
    # breadth-first: (state, ply, node object)
    root: dict[str, Any] = {"id": unique_id(game.start_state, used)}
    queue: list[tuple[str, int, dict[str, Any]]] = [(game.start_state, 0, root)]
    spend = current_deadline().spend
    head = 0
    while head < len(queue):
        state, ply, node = queue[head]
        head += 1
        spend(2)
        nodes.append(node)
        actions = game.transitions.get(state, {})
        if not actions or game.stops_at(state, ply):
            node["value"] = exact_json(game.score(state, pointer))
            continue
        node["kind"] = MAX if ply % game.num_agents == 0 else other
        children: list[str] = []
        spend(2 * len(actions))
        for action, following in actions.items():
            child = {"id": unique_id(following, used), "move": action}
            children.append(child["id"])
            queue.append((following, ply + 1, child))
        node["children"] = children
    return parse_tree({"root": root["id"], "nodes": nodes}, limits=limits, pointer=pointer)
