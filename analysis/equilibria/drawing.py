"""SVG pictures of small two-player games, drawn with matplotlib.

A 2x2 game that is not zero-sum is drawn as its **best-response diagram**: the row
player's probability ``p`` of the first row across, the column player's ``q`` of
the first column up; each player's best-response correspondence is a staircase
(jumping where that player is indifferent) and the equilibria are exactly where
the two staircases cross (marked, with their exact coordinates).

Any other 2xn or mx2 game is drawn as payoff lines and their **envelope**. The
player with two strategies mixes with probability ``t`` on the first. Each pure
strategy of the opponent gives a line ``u(t) = u_1 t + u_2 (1 - t)``:

- zero-sum: the row player's payoffs; the row player's guarantee is the *lower*
  envelope (the column player minimises) when the row player mixes, and the
  column player's concession is the *upper* envelope when the column player
  mixes; the optimal mix is the peak (resp. the bottom) of that envelope;
- otherwise: the opponent's own payoffs, whose *upper* envelope shows the
  opponent's best responses; equilibrium mixes are where the best response
  changes, marked by vertical lines and a dot on the envelope.

Geometry (staircases, envelope corners, marks) is computed exactly here; matplotlib
only draws it, through its object API (a :class:`~matplotlib.figure.Figure` with its
own SVG canvas, never pyplot's global figures). Each picture is deterministic: ids
come from a fixed salt and the date is left out, so the same game gives the same
bytes; text is written as SVG text, so it stays small and searchable. The artists
carry ids (``gid``) a reader can find: ``row-best-response``,
``column-best-response``, ``equilibrium-<k>``, ``envelope``, ``strategy-<k>`` and
``other-strategies``.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.typing import RcKeyType

from games.errors import DomainError
from games.figures import svg_figure, svg_text
from games.limits import Deadline, current_deadline
from games.matrices.model import NormalFormGame
from games.numbers import Exact, exact_text

STYLE: Final[dict[RcKeyType, Any]] = {"axes.titlesize": 11, "legend.fontsize": 9}
"""This module's settings on top of :data:`games.figures.BASE_STYLE`."""

_COLOURS: Final = (
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
_EQUILIBRIUM_COLOUR: Final = "#d62728"
_MAX_LABEL: Final = 30
"""Longest strategy name shown; longer names are cut with an ellipsis."""
_MAX_NUMBER_TEXT: Final = 12
"""Longest exact number shown; a longer one is shown as its 4-digit approximation."""
_MAX_MARKS_LISTED: Final = 6
"""Most equilibrium mixes named one by one in the legend of an envelope plot."""


Profile = tuple[Sequence[Exact | float], Sequence[Exact | float]]
Segment = tuple[tuple[float, float], tuple[float, float]]


def matrix_plot_svg(game: NormalFormGame, equilibria: Sequence[Profile] = ()) -> str:
    """The best-response diagram of a 2x2 general-sum game, else the envelope plot.

    Raises
    ------
    DomainError
        Unless the game has two players and one of them has exactly two strategies.
    TimeLimitError
        When the request's deadline passes.
    """
    if game.is_bimatrix and game.shape == (2, 2) and not game.is_zero_sum():
        return best_response_svg(game, equilibria)
    mixer = 0 if game.is_bimatrix and game.shape[0] == 2 else 1
    return envelope_svg(game, [profile[mixer][0] for profile in equilibria])


def best_response_svg(game: NormalFormGame, equilibria: Sequence[Profile] = ()) -> str:
    """Both best-response correspondences of a 2x2 game in the (p, q) square."""
    clock = current_deadline()
    first, second = game.row_payoffs, game.col_payoffs
    # Row player's advantage of the first row, as a function of q: d(q) = a q + b (1 - q).
    row_steps = _staircase(Fraction(first[0, 0] - first[1, 0]), Fraction(first[0, 1] - first[1, 1]))
    col_steps = _staircase(
        Fraction(second[0, 0] - second[0, 1]), Fraction(second[1, 0] - second[1, 1])
    )
    rows, cols = (tuple(_label(name) for name in names) for names in game.labels)
    # the row player's response p is drawn across, against the column player's q (up)
    row_segments = [
        ((float(r0), float(t0)), (float(r1), float(t1))) for (t0, r0), (t1, r1) in row_steps
    ]
    col_segments = [
        ((float(t0), float(r0)), (float(t1), float(r1))) for (t0, r0), (t1, r1) in col_steps
    ]
    clock.check()
    with svg_figure(6.4, 4.4, STYLE) as figure:
        axes = figure.add_subplot()
        handles: list[Artist] = [
            _segments(axes, row_segments, _COLOURS[0], 6, 0.45, "row-best-response"),
            _segments(axes, col_segments, _COLOURS[1], 2.5, 1.0, "column-best-response"),
        ]
        labels = ["row player's best response p(q)", "column player's best response q(p)"]
        for index, (row, col) in enumerate(equilibria):
            dot = _dot(axes, float(row[0]), float(col[0]), f"equilibrium-{index}")
            _annotate(axes, float(row[0]), float(col[0]), f"({_number(row[0])}, {_number(col[0])})")
            if index == 0:
                handles.append(dot)
                labels.append("Nash equilibrium (p, q)")
        # ticks at the exact points that matter: where the other player is indifferent
        # and where the equilibria are
        axes.set_xticks(*_ticks([t for (t, _), _ in col_steps] + [row[0] for row, _ in equilibria]))
        axes.set_yticks(*_ticks([t for (t, _), _ in row_steps] + [col[0] for _, col in equilibria]))
        axes.set_xlim(-0.04, 1.04)
        axes.set_ylim(-0.04, 1.04)
        axes.set_aspect("equal")
        axes.set_xlabel(f"p = P(row player plays {rows[0]})")
        axes.set_ylabel(f"q = P(column player plays {cols[0]})")
        axes.set_title("Best-response diagram")
        _legend(axes, handles, labels)
        return svg_text(figure, tight=True)


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
        lines.append((_label(game.labels[opponent][k]), Fraction(first), Fraction(second)))
    lower = zero_sum and mixer == 0
    clock = current_deadline()
    envelope = _envelope(lines, lower, clock)
    players = ("row player", "column player")
    mix = _label(game.labels[mixer][0])
    who = f"{players[shown]}'s payoff"
    plot = EnvelopePlot(
        lines=lines,
        envelope=envelope,
        lower=lower,
        title=f"{'Lower' if lower else 'Upper'} envelope of the {who} against P({mix})",
        axis=f"t = P({players[mixer]} plays {mix})",
        value_axis=who,
        mark_name="optimal mix" if zero_sum else "equilibrium mix",
    )
    return _draw(plot, marks, clock)


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


@dataclass(frozen=True, slots=True)
class EnvelopePlot:
    """What an envelope plot shows: the exact lines and corners, and its words."""

    lines: list[tuple[str, Fraction, Fraction]]
    envelope: list[tuple[Fraction, Fraction]]
    lower: bool
    title: str
    axis: str
    value_axis: str
    mark_name: str

    def on_envelope(self) -> list[int]:
        """Indices of the lines that form a piece of the envelope, left to right."""
        by_line: dict[tuple[Fraction, Fraction], list[int]] = {}
        for index, (_, at_one, at_zero) in enumerate(self.lines):
            by_line.setdefault((at_one - at_zero, at_zero), []).append(index)
        found: list[int] = []
        for (t0, v0), (t1, v1) in zip(self.envelope, self.envelope[1:], strict=False):
            slope = (v1 - v0) / (t1 - t0)
            for index in by_line.get((slope, v0 - slope * t0), []):
                if index not in found:
                    found.append(index)
        return found

    def height(self, t: Exact | float) -> Exact | float:
        """The envelope at ``t`` (exact for an exact ``t``)."""
        pick = min if self.lower else max
        if isinstance(t, float):
            return pick(float(u2) + float(u1 - u2) * t for _, u1, u2 in self.lines)
        return pick(u2 + (u1 - u2) * t for _, u1, u2 in self.lines)


def _draw(plot: EnvelopePlot, marks: Sequence[Exact | float], clock: Deadline) -> str:
    lines = plot.lines
    clock.spend(len(lines))
    # every line gets a colour and a legend entry when there are few; otherwise only the
    # lines of the envelope (the ones a player ever uses), the rest drawn in grey
    coloured = list(range(len(lines))) if len(lines) <= len(_COLOURS) else plot.on_envelope()
    coloured = coloured[: len(_COLOURS)]
    grey = sorted(set(range(len(lines))) - set(coloured))
    handles: list[Artist] = []
    labels: list[str] = []
    with svg_figure(7.2, 4.4, STYLE) as figure:
        axes = figure.add_subplot()
        if grey:
            # one path for all of them (NaN breaks it between lines): thousands of lines
            # cost one SVG element, not one each
            xs = [x for _ in grey for x in (0.0, 1.0, math.nan)]
            ys = [y for k in grey for y in (float(lines[k][2]), float(lines[k][1]), math.nan)]
            (others,) = axes.plot(xs, ys, color="#b0b0b0", lw=1)
            others.set_gid("other-strategies")
            handles.append(others)
            labels.append(f"other strategies ({len(grey)})")
        for colour, index in zip(_COLOURS, coloured, strict=False):
            name, at_one, at_zero = lines[index]
            (line,) = axes.plot([0, 1], [float(at_zero), float(at_one)], color=colour, lw=1.6)
            line.set_gid(f"strategy-{index}")
            handles.append(line)
            labels.append(name)
        ts = [float(t) for t, _ in plot.envelope]
        (envelope,) = axes.plot(
            ts, [float(v) for _, v in plot.envelope], color="black", lw=5, alpha=0.3
        )
        envelope.set_gid("envelope")
        envelope.set_solid_capstyle("round")
        handles.append(envelope)
        labels.append(f"{'lower' if plot.lower else 'upper'} envelope")
        distinct = sorted(set(marks))
        for index, t in enumerate(distinct):
            height = plot.height(t)
            axes.axvline(float(t), color=_EQUILIBRIUM_COLOUR, lw=1, ls="--")
            dot = _dot(axes, float(t), float(height), f"equilibrium-{index}")
            if len(distinct) <= _MAX_MARKS_LISTED:  # more would overlap: the legend counts them
                _annotate(axes, float(t), None, f"t = {_number(t)}")
                handles.append(dot)
                labels.append(f"{plot.mark_name} t = {_number(t)}, payoff {_number(height)}")
            elif index == 0:
                handles.append(dot)
                labels.append(f"{plot.mark_name}s ({len(distinct)})")
        axes.set_xlim(-0.02, 1.02)
        axes.set_xlabel(plot.axis)
        axes.set_ylabel(plot.value_axis)
        axes.set_title(plot.title)
        axes.grid(True, color="#e6e6e6", lw=0.8)
        axes.set_axisbelow(True)
        _legend(axes, handles, labels)
        return svg_text(figure, tight=True)


# -- drawing ---------------------------------------------------------------------------


def _segments(
    axes: Axes, segments: list[Segment], colour: str, width: float, alpha: float, gid: str
) -> LineCollection:
    collection = LineCollection(
        segments, colors=colour, linewidths=width, alpha=alpha, capstyle="round"
    )
    collection.set_gid(gid)
    axes.add_collection(collection)
    return collection


def _dot(axes: Axes, x: float, y: float, gid: str) -> Line2D:
    (dot,) = axes.plot(
        [x], [y], "o", color=_EQUILIBRIUM_COLOUR, markersize=8, markeredgecolor="white", zorder=5
    )
    dot.set_gid(gid)
    return dot


def _annotate(axes: Axes, x: float, y: float | None, text: str) -> None:
    """``text`` beside the point ``(x, y)`` (at the top when ``y`` is None), inside the axes."""
    right = x > 0.5
    if y is None:
        axes.annotate(
            text,
            (x, 1),
            xycoords=("data", "axes fraction"),
            xytext=(-4 if right else 4, -4),
            textcoords="offset points",
            ha="right" if right else "left",
            va="top",
            color=_EQUILIBRIUM_COLOUR,
        )
        return
    high = y > 0.5
    axes.annotate(
        text,
        (x, y),
        xytext=(-8 if right else 8, -8 if high else 8),
        textcoords="offset points",
        ha="right" if right else "left",
        va="top" if high else "bottom",
        color=_EQUILIBRIUM_COLOUR,
    )


def _legend(axes: Axes, handles: list[Artist], labels: list[str]) -> None:
    """The legend to the right of the axes (the saved picture's box includes it)."""
    axes.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)


def _ticks(points: Sequence[Exact | float]) -> tuple[list[float], list[str]]:
    """Tick positions and labels on [0, 1]: ``points`` exactly, then 0, 1/2 and 1 where
    they do not crowd them."""
    chosen: dict[float, str] = {}
    for point in [*points, Fraction(0), Fraction(1, 2), Fraction(1)]:
        at = float(point)
        if 0 <= at <= 1 and all(abs(at - other) >= 0.06 for other in chosen):
            chosen[at] = _number(point)
    ordered = sorted(chosen)
    return ordered, [chosen[at] for at in ordered]


def _number(value: Exact | float) -> str:
    """A number as shown on a picture: exact (``2/3``) when short, else 4 digits."""
    if not isinstance(value, float):
        text = exact_text(value)
        if text is not None and len(text) <= _MAX_NUMBER_TEXT:
            return text
    return f"{float(value):.4g}"


def _label(name: str) -> str:
    """A strategy name as drawn: control characters and lone surrogates (which no font
    measures and XML cannot hold) replaced, cut to :data:`_MAX_LABEL` characters."""
    shown = "".join(
        " " if c in "\t\n\r" else "\N{REPLACEMENT CHARACTER}" if _unprintable(c) else c
        for c in name
    )
    return shown if len(shown) <= _MAX_LABEL else shown[: _MAX_LABEL - 1] + "…"


def _unprintable(character: str) -> bool:
    return unicodedata.category(character) in ("Cc", "Cs")
