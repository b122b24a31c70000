"""The convergence of CFR runs as an SVG plot: exploitability (or NashConv) of the average
strategy against iterations, on a logarithmic scale.

Drawn through :mod:`games.figures` (matplotlib's object API, deterministic SVG text, the
shared drawing lock). One line per run, each with the id ``curve-<k>`` (``k`` in the order
given); points where the value is exactly 0 cannot be shown on a log scale and are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from matplotlib.ticker import FuncFormatter, NullFormatter
from matplotlib.typing import RcKeyType

from analysis.extensive.cfr import CFRSolution
from games.figures import svg_figure, svg_text
from games.limits import current_deadline

STYLE: Final[dict[RcKeyType, Any]] = {"axes.titlesize": 11, "legend.fontsize": 9}
_NAMES: Final = {"cfr": "CFR", "cfr_plus": "CFR+"}
_WHY: Final = {"iterations": "", "target": " (target reached)", "time_limit": " (time limit)"}
_COLOURS: Final = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd")


def convergence_svg(runs: Sequence[CFRSolution], title: str = "") -> str:
    """The runs' curves in one plot: exploitability when every run has it (two-player
    constant-sum games), else NashConv, on a log scale against iterations."""
    exploitable = all(run.exploitability is not None for run in runs)
    measure = "exploitability" if exploitable else "NashConv"
    current_deadline().spend(sum(len(run.curve) for run in runs))
    with svg_figure(6.4, 4.2, STYLE) as figure:
        axes = figure.add_subplot()
        axes.set_yscale("log")
        # plain tick labels ("0.001"): the figures never parse mathtext, which matplotlib's
        # own log labels are written in
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        axes.yaxis.set_minor_formatter(NullFormatter())
        for index, run in enumerate(runs):
            shown = [(t, v / 2 if exploitable else v) for t, v in run.curve if v > 0]
            (line,) = axes.plot(
                [t for t, _ in shown],
                [v for _, v in shown],
                color=_COLOURS[index % len(_COLOURS)],
                lw=1.6,
                label=f"{_NAMES[run.method]}: {run.iterations} iterations{_WHY[run.stopped]}",
            )
            line.set_gid(f"curve-{index}")
        axes.set_xlabel("iterations")
        axes.set_ylabel(f"{measure} of the average strategy")
        axes.set_title(title or f"{measure.capitalize()} per iteration")
        axes.grid(True, which="both", color="#e6e6e6", lw=0.8)
        axes.set_axisbelow(True)
        if runs:
            axes.legend(loc="upper right")
        return svg_text(figure, tight=True)
