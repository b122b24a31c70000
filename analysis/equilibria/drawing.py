"""SVG pictures of small two-player games.

A 2x2 game that is not zero-sum is drawn as its **best-response diagram**: the row
player's probability ``p`` of the first row across, the column player's ``q`` of
the first column up; each player's best-response correspondence is a staircase
(jumping where that player is indifferent) and the equilibria are exactly where
the two staircases cross (marked).

Any other 2xn or mx2 game is drawn as payoff lines and their **envelope**. The
player with two strategies mixes with probability ``t`` on the first. Each pure
strategy of the opponent gives a line ``u(t) = u_1 t + u_2 (1 - t)``:

- zero-sum: the row player's payoffs; the row player's guarantee is the *lower*
  envelope (the column player minimises) when the row player mixes, and the
  column player's concession is the *upper* envelope when the column player
  mixes; the optimal mix is the peak (resp. the bottom) of that envelope;
- otherwise: the opponent's own payoffs, whose *upper* envelope shows the
  opponent's best responses; equilibrium mixes are where the best response
  changes, marked by vertical lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from xml.sax.saxutils import escape

from games.errors import DomainError
from games.limits import Deadline, current_deadline
from games.matrices.model import NormalFormGame
from games.numbers import Exact, exact_text, to_float

_WIDTH, _HEIGHT, _MARGIN = 520, 360, 50
_COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


Profile = tuple[Sequence[Exact | float], Sequence[Exact | float]]


def matrix_plot_svg(game: NormalFormGame, equilibria: Sequence[Profile] = ()) -> str:
    """The best-response diagram of a 2x2 general-sum game, else the envelope plot.

    Raises
    ------
    DomainError
        Unless the game has two players and one of them has exactly two strategies.
    """
    if game.is_bimatrix and game.shape == (2, 2) and not game.is_zero_sum():
        return best_response_svg(game, equilibria)
    mixer = 0 if game.is_bimatrix and game.shape[0] == 2 else 1
    return envelope_svg(game, [profile[mixer][0] for profile in equilibria])


def best_response_svg(game: NormalFormGame, equilibria: Sequence[Profile] = ()) -> str:
    """Both best-response correspondences of a 2x2 game in the (p, q) square."""
    first, second = game.row_payoffs, game.col_payoffs
    # Row player's advantage of the first row, as a function of q: d(q) = a q + b (1 - q).
    row_steps = _staircase(Fraction(first[0, 0] - first[1, 0]), Fraction(first[0, 1] - first[1, 1]))
    col_steps = _staircase(
        Fraction(second[0, 0] - second[0, 1]), Fraction(second[1, 0] - second[1, 1])
    )
    size = _HEIGHT - 2 * _MARGIN

    def point(p: Fraction | float, q: Fraction | float) -> str:
        return f"{_MARGIN + float(p) * size:.2f},{_HEIGHT - _MARGIN - float(q) * size:.2f}"

    rows, cols = game.labels
    title = "Best-response diagram"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_HEIGHT + 140}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_HEIGHT + 140} {_HEIGHT}" font-family="sans-serif" font-size="12">',
        f"<title>{title}</title>",
        f'<text x="{_HEIGHT / 2}" y="20" text-anchor="middle">{title}</text>',
        f'<polygon points="{point(0, 0)} {point(1, 0)} {point(1, 1)} {point(0, 1)}" '
        'fill="none" stroke="black"/>',
        f'<text x="{_HEIGHT / 2}" y="{_HEIGHT - 12}" text-anchor="middle">'
        f"p = P({escape(rows[0])})</text>",
        f'<text x="14" y="{_HEIGHT / 2}" transform="rotate(-90 14 {_HEIGHT / 2})" '
        f'text-anchor="middle">q = P({escape(cols[0])})</text>',
    ]
    for steps, colour, name, swap in (
        (row_steps, _COLOURS[0], "row player's best response", True),
        (col_steps, _COLOURS[1], "column player's best response", False),
    ):
        for (t0, r0), (t1, r1) in steps:
            a = point(r0, t0) if swap else point(t0, r0)
            b = point(r1, t1) if swap else point(t1, r1)
            parts.append(
                f'<polyline points="{a} {b}" fill="none" stroke="{colour}" stroke-width="3" '
                f'stroke-opacity="0.8"><title>{name}</title></polyline>'
            )
    for label, colour, y in (
        ("row player's best response", _COLOURS[0], 60),
        ("column player's best response", _COLOURS[1], 80),
    ):
        parts.append(f'<text x="{_HEIGHT - 30}" y="{y}" fill="{colour}">{label}</text>')
    for row, col in equilibria:
        parts.append(
            f'<circle cx="{point(row[0], col[0]).split(",")[0]}" '
            f'cy="{point(row[0], col[0]).split(",")[1]}" r="5" fill="red">'
            f"<title>equilibrium p = {_text(row[0])}, q = {_text(col[0])}</title></circle>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _text(value: Exact | float) -> str:
    """A probability as written in a title: exact (``2/3``), else its nearest double."""
    if isinstance(value, float):
        return repr(value)
    return exact_text(value) or repr(float(to_float(value)))


def _staircase(
    at_one: Fraction, at_zero: Fraction
) -> list[tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]]:
    """Segments ``((t, r), (t, r))`` of the best response ``r`` (probability of the first
    strategy) to the opponent's ``t``, where the first strategy's advantage is
    ``at_one t + at_zero (1 - t)``."""
    breaks = {Fraction(0), Fraction(1)}
    if at_one != at_zero:
        root = at_zero / (at_zero - at_one)
        if 0 < root < 1:
            breaks.add(root)
    ordered = sorted(breaks)
    segments = []
    for low, high in zip(ordered, ordered[1:], strict=False):
        middle = (low + high) / 2
        advantage = at_one * middle + at_zero * (1 - middle)
        if advantage == 0:
            segments.append(((low, Fraction(0)), (high, Fraction(0))))
            segments.append(((low, Fraction(1)), (high, Fraction(1))))
            continue
        response = Fraction(1) if advantage > 0 else Fraction(0)
        segments.append(((low, response), (high, response)))
    for t in ordered:
        if at_one * t + at_zero * (1 - t) == 0:
            segments.append(((t, Fraction(0)), (t, Fraction(1))))
    return segments


def envelope_svg(game: NormalFormGame, marks: Sequence[Exact | float] = ()) -> str:
    """The SVG document; ``marks``: equilibrium probabilities of the mixer's first strategy.

    Raises
    ------
    DomainError
        Unless the game has two players and one of them has exactly two strategies.
    TimeLimitError
        When the request's deadline passes.
    """
    if not game.is_bimatrix or 2 not in game.shape:
        raise DomainError(
            "the plot needs a two-player game where one player has exactly two "
            "strategies (2xn or mx2)",
            parameter="parts",
        )
    mixer = 0 if game.shape[0] == 2 else 1
    opponent = 1 - mixer
    zero_sum = game.is_zero_sum()
    shown = 0 if zero_sum else opponent
    payoffs = game.payoffs[shown]
    lines = []
    for k in range(game.shape[opponent]):
        first = payoffs[0, k] if mixer == 0 else payoffs[k, 0]
        second = payoffs[1, k] if mixer == 0 else payoffs[k, 1]
        lines.append((game.labels[opponent][k], Fraction(first), Fraction(second)))
    lower = zero_sum and mixer == 0
    envelope = _envelope(lines, lower, current_deadline())
    mix_name = f"P({game.labels[mixer][0]})"
    who = "row player's payoff" if shown == 0 else "column player's payoff"
    title = f"{'Lower' if lower else 'Upper'} envelope of the {who} against {mix_name}"
    return _draw(lines, envelope, [float(m) for m in marks], title, mix_name, who)


def _envelope(
    lines: list[tuple[str, Fraction, Fraction]], lower: bool, clock: Deadline
) -> list[tuple[Fraction, Fraction]]:
    """Corner points of the min (``lower``) or max of the lines over ``t`` in [0, 1].

    The line through ``(1, u1)`` and ``(0, u2)`` is ``u2 + (u1 - u2) t``. The upper
    envelope of lines sorted by slope is a stack (a line is dropped when its neighbours
    meet no later than it meets the one before): ``n log n`` exact steps for ``n`` lines.
    A lower envelope is the upper envelope of the negated lines.
    """
    sign = -1 if lower else 1
    ordered = sorted({(sign * (u1 - u2), sign * u2) for _, u1, u2 in lines})
    clock.spend(len(ordered) * (1 + len(ordered).bit_length()))
    hull: list[tuple[Fraction, Fraction]] = []
    for slope, intercept in ordered:
        clock.spend(4)
        if hull and hull[-1][0] == slope:
            hull.pop()  # same slope: the later one has the larger intercept
        while len(hull) >= 2 and _hidden(hull[-2], hull[-1], (slope, intercept)):
            hull.pop()
        hull.append((slope, intercept))
    # where each hull line takes over from the previous one, in increasing order
    crossings = [(b1 - b2) / (s2 - s1) for (s1, b1), (s2, b2) in zip(hull, hull[1:], strict=False)]

    def value(index: int, t: Fraction) -> Fraction:
        slope, intercept = hull[index]
        return sign * (intercept + slope * t)

    first = next((k for k, x in enumerate(crossings) if x > 0), len(crossings))
    last = next((k for k, x in enumerate(crossings) if x >= 1), len(crossings))
    corners = [(Fraction(0), value(first, Fraction(0)))]
    corners += [(crossings[k], value(k, crossings[k])) for k in range(first, last)]
    corners.append((Fraction(1), value(last, Fraction(1))))
    return corners


Line = tuple[Fraction, Fraction]


def _hidden(left: Line, middle: Line, right: Line) -> bool:
    """Whether ``middle`` (slope between the others') is nowhere strictly above both others."""
    (s1, b1), (s2, b2), (s3, b3) = left, middle, right
    # left meets right no later than left meets middle
    return (b1 - b3) * (s2 - s1) <= (b1 - b2) * (s3 - s1)


def _draw(
    lines: list[tuple[str, Fraction, Fraction]],
    envelope: list[tuple[Fraction, Fraction]],
    marks: list[float],
    title: str,
    axis: str,
    value_axis: str,
) -> str:
    values = [float(v) for _, a, b in lines for v in (a, b)]
    low, high = min(values), max(values)
    if high == low:
        high, low = high + 1, low - 1

    def px(t: float) -> float:
        return _MARGIN + t * (_WIDTH - 2 * _MARGIN)

    def py(u: float) -> float:
        return _HEIGHT - _MARGIN - (u - low) / (high - low) * (_HEIGHT - 2 * _MARGIN)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<text x="{_WIDTH / 2}" y="20" text-anchor="middle">{escape(title)}</text>',
        f'<line x1="{px(0)}" y1="{py(low)}" x2="{px(1)}" y2="{py(low)}" stroke="black"/>',
        f'<line x1="{px(0)}" y1="{py(low)}" x2="{px(0)}" y2="{py(high)}" stroke="black"/>',
        f'<text x="{_WIDTH / 2}" y="{_HEIGHT - 12}" text-anchor="middle">{escape(axis)}</text>',
        f'<text x="14" y="{_HEIGHT / 2}" transform="rotate(-90 14 {_HEIGHT / 2})" '
        f'text-anchor="middle">{escape(value_axis)}</text>',
        f'<text x="{px(0)}" y="{py(low) + 16}" text-anchor="middle">0</text>',
        f'<text x="{px(1)}" y="{py(low) + 16}" text-anchor="middle">1</text>',
        f'<text x="{px(0) - 6}" y="{py(low)}" text-anchor="end">{low:g}</text>',
        f'<text x="{px(0) - 6}" y="{py(high)}" text-anchor="end">{high:g}</text>',
    ]
    for index, (label, at_one, at_zero) in enumerate(lines):
        colour = _COLOURS[index % len(_COLOURS)]
        parts.append(
            f'<line x1="{px(0):.2f}" y1="{py(float(at_zero)):.2f}" x2="{px(1):.2f}" '
            f'y2="{py(float(at_one)):.2f}" stroke="{colour}" stroke-width="1.5">'
            f"<title>{escape(label)}</title></line>"
        )
        parts.append(
            f'<text x="{px(1) + 4:.2f}" y="{py(float(at_one)):.2f}" '
            f'fill="{colour}">{escape(label)}</text>'
        )
    corners = " ".join(f"{px(float(t)):.2f},{py(float(u)):.2f}" for t, u in envelope)
    parts.append(
        f'<polyline points="{corners}" fill="none" stroke="black" stroke-width="3" '
        'stroke-opacity="0.6"><title>envelope</title></polyline>'
    )
    for t in marks:
        parts.append(
            f'<line x1="{px(t):.2f}" y1="{py(low):.2f}" x2="{px(t):.2f}" '
            f'y2="{py(high):.2f}" stroke="red" stroke-dasharray="4 3">'
            f"<title>equilibrium at {t:.6g}</title></line>"
        )
    parts.append("</svg>")
    return "\n".join(parts)
