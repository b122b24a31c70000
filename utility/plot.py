"""SVG pictures of a lottery: the utility curve with the chord, EMV, CE and risk premium;
the cumulative risk profile.

Drawn with matplotlib's SVG backend through an explicit ``Figure`` and ``FigureCanvasSVG``,
never pyplot (its global figure registry is not for servers). The output is deterministic,
byte-identical for the same request: ids come from a fixed ``svg.hashsalt`` and the date is
left out. Text stays text (``svg.fonttype: none``), escaped by matplotlib, and mathtext is
off (``text.parse_math``), so a formula is printed as written, never interpreted.

Each mark a reader looks for is a group with a stable id (``ce-point``, ``emv-eu-point``,
``ce-line``, ``emv-line``, ``risk-premium``, ``chord``, ``utility-curve``, ``outcomes``,
``risk-profile``), so a page or a test can find it; no page element uses these ids.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from games.figures import svg_figure, svg_text
from games.limits import current_deadline
from games.numbers import Exact, exact_text, to_float
from utility.evaluate import Evaluation
from utility.function import UtilityFunction
from utility.lottery import Lottery

if TYPE_CHECKING:  # matplotlib itself loads when the first figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

SAMPLES: Final = 200
"""Points at which the utility curve is sampled between the extreme outcomes."""
MARKED_OUTCOMES: Final = 200
"""Largest lottery whose every outcome gets a marker; larger ones mark the extremes only."""
SIZE: Final = (7.2, 5.0)
"""Figure size in inches (518 x 360 pt)."""
TITLE_WIDTH: Final = 70
"""Characters per title line; a long formula wraps onto at most two more lines."""
EXACT_IN_LABEL: Final = 24
"""Longest exact form shown in a label next to its decimal value."""
LEGEND_LINE: Final = 80
"""Characters of legend text that fit across the figure (9 pt text, handles and padding)."""
STYLE: Final[dict[RcKeyType, Any]] = {
    "axes.grid": True,
    "grid.color": "#e4e4e4",
    "axes.spines.top": False,
    "axes.spines.right": False,
}
"""This module's settings on top of :data:`games.figures.BASE_STYLE`."""
GREEN, RED, BLUE, GREY = "#2ca02c", "#d62728", "#1f77b4", "#888888"


@contextmanager
def _figure() -> Iterator[tuple[Figure, Axes]]:
    with svg_figure(*SIZE, style=STYLE, layout="constrained") as figure:
        yield figure, figure.add_subplot()


def _finish(figure: Figure, axes: Axes, title: str, x_label: str, y_label: str) -> None:
    axes.set_title(title)
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    # outside the axes, below them: the layout engine makes room, so it never covers the
    # curve; two columns only while their longest lines fit side by side in the width
    _, labels = axes.get_legend_handles_labels()
    half = (len(labels) + 1) // 2  # matplotlib fills the first column first
    side_by_side = _longest_line(labels[:half]) + _longest_line(labels[half:])
    columns = 2 if side_by_side <= LEGEND_LINE else 1
    figure.legend(loc="outside lower center", ncols=columns, fontsize=9)


def _longest_line(labels: list[str]) -> int:
    return max((len(line) for label in labels for line in label.split("\n")), default=0)


def _pair(name: str, first: str, second: str) -> str:
    """``name = (first, second)``, on two lines when one would be too wide for the figure."""
    text = f"{name} = ({first}, {second})"
    return text if len(text) <= LEGEND_LINE // 2 else f"{name} = ({first},\n{second})"


def _amount(approx: float, exact: str | None) -> str:
    """A value for a label: its exact form too when short and not just the decimal."""
    shown = f"{approx:.5g}"
    if exact is None or exact == shown or len(exact) > EXACT_IN_LABEL:
        return shown
    return f"{exact} ≈ {shown}"


def _title(text: str) -> str:
    return "\n".join(textwrap.wrap(text, TITLE_WIDTH, max_lines=3, placeholder=" ..."))


def utility_curve_svg(
    lottery: Lottery, utility: UtilityFunction, result: Evaluation, wealth: Exact = 0
) -> str:
    """``U(w + x)`` over the outcomes, the chord between the extreme outcomes, EMV, CE, premium."""
    current_deadline().spend(20 * len(lottery))
    outcomes = np.array([to_float(o) for o in lottery.outcomes], dtype=float)
    low, high = float(outcomes[0]), float(outcomes[-1])
    if high == low:
        low, high = low - 1, high + 1
    xs = np.linspace(low, high, SAMPLES)
    shift = float(wealth)
    with np.errstate(all="ignore"):
        ys = utility.numeric(xs + shift)
        at = utility.numeric(outcomes + shift)
    keep = np.isfinite(ys)
    emv, eu, ce = to_float(result.emv), result.expected_utility, result.certainty_equivalent
    if len(outcomes) > MARKED_OUTCOMES:
        marked, marked_label = [0, -1], "lowest and highest outcome"
    else:
        marked, marked_label = list(range(len(outcomes))), "outcomes (x, U(w + x))"
    with _figure() as (figure, axes):
        axes.plot(
            xs[keep], ys[keep], color=BLUE, linewidth=2, label="U(w + x)", gid="utility-curve"
        )
        axes.plot(
            outcomes[marked],
            at[marked],
            "o",
            color="#444444",
            markersize=5,
            label=marked_label,
            gid="outcomes",
        )
        axes.plot(outcomes[[0, -1]], at[[0, -1]], "--", color=GREY, label="chord", gid="chord")
        premium = _amount(result.risk_premium, result.risk_premium_exact)
        eu_text = _amount(eu, result.expected_utility_exact)
        bottom = axes.get_ylim()[0]  # the marks drop to the axis as it is autoscaled to the curve
        axes.plot([emv, emv], [bottom, eu], ":", color=GREEN, gid="emv-line")
        axes.plot([ce, ce], [bottom, eu], ":", color=RED, gid="ce-line")
        axes.plot(
            [ce, emv],
            [eu, eu],
            color=RED,
            linewidth=3,
            solid_capstyle="butt",
            label=f"risk premium EMV - CE = {premium}",
            gid="risk-premium",
        )
        axes.plot(
            [emv],
            [eu],
            "o",
            color=GREEN,
            markersize=7,
            label=_pair("(EMV, EU)", _amount(emv, exact_text(result.emv)), eu_text),
            gid="emv-eu-point",
        )
        axes.plot(
            [ce],
            [eu],
            "D",
            color=RED,
            markersize=7,
            label=f"CE = {_amount(ce, result.certainty_equivalent_exact)}, U(w + CE) = EU",
            gid="ce-point",
        )
        axes.set_ylim(bottom=bottom)
        attitude = result.attitude.replace("_", " ")
        title = f"U(x) = {utility.formula}: {attitude}"
        y_label = "utility U(w + x)" if shift == 0 else f"utility U(w + x), w = {shift:.6g}"
        _finish(figure, axes, _title(title), "money x", y_label)
        return svg_text(figure)


def risk_profile_svg(lottery: Lottery) -> str:
    """The cumulative risk profile ``P(X <= x)``, a step function."""
    current_deadline().spend(20 * len(lottery))
    outcomes = np.array([to_float(o) for o in lottery.outcomes], dtype=float)
    cumulative = np.cumsum([float(p) for p in lottery.probabilities])
    span = float(outcomes[-1] - outcomes[0]) or 1.0
    xs = np.concatenate(([outcomes[0] - 0.05 * span], outcomes, [outcomes[-1] + 0.05 * span]))
    heights = np.concatenate(([0.0], cumulative, [cumulative[-1]]))
    with _figure() as (figure, axes):
        axes.step(
            xs,
            heights,
            where="post",
            color=BLUE,
            linewidth=2,
            label="P(X <= x)",
            gid="risk-profile",
        )
        if len(outcomes) <= MARKED_OUTCOMES:
            axes.plot(
                outcomes,
                cumulative,
                "o",
                color=BLUE,
                markersize=5,
                label="P(X <= x) at each outcome",
                gid="outcomes",
            )
        axes.set_xlim(xs[0], xs[-1])
        axes.set_ylim(0, 1.05)
        _finish(figure, axes, "Cumulative risk profile P(X <= x)", "money x", "probability")
        return svg_text(figure)
