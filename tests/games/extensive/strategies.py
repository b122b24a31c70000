"""Hypothesis strategies for extensive-form games with information sets."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from games.extensive.model import Builder, ExtensiveGame

# names that exercise quoting: empty, spaces, quotes, backslashes, a newline
NAMES = st.sampled_from(["", "a", "two words", 'say "hi"', "back\\slash", "line\nbreak", "é"])


@st.composite
def extensive_games(draw: st.DrawFn, max_nodes: int = 40) -> ExtensiveGame:
    """Small random games with perfect recall, built with :class:`Builder` in prefix order.

    A decision node's information set is keyed by its player's own history (the sets and
    actions of theirs on the path) and a drawn signal of 0 or 1, so nodes a player cannot
    tell apart are those with the same signal and the same own history: perfect recall
    holds and sets of several nodes are common. Each set's actions are drawn once.
    """
    count = draw(st.integers(2, 3))
    builder = Builder([f"P{p}" for p in range(count)])
    actions_of: dict[tuple[int, object], tuple[str, ...]] = {}
    # pending nodes, last first: (depth, each player's own history)
    pending: list[tuple[int, tuple[tuple[object, ...], ...]]] = [(0, ((),) * count)]
    made = 0
    while pending:
        depth, histories = pending.pop()
        made += 1
        room = depth < 4 and made + len(pending) < max_nodes
        kind = draw(st.sampled_from(("p", "p", "c", "t"))) if room else "t"
        name = draw(NAMES)
        if kind == "t":
            payoffs = [
                Fraction(draw(st.integers(-9, 9)), draw(st.integers(1, 4))) for _ in range(count)
            ]
            builder.terminal(payoffs, name)
            continue
        if kind == "c":
            weights = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
            if not any(weights):
                weights[0] = 1
            total = sum(weights)
            builder.chance(
                [(f"{draw(NAMES)}#{k}", Fraction(w, total)) for k, w in enumerate(weights)], name
            )
            children = [histories] * len(weights)
        else:
            player = draw(st.integers(0, count - 1))
            key = (histories[player], draw(st.sampled_from((0, 0, 0, 1))))
            labels = actions_of.get((player, key))
            if labels is None:
                labels = tuple(f"{draw(NAMES)}#{k}" for k in range(draw(st.integers(1, 3))))
                actions_of[(player, key)] = labels
            shown = f"s{len(actions_of)}{draw(NAMES)}"
            builder.decision(player, key, labels, name, infoset_name=shown)
            children = [
                histories[:player] + (histories[player] + (key, k),) + histories[player + 1 :]
                for k in range(len(labels))
            ]
        pending.extend((depth + 1, child) for child in reversed(children))
    return builder.build(draw(NAMES), draw(NAMES))
