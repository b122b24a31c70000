"""Gambit's ``.efg`` files as games with information sets: :func:`read_efg`, :func:`write_efg`.

The lines of the format are read by :mod:`games.formats.efg_text` (its docstring describes
them); this module builds an :class:`~games.extensive.model.ExtensiveGame` from them with
:class:`~games.extensive.model.Builder`. Semantics, as in Gambit:

- a play pays the **sum of the outcomes on its path**, internal nodes included; a terminal
  node with outcome 0 pays what the outcomes above it add up to (zero if none);
- outcomes and information sets are defined (named, given payoffs or actions) the first
  time they appear and referred to by number afterwards; a player's information sets are
  numbered per player, chance information sets apart (and may repeat: each chance node
  keeps its own probabilities, since the model has no chance information sets);
- the ``R`` and ``D`` dialects differ only in the header letter: every number is read
  exactly as written, a decimal as its exact decimal value. A chance node's probabilities
  must sum to exactly 1. OpenSpiel's exporter writes ``0.3333333333333333`` three times,
  which sums to 0.9999999999999999: refused, with the line, the probabilities and their
  exact sum, since any rule that rounds them would guess at the game meant;
- the game must have perfect recall (the refusal names the information set and the lines
  of two of its nodes) and at least two players. Gambit knows actions by their position,
  and some files give two actions of one node the same label (two chance outcomes
  ``"1/2"``): a repeated label is told apart by its position, ``"1/2 #2"``.

The text is read in one pass with an explicit stack (no recursion); nothing is evaluated;
every error names its line. Reading spends on the deadline of the computation in progress,
and the node count, the depth and the size of the exact sums are bounded by the active
:class:`~games.limits.Limits`.
"""

from __future__ import annotations

from fractions import Fraction

from games.errors import LimitExceededError
from games.extensive.model import (
    CHANCE,
    TERMINAL,
    Builder,
    ExtensiveGame,
    ImperfectRecallError,
)
from games.formats.efg_text import (
    Cursor,
    NodeLines,
    check_payoff_size,
    number_text,
    quote,
    read_header,
)
from games.limits import Limits, active_limits, current_deadline
from games.numbers import Exact

__all__ = ["read_efg", "write_efg"]


def read_efg(text: str, *, limits: Limits | None = None, pointer: str = "/efg") -> ExtensiveGame:
    """Read a Gambit ``.efg`` game (``EFG 2 R`` or ``EFG 2 D``) with its information sets.

    Parameters
    ----------
    text
        The file's contents.
    limits
        Bounds on the number of nodes and the depth (default: the active limits).
    pointer
        JSON pointer of the request field holding the text, given with every error.

    Raises
    ------
    InvalidInputError
        On a syntax error, probabilities that do not sum to exactly 1, one information set
        offering different actions, a game without perfect recall
        (:class:`~games.extensive.model.ImperfectRecallError`): the message names the line.
    LimitExceededError
        When the game has more nodes, or is deeper, than ``limits`` allow, or an exact
        payoff grows too large.
    """
    limits = limits or active_limits()
    cursor = Cursor(text, pointer)
    header = read_header(cursor)
    if len(header.players) < 2:
        raise cursor.fail(
            header.line,
            f"the game has {len(header.players)} player; a game with information sets needs "
            "two or more (a one-player decision problem is not read here)",
        )
    count = len(header.players)
    builder = Builder(header.players, pointer)
    node_lines = NodeLines(cursor, count)
    lines: list[int] = []  # each node's line, in prefix order
    # the nodes still expecting children: [line, children to come, path payoffs, depth]
    stack: list[tuple[int, int, tuple[Exact, ...], int]] = []
    zero: tuple[Exact, ...] = (0,) * count
    bits = active_limits().max_exact_bits
    spend = current_deadline().spend
    while (token := cursor.peek()) is not None:
        spend(1 + count)
        if lines and not stack:
            raise cursor.fail(
                token.line, "the tree is already complete; extra node after the last subtree"
            )
        if len(lines) >= limits.max_nodes:
            raise LimitExceededError(
                f"line {token.line}: the game has more than the limit of {limits.max_nodes} nodes",
                pointer,
            )
        node = node_lines.read()
        where = f"line {node.line}: "
        above, depth = (stack[-1][2], stack[-1][3] + 1) if stack else (zero, 0)
        if depth > limits.max_depth:
            raise LimitExceededError(
                f"{where}the game is deeper than the limit of {limits.max_depth} plies", pointer
            )
        total = above
        if node.payoffs is not None:
            total = tuple(a + b for a, b in zip(above, node.payoffs, strict=True))
            check_payoff_size(cursor, node.line, node.name, total, bits)
        if node.kind == "p":
            builder.decision(
                node.player - 1,
                node.infoset,
                _distinct(node.actions),
                node.name,
                infoset_name=node.infoset_name or str(node.infoset),
                where=where,
            )
        elif node.kind == "c":
            labels = _distinct(node.actions)
            builder.chance(
                [(a, Fraction(p)) for a, p in zip(labels, node.probabilities, strict=True)],
                node.name,
                where=where,
            )
        else:
            builder.terminal([Fraction(value) for value in total], node.name, where=where)
        lines.append(node.line)
        if stack:
            line, waiting, paid, level = stack.pop()
            if waiting > 1:
                stack.append((line, waiting - 1, paid, level))
        if node.actions:
            stack.append((node.line, len(node.actions), total, depth))
    if not lines:
        raise cursor.fail(cursor.last_line, "the game has no nodes")
    if stack:
        line, waiting, _, _ = stack[-1]
        raise cursor.fail(
            cursor.last_line,
            f"the text ends early: the node on line {line} still expects {waiting} more "
            f"{'child' if waiting == 1 else 'children'}",
        )
    try:
        return builder.build(header.title, header.comment)
    except ImperfectRecallError as error:
        raise ImperfectRecallError(
            f"line {lines[error.node]}: {error.message} (lines {lines[error.first]} and "
            f"{lines[error.node]})",
            pointer,
            error.infoset,
            error.first,
            error.node,
        ) from None


def _distinct(labels: tuple[str, ...]) -> tuple[str, ...]:
    """``labels`` with each repeat told apart by its position (``"1/2"``, ``"1/2 #2"``):
    Gambit knows actions by position, and files label two chance outcomes ``"1/2"``."""
    if len(set(labels)) == len(labels):
        return labels
    seen: set[str] = set()
    distinct: list[str] = []
    for position, label in enumerate(labels, start=1):
        while label in seen or (label != labels[position - 1] and label in labels):
            label = f"{label} #{position}"
        seen.add(label)
        distinct.append(label)
    return tuple(distinct)


def _node_labels(game: ExtensiveGame) -> list[str]:
    """The nodes' names, each repeat told apart by its count (``"end"``, ``"end (2)"``):
    Gambit 16 refuses a file that gives two nodes one label. Unnamed nodes stay unnamed."""
    taken = {node.name for node in game.nodes}
    seen: set[str] = set()
    counts: dict[str, int] = {}
    labels = []
    for node in game.nodes:
        label = node.name
        if label in seen:
            count = counts.get(label, 2)
            while f"{label} ({count})" in taken:
                count += 1
            counts[label] = count + 1
            label = f"{label} ({count})"
            taken.add(label)
        elif label:
            seen.add(label)
        labels.append(label)
    return labels


def write_efg(game: ExtensiveGame) -> str:
    """``game`` as Gambit ``.efg`` text in the ``R`` dialect (exact rationals).

    Each player's information sets are numbered from 1 in the order they first appear and
    keep their names; every personal node lists its set's actions; each chance node is a
    chance information set of its own; each terminal node has an outcome of its own
    carrying its payoffs (no outcomes on internal nodes). A node name that repeats is
    written with its count (``"end (2)"``), since Gambit 16 wants node labels unique. So
    :func:`read_efg` gives the game back: equal, names included, wherever the names are
    not empty and no two nodes share one.
    """
    pointer = "/game"
    numbers: list[int] = [0] * len(game.infosets)
    for player in range(len(game.players)):
        for number, index in enumerate(game.player_infosets(player), start=1):
            numbers[index] = number
    players = " ".join(quote(name) for name in game.players)
    out = [f"EFG 2 R {quote(game.title)} {{ {players} }}", quote(game.comment), ""]
    chance = outcome = 0
    spend = current_deadline().spend
    for node, label in zip(game.nodes, _node_labels(game), strict=True):
        spend(1 + len(node.actions) + len(node.payoffs))
        name = quote(label)
        if node.player == TERMINAL:
            outcome += 1
            paid = ", ".join(number_text(value, pointer) for value in node.payoffs)
            out.append(f't {name} {outcome} "" {{ {paid} }}')
        elif node.player == CHANCE:
            chance += 1
            pairs = " ".join(
                f"{quote(action)} {number_text(p, pointer)}"
                for action, p in zip(node.actions, node.probabilities, strict=True)
            )
            out.append(f'c {name} {chance} "" {{ {pairs} }} 0')
        else:
            infoset = game.infosets[node.infoset]
            listed = " ".join(quote(action) for action in node.actions)
            out.append(
                f"p {name} {node.player + 1} {numbers[node.infoset]} {quote(infoset.name)} "
                f"{{ {listed} }} 0"
            )
    return "\n".join(out) + "\n"
