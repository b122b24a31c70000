"""Draw a solved game tree: Graphviz DOT text, and SVG laid out in pure Python.

The drawing takes a :class:`SolvedTree`, a neutral summary that any search
can produce (a label per node, the principal variation, the pruned subtrees),
so it does not depend on which algorithm solved the tree.

Layout (for SVG): the leaves take equally spaced slots left to right, every
parent sits centred over its first and last child, and each depth is one
row. Children are numbered after their parents, so one backwards pass over
the node indices places every node (no recursion).

Shapes follow the textbook convention: MAX is a triangle pointing up, MIN a
triangle pointing down, chance a circle, a leaf a square, a max^n node a
rounded box naming its player. The principal variation is drawn in red and
thick; pruned subtrees are grey and dashed. Elements carry the classes
``node``, ``edge``, ``pv`` and ``pruned`` and a ``data-id`` attribute, so
tools and tests can find them.

Labels write numbers through :func:`games.numbers.exact_text`, and every pass over
the nodes spends on the deadline of the computation in progress.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from analysis.trees.alpha_beta import AlphaBetaResult
from analysis.trees.max_n import MaxnResult
from analysis.trees.solve import TreeSolution
from games.errors import LimitExceededError
from games.limits import current_deadline
from games.numbers import Exact, exact_text
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree, Utility

MAX_SVG_NODES: Final = 2_000
"""Largest tree drawn as SVG: beyond it a drawing is unreadable on a slide."""

MAX_DOT_NODES: Final = 20_000
"""Largest tree written as DOT."""

PV_COLOUR: Final = "#d62728"
PRUNED_COLOUR: Final = "#a0a0a0"
PRUNED_FILL: Final = "#eeeeee"
_LEVEL: Final = 90
_MARGIN: Final = 40
_SIZE: Final = 18


@dataclass(frozen=True, slots=True)
class SolvedTree:
    """What a drawing shows of a solved tree.

    Attributes
    ----------
    labels
        Text shown on each node (its value), ``None`` for none.
    principal
        Indices of the nodes on the principal variation, the root included.
    pruned
        Roots of subtrees the search never visited; drawn greyed out with
        everything below them.
    title
        Caption drawn above the tree; may be empty.
    solved
        Whether a search ran (an unsolved tree has no node states).
    """

    tree: Tree
    labels: list[str | None]
    principal: frozenset[int]
    pruned: frozenset[int]
    title: str = ""
    solved: bool = True


def value_label(value: Utility | None, bound: str | None = None) -> str | None:
    """Exact text of a value: ``7/2``, ``(1, 0, 2)``; ``≥ 5``/``≤ 3`` for a bound."""
    if value is None:
        return None
    if isinstance(value, tuple):
        text = "(" + ", ".join(map(_exact, value)) + ")"
    else:
        text = _exact(value)
    if bound == "lower":
        return f"≥ {text}"
    if bound == "upper":
        return f"≤ {text}"
    return text


MAX_LABEL: Final = 60
"""Longest exact number shown on a drawing; longer ones are shown rounded."""


def _exact(value: Exact) -> str:
    """The exact text of ``value`` when short enough to read, else ``≈`` its double."""
    # 3 bits per digit: numbers under this many bits have at most MAX_LABEL digits in all
    if value.numerator.bit_length() + value.denominator.bit_length() <= 3 * MAX_LABEL:
        text = exact_text(value)
        if text is not None:
            return text
    try:
        return f"≈ {float(value):.6g}"
    except OverflowError:
        return "≈ ∞" if value > 0 else "≈ -∞"


def solved_tree(
    tree: Tree,
    values: Sequence[Utility | None],
    principal_variation: Iterable[int],
    *,
    pruned: Iterable[int] = (),
    bounds: Sequence[str | None] | None = None,
    title: str = "",
) -> SolvedTree:
    """Summarise any search result for drawing.

    Parameters
    ----------
    values
        Value per node index (``None`` where the search gave none).
    principal_variation
        Node indices below the root, as the searches report it.
    bounds
        Per node ``"exact"``, ``"lower"`` or ``"upper"`` (alpha-beta), if any.
    """
    spend = current_deadline().spend

    def label(index: int, value: Utility | None) -> str | None:
        spend(1 + tree.utility_size)
        if value is None:
            return value_label(tree.values[index])  # a leaf the search skipped keeps its value
        return value_label(value, None if bounds is None else bounds[index])

    labels = list(map(label, range(len(values)), values))
    return SolvedTree(tree, labels, frozenset([0, *principal_variation]), frozenset(pruned), title)


def solution_drawing(solution: TreeSolution, title: str = "") -> SolvedTree:
    """What a drawing shows of any solved tree: values (bounds after pruning), the
    principal variation, and the subtrees a pruning search skipped."""
    search = solution.search
    pruned: Iterable[int] = ()
    bounds = None
    if isinstance(search, AlphaBetaResult):
        pruned, bounds = search.pruned, search.bounds
    elif isinstance(search, MaxnResult):
        pruned = search.pruned
    return solved_tree(
        solution.tree,
        search.values,
        search.principal_variation,
        pruned=pruned,
        bounds=bounds,
        title=title,
    )


def unsolved_tree(tree: Tree, title: str = "") -> SolvedTree:
    """The tree as posted: leaf values (and evals) as labels, nothing highlighted."""
    spend = current_deadline().spend

    def label(value: Utility | None, static: Utility | None) -> str | None:
        spend(1 + tree.utility_size)
        return value_label(value if value is not None else static)

    labels = list(map(label, tree.values, tree.evals))
    return SolvedTree(tree, labels, frozenset(), frozenset(), title, solved=False)


def greyed(solved: SolvedTree) -> set[int]:
    """Every node inside a pruned subtree."""
    inside: set[int] = set()
    for top in solved.pruned:
        if top not in inside:
            inside.update(solved.tree.preorder(top))
    return inside


def check_drawable(tree: Tree, drawing: str) -> None:
    """Refuse a tree too large for an ``"svg"``, ``"dot"`` or ``"tikz"`` drawing before
    solving it.

    :raises LimitExceededError: the tree has more nodes than that drawing is offered for.
    """
    if drawing == "dot":
        _check_size(tree, MAX_DOT_NODES, "DOT output")
    elif drawing == "tikz":
        _check_size(tree, MAX_TIKZ_NODES, "a TikZ drawing")
    else:
        _check_size(tree, MAX_SVG_NODES, "an SVG drawing")


def _check_size(tree: Tree, limit: int, what: str) -> None:
    if len(tree) > limit:
        raise LimitExceededError(
            f"{what} is offered for trees of up to {limit} nodes; this one has {len(tree)}",
            "/tree",
        )


def _edge_label(tree: Tree, child: int) -> str:
    parts: list[str] = []
    move = tree.moves[child]
    if move is not None:
        parts.append(move)
    parent = tree.parents[child]
    chance = tree.probabilities[child]
    if parent >= 0 and tree.kinds[parent] == CHANCE and chance is not None:
        parts.append(f"p={_exact(chance)}")
    return " ".join(parts)


# -- DOT ----------------------------------------------------------------------

_DOT_SHAPES: Final = {
    MAX: "triangle",
    MIN: "invtriangle",
    CHANCE: "circle",
    LEAF: "box",
    PLAYER: "box",
}


def _dot_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_dot(solved: SolvedTree) -> str:
    """Graphviz DOT text of the tree (``dot -Tsvg`` draws it).

    Raises
    ------
    LimitExceededError
        For trees of more than :data:`MAX_DOT_NODES` nodes.
    """
    tree = solved.tree
    _check_size(tree, MAX_DOT_NODES, "DOT output")
    grey = greyed(solved)
    pv = solved.principal
    lines = [
        "digraph tree {",
        "  graph [ordering=out, rankdir=TB, nodesep=0.3, fontname=Helvetica"
        + (f", label={_dot_text(solved.title)}, labelloc=t" if solved.title else "")
        + "];",
        "  node [fontname=Helvetica, fontsize=11, style=filled, fillcolor=white];",
        "  edge [fontname=Helvetica, fontsize=9, arrowhead=none];",
    ]
    ids = tree.ids
    spend = current_deadline().spend
    for index, kind in enumerate(tree.kinds):
        label = solved.labels[index] or ""
        spend(4 + len(label) // 64)
        if kind == PLAYER:
            player = tree.players[index]
            label = (f"P{player + 1}" if player is not None else "player") + (
                f"\n{label}" if label else ""
            )
        attributes = [f"shape={_DOT_SHAPES[kind]}", f"label={_dot_text(label)}"]
        attributes.append(f"xlabel={_dot_text(ids[index])}")
        if kind == PLAYER:
            attributes.append('style="filled,rounded"')
        if index in grey:
            attributes += [
                f'color="{PRUNED_COLOUR}"',
                f'fontcolor="{PRUNED_COLOUR}"',
                f'fillcolor="{PRUNED_FILL}"',
                'style="filled,dashed"',
            ]
        elif index in pv:
            attributes += [f'color="{PV_COLOUR}"', "penwidth=2.5"]
        lines.append(f"  {_dot_text(ids[index])} [{', '.join(attributes)}];")
    for child in range(1, len(tree)):
        spend(4)
        parent = tree.parents[child]
        attributes = []
        label = _edge_label(tree, child)
        if label:
            attributes.append(f"label={_dot_text(label)}")
        if child in grey:
            attributes += [
                f'color="{PRUNED_COLOUR}"',
                f'fontcolor="{PRUNED_COLOUR}"',
                "style=dashed",
            ]
        elif child in pv and parent in pv:
            attributes += [f'color="{PV_COLOUR}"', "penwidth=2.5"]
        suffix = f" [{', '.join(attributes)}]" if attributes else ""
        lines.append(f"  {_dot_text(ids[parent])} -> {_dot_text(ids[child])}{suffix};")
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- TikZ ---------------------------------------------------------------------

MAX_TIKZ_NODES: Final = MAX_SVG_NODES
"""Largest tree written as TikZ (a handout figure: LaTeX itself slows down far sooner)."""

_TEX_SPECIALS: Final = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "≈": r"$\approx$",
    "∞": r"$\infty$",
}

_TIKZ_STYLES: Final = (
    r"  every node/.style={font=\small, inner sep=1.5pt},",
    r"  max/.style={draw, regular polygon, regular polygon sides=3, minimum size=9mm,"
    r" fill=white},",
    r"  min/.style={max, shape border rotate=180},",
    r"  chance/.style={draw, circle, minimum size=7mm, fill=white},",
    r"  leaf/.style={draw, rectangle, minimum size=5.5mm, fill=white},",
    r"  player/.style={draw, rectangle, rounded corners, minimum size=6mm, fill=white},",
    r"  id/.style={font=\scriptsize\ttfamily, text=black!60},",
    r"  edge/.style={draw=black!75},",
    r"  edgelabel/.style={font=\scriptsize, fill=white, inner sep=1pt},",
    r"  best/.style={draw=arbiterred, very thick},",
    r"  pruned/.style={draw=black!35, text=black!45, dashed},",
)

_TIKZ_KIND: Final = {MAX: "max", MIN: "min", CHANCE: "chance", LEAF: "leaf", PLAYER: "player"}


def tex_text(text: str) -> str:
    """``text`` safe inside a TikZ node: TeX's special characters escaped, never executed."""
    return "".join(_TEX_SPECIALS.get(character, character) for character in text)


def render_tikz(solved: SolvedTree) -> str:
    r"""A TikZ picture of the solved tree for LaTeX handouts, laid out as the SVG drawing.

    The preamble needs ``\usepackage{tikz}`` and ``\usetikzlibrary{shapes.geometric}``
    (for the triangles); the picture defines its own colour. MAX nodes are triangles
    pointing up, MIN down, chance nodes circles, leaves squares, max^n nodes rounded boxes
    naming their player; the principal variation is red and thick, pruned subtrees grey
    and dashed. Every text from the input (ids, moves, the title) is escaped.

    Raises
    ------
    LimitExceededError
        For trees of more than :data:`MAX_TIKZ_NODES` nodes.
    """
    tree = solved.tree
    _check_size(tree, MAX_TIKZ_NODES, "a TikZ drawing")
    places = layout(tree)
    grey = greyed(solved)
    pv = solved.principal
    spend = current_deadline().spend
    widest = max((len(label) for label in solved.labels if label), default=1)
    step = max(1.0, min(3.0, 0.16 * widest + 0.5))
    lines = [
        r"% Drawn by Arbiter (format tikz). Preamble: \usepackage{tikz}"
        r" \usetikzlibrary{shapes.geometric}",
        r"\definecolor{arbiterred}{HTML}{" + PV_COLOUR.lstrip("#").upper() + "}",
        rf"\begin{{tikzpicture}}[x={step:.2f}cm, y=-1.6cm,",
        *_TIKZ_STYLES,
        "]",
    ]
    if solved.title:
        centre = (places.slots - 1) / 2 if places.slots else 0.0
        title = tex_text(solved.title)
        lines.append(rf"  \node[font=\bfseries] at ({centre:g}, -0.8) {{{title}}};")
    for index, kind in enumerate(tree.kinds):
        label = solved.labels[index] or ""
        spend(4 + len(label) // 32)
        if kind == PLAYER:
            player = tree.players[index]
            mover = f"P{player + 1}" if player is not None else "player"
            label = f"{mover}: {label}" if label else mover
        styles = [_TIKZ_KIND[kind]]
        if index in grey:
            styles.append("pruned")
        elif index in pv:
            styles.append("best")
        identifier = tex_text(tree.ids[index])
        lines.append(
            f"  \\node[{', '.join(styles)}, label={{[id]above right:{identifier}}}] "
            f"(n{index}) at ({places.x[index]:g}, {places.y[index]}) {{{tex_text(label)}}};"
        )
    for child in range(1, len(tree)):
        spend(4)
        parent = tree.parents[child]
        styles = ["edge"]
        if child in grey:
            styles.append("pruned")
        elif child in pv and parent in pv:
            styles.append("best")
        label = _edge_label(tree, child)
        on_edge = f" node[edgelabel, midway] {{{tex_text(label)}}}" if label else ""
        lines.append(f"  \\draw[{', '.join(styles)}] (n{parent}) --{on_edge} (n{child});")
    lines.append(r"\end{tikzpicture}")
    return "\n".join(lines) + "\n"


# -- SVG ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """Node centres in slot units: ``x`` counts leaf slots, ``y`` is the depth."""

    x: list[float]
    y: list[int]
    slots: int


def layout(tree: Tree) -> Layout:
    """Leaves one slot apart left to right; each parent centred over its children."""
    x = [0.0] * len(tree)
    leaves = tree.leaves()
    for slot, leaf in enumerate(leaves):
        x[leaf] = float(slot)
    children = tree.children
    for index in range(len(tree) - 1, -1, -1):
        kids = children[index]
        if kids:
            x[index] = (x[kids[0]] + x[kids[-1]]) / 2
    return Layout(x, list(tree.depths), len(leaves))


def _text_width(text: str, size: float) -> float:
    return len(text) * size * 0.6


def render_svg(solved: SolvedTree) -> str:
    """A standalone SVG drawing of the solved tree.

    Raises
    ------
    LimitExceededError
        For trees of more than :data:`MAX_SVG_NODES` nodes.
    """
    tree = solved.tree
    _check_size(tree, MAX_SVG_NODES, "an SVG drawing")
    places = layout(tree)
    grey = greyed(solved)
    pv = solved.principal
    labels = solved.labels
    widest = max((len(label) for label in labels if label), default=1)
    moves = max((len(_edge_label(tree, i)) for i in range(1, len(tree))), default=0)
    slot = min(220.0, max(56.0, widest * 7.2 + 16, moves * 3.5 + 20))
    top = _MARGIN + (24 if solved.title else 0)
    width = max(places.slots * slot, 120.0) + 2 * _MARGIN
    height = top + tree.max_depth() * _LEVEL + 2 * _MARGIN

    def centre(index: int) -> tuple[float, float]:
        return (
            _MARGIN + slot / 2 + places.x[index] * slot,
            top + _SIZE + places.y[index] * _LEVEL,
        )

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
    ]
    if solved.title:
        out.append(
            f'<text x="{width / 2:.1f}" y="{_MARGIN - 8}" text-anchor="middle" '
            f'font-size="15" font-weight="bold">{escape(solved.title)}</text>'
        )
    spend = current_deadline().spend
    out.append('<g class="edges">')
    for child in range(1, len(tree)):
        spend(8)
        parent = tree.parents[child]
        (x1, y1), (x2, y2) = centre(parent), centre(child)
        classes = ["edge"]
        style = 'stroke="#444444" stroke-width="1.2"'
        if child in grey:
            classes.append("pruned")
            style = f'stroke="{PRUNED_COLOUR}" stroke-width="1.2" stroke-dasharray="5 4"'
        elif child in pv and parent in pv:
            classes.append("pv")
            style = f'stroke="{PV_COLOUR}" stroke-width="3.5"'
        out.append(
            f'<line class="{" ".join(classes)}" data-id={quoteattr(tree.ids[child])} '
            f'x1="{x1:.1f}" y1="{y1 + _SIZE * 0.8:.1f}" x2="{x2:.1f}" y2="{y2 - _SIZE:.1f}" '
            f"{style}/>"
        )
        label = _edge_label(tree, child)
        if label:
            colour = PRUNED_COLOUR if child in grey else "#333333"
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            side = -6 if x2 < x1 else 6 if x2 > x1 else 6
            anchor = "end" if side < 0 else "start"
            out.append(
                f'<text class="edge-label" x="{mx + side:.1f}" y="{my:.1f}" '
                f'text-anchor="{anchor}" font-size="10" fill="{colour}">{escape(label)}</text>'
            )
    out.append("</g>")
    out.append('<g class="nodes">')
    for index, kind in enumerate(tree.kinds):
        spend(16)
        x, y = centre(index)
        classes = ["node", kind]
        stroke, fill, text_colour, stroke_width = "#222222", "white", "#111111", 1.5
        if index in grey:
            classes.append("pruned")
            stroke, fill, text_colour = PRUNED_COLOUR, PRUNED_FILL, PRUNED_COLOUR
        elif index in pv:
            classes.append("pv")
            stroke, stroke_width = PV_COLOUR, 3.0
        label = labels[index] or ""
        paint = f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"'
        # data-node-id and data-state are what the web workbench reads (and tests rely on)
        state = "pruned" if index in grey else "visited best" if index in pv else "visited"
        node_id = quoteattr(tree.ids[index])
        out.append(
            f'<g class="{" ".join(classes)}" data-id={node_id} data-node-id={node_id} '
            f'data-state="{state if solved.solved else ""}">'
        )
        out.append(f"<title>{escape(tree.ids[index])}</title>")
        half = _half_width(kind, _text_width(label, 12))
        out.append(_shape(kind, x, y, half, paint))
        if kind == PLAYER:
            player = tree.players[index]
            name = f"P{player + 1}" if player is not None else "player"
            out.append(
                f'<text x="{x:.1f}" y="{y - _SIZE - 4:.1f}" text-anchor="middle" '
                f'font-size="10" fill="{text_colour}">{escape(name)}</text>'
            )
        if label:
            dy = 8 if kind == MAX else 0 if kind != MIN else -3
            out.append(
                f'<text class="value" x="{x:.1f}" y="{y + 4 + dy:.1f}" text-anchor="middle" '
                f'font-size="12" font-weight="bold" fill="{text_colour}">{escape(label)}</text>'
            )
        # leaves are named below; internal nodes to their right, clear of their edges
        ix, iy, anchor = (
            (x, y + _SIZE + 13, "middle") if kind == LEAF else (x + half + 4, y + 3, "start")
        )
        out.append(
            f'<text class="node-id" x="{ix:.1f}" y="{iy:.1f}" text-anchor="{anchor}" '
            f'font-size="9" fill="#777777">{escape(tree.ids[index])}</text>'
        )
        out.append("</g>")
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _half_width(kind: str, text_width: float) -> float:
    """Half the width of a node's shape, wide enough for its label."""
    if kind in (MAX, MIN):
        return max(_SIZE * 1.2, text_width * 0.9)
    if kind == CHANCE:
        return max(_SIZE, text_width / 2 + 5)
    return max(_SIZE, text_width / 2 + 6)


def _shape(kind: str, x: float, y: float, half: float, paint: str) -> str:
    r = _SIZE
    if kind == MAX:
        points = f"{x:.1f},{y - r:.1f} {x - half:.1f},{y + r:.1f} {x + half:.1f},{y + r:.1f}"
        return f'<polygon points="{points}" {paint}/>'
    if kind == MIN:
        points = f"{x - half:.1f},{y - r:.1f} {x + half:.1f},{y - r:.1f} {x:.1f},{y + r:.1f}"
        return f'<polygon points="{points}" {paint}/>'
    if kind == CHANCE:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{half:.1f}" {paint}/>'
    rounded = ' rx="7"' if kind == PLAYER else ""
    return (
        f'<rect x="{x - half:.1f}" y="{y - r:.1f}" width="{2 * half:.1f}" height="{2 * r:.1f}"'
        f"{rounded} {paint}/>"
    )


RENDERERS: Final[dict[str, Callable[[SolvedTree], str]]] = {
    "svg": render_svg,
    "dot": render_dot,
    "tikz": render_tikz,
}
"""Each drawing format and the function that writes it (the API and ``arbiter render``)."""
