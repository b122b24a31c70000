"""The one way a plot is drawn: a matplotlib figure written as deterministic SVG.

Plots (the best-response diagram, the utility curve) are drawn through matplotlib's
object API, an explicit :class:`~matplotlib.figure.Figure` with its SVG canvas, never
pyplot, whose global figure registry is not for servers. matplotlib's settings
(``rcParams``) are one dictionary per process, read while drawing *and* saving, so
every figure is drawn and saved under one lock that all plotters share: two request
threads drawing at once would otherwise restore each other's settings halfway through.

Inside the lock the settings start from matplotlib's defaults (not whatever the process
set), then :data:`BASE_STYLE`, then the plot's own: the same request gives the same bytes.
"""

from __future__ import annotations

import io
import threading
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Literal
from xml.dom import minidom

from games.limits import current_deadline

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

BASE_STYLE: Final[dict[RcKeyType, Any]] = {
    "svg.fonttype": "none",  # text as <text>: small, searchable, escaped by matplotlib
    "svg.hashsalt": "arbiter",  # clip-path and marker ids from a fixed salt: same bytes
    "text.parse_math": False,  # a name like "$5" or a formula is text, never mathtext
    "text.usetex": False,
    "font.family": "sans-serif",
    # the font matplotlib ships and measures with first, then the reader's look-alikes
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    "font.size": 10,
}
"""Settings every plot is drawn under."""

_DRAWING = threading.Lock()


def load_matplotlib() -> None:
    """Import what drawing needs (about 1 s) now, before a request's deadline runs: the app
    calls it as it is created. Without it the first figure drawn imports it."""
    import matplotlib.backends.backend_svg  # noqa: F401
    import matplotlib.figure  # noqa: F401


@contextmanager
def svg_figure(
    width: float,
    height: float,
    style: Mapping[RcKeyType, Any] | None = None,
    layout: Literal["constrained", "compressed", "tight"] | None = None,
) -> Iterator[Figure]:
    """A ``width`` x ``height`` inch figure with its SVG canvas, under the shared lock.

    Draw on it and call :func:`svg_text` inside the ``with`` block (saving reads the
    settings too). matplotlib is imported here, not where this module is: a command that
    can draw but does not (a grader's run) does not spend a second importing it.
    """
    import matplotlib as mpl
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    with _DRAWING, mpl.rc_context(), warnings.catch_warnings():
        mpl.rcdefaults()
        mpl.rcParams.update(BASE_STYLE)
        mpl.rcParams.update(style or {})
        # text is written as text: the reader's fonts show a name DejaVu Sans lacks (CJK),
        # so matplotlib's warning about measuring it with a stand-in glyph does not apply
        warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
        figure = Figure(figsize=(width, height), layout=layout)
        FigureCanvasSVG(figure)
        yield figure


def svg_text(figure: Figure, tight: bool = False) -> str:
    """The figure as an SVG document without the XML prolog (it may be embedded in JSON),
    its CSS written as presentation attributes (a page may forbid inline style).

    ``tight`` trims the page to what is drawn (a second layout pass: legends placed
    outside the axes are kept whole).
    """
    current_deadline().check()
    out = io.StringIO()
    figure.savefig(
        out, format="svg", metadata={"Date": None}, bbox_inches="tight" if tight else None
    )
    text: str = out.getvalue()
    return _presentation_attributes(text[text.index("<svg") :])


def _presentation_attributes(svg: str) -> str:
    """The SVG with matplotlib's CSS written as presentation attributes: each
    ``style="name: value; ..."`` as ``name="value" ...``, and its one style sheet,
    ``*{stroke-linejoin: round; stroke-linecap: butt}``, as attributes of the root (both
    properties are inherited). A page that allows no inline style (the app's
    Content-Security-Policy) then draws the figure as matplotlib meant, inside the page or
    opened on its own."""
    root = minidom.parseString(svg).documentElement
    assert root is not None
    for sheet in root.getElementsByTagName("style"):
        text = "".join(node.data for node in sheet.childNodes if isinstance(node, minidom.Text))
        selector, _, rule = text.partition("{")
        holder = sheet.parentNode
        if selector.strip() != "*" or not isinstance(holder, minidom.Element):
            continue  # not matplotlib's sheet: left to the page's policy
        _set_declarations(root, rule.rstrip().removesuffix("}"))
        holder.removeChild(sheet)
    for element in root.getElementsByTagName("*"):
        if element.hasAttribute("style"):
            declarations = element.getAttribute("style")
            element.removeAttribute("style")
            _set_declarations(element, declarations)
    return root.toxml()


def _set_declarations(element: minidom.Element, declarations: str) -> None:
    """Set each ``name: value`` of the CSS ``declarations`` as an attribute of ``element``."""
    for declaration in declarations.split(";"):
        name, _, value = declaration.partition(":")
        if name.strip():
            element.setAttribute(name.strip(), value.strip())
