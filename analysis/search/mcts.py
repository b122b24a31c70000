"""Monte Carlo tree search: UCT (Kocsis and Szepesvari 2006), for every game of the catalogue.

The search grows a tree from the position one simulation at a time. Each simulation runs the
four phases of the textbook (Browne et al. 2012, Figure 2; AIMA 4th ed., Figure 5.11):

1. **selection**: from the root, while the node is fully expanded (every move has a child)
   and the game goes on, step to the child of greatest UCB1,
   ``mean + exploration * sqrt(ln N / n)`` (``n`` the child's visits, ``N`` the parent's;
   ties go to the first in the game's move order). At a chance node the outcome is drawn by
   its probability instead;
2. **expansion**: add one child: an untried move, drawn at random (at a chance node, the
   outcome just drawn when it is new);
3. **playout**: random moves (chance outcomes by their probabilities) from the new child to
   the end of the game;
4. **back-propagation**: every node of the path gains a visit and the playout's reward.

Rewards. A finished game is worth ``(utility - loss) / (win - loss)`` to each player, in
[0, 1] whatever the game's utilities (1 a win, 1/2 a draw of the +1/0/-1 games, 0 a loss;
Pig's win probabilities are already in [0, 1]). A node adds up the reward of the player who
*moved into it* (the player to move at its parent; through a chance node, the player who
rolled), since that player chooses among it and its siblings: selecting by the mover's own
reward is what makes each player pick its best move, and scoring every node for one fixed
player is the classic sign bug. The root holds the reward of its player to move (player 0
when chance moves first). Players are read from ``game.to_move`` at every node, so a game
where one player moves twice in a row (Pig's rolls) needs nothing special.

Totals are exact Fractions; UCB1 is a float (a square root of a logarithm). With the same
``seed`` (one private :class:`random.Random`) and the same number of simulations the answer
is the same; under a ``time_limit`` the number of simulations depends on the machine.

Bounds. The tree holds at most ``max_nodes`` nodes (:data:`MAX_TREE_NODES` by default, under
about 200 MB): once full it stops growing and the simulations go on, their playouts starting at the
leaf selection reached. Work (one unit per state a simulation enters) is charged to the
request's deadline in batches between simulations, so a stop never leaves a half-counted
simulation.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from analysis.search.budget import NODE_BATCH, BudgetSpent, SearchBudget
from analysis.search.results import (
    Backup,
    ChildStatistics,
    Expansion,
    MctsSolution,
    Playout,
    SelectionStep,
    SimulationEvents,
)
from games.errors import InvalidInputError
from games.rules.game import CHANCE, Game

DEFAULT_EXPLORATION: Final = math.sqrt(2)
"""UCB1's constant ``c``: sqrt 2 is Auer et al.'s (2002) for rewards in [0, 1]."""

MAX_EXPLORATION: Final = 100.0
"""The largest exploration constant accepted (past it the means no longer matter)."""

MAX_SIMULATIONS: Final = 10_000_000
"""The most simulations one search may be asked for (the deadline stops it sooner)."""

MAX_TREE_NODES: Final = 150_000
"""The tree's default cap in nodes: measured, a node with its state costs about 500 bytes in
tic-tac-toe and connect four and 1.3 KB in Nim on eight piles (its moves are not stored), so
the tree stays under about 200 MB."""

MAX_EVENTS: Final = 500
"""The most simulations whose four phases an answer may list."""


@dataclass(eq=False, slots=True)
class Node:
    """A state of the search tree and the statistics of the simulations through it."""

    id: int
    """Creation order: the root is 0."""
    state: Any
    move: Hashable
    """The move (or chance outcome) from the parent; ``None`` at the root."""
    player: int
    """Whose reward ``total`` adds up: the player who moved into the node."""
    mover: int
    """``to_move`` of the state (:data:`CHANCE` at a chance node); -2 when terminal."""
    width: int
    """How many legal moves the state has (0 at a chance node, whose children come as drawn,
    and at the end). The moves themselves are asked of the game again when needed, so a node
    costs the same however many moves it has (Nim's hundreds)."""
    children: dict[Hashable, Node] = field(default_factory=dict)
    visits: int = 0
    total: Fraction = Fraction(0)

    @property
    def terminal(self) -> bool:
        return self.mover == TERMINAL

    @property
    def expandable(self) -> bool:
        """Whether some legal move has no child yet."""
        return len(self.children) < self.width


TERMINAL: Final = -2
"""``Node.mover`` of a finished game."""


class Uct:
    """One search: the tree, the random stream, the budget and the events recorded."""

    def __init__(
        self,
        game: Game[Any, Any],
        state: Any,
        *,
        exploration: float,
        seed: int,
        max_nodes: int,
        events: int,
        budget: SearchBudget,
    ):
        self.game = game
        self.exploration = exploration
        self.random = random.Random(seed)
        self.max_nodes = max_nodes
        self.record = events
        self.budget = budget
        self.span = Fraction(game.win) - Fraction(game.loss)
        self.size = 0
        self.plies = 0
        self.events: list[SimulationEvents] = []
        mover = game.to_move(state)
        self.root = self.new_node(state, None, 0 if mover == CHANCE else mover)

    def new_node(self, state: Any, move: Hashable, player: int) -> Node:
        game = self.game
        width = 0
        if game.is_terminal(state):
            mover = TERMINAL
        else:
            mover = game.to_move(state)
            if mover != CHANCE:
                width = len(game.actions(state))
        node = Node(self.size, state, move, player, mover, width)
        self.size += 1
        return node

    def reward(self, state: Any, player: int) -> Fraction:
        """A finished game's worth to ``player`` on the [0, 1] scale."""
        return (Fraction(self.game.utility(state, player)) - self.game.loss) / self.span

    def draw_outcome(self, state: Any) -> tuple[Hashable, Fraction]:
        """A chance outcome drawn by its exact probability (one integer draw)."""
        outcomes = self.game.chance_outcomes(state)
        denominator = math.lcm(*(p.denominator for _, p in outcomes))
        ticket = self.random.randrange(denominator)
        for outcome, probability in outcomes:
            ticket -= probability.numerator * (denominator // probability.denominator)
            if ticket < 0:
                return outcome, probability
        return outcomes[-1]  # probabilities that sum to 1 never get here

    def ucb(self, child: Node, log_parent: float) -> float:
        """UCB1 of ``child`` for the player choosing it (every child has a visit)."""
        return float(child.total) / child.visits + self.exploration * math.sqrt(
            log_parent / child.visits
        )

    def best_child(self, node: Node) -> tuple[Node, float]:
        """The child of greatest UCB1, the first in the game's move order among equals."""
        log_parent = math.log(node.visits)
        best: Node | None = None
        best_value = -math.inf
        for move in self.game.actions(node.state):
            child = node.children[move]
            value = self.ucb(child, log_parent)
            if value > best_value:
                best, best_value = child, value
        assert best is not None
        return best, best_value

    def simulate(self, number: int) -> None:
        """One simulation: selection, expansion, playout, back-propagation."""
        record = number <= self.record
        node = self.root
        path = [node]
        steps: list[SelectionStep] = []
        drawn: tuple[Hashable, Fraction] | None = None
        # 1. selection
        while not node.terminal:
            if node.mover == CHANCE:
                drawn = self.draw_outcome(node.state)
                child = node.children.get(drawn[0])
                if child is None:
                    break
                step = SelectionStep(
                    child.id, child.move, child.visits, child.total, None, drawn[1]
                )
            elif node.expandable:
                break
            else:
                child, value = self.best_child(node)
                step = SelectionStep(child.id, child.move, child.visits, child.total, value, None)
            if record:
                steps.append(step)
            node = child
            path.append(node)
        # 2. expansion
        expansion: Expansion | None = None
        if not node.terminal and self.size < self.max_nodes:
            if node.mover == CHANCE:
                assert drawn is not None
                move, probability = drawn
                player = node.player
            else:
                untried = [m for m in self.game.actions(node.state) if m not in node.children]
                move = untried[self.random.randrange(len(untried))]
                probability, player = None, node.mover
            child = self.new_node(self.game.result(node.state, move), move, player)
            node.children[move] = child
            if record:
                expansion = Expansion(child.id, node.id, move, player, probability)
            node = child
            path.append(node)
        # 3. playout
        game = self.game
        state = node.state
        moves: list[Hashable] = []
        while not game.is_terminal(state):
            if game.to_move(state) == CHANCE:
                move = self.draw_outcome(state)[0]
            else:
                move = self.random.choice(game.actions(state))
            if record:
                moves.append(move)
            state = game.result(state, move)
            self.plies += 1
        rewards = tuple(self.reward(state, player) for player in range(game.players))
        # 4. back-propagation
        backups: list[Backup] = []
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.player]
            if record:
                backups.append(
                    Backup(
                        visited.id,
                        visited.player,
                        rewards[visited.player],
                        visited.visits,
                        visited.total,
                    )
                )
        self.plies += len(path)
        if record:
            self.events.append(
                SimulationEvents(
                    number, tuple(steps), expansion, Playout(tuple(moves), rewards), tuple(backups)
                )
            )


def mcts_solution(
    game: Game[Any, Any],
    state: Any,
    *,
    simulations: int | None,
    time_limit: float | None,
    exploration: float = DEFAULT_EXPLORATION,
    seed: int = 0,
    events: int = 0,
    max_nodes: int = MAX_TREE_NODES,
) -> MctsSolution:
    """UCT from ``state``: ``simulations`` of them, or as many as ``time_limit`` seconds allow
    (both given: whichever ends first).

    The chosen move is the root's most visited (ties: the first in the game's move order);
    the answer lists every root move's visits and mean reward, and the four phases of the
    first ``events`` simulations.

    :raises InvalidInputError: neither budget given, a parameter out of range, or a finished
        position.
    :raises TimeLimitError: the request's deadline passed.
    """
    check_mcts_options(simulations, time_limit, exploration, seed, events, max_nodes)
    if game.is_terminal(state):
        raise InvalidInputError(
            "the game is over in this position: there is nothing to search",
            parameter="position",
        )
    started = time.monotonic()
    budget = SearchBudget(time_limit)
    search = Uct(
        game,
        state,
        exploration=exploration,
        seed=seed,
        max_nodes=max_nodes,
        events=events,
        budget=budget,
    )
    limit = MAX_SIMULATIONS if simulations is None else simulations
    done, charged = 0, 0
    stopped_by = "simulations"
    try:
        while done < limit:
            search.simulate(done + 1)
            done += 1
            budget.armed = True  # the first simulation always runs: there is a move
            if search.plies - charged >= NODE_BATCH:
                budget.spend(search.plies - charged)
                charged = search.plies
    except BudgetSpent:
        stopped_by = "time_limit"
    return _solution(search, done, stopped_by, seed, time.monotonic() - started)


def _solution(
    search: Uct, simulations: int, stopped_by: str, seed: int, seconds: float
) -> MctsSolution:
    root = search.root
    game = search.game
    order = (
        (outcome for outcome, _ in game.chance_outcomes(root.state))
        if root.mover == CHANCE
        else game.actions(root.state)
    )
    children = [root.children[move] for move in order if move in root.children]
    statistics = tuple(ChildStatistics(c.move, c.visits, c.total) for c in children)
    move: Hashable = None
    estimate = root.total / root.visits
    if root.mover != CHANCE and children:
        chosen = max(children, key=lambda child: child.visits)  # max keeps the first of equals
        move, estimate = chosen.move, chosen.total / chosen.visits
    return MctsSolution(
        algorithm="mcts",
        player=root.player,
        move=move,
        reward=estimate,
        value=game.loss + estimate * search.span,
        root_moves=statistics,
        simulations=simulations,
        stopped_by=stopped_by,
        exploration=search.exploration,
        seed=seed,
        tree_nodes=search.size,
        tree_full=search.size >= search.max_nodes,
        plies=search.plies,
        seconds=seconds,
        events=tuple(search.events),
    )


def check_mcts_options(
    simulations: int | None,
    time_limit: float | None,
    exploration: float,
    seed: int,
    events: int,
    max_nodes: int,
) -> None:
    """Refuse budgets and constants out of range, naming the parameter."""
    if simulations is None and time_limit is None:
        raise InvalidInputError(
            "mcts needs a budget: give simulations, time_limit or both", parameter="simulations"
        )
    whole = (
        ("simulations", simulations, 1, MAX_SIMULATIONS),
        ("seed", seed, 0, 2**63 - 1),
        ("events", events, 0, MAX_EVENTS),
        ("max_nodes", max_nodes, 2, MAX_TREE_NODES),
    )
    for name, number, low, high in whole:
        if number is None:
            continue
        if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= high:
            raise InvalidInputError(
                f"{name} must be a whole number from {low} to {high:,}, not {number!r}",
                parameter=name,
            )
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise InvalidInputError(
            f"time_limit must be positive, not {time_limit!r}", parameter="time_limit"
        )
    if (
        isinstance(exploration, bool)
        or not isinstance(exploration, int | float)
        or not 0 <= exploration <= MAX_EXPLORATION
    ):
        raise InvalidInputError(
            f"exploration must be a number from 0 to {MAX_EXPLORATION:g}, not {exploration!r}",
            parameter="exploration",
        )
