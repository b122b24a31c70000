"""Extensive-form games with information sets: the model every reader builds and every
solver in :mod:`analysis.extensive` reads.

A game is a tree of nodes in prefix order (the root is node 0, each node's subtree follows
it). A **decision node** belongs to a player and to one of that player's *information sets*:
the nodes the player cannot tell apart when it is their move, so every node of a set offers
the same actions and the player's choice is one probability per action for the whole set (a
*behaviour strategy*). A **chance node** draws one of its actions with exact probabilities;
a **terminal node** pays each player an exact amount.

Perfect recall (Kuhn 1953): a player never forgets what they knew or did. Every node of one of
their information sets has been reached through the same sequence of their own information
sets and actions. Under it, behaviour strategies and mixed strategies are equivalent, and the
*sequence form* (Koller, Megiddo and von Stengel 1996; von Stengel 1996) is exact and small.
:func:`perfect_recall_violation` names the first information set that breaks it.

:class:`Builder` builds a game node by node in prefix order, which is how a file lists its
nodes and how a recursive description of a game (a poker deal, then the bets) produces them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from games.errors import InvalidInputError
from games.limits import current_deadline

CHANCE: Final = -1
"""The ``player`` of a chance node."""

TERMINAL: Final = -2
"""The ``player`` of a terminal node."""


@dataclass(frozen=True, slots=True)
class InfoSet:
    """One information set: a player's nodes that the player cannot tell apart.

    Attributes
    ----------
    player
        The player to move, from 0.
    name
        Its name (a file's label, or a description such as ``"J | bet"``).
    actions
        The actions offered at every node of the set, in order.
    nodes
        The nodes of the set, in prefix order.
    """

    player: int
    name: str
    actions: tuple[str, ...]
    nodes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Node:
    """One node of the tree.

    Attributes
    ----------
    player
        The player to move (from 0), :data:`CHANCE` or :data:`TERMINAL`.
    name
        The node's name ("" if it has none).
    infoset
        Index of its information set in :attr:`ExtensiveGame.infosets` (decision nodes), or
        -1.
    actions
        The labels of its edges, one per child.
    children
        Its children's indices, one per action.
    probabilities
        A chance node's probability of each action (exact, summing to 1); empty otherwise.
    payoffs
        A terminal node's payoff to each player (exact); empty otherwise.
    parent
        Its parent's index (-1 at the root).
    """

    player: int
    name: str
    infoset: int
    actions: tuple[str, ...]
    children: tuple[int, ...]
    probabilities: tuple[Fraction, ...]
    payoffs: tuple[Fraction, ...]
    parent: int


@dataclass(frozen=True, slots=True)
class ExtensiveGame:
    """A finite extensive-form game with perfect recall.

    Attributes
    ----------
    players
        The players' names, in order (two or more).
    nodes
        Every node in prefix order; the root is ``nodes[0]``.
    infosets
        Every information set, in the order their first node appears.
    title, comment
        Free text (a file's title and comment).
    """

    players: tuple[str, ...]
    nodes: tuple[Node, ...]
    infosets: tuple[InfoSet, ...]
    title: str = ""
    comment: str = ""
    _player_infosets: tuple[tuple[int, ...], ...] = field(
        init=False, repr=False, compare=False, default=()
    )

    def __post_init__(self) -> None:
        grouped: list[list[int]] = [[] for _ in self.players]
        for index, infoset in enumerate(self.infosets):
            grouped[infoset.player].append(index)
        object.__setattr__(self, "_player_infosets", tuple(tuple(g) for g in grouped))

    def player_infosets(self, player: int) -> tuple[int, ...]:
        """The indices of ``player``'s information sets, in order."""
        return self._player_infosets[player]

    @property
    def constant_sum(self) -> Fraction | None:
        """The players' total payoff if it is the same at every terminal node, else ``None``
        (two players and a constant sum: strictly competitive, solved as zero-sum)."""
        totals = {sum(n.payoffs, Fraction(0)) for n in self.nodes if n.player == TERMINAL}
        return totals.pop() if len(totals) == 1 else None

    @property
    def zero_sum(self) -> bool:
        """Whether the game has two players whose payoffs sum to a constant everywhere."""
        return len(self.players) == 2 and self.constant_sum is not None


class Builder:
    """Builds an :class:`ExtensiveGame` from its nodes given in prefix order.

    Each node added becomes the next child of the latest node still missing children, so a
    recursive description of the game (or a file listing nodes in prefix order) adds them as
    it goes. Information sets are named by any hashable key per player: the first node of a
    set gives its actions, later ones must offer the same actions. ``pointer`` is where
    errors point (the document the game came from).
    """

    def __init__(self, players: Sequence[str], pointer: str = ""):
        if len(players) < 2:
            raise InvalidInputError("a game needs at least two players", pointer)
        self.players = tuple(players)
        self.pointer = pointer
        self._nodes: list[Node] = []
        self._open: list[tuple[int, int]] = []  # (node, children still to come)
        self._children: list[list[int]] = []
        self._keys: dict[tuple[int, Hashable], int] = {}
        self._infosets: list[tuple[int, str, tuple[str, ...], list[int]]] = []
        self._spend = current_deadline().spend

    def decision(
        self,
        player: int,
        infoset: Hashable,
        actions: Sequence[str],
        name: str = "",
        infoset_name: str | None = None,
        where: str = "",
    ) -> int:
        """Add a decision node of ``player`` (from 0) in the information set keyed
        ``infoset``, offering ``actions``; return its index. ``where`` prefixes errors
        (say, ``"line 12: "``)."""
        if not 0 <= player < len(self.players):
            raise self._fail(f"{where}player {player + 1} is not one of the game's players")
        labels = tuple(actions)
        if not labels:
            raise self._fail(f"{where}a decision node needs at least one action")
        if len(set(labels)) != len(labels):
            raise self._fail(f"{where}the actions {list(labels)} repeat a label")
        key = (player, infoset)
        index = self._keys.get(key)
        if index is None:
            index = len(self._infosets)
            self._keys[key] = index
            shown = str(infoset) if infoset_name is None else infoset_name
            self._infosets.append((player, shown, labels, []))
        elif self._infosets[index][2] != labels:
            kept = self._infosets[index]
            raise self._fail(
                f"{where}information set {kept[1]!r} of {self.players[player]} offers "
                f"{list(kept[2])} at its first node but {list(labels)} here"
            )
        node = self._add(Node(player, name, index, labels, (), (), (), -1))
        self._infosets[index][3].append(node)
        return node

    def chance(
        self, outcomes: Sequence[tuple[str, Fraction | int]], name: str = "", where: str = ""
    ) -> int:
        """Add a chance node drawing each labelled outcome with its exact probability."""
        labels = tuple(label for label, _ in outcomes)
        probabilities = tuple(Fraction(p) for _, p in outcomes)
        if not labels:
            raise self._fail(f"{where}a chance node needs at least one outcome")
        if len(set(labels)) != len(labels):
            raise self._fail(f"{where}the outcomes {list(labels)} repeat a label")
        if any(p < 0 for p in probabilities):
            raise self._fail(f"{where}a probability is negative: {_listed(probabilities)}")
        if sum(probabilities) != 1:
            raise self._fail(
                f"{where}the probabilities {_listed(probabilities)} sum to "
                f"{sum(probabilities)}, not 1"
            )
        return self._add(Node(CHANCE, name, -1, labels, (), probabilities, (), -1))

    def terminal(self, payoffs: Sequence[Fraction | int], name: str = "", where: str = "") -> int:
        """Add a terminal node paying each player its exact amount."""
        if len(payoffs) != len(self.players):
            raise self._fail(
                f"{where}a terminal node pays {len(payoffs)} players; the game has "
                f"{len(self.players)}"
            )
        paid = tuple(Fraction(p) for p in payoffs)
        return self._add(Node(TERMINAL, name, -1, (), (), (), paid, -1))

    def build(self, title: str = "", comment: str = "") -> ExtensiveGame:
        """The finished game, its perfect recall checked.

        :raises InvalidInputError: a node still misses children.
        :raises ImperfectRecallError: the game does not have perfect recall (the message
            names the information set; the error holds the two nodes, for a reader to say
            where they were written).
        """
        if not self._nodes:
            raise self._fail("the game has no nodes")
        if self._open:
            node, missing = self._open[-1]
            raise self._fail(
                f"node {self._describe(node)} has {missing} children still to come, but the "
                f"game ends"
            )
        nodes = tuple(
            Node(
                n.player,
                n.name,
                n.infoset,
                n.actions,
                tuple(self._children[i]),
                n.probabilities,
                n.payoffs,
                n.parent,
            )
            for i, n in enumerate(self._nodes)
        )
        infosets = tuple(
            InfoSet(player, name, actions, tuple(members))
            for player, name, actions, members in self._infosets
        )
        game = ExtensiveGame(self.players, nodes, infosets, title, comment)
        breach = _recall_breach(game)
        if breach is not None:
            raise ImperfectRecallError(_recall_message(game, *breach), self.pointer, *breach)
        return game

    def _add(self, node: Node) -> int:
        self._spend(1)
        index = len(self._nodes)
        parent = -1
        if self._open:
            parent, missing = self._open[-1]
            self._children[parent].append(index)
            if missing == 1:
                self._open.pop()
            else:
                self._open[-1] = (parent, missing - 1)
        elif self._nodes:
            raise self._fail("the tree is complete; a node after it has no parent")
        n = node
        self._nodes.append(
            Node(n.player, n.name, n.infoset, n.actions, (), n.probabilities, n.payoffs, parent)
        )
        self._children.append([])
        if n.actions:
            self._open.append((index, len(n.actions)))
        return index

    def _describe(self, node: int) -> str:
        name = self._nodes[node].name
        return f"{node} ({name!r})" if name else str(node)

    def _fail(self, message: str) -> InvalidInputError:
        return InvalidInputError(message, self.pointer)


class ImperfectRecallError(InvalidInputError):
    """Raised when a game does not have perfect recall."""

    def __init__(
        self, message: str, pointer: str = "", infoset: int = -1, first: int = -1, node: int = -1
    ):
        # (defaults, so that the error survives pickling, which passes the message alone)
        super().__init__(message, pointer)
        self.infoset = infoset
        """The information set that breaks perfect recall."""
        self.first = first
        """Its first node."""
        self.node = node
        """A later node of it, reached through a different own history than ``first``."""


def perfect_recall_violation(game: ExtensiveGame) -> str | None:
    """Why ``game`` lacks perfect recall (naming the information set and two of its nodes
    reached through different own histories), or ``None`` if it has it.

    A player's own history at a node is the sequence of (information set, action) pairs of
    theirs on the path from the root; perfect recall is that all nodes of one of their sets
    share it. A set met twice on one path (absent-mindedness) fails too, since the later
    node's history contains the set itself.
    """
    breach = _recall_breach(game)
    return None if breach is None else _recall_message(game, *breach)


def _recall_breach(game: ExtensiveGame) -> tuple[int, int, int] | None:
    """(information set, its first node, a node reached differently), or ``None``."""
    spend = current_deadline().spend
    players = len(game.players)
    # each node's own history of every player, as an index into a table of histories
    # (shared prefixes: a history is (previous history, information set, action))
    histories: dict[tuple[int, int, int], int] = {}
    at: list[tuple[int, ...]] = [()] * len(game.nodes)
    at[0] = (0,) * players
    seen: dict[int, tuple[int, int]] = {}  # information set -> (history, first node)
    for index, node in enumerate(game.nodes):
        spend(1)
        mine = at[index]
        if node.player >= 0:
            history = mine[node.player]
            first = seen.setdefault(node.infoset, (history, index))
            if first[0] != history:
                return node.infoset, first[1], index
        for action, child in enumerate(node.children):
            if node.player >= 0:
                key = (mine[node.player], node.infoset, action)
                extended = histories.setdefault(key, len(histories) + 1)
                at[child] = mine[: node.player] + (extended,) + mine[node.player + 1 :]
            else:
                at[child] = mine
    return None


def _recall_message(game: ExtensiveGame, infoset: int, first: int, node: int) -> str:
    owner = game.players[game.infosets[infoset].player]
    return (
        f"the game does not have perfect recall: information set "
        f"{game.infosets[infoset].name!r} of {owner} holds node {_named(game, first)} and "
        f"node {_named(game, node)}, reached through different earlier choices of {owner}"
    )


MAX_PATH_SHOWN: Final = 12
"""Most actions :func:`node_name` shows of a path (the last ones, after an ellipsis)."""


def node_name(game: ExtensiveGame, index: int) -> str:
    """The node's name, or the actions leading to it from the root joined by ``" / "``
    (``"root"`` for an unnamed root); of a path longer than :data:`MAX_PATH_SHOWN` actions,
    the last ones after ``"… / "``."""
    node = game.nodes[index]
    if node.name:
        return node.name
    path: list[str] = []
    at = index
    while game.nodes[at].parent != -1:
        if len(path) == MAX_PATH_SHOWN:
            path.append("…")
            break
        parent = game.nodes[game.nodes[at].parent]
        # children come in prefix order, so in increasing order
        path.append(parent.actions[bisect_left(parent.children, at)])
        at = game.nodes[at].parent
    return " / ".join(reversed(path)) or "root"


def _named(game: ExtensiveGame, index: int) -> str:
    name = game.nodes[index].name
    return f"{index} ({name!r})" if name else str(index)


def _listed(values: Sequence[Fraction]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"
