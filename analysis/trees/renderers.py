"""Every drawing format of a solved tree and the function that writes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from analysis.trees.dot_drawing import render_dot
from analysis.trees.drawing import DrawingOptions, SolvedTree
from analysis.trees.svg_drawing import render_svg
from analysis.trees.tikz_drawing import render_tikz

RENDERERS: Final[dict[str, Callable[[SolvedTree, DrawingOptions], str]]] = {
    "svg": render_svg,
    "dot": render_dot,
    "tikz": render_tikz,
}
"""Each drawing format and the function that writes it (the API and ``arbiter render``)."""
