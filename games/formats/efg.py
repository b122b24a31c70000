"""Gambit's extensive-form ``.efg`` text format: import perfect-information trees, export ours.

The format is described in :mod:`games.formats.efg_text`, which reads its lines for
this reader and for :mod:`games.extensive.efg` (games with information sets).

Semantics implemented, as in Gambit: a play's payoff is the **sum of the
outcomes attached to every node on its path**, internal nodes included; a
terminal node with outcome 0 pays the sum of the outcomes above it (zero if
none). Two personal nodes in one information set make the game one of
imperfect information, which a game tree cannot represent: refused (read it
with :func:`games.extensive.efg.read_efg`). Chance
information sets may be shared (the later node reuses the actions and
probabilities). Probabilities must be exact and sum to exactly 1.

The text is tokenised and read in one pass with an explicit stack (no
recursion), nothing is evaluated, and every error names its line. Both passes
spend on the deadline of the computation in progress, and the exact sums that
grow (a chance node's probabilities, the payoffs added up along a path) are
bounded by ``Limits.max_exact_digits``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from games.errors import InvalidInputError, LimitExceededError
from games.formats.efg_text import (
    Cursor,
    NodeLines,
    Token,
    check_payoff_size,
    number_text,
    quote,
    read_header,
    tokenize,
)
from games.limits import Limits, active_limits, current_deadline
from games.numbers import Exact, normalize
from games.trees.document import exact_json, unique_id
from games.trees.exact_sums import short_text
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree
from games.trees.parser import parse_tree

MAXN: Final = "maxn"
ZERO_SUM: Final = "zero_sum"
MODES: Final = (MAXN, ZERO_SUM)

__all__ = ["MAXN", "MODES", "ZERO_SUM", "EfgGame", "Token", "parse_efg", "tokenize", "write_efg"]


@dataclass(frozen=True, slots=True)
class EfgGame:
    """An imported ``.efg`` game.

    Attributes
    ----------
    tree
        The game tree (validated by :func:`games.trees.parser.parse_tree`).
    title, comment
        The file's title and comment.
    players
        Player names, in Gambit's order (player 1 first).
    mode
        ``"maxn"`` (player nodes, a utility list per leaf) or ``"zero_sum"``
        (MAX = player 1, MIN = player 2, leaf value = player 1's payoff).
    """

    tree: Tree
    title: str
    comment: str
    players: tuple[str, ...]
    mode: str


def parse_efg(
    text: str,
    *,
    mode: str = MAXN,
    limits: Limits | None = None,
    pointer: str = "/text",
) -> EfgGame:
    """Read a perfect-information ``.efg`` game into a :class:`Tree`.

    Parameters
    ----------
    text
        The file's contents.
    mode
        ``"maxn"``: personal nodes become max^n ``player`` nodes and leaves carry
        one payoff per player. ``"zero_sum"``: a two-player game whose every
        play pays ``(u, -u)`` becomes a MAX (player 1) / MIN (player 2) tree
        with leaf value ``u``.
    pointer
        JSON pointer of the request field holding the text, for errors.

    Raises
    ------
    InvalidInputError
        On a syntax error, imperfect information, a bad probability or payoff
        (the message names the line).
    LimitExceededError
        When the tree has more nodes than ``limits`` allow.
    """
    if mode not in MODES:
        raise InvalidInputError(f'mode must be "maxn" or "zero_sum", got {mode!r}', "/mode")
    limits = limits or Limits()
    reader = Cursor(text, pointer)
    header = read_header(reader)
    title, players, comment = header.title, header.players, header.comment
    if mode == ZERO_SUM and len(players) != 2:
        raise InvalidInputError(
            f'mode "zero_sum" needs a two-player game; this one has {len(players)} players',
            "/mode",
        )
    nodes = _nodes(reader, players, mode, limits)
    tree = parse_tree({"root": nodes[0]["id"], "nodes": nodes}, limits=limits, pointer=pointer)
    return EfgGame(tree, title, comment, players, mode)


def _nodes(
    reader: Cursor, players: tuple[str, ...], mode: str, limits: Limits
) -> list[dict[str, Any]]:
    """Read the prefix-order node lines into flat-form node objects."""
    count = len(players)
    node_lines = NodeLines(reader, count)
    zero = (0,) * count
    nodes: list[dict[str, Any]] = []
    lines: list[int] = []
    totals: list[tuple[Exact, ...]] = []
    used: dict[str, int] = {}
    actions_of: list[tuple[str, ...]] = []
    chances_of: list[tuple[Exact, ...]] = []
    # Each entry: [node position, children still to come]
    stack: list[list[int]] = []
    bits = active_limits().max_exact_bits
    spend = current_deadline().spend
    while True:
        token = reader.peek()
        if token is None:
            break
        spend(1 + count)
        if not stack and nodes:
            raise reader.fail(
                token.line, "the tree is already complete; extra node after the last subtree"
            )
        if len(nodes) >= limits.max_nodes:
            raise LimitExceededError(
                f"the game has more than the limit of {limits.max_nodes} nodes", reader.pointer
            )
        read = node_lines.read()
        line, name = read.line, read.name
        if read.kind == "p" and read.first_line is not None:
            raise reader.fail(
                line,
                f"node {name!r} is in information set {read.infoset} of player {read.player}, "
                f"like the node on line {read.first_line}: that is imperfect information, and "
                "Arbiter reads perfect-information trees only (one node per information set)",
            )
        position = len(nodes)
        node: dict[str, Any] = {"id": unique_id(name or f"n{position}", used)}
        if read.kind == "p":
            if mode == ZERO_SUM:
                node["kind"] = MAX if read.player == 1 else MIN
            else:
                node["kind"] = PLAYER
                node["player"] = read.player - 1
        else:
            node["kind"] = CHANCE if read.kind == "c" else LEAF
        own = read.payoffs
        above = totals[stack[-1][0]] if stack else zero
        total = above if own is None else tuple(a + b for a, b in zip(above, own, strict=True))
        if own is not None:
            check_payoff_size(reader, line, name, total, bits)
        if stack:
            parent = stack[-1]
            slot = len(actions_of[parent[0]]) - parent[1]
            node["move"] = actions_of[parent[0]][slot]
            parent_chances = chances_of[parent[0]]
            if parent_chances:
                node["p"] = exact_json(parent_chances[slot])
            nodes[parent[0]].setdefault("children", []).append(node["id"])
            parent[1] -= 1
            if parent[1] == 0:
                stack.pop()
        if read.kind == "t":
            node["value"] = _leaf_value(reader, line, name, total, mode)
        nodes.append(node)
        lines.append(line)
        totals.append(total)
        actions_of.append(read.actions)
        chances_of.append(read.probabilities)
        if read.actions:
            stack.append([position, len(read.actions)])
        # pop finished ancestors so the next node attaches to the right parent
        while stack and stack[-1][1] == 0:
            stack.pop()
    if not nodes:
        raise reader.fail(reader.last_line, "the game has no nodes")
    if stack:
        waiting = stack[-1][0]
        raise reader.fail(
            reader.last_line,
            f"the text ends early: node {nodes[waiting]['id']!r} (line {lines[waiting]}) "
            f"still expects {stack[-1][1]} more children",
        )
    return nodes


def _leaf_value(reader: Cursor, line: int, name: str, total: tuple[Exact, ...], mode: str) -> Any:
    if mode == ZERO_SUM:
        first, second = total
        if first + second != 0:
            raise reader.fail(
                line,
                f"terminal node {name!r} pays ({short_text(first)}, {short_text(second)}), "
                "which is not zero-sum; "
                'import it with mode "maxn"',
            )
        return exact_json(normalize(Fraction(first)))
    return [exact_json(normalize(Fraction(value))) for value in total]


def _number(value: Exact) -> str:
    return number_text(value, "/tree")


def write_efg(
    tree: Tree, *, title: str = "Arbiter tree", movers: Sequence[int | None] | None = None
) -> str:
    """The tree as Gambit ``.efg`` text (``EFG 2 R``: exact rationals).

    A MAX/MIN tree becomes a two-player zero-sum game (player 1 "MAX", player 2
    "MIN", leaves paying ``(v, -v)``); a max^n tree has one player per utility.
    Node ids are the node names, moves the action names (the child's id where
    no move is given), each decision node its own information set and each leaf
    its own outcome, named after the leaf. Evals of internal nodes are not
    part of the format and are dropped.

    Parameters
    ----------
    movers
        The player (0-based) to move at each node of a max^n tree, defaults
        filled in (``analysis.trees.max_n.movers``); without it every player node
        must state its player.

    Raises
    ------
    InvalidInputError
        For a max^n node without a player, or MAX/MIN nodes in a tree of
        utility lists (the format has no notion of MAX and MIN there).
    """
    size = tree.utility_size
    names = ["MAX", "MIN"] if size == 0 else [f"Player {n}" for n in range(1, size + 1)]
    lines = [f"EFG 2 R {quote(title)} {{ {' '.join(map(quote, names))} }}", '""', ""]
    infosets = [0] * (len(names) + 1)
    outcome = 0
    spend = current_deadline().spend
    for index in tree.preorder(0):
        spend(1 + len(tree.children[index]) + size)
        node_id = tree.ids[index]
        kind = tree.kinds[index]
        kids = tree.children[index]
        actions = [tree.moves[kid] or tree.ids[kid] for kid in kids]
        if kind == LEAF:
            outcome += 1
            value = tree.values[index]
            assert value is not None
            payoffs = list(value) if isinstance(value, tuple) else [value, -value]
            lines.append(
                f"t {quote(node_id)} {outcome} {quote(node_id)} "
                f"{{ {', '.join(map(_number, payoffs))} }}"
            )
        elif kind == CHANCE:
            infosets[0] += 1
            pairs = " ".join(
                f"{quote(action)} {_number(tree.probabilities[kid] or 0)}"
                for action, kid in zip(actions, kids, strict=True)
            )
            lines.append(f'c {quote(node_id)} {infosets[0]} "" {{ {pairs} }} 0')
        else:
            player = _player_number(tree, index, movers)
            infosets[player] += 1
            listed = " ".join(map(quote, actions))
            lines.append(f'p {quote(node_id)} {player} {infosets[player]} "" {{ {listed} }} 0')
    return "\n".join(lines) + "\n"


def _player_number(tree: Tree, index: int, movers: Sequence[int | None] | None) -> int:
    kind = tree.kinds[index]
    if tree.utility_size == 0:
        if kind in (MAX, MIN):
            return 1 if kind == MAX else 2
        raise InvalidInputError(
            f"node {tree.ids[index]!r} is a {kind} node; a tree with numeric utilities "
            "is exported as MAX against MIN",
            tree.field_pointer(index, "kind"),
        )
    if kind != PLAYER:
        raise InvalidInputError(
            f"node {tree.ids[index]!r} is a {kind} node in a tree of utility lists; give "
            "each decision node a player instead",
            tree.field_pointer(index, "kind"),
        )
    player = tree.players[index] if movers is None else movers[index]
    if player is None or player >= tree.utility_size:
        raise InvalidInputError(
            f"node {tree.ids[index]!r} needs a player between 0 and {tree.utility_size - 1} "
            "to be exported",
            tree.field_pointer(index, "player"),
        )
    return player + 1
