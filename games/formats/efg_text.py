"""The text of Gambit's ``.efg`` files, line by line: tokens, the header, node lines.

Shared by the two readers of the format: :mod:`games.formats.efg` (perfect-information
trees) and :mod:`games.extensive.efg` (games with information sets). Both read the same
lines with :class:`NodeLines` and differ only in what they build from them.

The format (Gambit's "EFG 2" files, rational ``R`` or decimal ``D``)::

    EFG 2 R "title" { "Player 1" "Player 2" } "comment"
    p "name" 1 1 "infoset name" { "L" "R" } 0
    c "name" 1 "chance infoset" { "H" 1/2 "T" 1/2 } 0
    t "name" 1 "outcome name" { 3, -3 }

one node per line in prefix order. A personal node ``p`` names its player (1-based) and
its information set (numbered per player) and, the first time that set appears, its
actions; a chance node ``c`` its chance information set and, the first time, its actions
with probabilities; a terminal node ``t`` only an outcome. Every node carries an outcome
number (0 = none) and, the first time the outcome appears, its name and payoffs (one per
player, commas optional). In either dialect a number is read exactly, as written: a
decimal as its exact decimal value, ``p/q`` as the fraction. Nothing is evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from games.errors import ExactSizeError, InvalidInputError
from games.limits import check_exact_size, current_deadline
from games.numbers import Exact, exact_text, parse_exact
from games.trees.exact_sums import exact_sum, short_text, sum_text

_TOKEN: Final = re.compile(
    r"""
    [ \t\r\f\v,]*
    (?:
       (?P<newline>\n)
      |(?P<string>"(?:[^"\\\n]|\\.|\n)*")
      |(?P<open>\{)
      |(?P<close>\})
      |(?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?:/[+-]?\d+)?)
      |(?P<word>[A-Za-z_][A-Za-z0-9_]*)
      |(?P<end>\Z)
    )
    """,
    re.VERBOSE,
)
"""One token after any blanks (commas count as blanks), or the end of the text."""
_ESCAPE: Final = re.compile(r"\\(.)", re.DOTALL)

_SHOWN_PROBABILITIES: Final = 12
"""Most probabilities an error message lists."""


class Token(NamedTuple):
    """One lexical token of an ``.efg`` file."""

    kind: str
    """``string`` (text unescaped), ``number``, ``word``, ``open`` or ``close``."""
    text: str
    line: int


def tokenize(text: str, pointer: str = "/text") -> list[Token]:
    """Split ``.efg`` text into tokens; strings are unescaped (``\\"`` is a quote)."""
    return list(tokens_of(text, pointer))


def tokens_of(text: str, pointer: str = "/text") -> Iterator[Token]:
    """The tokens of ``.efg`` text, one at a time (so a reader that stops early, at a limit
    or an error, never holds the tokens of a long text at once).

    One regular-expression match per token, blanks included in it (a Leduc hold'em file of
    9,457 nodes, 350 kB, in about half a second).
    """
    line = 1
    position = 0
    spend = current_deadline().spend
    for found in _TOKEN.finditer(text):
        if found.start() != position:
            break  # something no token matches: reported below
        kind = found.lastgroup
        position = found.end()
        if kind == "newline":
            line += 1
            spend(1)
            continue
        if kind == "end":
            return
        assert kind is not None
        piece = found.group(kind)
        # a match costs about a microsecond, and more in proportion to its length
        spend(1 + len(piece) // 64)
        if kind == "string":
            inner = piece[1:-1]
            yield Token(kind, _ESCAPE.sub(r"\1", inner) if "\\" in inner else inner, line)
            line += piece.count("\n")
        else:
            yield Token(kind, piece, line)
    rest = text[position:].lstrip(" \t\r\f\v,")
    if rest.startswith('"'):
        raise InvalidInputError(f"line {line}: unterminated string", pointer)
    raise InvalidInputError(f"line {line}: unexpected character {rest[:1]!r}", pointer)


class Cursor:
    """A cursor over the tokens of one text, one token ahead, raising errors that name the
    line."""

    def __init__(self, text: str, pointer: str):
        self.spend = current_deadline().spend
        self.pointer = pointer
        self.last_line = text.rstrip().count("\n") + 1
        self._tokens = tokens_of(text, pointer)
        self._ahead = next(self._tokens, None)

    def fail(self, line: int, message: str) -> InvalidInputError:
        return InvalidInputError(f"line {line}: {message}", self.pointer)

    def peek(self) -> Token | None:
        return self._ahead

    def _advance(self) -> None:
        self._ahead = next(self._tokens, None)

    def next(self, kind: str, what: str) -> Token:
        self.spend(1)
        token = self.peek()
        if token is None:
            raise self.fail(self.last_line, f"expected {what}, but the text ends")
        if token.kind != kind:
            shown = token.text if token.kind != "string" else f'"{token.text}"'
            raise self.fail(token.line, f"expected {what}, got {shown!r}")
        self._advance()
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
            self._advance()
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


@dataclass(frozen=True, slots=True)
class Header:
    """The first line of an ``.efg`` file."""

    title: str
    players: tuple[str, ...]
    comment: str
    line: int


def read_header(cursor: Cursor) -> Header:
    """Read ``EFG 2 R "title" { "player" ... } "comment"``."""
    magic = cursor.next("word", 'the header "EFG 2 R"')
    if magic.text != "EFG":
        raise cursor.fail(magic.line, f'an .efg file starts with "EFG 2 R", not {magic.text!r}')
    version = cursor.next("number", "the format version 2")
    if version.text != "2":
        raise cursor.fail(version.line, f"only EFG version 2 is supported, got {version.text}")
    precision = cursor.next("word", "R or D")
    if precision.text not in ("R", "D"):
        raise cursor.fail(precision.line, f"expected R or D, got {precision.text!r}")
    title = cursor.next("string", "the game's title in quotes").text
    cursor.next("open", "{ and the player names")
    names: list[str] = []
    while cursor.optional("close") is None:
        names.append(cursor.next("string", "a player name in quotes or }").text)
    if not names:
        raise cursor.fail(precision.line, "the game needs at least one player")
    comment = cursor.optional("string")
    return Header(title, tuple(names), comment.text if comment else "", magic.line)


@dataclass(frozen=True, slots=True)
class NodeLine:
    """One node line, its information set and outcome resolved.

    Attributes
    ----------
    kind
        ``"p"`` (personal), ``"c"`` (chance) or ``"t"`` (terminal).
    line
        Where the line starts.
    name
        The node's name.
    player
        The player (1-based) of a personal node, else 0.
    infoset
        The number of its information set (per player; chance sets apart), else 0.
    infoset_name
        The name its information set was first given ("" if none).
    actions
        The actions: listed on this line, or those of its information set.
    probabilities
        A chance node's probabilities, one per action (empty otherwise).
    first_line
        The line of the first node of its information set when that is an earlier line,
        else ``None``.
    payoffs
        The payoffs of its outcome, or ``None`` (outcome 0).
    """

    kind: str
    line: int
    name: str
    player: int
    infoset: int
    infoset_name: str
    actions: tuple[str, ...]
    probabilities: tuple[Exact, ...]
    first_line: int | None
    payoffs: tuple[Exact, ...] | None


class NodeLines:
    """Reads node lines one at a time, keeping the information sets and outcomes met so
    far (a set or an outcome is defined once and then referred to by number)."""

    def __init__(self, cursor: Cursor, players: int):
        self.cursor = cursor
        self.players = players
        self.outcomes: dict[int, tuple[Exact, ...]] = {}
        # (player, number) -> (first line, name, actions); chance sets under player 0
        self.personal: dict[tuple[int, int], tuple[int, str, tuple[str, ...]]] = {}
        self.chance: dict[int, tuple[int, str, tuple[tuple[str, Exact], ...]]] = {}

    def read(self) -> NodeLine:
        """The next node line (call while :meth:`Cursor.peek` finds a token)."""
        cursor = self.cursor
        marker = cursor.next("word", "a node: p, c or t")
        line = marker.line
        if marker.text not in ("p", "c", "t"):
            raise cursor.fail(line, f"a node starts with p, c or t, not {marker.text!r}")
        name = cursor.next("string", "the node's name in quotes").text
        if marker.text == "p":
            return self._personal(line, name)
        if marker.text == "c":
            return self._chance(line, name)
        return NodeLine("t", line, name, 0, 0, "", (), (), None, self._outcome())

    def _personal(self, line: int, name: str) -> NodeLine:
        cursor = self.cursor
        player, player_line = cursor.integer("the player number")
        if not 1 <= player <= self.players:
            raise cursor.fail(
                player_line, f"player {player} is not one of the {self.players} players"
            )
        infoset, _ = cursor.integer("the information set number")
        known = self.personal.get((player, infoset))
        given = cursor.optional("string")
        opened: Token | None
        if known is None:
            opened = cursor.next("open", "{ and the actions of a new information set")
        else:
            opened = cursor.optional("open")
        actions: list[str] = []
        if opened is not None:
            while not cursor.close(opened):
                actions.append(cursor.next("string", "an action name in quotes or }").text)
            if not actions:
                raise cursor.fail(line, f"node {name!r} has no actions")
        if known is None:
            known = (line, given.text if given else "", tuple(actions))
            self.personal[(player, infoset)] = known
            first_line = None
        else:
            first_line = known[0]
        listed = tuple(actions) if opened is not None else known[2]
        return NodeLine(
            "p", line, name, player, infoset, known[1], listed, (), first_line, self._outcome()
        )

    def _chance(self, line: int, name: str) -> NodeLine:
        cursor = self.cursor
        infoset, _ = cursor.integer("the information set number")
        given = cursor.optional("string")
        opened = cursor.optional("open")
        known = self.chance.get(infoset)
        if opened is None:
            if known is None:
                raise cursor.fail(
                    line,
                    f"chance information set {infoset} is new here, so it needs its "
                    "actions and probabilities in braces",
                )
            listed = known[2]
        else:
            pairs: list[tuple[str, Exact]] = []
            while not cursor.close(opened):
                action = cursor.next("string", "an action name in quotes or }").text
                pairs.append((action, cursor.exact(f"the probability of {action!r}")))
            listed = tuple(pairs)
            # a set listed again takes the probabilities given last
            first = line if known is None else known[0]
            self.chance[infoset] = (first, given.text if given else "", listed)
        check_chances(cursor, line, name, listed)
        return NodeLine(
            "c",
            line,
            name,
            0,
            infoset,
            self.chance[infoset][1],
            tuple(action for action, _ in listed),
            tuple(chance for _, chance in listed),
            None if known is None else known[0],
            self._outcome(),
        )

    def _outcome(self) -> tuple[Exact, ...] | None:
        """The outcome fields of a node: number, then optional name and payoffs."""
        cursor = self.cursor
        number, line = cursor.integer("an outcome number (0 for none)")
        cursor.optional("string")
        opened = cursor.optional("open")
        if opened is None:
            if number == 0:
                return None
            known = self.outcomes.get(number)
            if known is None:
                raise cursor.fail(
                    line, f"outcome {number} has no payoffs here and none were given before"
                )
            return known
        if number == 0:
            raise cursor.fail(line, "outcome 0 means no outcome and takes no payoffs")
        payoffs: list[Exact] = []
        while not cursor.close(opened):
            payoffs.append(cursor.exact("a payoff or }"))
        if len(payoffs) != self.players:
            raise cursor.fail(
                line,
                f"outcome {number} lists {len(payoffs)} payoffs for {self.players} players",
            )
        known = self.outcomes.setdefault(number, tuple(payoffs))
        if known != tuple(payoffs):
            raise cursor.fail(line, f"outcome {number} is given two different payoff lists")
        return known


def check_chances(
    cursor: Cursor, line: int, name: str, listed: Sequence[tuple[str, Exact]]
) -> None:
    """Refuse a chance node without actions, a probability outside [0, 1], or
    probabilities whose exact sum is not 1 (the message lists them and their sum)."""
    if not listed:
        raise cursor.fail(line, f"chance node {name!r} has no actions")
    for action, chance in listed:
        if chance < 0 or chance > 1:
            raise cursor.fail(
                line, f"probability {short_text(chance)} of {action!r} is not in [0, 1]"
            )

    def refuse(total: Exact) -> None:
        check_exact_size(
            total,
            cursor.pointer,
            f"sum of the probabilities at chance node {name!r} (line {line})",
        )

    total = exact_sum((chance for _, chance in listed), refuse=refuse)
    if total != 1:
        raise cursor.fail(
            line,
            f"the probabilities at chance node {name!r} "
            f"{probabilities_text([chance for _, chance in listed], total)}",
        )


def probabilities_text(probabilities: Sequence[Exact], total: Exact) -> str:
    """``(0.3333333333333333, ...) sum to 0.9999999999999999, not exactly 1 (...)``: the
    probabilities and their exact sum for a refusal; as decimals when they all are
    decimals (as read from OpenSpiel's files), else as fractions."""
    listed = list(probabilities[:_SHOWN_PROBABILITIES])
    decimals = [_exact_decimal(p) for p in [*listed, total]]
    if all(text is not None for text in decimals):
        shown = [text for text in decimals if text is not None]
    else:
        shown = [short_text(p) for p in listed] + [sum_text(total)]
    items = ", ".join(shown[:-1])
    if len(probabilities) > _SHOWN_PROBABILITIES:
        items += f", ... ({len(probabilities)} in all)"
    return (
        f"({items}) sum to {shown[-1]}, not exactly 1 (write repeating decimals as "
        "fractions, e.g. 1/3)"
    )


def _exact_decimal(value: Exact) -> str | None:
    """``value`` as a decimal of at most 40 places (``0.25``, ``3``), or ``None`` when it
    is not one."""
    denominator = value.denominator
    twos = (denominator & -denominator).bit_length() - 1
    rest = denominator >> twos
    fives = 0
    while rest % 5 == 0 and fives <= 40:
        rest //= 5
        fives += 1
    places = max(twos, fives)
    if rest != 1 or places > 40 or value.numerator.bit_length() > 200:
        return None
    if places == 0:
        return str(value.numerator)
    scaled = abs(value.numerator) * (10**places // denominator)
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def check_payoff_size(
    cursor: Cursor, line: int, name: str, total: tuple[Exact, ...], bits: int
) -> None:
    """Payoffs add up along a path; refuse a sum whose exact form has grown too large."""
    for value in total:
        if value.numerator.bit_length() > bits or value.denominator.bit_length() > bits:
            check_exact_size(
                value,
                cursor.pointer,
                f"payoff of node {name!r} (line {line}), summed along its path",
            )


def quote(text: str) -> str:
    """``text`` as an ``.efg`` string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def number_text(value: Exact, pointer: str) -> str:
    """``value`` exactly, as the ``R`` dialect writes it (``-7/2``, ``12``)."""
    text = exact_text(value)
    if text is None:  # never for values read from a game, which are capped at 1e300
        raise ExactSizeError("a number of the game is too large to write exactly", pointer)
    return text
