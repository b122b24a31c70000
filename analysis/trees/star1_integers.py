"""Star1 in Python integers on a tree's common scale: the pure-Python twin of ``_star1.pyx``.

:class:`analysis.trees.star1._Search` step for step, without fractions. Values are the
exact values times the common scale ``G`` (:class:`analysis.trees.expectimax.CommonScale`:
every value the search returns, bounds included, is then an integer), a chance node's
running ``sum(p v)`` is kept times ``Q`` (probabilities are ``w / Q``), and each frame's
window is kept times a multiplier ``M``, the product of the weights ``w`` of the outcomes on
the way down: an outcome's window

    A_i = (alpha - sum(p v) - hi * rest) / p_i

is, times the outcome's multiplier ``M * w_i``, the integer ``alpha * M * Q - M * (S + HI *
R)`` (``alpha`` times ``M``, ``S`` and ``R`` the sum and the unseen weight times ``Q``). So
every comparison is one of integers, and comes out as the fraction search's does: the same
values, bounds, best children, evaluated leaves, cutoffs and pruned nodes. Where the
compiled loop is built it runs instead (the mirror tests compare the three searches).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analysis.trees.alpha_beta import EXACT, LOWER, NEG_INF, POS_INF, UPPER, Cutoff
from games.numbers import Exact
from games.trees.model import CHANCE, MAX, MIN


def integer_star1(
    children: list[range],
    kinds: list[str],
    probabilities: list[Any],
    shares: dict[int, int],
    static: list[Any],
    low: int,
    high: int,
    common: int,
    factor: int,
    strict: bool,
    bits: int,
    spend: Any,
) -> tuple[Any, ...] | None:
    """Star1 as :func:`analysis.trees._star1.scaled_star1` runs it (the same result), in
    Python integers; None when a number could pass ``bits`` binary digits (then the
    fraction search, which might refuse it, runs instead)."""
    count = len(children)
    values: list[Exact | None] = [None] * count
    bounds: list[str | None] = [None] * count
    best_child = [-1] * count
    evaluated: list[int] = []
    cutoffs: list[Cutoff] = []
    pruned: list[int] = []
    known: dict[Any, Exact] = {}

    def exact(number: int, scale: int) -> Exact:
        """number / scale, as the fraction search writes it (an int when integral)."""
        key = (number, scale)
        value = known.get(key)
        if value is None:
            value = Fraction(number, scale)
            value = known[key] = value.numerator if value.denominator == 1 else value
        return value

    def bound_of(edge: Any, multiplier: int) -> Any:
        return edge if type(edge) is float else exact(edge, multiplier * factor)

    def frame(node: int, alpha: Any, beta: Any, multiplier: int) -> list[Any]:
        # [node, alpha, beta (times multiplier), v (chance: sum of w * value), next slot,
        #  best, bound of best, unseen weight, A and B (times the outcome's multiplier),
        #  multiplier, weight of the outcome searched, likeliest outcome, its weight]
        kind = kinds[node]
        start = NEG_INF if kind == MAX else POS_INF if kind == MIN else 0
        return [node, alpha, beta, start, 0, -1, EXACT, common, None, None, multiplier, 0, -1, -1]

    visited = 1
    steps = 0
    stack = [frame(0, NEG_INF, POS_INF, 1)]
    returned: Any = None
    returned_bound = EXACT
    child = -1
    window: tuple[Any, Any, int] = (NEG_INF, POS_INF, 1)
    # a multiplier within this many bits keeps every number of the search within ``bits``
    # (windows are at most a few times the bounds times Q times the multiplier)
    room = bits - 4 - max(abs(low), abs(high), factor).bit_length() - common.bit_length()
    while stack:
        steps += 1
        if steps == 4096:
            spend(3 * steps)
            steps = 0
        frame_now = stack[-1]
        (
            node,
            alpha,
            beta,
            v,
            slot,
            best,
            best_bound,
            rest,
            fail_low,
            fail_high,
            multiplier,
            weight,
            likeliest,
            heaviest,
        ) = frame_now
        kind = kinds[node]
        chance = kind == CHANCE
        kids = children[node]
        stop = False
        result_bound = EXACT
        if returned is not None:
            if chance:
                if returned_bound == LOWER and returned >= high:
                    returned_bound = EXACT
                elif returned_bound == UPPER and returned <= low:
                    returned_bound = EXACT
                v += weight * returned
                exact_end = rest == 0 and returned_bound == EXACT
                scaled = returned * multiplier * weight  # the outcome on its window's scale
                if returned_bound == UPPER or (scaled < fail_low if strict else scaled <= fail_low):
                    if not exact_end:
                        stop, v, result_bound = True, v + high * rest, UPPER
                elif returned_bound == LOWER or (
                    scaled > fail_high if strict else scaled >= fail_high
                ):
                    if not exact_end:
                        stop, v, result_bound = True, v + low * rest, LOWER
            else:
                better = returned > v if kind == MAX else returned < v
                if better or (returned == v and returned_bound == EXACT and best_bound != EXACT):
                    v, best, best_bound = returned, child, returned_bound
                scaled = v * multiplier
                if kind == MAX:
                    if (scaled > beta) if strict else (scaled >= beta):
                        stop, result_bound = True, LOWER
                    elif scaled > alpha:
                        alpha = scaled
                else:
                    if (scaled < alpha) if strict else (scaled <= alpha):
                        stop, result_bound = True, UPPER
                    elif scaled < beta:
                        beta = scaled
                if stop and slot >= len(kids):
                    stop = False  # every child was searched: nothing is cut
            returned = None
        descend = -1
        while not stop and slot < len(kids):
            child = kids[slot]
            slot += 1
            if chance:
                weight = shares[id(probabilities[child])]
                if weight > heaviest:
                    likeliest, heaviest = child, weight
                if weight == 0:
                    pruned.append(child)  # cannot change the expectation
                    continue
                rest -= weight
                inner = multiplier * weight  # the outcome's multiplier
                if inner.bit_length() > room:
                    return None
                # A and B times the outcome's multiplier (alpha and beta are times ours)
                fail_low = (
                    alpha
                    if type(alpha) is float
                    else alpha * common - multiplier * (v + high * rest)
                )
                fail_high = (
                    beta if type(beta) is float else beta * common - multiplier * (v + low * rest)
                )
                top, bottom = high * inner, low * inner
                if (fail_low > top) if strict else (fail_low >= top):
                    stop, result_bound = True, UPPER
                elif (fail_high < bottom) if strict else (fail_high <= bottom):
                    stop, result_bound = True, LOWER
                if stop:
                    slot, rest = slot - 1, rest + weight
                    v += (high if result_bound == UPPER else low) * rest
                    child = kids[slot - 1] if slot else node
                    break
                window = (max(fail_low, bottom), min(fail_high, top), inner)
            else:
                window = (alpha, beta, multiplier)
            score = static[child]
            if score is None:  # only a node the search scores has a static value
                descend = child
                break
            values[child], bounds[child] = score, EXACT
            evaluated.append(child)
            visited += 1
            returned, returned_bound = score * factor, EXACT
            break
        frame_now[1:14] = [
            alpha,
            beta,
            v,
            slot,
            best,
            best_bound,
            rest,
            fail_low,
            fail_high,
            multiplier,
            weight,
            likeliest,
            heaviest,
        ]
        if descend != -1:
            visited += 1
            stack.append(frame(descend, *window))
            continue
        if returned is not None:
            continue  # fold the static child just read
        # the node is done: its value times factor (a chance node's sum is times common)
        if chance:
            value, remainder = divmod(v, common)
            if remainder:
                return None  # (cannot happen: the scale makes every value an integer)
        else:
            value = v
        if stop:
            if slot < len(kids):
                cut = tuple(kids[slot:])
                cutoffs.append(
                    Cutoff(
                        node,
                        bound_of(alpha, multiplier),
                        bound_of(beta, multiplier),
                        exact(value, factor),
                        child,
                        cut,
                    )
                )
                pruned.extend(cut)
            bound = result_bound
        elif chance:
            bound, best = EXACT, likeliest  # every outcome was read
        else:
            bound = best_bound
        values[node] = exact(value, factor) if chance else values[best]
        bounds[node], best_child[node] = bound, best
        stack.pop()
        returned, returned_bound, child = value, bound, node
    spend(3 * steps)
    return values, bounds, best_child, evaluated, cutoffs, pruned, visited
