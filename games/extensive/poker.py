"""Two small pokers used to teach and to test imperfect-information solvers.

**Kuhn poker** (Kuhn 1950): a deck of three cards, J < Q < K; each player antes 1 and gets one
card. Player 1 checks or bets 1; after a check player 2 checks (showdown for 1) or bets 1; a
bet is called (showdown for 2) or folded (the bettor wins the antes). Its value is -1/18 for
player 1.

**Leduc hold'em** (Southey et al. 2005), with the rules of OpenSpiel's ``leduc_poker``: a deck
of six cards, two suits of J < Q < K; each player antes 1 and gets one card; a betting round;
one public card; a second betting round. In each round player 1 moves first, a raise is 2 in
the first round and 4 in the second, at most two raises a round, and a player may fold only
when facing a raise. At the showdown a private card pairing the public card wins, else the
higher card; equal ranks split the pot. Suits are told apart, as in OpenSpiel, so that the
information sets are the same 936.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from games.extensive.model import Builder, ExtensiveGame

KUHN_CARDS: Final = ("J", "Q", "K")
LEDUC_CARDS: Final = ("J1", "J2", "Q1", "Q2", "K1", "K2")
PLAYERS: Final = ("Player 1", "Player 2")


def kuhn_poker() -> ExtensiveGame:
    """Kuhn's three-card poker (player 1's value -1/18)."""
    builder = Builder(PLAYERS)
    deals = [(a, b) for a in range(3) for b in range(3) if a != b]
    builder.chance([(f"{KUHN_CARDS[a]}{KUHN_CARDS[b]}", Fraction(1, 6)) for a, b in deals], "deal")
    for a, b in deals:
        won = 1 if a > b else -1  # player 1's showdown sign
        one, two = KUHN_CARDS[a], KUHN_CARDS[b]
        builder.decision(0, (one,), ("check", "bet"), infoset_name=one)
        builder.decision(1, (two, "check"), ("check", "bet"), infoset_name=f"{two}, check")
        builder.terminal((Fraction(won), Fraction(-won)))
        builder.decision(
            0, (one, "check", "bet"), ("fold", "call"), infoset_name=f"{one}, check, bet"
        )
        builder.terminal((Fraction(-1), Fraction(1)))
        builder.terminal((Fraction(2 * won), Fraction(-2 * won)))
        builder.decision(1, (two, "bet"), ("fold", "call"), infoset_name=f"{two}, bet")
        builder.terminal((Fraction(1), Fraction(-1)))
        builder.terminal((Fraction(2 * won), Fraction(-2 * won)))
    return builder.build("Kuhn poker")


_RAISES: Final = (2, 4)  # a raise in the first and the second round
_MAX_RAISES: Final = 2


def leduc_poker() -> ExtensiveGame:
    """Leduc hold'em with OpenSpiel's rules (player 1's value -0.0856...)."""
    builder = Builder(PLAYERS)
    cards = range(len(LEDUC_CARDS))
    builder.chance([(LEDUC_CARDS[c], Fraction(1, 6)) for c in cards], "player 1's card")
    for first in cards:
        rest = [c for c in cards if c != first]
        builder.chance(
            [(LEDUC_CARDS[c], Fraction(1, 5)) for c in rest],
            f"player 2's card, player 1 holding {LEDUC_CARDS[first]}",
        )
        for second in rest:
            _bets(builder, (first, second), None, 0, [1, 1], 0, 0, ())
    return builder.build("Leduc hold'em")


def _bets(
    builder: Builder,
    private: tuple[int, int],
    public: int | None,
    mover: int,
    put: list[int],
    raises: int,
    calls: int,
    history: tuple[str, ...],
) -> None:
    """Add the node where ``mover`` acts and everything below it (rounds end, the public
    card is dealt, the pot is shown down or won by a fold)."""
    round_ = 0 if public is None else 1
    facing = put[1 - mover] > put[mover]
    actions = (
        (("fold",) if facing else ()) + ("call",) + (("raise",) if raises < _MAX_RAISES else ())
    )
    seen = (LEDUC_CARDS[private[mover]], "" if public is None else LEDUC_CARDS[public])
    shown = " ".join(history) or "-"
    name = f"{seen[0]}{' | ' + seen[1] if seen[1] else ''} | {shown}"
    builder.decision(mover, (seen, history), actions, infoset_name=name)
    for action in actions:
        after = history + (action[0] if action != "raise" else "r",)
        if action == "fold":
            # the folder loses what they put in
            won = put[mover]
            builder.terminal(_paid(1 - mover, won))
            continue
        paid = list(put)
        paid[mover] = put[1 - mover]  # call (or check): match the stakes
        if action == "raise":
            paid[mover] += _RAISES[round_]
            _bets(builder, private, public, 1 - mover, paid, raises + 1, 0, after)
            continue
        ended = (raises == 0 and calls + 1 == 2) or (raises > 0 and calls + 1 == 1)
        if not ended:
            _bets(builder, private, public, 1 - mover, paid, raises, calls + 1, after)
        elif public is None:
            left = [c for c in range(len(LEDUC_CARDS)) if c not in private]
            # named by the deal and the bets, so that no two nodes share a name (Gambit's rule)
            dealt = f"{LEDUC_CARDS[private[0]]} v {LEDUC_CARDS[private[1]]}"
            builder.chance(
                [(LEDUC_CARDS[c], Fraction(1, 4)) for c in left],
                f"public card: {dealt}, {' '.join(after)}",
            )
            for card in left:
                _bets(builder, private, card, 0, paid, 0, 0, after + ("/",))
        else:
            builder.terminal(_showdown(private, public, paid[0]))


def _paid(winner: int, amount: int) -> tuple[Fraction, Fraction]:
    won = Fraction(amount if winner == 0 else -amount)
    return (won, -won)


def _showdown(private: tuple[int, int], public: int, stake: int) -> tuple[Fraction, Fraction]:
    ranks = [card // 2 for card in private]
    pairs = [rank == public // 2 for rank in ranks]
    if pairs[0] != pairs[1]:
        return _paid(0 if pairs[0] else 1, stake)
    if ranks[0] == ranks[1]:
        return (Fraction(0), Fraction(0))
    return _paid(0 if ranks[0] > ranks[1] else 1, stake)
