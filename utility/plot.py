"""SVG drawings: a utility curve with the chord, EMV, CE and risk premium; a risk profile.

Plain SVG text built here (no plotting library); every label is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np

from games.limits import current_deadline
from games.numbers import Exact, to_float
from utility.evaluate import Evaluation
from utility.function import UtilityFunction
from utility.lottery import Lottery

WIDTH, HEIGHT, MARGIN = 640, 420, 60
SAMPLES = 200


class _Frame:
    """Maps data coordinates to the SVG canvas."""

    def __init__(self, xs: Sequence[float], ys: Sequence[float]):
        self.x0, self.x1 = min(xs), max(xs)
        self.y0, self.y1 = min(ys), max(ys)
        if self.x1 == self.x0:
            self.x0, self.x1 = self.x0 - 1, self.x1 + 1
        if self.y1 == self.y0:
            self.y0, self.y1 = self.y0 - 1, self.y1 + 1

    def x(self, value: float) -> float:
        return MARGIN + (value - self.x0) / (self.x1 - self.x0) * (WIDTH - 2 * MARGIN)

    def y(self, value: float) -> float:
        return HEIGHT - MARGIN - (value - self.y0) / (self.y1 - self.y0) * (HEIGHT - 2 * MARGIN)


def _document(title: str, body: list[str], frame: _Frame, x_label: str, y_label: str) -> str:
    axes = [
        f'<line x1="{MARGIN}" y1="{HEIGHT - MARGIN}" x2="{WIDTH - MARGIN}" '
        f'y2="{HEIGHT - MARGIN}" stroke="black"/>',
        f'<line x1="{MARGIN}" y1="{MARGIN}" x2="{MARGIN}" y2="{HEIGHT - MARGIN}" stroke="black"/>',
        f'<text x="{WIDTH / 2}" y="{HEIGHT - 15}" text-anchor="middle">{escape(x_label)}</text>',
        f'<text x="15" y="{HEIGHT / 2}" transform="rotate(-90 15 {HEIGHT / 2})" '
        f'text-anchor="middle">{escape(y_label)}</text>',
        f'<text x="{MARGIN}" y="{HEIGHT - MARGIN + 18}" text-anchor="middle">{frame.x0:.4g}</text>',
        f'<text x="{WIDTH - MARGIN}" y="{HEIGHT - MARGIN + 18}" '
        f'text-anchor="middle">{frame.x1:.4g}</text>',
        f'<text x="{MARGIN - 6}" y="{HEIGHT - MARGIN}" text-anchor="end">{frame.y0:.4g}</text>',
        f'<text x="{MARGIN - 6}" y="{MARGIN + 4}" text-anchor="end">{frame.y1:.4g}</text>',
        f'<text x="{WIDTH / 2}" y="25" text-anchor="middle" font-weight="bold">'
        f"{escape(title)}</text>",
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">'
        f"<title>{escape(title)}</title>" + "".join(axes + body) + "</svg>"
    )


def utility_curve_svg(
    lottery: Lottery, utility: UtilityFunction, result: Evaluation, wealth: Exact = 0
) -> str:
    """``U(w + x)`` over the outcomes, the chord between the extreme outcomes, EMV, CE, premium."""
    current_deadline().spend(20 * len(lottery))
    outcomes = [to_float(o) for o in lottery.outcomes]
    low, high = outcomes[0], outcomes[-1]
    if high == low:
        low, high = low - 1, high + 1
    xs = np.linspace(low, high, SAMPLES)
    with np.errstate(all="ignore"):
        ys = utility.numeric(xs + float(wealth))
        at = utility.numeric(np.array(outcomes) + float(wealth))
    keep = np.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    frame = _Frame(list(xs), [*ys, *at])
    curve = " ".join(f"{frame.x(a):.2f},{frame.y(b):.2f}" for a, b in zip(xs, ys, strict=True))
    emv, eu, ce = float(result.emv), result.expected_utility, result.certainty_equivalent
    body = [f'<polyline points="{curve}" fill="none" stroke="#1f77b4" stroke-width="2"/>']
    body.append(
        f'<line x1="{frame.x(outcomes[0]):.2f}" y1="{frame.y(at[0]):.2f}" '
        f'x2="{frame.x(outcomes[-1]):.2f}" y2="{frame.y(at[-1]):.2f}" stroke="#888" '
        'stroke-dasharray="5,4"><title>chord</title></line>'
    )
    for x, u in zip(outcomes, at, strict=True):
        body.append(f'<circle cx="{frame.x(x):.2f}" cy="{frame.y(u):.2f}" r="3" fill="#444"/>')
    body.append(
        f'<line x1="{frame.x(ce):.2f}" y1="{frame.y(eu):.2f}" x2="{frame.x(emv):.2f}" '
        f'y2="{frame.y(eu):.2f}" stroke="#d62728" stroke-width="3">'
        f"<title>risk premium {result.risk_premium:.6g}</title></line>"
    )
    for label, x, colour in (("EMV", emv, "#2ca02c"), ("CE", ce, "#d62728")):
        body.append(
            f'<line x1="{frame.x(x):.2f}" y1="{HEIGHT - MARGIN}" x2="{frame.x(x):.2f}" '
            f'y2="{frame.y(eu):.2f}" stroke="{colour}" stroke-dasharray="3,3"/>'
        )
        body.append(
            f'<text x="{frame.x(x):.2f}" y="{HEIGHT - MARGIN - 6}" fill="{colour}" '
            f'text-anchor="middle">{label} {x:.5g}</text>'
        )
    body.append(
        f'<circle cx="{frame.x(emv):.2f}" cy="{frame.y(eu):.2f}" r="4" fill="#2ca02c">'
        f"<title>(EMV, EU)</title></circle>"
    )
    title = (
        f"U(x) = {utility.formula}: EMV {emv:.5g}, CE {ce:.5g}, "
        f"risk premium {result.risk_premium:.5g}"
    )
    return _document(title, body, frame, "money x", "utility U(w + x)")


def risk_profile_svg(lottery: Lottery) -> str:
    """The cumulative risk profile ``P(X <= x)``, a step function."""
    current_deadline().spend(20 * len(lottery))
    outcomes = [to_float(o) for o in lottery.outcomes]
    span = (outcomes[-1] - outcomes[0]) or 1.0
    frame = _Frame([outcomes[0] - 0.05 * span, outcomes[-1] + 0.05 * span], [0.0, 1.0])
    points = [(frame.x0, 0.0)]
    total = 0.0
    for x, p in zip(outcomes, lottery.probabilities, strict=True):
        points.append((x, total))
        total += float(p)
        points.append((x, total))
    points.append((frame.x1, total))
    steps = " ".join(f"{frame.x(a):.2f},{frame.y(b):.2f}" for a, b in points)
    body = [f'<polyline points="{steps}" fill="none" stroke="#1f77b4" stroke-width="2"/>']
    return _document("Cumulative risk profile P(X <= x)", body, frame, "money x", "probability")
