"""Gambit's extensive-form ``.efg`` text format: import perfect-information trees, export ours.

The format (Gambit's "EFG 2" files, rational ``R`` or decimal ``D``)::

    EFG 2 R "title" { "Player 1" "Player 2" } "comment"
    p "name" 1 1 "infoset name" { "L" "R" } 0
    c "name" 1 "chance infoset" { "H" 1/2 "T" 1/2 } 0
    t "name" 1 "outcome name" { 3, -3 }

one node per line in prefix order (a node, then its children's subtrees left
to right). A personal node ``p`` names its player (1-based), its information
set and, the first time that set appears, its actions; a chance node ``c`` its
information set and, the first time, its actions with probabilities; a
terminal node ``t`` only an outcome. Every node carries an outcome number
(0 = none) and, the first time the outcome appears, its name and payoffs (one
per player, commas optional).

Semantics implemented, as in Gambit: a play's payoff is the **sum of the
outcomes attached to every node on its path**, internal nodes included; a
terminal node with outcome 0 pays the sum of the outcomes above it (zero if
none). Two personal nodes in one information set make the game one of
imperfect information, which a game tree cannot represent: refused. Chance
information sets may be shared (the later node reuses the actions and
probabilities). Probabilities must be exact and sum to exactly 1.

The text is tokenised and read in one pass with an explicit stack (no
recursion), nothing is evaluated, and every error names its line. Both passes
spend on the deadline of the computation in progress, and the exact sums that
grow (a chance node's probabilities, the payoffs added up along a path) are
bounded by ``Limits.max_exact_digits``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from games.errors import ExactSizeError, InvalidInputError, LimitExceededError
from games.limits import Limits, active_limits, check_exact_size, current_deadline
from games.numbers import Exact, exact_text, normalize, parse_exact
from games.trees.document import exact_json, unique_id
from games.trees.exact_sums import exact_sum, short_text, sum_text
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree
from games.trees.parser import parse_tree

MAXN: Final = "maxn"
ZERO_SUM: Final = "zero_sum"
MODES: Final = (MAXN, ZERO_SUM)

_TOKEN: Final = re.compile(
    r"""
    (?P<space>[ \t\r\f\v,]+)
   |(?P<newline>\n)
   |(?P<string>"(?:[^"\\\n]|\\.|\n)*")
   |(?P<open>\{)
   |(?P<close>\})
   |(?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?:/[+-]?\d+)?)
   |(?P<word>[A-Za-z_][A-Za-z0-9_]*)
    """,
    re.VERBOSE,
)
_ESCAPE: Final = re.compile(r"\\(.)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Token:
    """One lexical token of an ``.efg`` file."""

    kind: str
    """``string`` (text unescaped), ``number``, ``word``, ``open`` or ``close``."""
    text: str
    line: int


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


class _Reader:
    """A cursor over the tokens, raising errors that name the line."""

    def __init__(self, tokens: list[Token], pointer: str, last_line: int):
        self.tokens = tokens
        self.spend = current_deadline().spend
        self.at = 0
        self.pointer = pointer
        self.last_line = last_line

    def fail(self, line: int, message: str) -> InvalidInputError:
        return InvalidInputError(f"line {line}: {message}", self.pointer)

    def peek(self) -> Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def next(self, kind: str, what: str) -> Token:
        self.spend(1)
        token = self.peek()
        if token is None:
            raise self.fail(self.last_line, f"expected {what}, but the text ends")
        if token.kind != kind:
            shown = token.text if token.kind != "string" else f'"{token.text}"'
            raise self.fail(token.line, f"expected {what}, got {shown!r}")
        self.at += 1
        return token

    def close(self, opened: Token) -> bool:
        """Consume ``}`` if next; refuse a node marker that shows ``opened`` was never closed."""
        token = self.peek()
        if token is not None and token.kind == "word" and token.text in ("p", "c", "t"):
            raise self.fail(
                opened.line,
                f"the {{ opened here is not closed by }} "
                f"(found {token.text!r} on line {token.line})",
            )
        return self.optional("close") is not None

    def optional(self, kind: str) -> Token | None:
        self.spend(1)
        token = self.peek()
        if token is not None and token.kind == kind:
            self.at += 1
            return token
        return None

    def integer(self, what: str) -> tuple[int, int]:
        token = self.next("number", what)
        if not re.fullmatch(r"\d+", token.text):
            raise self.fail(token.line, f"{what} must be a whole number >= 0, got {token.text!r}")
        return int(token.text), token.line

    def exact(self, what: str) -> Exact:
        token = self.next("number", what)
        try:
            return parse_exact(token.text, self.pointer)
        except InvalidInputError as error:
            raise self.fail(token.line, f"{what}: {error.message}") from None


def tokenize(text: str, pointer: str = "/text") -> list[Token]:
    """Split ``.efg`` text into tokens; strings are unescaped (``\\"`` is a quote)."""
    tokens: list[Token] = []
    line = 1
    position = 0
    size = len(text)
    match = _TOKEN.match
    spend = current_deadline().spend
    while position < size:
        found = match(text, position)
        if found is None:
            if text[position] == '"':
                raise InvalidInputError(f"line {line}: unterminated string", pointer)
            raise InvalidInputError(
                f"line {line}: unexpected character {text[position]!r}", pointer
            )
        kind = found.lastgroup
        assert kind is not None
        piece = found.group()
        position = found.end()
        # a match costs about a microsecond, and more in proportion to its length
        spend(1 + len(piece) // 64)
        if kind == "newline":
            line += 1
            continue
        if kind == "space":
            continue
        if kind == "string":
            tokens.append(Token(kind, _ESCAPE.sub(r"\1", piece[1:-1]), line))
            line += piece.count("\n")
            continue
        tokens.append(Token(kind, piece, line))
    return tokens


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
    tokens = tokenize(text, pointer)
    reader = _Reader(tokens, pointer, text.rstrip().count("\n") + 1)
    title, players, comment = _header(reader)
    if mode == ZERO_SUM and len(players) != 2:
        raise InvalidInputError(
            f'mode "zero_sum" needs a two-player game; this one has {len(players)} players',
            "/mode",
        )
    nodes = _nodes(reader, players, mode, limits)
    tree = parse_tree({"root": nodes[0]["id"], "nodes": nodes}, limits=limits, pointer=pointer)
    return EfgGame(tree, title, comment, players, mode)


def _header(reader: _Reader) -> tuple[str, tuple[str, ...], str]:
    magic = reader.next("word", 'the header "EFG 2 R"')
    if magic.text != "EFG":
        raise reader.fail(magic.line, f'an .efg file starts with "EFG 2 R", not {magic.text!r}')
    version = reader.next("number", "the format version 2")
    if version.text != "2":
        raise reader.fail(version.line, f"only EFG version 2 is supported, got {version.text}")
    precision = reader.next("word", "R or D")
    if precision.text not in ("R", "D"):
        raise reader.fail(precision.line, f"expected R or D, got {precision.text!r}")
    title = reader.next("string", "the game's title in quotes").text
    reader.next("open", "{ and the player names")
    names: list[str] = []
    while reader.optional("close") is None:
        names.append(reader.next("string", "a player name in quotes or }").text)
    if not names:
        raise reader.fail(precision.line, "the game needs at least one player")
    comment = reader.optional("string")
    return title, tuple(names), comment.text if comment else ""


class _Outcomes:
    """Outcomes by number: defined with payoffs once, then referred to by number."""

    def __init__(self, reader: _Reader, players: int):
        self.reader = reader
        self.players = players
        self.payoffs: dict[int, tuple[Exact, ...]] = {}

    def read(self) -> tuple[Exact, ...] | None:
        """The outcome fields of a node: number, then optional name and payoffs."""
        reader = self.reader
        number, line = reader.integer("an outcome number (0 for none)")
        reader.optional("string")
        opened = reader.optional("open")
        if opened is None:
            if number == 0:
                return None
            known = self.payoffs.get(number)
            if known is None:
                raise reader.fail(
                    line, f"outcome {number} has no payoffs here and none were given before"
                )
            return known
        if number == 0:
            raise reader.fail(line, "outcome 0 means no outcome and takes no payoffs")
        payoffs: list[Exact] = []
        while not reader.close(opened):
            payoffs.append(reader.exact("a payoff or }"))
        if len(payoffs) != self.players:
            raise reader.fail(
                line,
                f"outcome {number} lists {len(payoffs)} payoffs for {self.players} players",
            )
        known = self.payoffs.setdefault(number, tuple(payoffs))
        if known != tuple(payoffs):
            raise reader.fail(line, f"outcome {number} is given two different payoff lists")
        return known


def _nodes(
    reader: _Reader, players: tuple[str, ...], mode: str, limits: Limits
) -> list[dict[str, Any]]:
    """Read the prefix-order node lines into flat-form node objects."""
    count = len(players)
    outcomes = _Outcomes(reader, count)
    zero = (0,) * count
    nodes: list[dict[str, Any]] = []
    lines: list[int] = []
    totals: list[tuple[Exact, ...]] = []
    used: dict[str, int] = {}
    personal: dict[tuple[int, int], int] = {}
    chance_sets: dict[int, list[tuple[str, Exact]]] = {}
    actions_of: list[list[str]] = []
    chances_of: list[list[Exact] | None] = []
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
        marker = reader.next("word", "a node: p, c or t")
        line = marker.line
        if marker.text not in ("p", "c", "t"):
            raise reader.fail(line, f"a node starts with p, c or t, not {marker.text!r}")
        name = reader.next("string", "the node's name in quotes").text
        position = len(nodes)
        node: dict[str, Any] = {"id": unique_id(name or f"n{position}", used)}
        actions: list[str] = []
        chances: list[Exact] | None = None
        if marker.text == "p":
            player, player_line = reader.integer("the player number")
            if not 1 <= player <= count:
                raise reader.fail(player_line, f"player {player} is not one of the {count} players")
            infoset, _ = reader.integer("the information set number")
            earlier = personal.get((player, infoset))
            if earlier is not None:
                raise reader.fail(
                    line,
                    f"node {name!r} is in information set {infoset} of player {player}, like "
                    f"the node on line {lines[earlier]}: that is imperfect information, and "
                    "Arbiter reads perfect-information trees only (one node per information set)",
                )
            personal[(player, infoset)] = position
            reader.optional("string")
            opened = reader.next("open", "{ and the actions of a new information set")
            while not reader.close(opened):
                actions.append(reader.next("string", "an action name in quotes or }").text)
            if not actions:
                raise reader.fail(line, f"node {name!r} has no actions")
            if mode == ZERO_SUM:
                node["kind"] = MAX if player == 1 else MIN
            else:
                node["kind"] = PLAYER
                node["player"] = player - 1
        elif marker.text == "c":
            infoset, _ = reader.integer("the information set number")
            reader.optional("string")
            opened_set = reader.optional("open")
            if opened_set is None:
                shared = chance_sets.get(infoset)
                if shared is None:
                    raise reader.fail(
                        line,
                        f"chance information set {infoset} is new here, so it needs its "
                        "actions and probabilities in braces",
                    )
                listed = shared
            else:
                listed = []
                while not reader.close(opened_set):
                    action = reader.next("string", "an action name in quotes or }").text
                    listed.append((action, reader.exact(f"the probability of {action!r}")))
                chance_sets[infoset] = listed
            actions = [action for action, _ in listed]
            chances = [chance for _, chance in listed]
            _check_chances(reader, line, name, listed)
            node["kind"] = CHANCE
        else:
            node["kind"] = LEAF
        own = outcomes.read()
        above = totals[stack[-1][0]] if stack else zero
        total = above if own is None else tuple(a + b for a, b in zip(above, own, strict=True))
        if own is not None:
            _check_payoffs(reader, line, name, total, bits)
        if stack:
            parent = stack[-1]
            slot = len(actions_of[parent[0]]) - parent[1]
            node["move"] = actions_of[parent[0]][slot]
            parent_chances = chances_of[parent[0]]
            if parent_chances is not None:
                node["p"] = exact_json(parent_chances[slot])
            nodes[parent[0]].setdefault("children", []).append(node["id"])
            parent[1] -= 1
            if parent[1] == 0:
                stack.pop()
        if marker.text == "t":
            node["value"] = _leaf_value(reader, line, name, total, mode)
        nodes.append(node)
        lines.append(line)
        totals.append(total)
        actions_of.append(actions)
        chances_of.append(chances)
        if actions:
            stack.append([position, len(actions)])
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


def _check_payoffs(
    reader: _Reader, line: int, name: str, total: tuple[Exact, ...], bits: int
) -> None:
    """Payoffs add up along a path; refuse a sum whose exact form has grown too large."""
    for value in total:
        if value.numerator.bit_length() > bits or value.denominator.bit_length() > bits:
            check_exact_size(
                value,
                reader.pointer,
                f"payoff of node {name!r} (line {line}), summed along its path",
            )


def _check_chances(reader: _Reader, line: int, name: str, listed: list[tuple[str, Exact]]) -> None:
    if not listed:
        raise reader.fail(line, f"chance node {name!r} has no actions")
    for action, chance in listed:
        if chance < 0 or chance > 1:
            raise reader.fail(
                line, f"probability {short_text(chance)} of {action!r} is not in [0, 1]"
            )

    def refuse(total: Exact) -> None:
        check_exact_size(
            total,
            reader.pointer,
            f"sum of the probabilities at chance node {name!r} (line {line})",
        )

    total = exact_sum((chance for _, chance in listed), refuse=refuse)
    if total != 1:
        raise reader.fail(
            line,
            f"the probabilities at chance node {name!r} sum to {sum_text(total)}, not "
            "exactly 1 (write repeating decimals as fractions, e.g. 1/3)",
        )


def _leaf_value(reader: _Reader, line: int, name: str, total: tuple[Exact, ...], mode: str) -> Any:
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


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(value: Exact) -> str:
    text = exact_text(value)
    if text is None:  # never for values read from a tree, which are capped at 1e300
        raise ExactSizeError("a number of the tree is too large to write exactly", "/tree")
    return text


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
    lines = [f"EFG 2 R {_quote(title)} {{ {' '.join(map(_quote, names))} }}", '""', ""]
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
                f"t {_quote(node_id)} {outcome} {_quote(node_id)} "
                f"{{ {', '.join(map(_number, payoffs))} }}"
            )
        elif kind == CHANCE:
            infosets[0] += 1
            pairs = " ".join(
                f"{_quote(action)} {_number(tree.probabilities[kid] or 0)}"
                for action, kid in zip(actions, kids, strict=True)
            )
            lines.append(f'c {_quote(node_id)} {infosets[0]} "" {{ {pairs} }} 0')
        else:
            player = _player_number(tree, index, movers)
            infosets[player] += 1
            listed = " ".join(map(_quote, actions))
            lines.append(f'p {_quote(node_id)} {player} {infosets[player]} "" {{ {listed} }} 0')
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
