"""A standalone SVG drawing of a solved tree, laid out in pure Python (see
:mod:`analysis.trees.drawing` for the layout and the marks)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from analysis.trees.drawing import (
    LEGEND_TEXT,
    MAX_SVG_NODES,
    PLAIN,
    PRUNED_COLOUR,
    PRUNED_FILL,
    PRUNED_TEXT,
    PV_COLOUR,
    TIE_COLOUR,
    DrawingOptions,
    DrawnTree,
    Layout,
    SolvedTree,
    check_size,
    drawn_tree,
    edge_label,
    greyed,
    layout,
    legend_entries,
    node_names,
    printable,
)
from games.limits import current_deadline
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree

LEVEL: Final = 90
"""Pixels from one row of nodes to the next."""
MARGIN: Final = 40
NODE_SIZE: Final = 18
"""Half the height of a node's shape, in pixels."""
_CHARACTER: Final = 0.62
"""Width of a character in ems, generous for Helvetica (digits are 0.556)."""
_GAP: Final = 6.0
"""Least space between two texts or shapes of neighbouring nodes, in pixels."""
_TOGGLE: Final = 12.0


def _content(text: str) -> str:
    """``text`` as the content of an element: :func:`printable`, so the file stays XML
    whatever the input holds, and escaped."""
    return escape(printable(text))


def _attribute(text: str) -> str:
    """``text`` as a quoted attribute value, :func:`printable` and escaped."""
    return quoteattr(printable(text))


def _text_width(text: str, size: float) -> float:
    return len(text) * size * _CHARACTER


@dataclass(frozen=True, slots=True)
class _Extent:
    """How far a node's drawing (shape and texts) reaches left and right of its centre."""

    half: float
    left: float
    right: float


def _extents(
    solved: SolvedTree, drawn: DrawnTree, name: Callable[[int], str], toggles: bool
) -> dict[int, _Extent]:
    tree = solved.tree
    extents: dict[int, _Extent] = {}
    spend = current_deadline().spend
    for index in drawn.shown:
        spend(8)
        kind = tree.kinds[index]
        text = _text_width(solved.labels[index] or "", 12)
        if kind == PLAYER:
            text = max(text, _text_width(_player_name(tree, index), 9))
        half = _half_width(kind, text)
        left = right = half
        label = name(index)
        if tree.children[index]:
            if label:
                right = half + 4 + _text_width(label, 9)
            if toggles:
                left = half + 4 + _TOGGLE
        else:
            left = right = max(half, _text_width(label, 9) / 2)
        edge = edge_label(tree, index)
        if edge:
            left = max(left, half + 4 + _text_width(edge, 10))
        hidden = drawn.folds.get(index)
        if hidden is not None:
            spread = max(10.0, _text_width(str(hidden), 9) / 2)
            left, right = max(left, spread), max(right, spread)
        extents[index] = _Extent(half, left, right)
    return extents


def _slot_width(drawn: DrawnTree, places: Layout, extents: dict[int, _Extent]) -> float:
    """The narrowest slot that keeps every two neighbours in a row apart (the drawn nodes
    are in level order, so neighbours in a row follow each other)."""
    slot = 48.0
    depths = places.y
    for before, after in zip(drawn.shown, drawn.shown[1:], strict=False):
        if depths[before] == depths[after]:
            need = extents[before].right + extents[after].left + _GAP
            slot = max(slot, need / (places.x[after] - places.x[before]))
    return slot


def _player_name(tree: Tree, index: int) -> str:
    player = tree.players[index]
    return f"P{player + 1}" if player is not None else "player"


def render_svg(solved: SolvedTree, options: DrawingOptions = PLAIN) -> str:
    """A standalone SVG drawing of the solved tree.

    Raises
    ------
    LimitExceededError
        When more than :data:`MAX_SVG_NODES` nodes would be drawn.
    """
    tree = solved.tree
    drawn = drawn_tree(tree, options)
    check_size(len(drawn.shown), MAX_SVG_NODES, "an SVG drawing")
    name = node_names(tree, options.node_labels)
    places = layout(tree, drawn.children)
    grey = greyed(solved)
    pv, ties = solved.principal, solved.ties
    extents = _extents(solved, drawn, name, options.toggles)
    slot = _slot_width(drawn, places, extents)
    offset = MARGIN + max(extents[i].left - places.x[i] * slot for i in drawn.shown)
    right = offset + max(places.x[i] * slot + extents[i].right for i in drawn.shown)
    top = MARGIN + (24 if solved.title else 0)
    deepest = max(places.y[i] for i in drawn.shown)
    bottom = top + 2 * NODE_SIZE + deepest * LEVEL + 36
    entries = legend_entries(solved, drawn, grey) if options.legend is not False else []
    legend, legend_width, legend_height = _svg_legend(
        entries, bottom + 12, max(right - MARGIN, 420.0)
    )
    width = max(right + MARGIN, legend_width + 2 * MARGIN, 120.0)
    height = bottom + 12 + legend_height + MARGIN / 2

    def centre(index: int) -> tuple[float, float]:
        return offset + places.x[index] * slot, top + NODE_SIZE + places.y[index] * LEVEL

    attributes = f'data-nodes="{len(tree)}" data-drawn="{len(drawn.shown)}"'
    if drawn.depth_drawn is not None:
        attributes += f' data-depth-drawn="{drawn.depth_drawn}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" '
        f"{attributes}>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
    ]
    if solved.title:
        out.append(
            f'<text x="{width / 2:.1f}" y="{MARGIN - 8}" text-anchor="middle" '
            f'font-size="15" font-weight="bold">{_content(solved.title)}</text>'
        )
    spend = current_deadline().spend
    # with toggles (the page) every node can take the keyboard's focus
    focus = ' tabindex="0"' if options.toggles else ""
    out.append('<g class="edges">')
    for child in drawn.shown[1:]:
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
        elif child in ties:
            classes.append("tie")
            style = f'stroke="{TIE_COLOUR}" stroke-width="2" stroke-dasharray="6 3"'
        out.append(
            f'<line class="{" ".join(classes)}" data-id={_attribute(tree.ids[child])} '
            f'x1="{x1:.1f}" y1="{y1 + NODE_SIZE:.1f}" x2="{x2:.1f}" y2="{y2 - NODE_SIZE:.1f}" '
            f"{style}/>"
        )
    out.append("</g>")
    out.append('<g class="nodes">')
    for index in drawn.shown:
        spend(16)
        out.extend(
            _svg_node(solved, index, centre(index), extents[index], name, drawn, grey, focus)
        )
    out.append("</g>")
    if options.toggles:
        out.append('<g class="toggles">')
        for index in drawn.shown:
            if tree.children[index]:
                x, y = centre(index)
                folded = index in drawn.folds
                out.append(_svg_toggle(tree.ids[index], x - extents[index].half - 4, y, folded))
        out.append("</g>")
    out.extend(legend)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_node(
    solved: SolvedTree,
    index: int,
    at: tuple[float, float],
    extent: _Extent,
    name: Callable[[int], str],
    drawn: DrawnTree,
    grey: set[int],
    focus: str,
) -> list[str]:
    """A node's group: its shape, value, name and, collapsed, the triangle that stands
    for its subtree. Every text stays inside the band of its row (see the module)."""
    tree = solved.tree
    kind = tree.kinds[index]
    x, y = at
    classes = ["node", kind]
    stroke, fill, text_colour, stroke_width = "#222222", "white", "#111111", 1.5
    dash = ""
    state = "visited"
    if index in grey:
        classes.append("pruned")
        stroke, fill, text_colour = PRUNED_COLOUR, PRUNED_FILL, PRUNED_TEXT
        state = "pruned"
    elif index in solved.principal:
        classes.append("pv")
        stroke, stroke_width = PV_COLOUR, 3.0
        state = "visited best"
    elif index in solved.ties:
        classes.append("tie")
        stroke, stroke_width, dash = TIE_COLOUR, 2.5, ' stroke-dasharray="5 3"'
        state = "visited tie"
    paint = f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"{dash}'
    # data-node-id and data-state are what the web workbench reads (and tests rely on)
    node_id = _attribute(tree.ids[index])
    hidden = drawn.folds.get(index)
    folded = f' data-collapsed="true" data-hidden="{hidden}"' if hidden is not None else ""
    shown = name(index)
    title = tree.ids[index] if shown in ("", tree.ids[index]) else f"{shown} ({tree.ids[index]})"
    out = [
        f'<g class="{" ".join(classes)}" data-id={node_id} data-node-id={node_id} '
        f'data-state="{state if solved.solved else ""}"{folded}{focus}>',
        f"<title>{_content(title)}</title>",
        _shape(kind, x, y, extent.half, paint),
    ]
    label = solved.labels[index] or ""
    if kind == PLAYER:
        out.append(
            f'<text x="{x:.1f}" y="{y - 5:.1f}" text-anchor="middle" '
            f'font-size="11" fill="{text_colour}">{_content(_player_name(tree, index))}</text>'
        )
    if label:
        dy = {MAX: 12, MIN: 1, PLAYER: 11}.get(kind, 4)
        out.append(
            f'<text class="value" x="{x:.1f}" y="{y + dy:.1f}" text-anchor="middle" '
            f'font-size="12" font-weight="bold" fill="{text_colour}">{_content(label)}</text>'
        )
    edge = edge_label(tree, index)
    if edge:
        # the move into this node, left of it, in the band where no edge runs
        right = x - extent.half - 4
        colour = PRUNED_TEXT if index in grey else "#333333"
        out.append(
            f'<text class="edge-label" x="{right - 1:.1f}" y="{y - 8:.1f}" text-anchor="end" '
            f'font-size="11" fill="{colour}">{_content(edge)}</text>'
        )
    if shown:
        # leaves are named below; internal nodes to their right, clear of their edges
        ix, iy, anchor = (
            (x + extent.half + 4, y + 3, "start")
            if tree.children[index]
            else (x, y + NODE_SIZE + 11, "middle")
        )
        out.append(
            f'<text class="node-id" x="{ix:.1f}" y="{iy:.1f}" text-anchor="{anchor}" '
            f'font-size="11" fill="#555555">{_content(shown)}</text>'
        )
    if hidden is not None:
        out.append(
            f'<g class="collapsed-subtree"><polygon points="{x:.1f},{y + 22:.1f} '
            f'{x - 10:.1f},{y + 38:.1f} {x + 10:.1f},{y + 38:.1f}" fill="#dddddd" '
            f'stroke="#777777" stroke-width="1"/><text x="{x:.1f}" y="{y + 50:.1f}" '
            f'text-anchor="middle" font-size="11" fill="#555555">{hidden}</text></g>'
        )
    out.append("</g>")
    return out


def _svg_toggle(node_id: str, right: float, y: float, folded: bool) -> str:
    """The button left of an internal node, under its move, that expands (+) a collapsed
    subtree or collapses (−) an open one; the sign is a path (no text to lay out)."""
    action = "Expand" if folded else "Collapse"
    left = right - _TOGGLE
    cx, cy = left + _TOGGLE / 2, y + 5
    sign = f"M {cx - 3.5:.1f},{cy:.1f} h 7" + (f" M {cx:.1f},{cy - 3.5:.1f} v 7" if folded else "")
    return (
        f'<g class="toggle" data-toggle={_attribute(node_id)} role="button" tabindex="0" '
        f"aria-label={_attribute(f'{action} the subtree of {node_id}')}>"
        f'<rect x="{left:.1f}" y="{y - 1:.1f}" width="{_TOGGLE:g}" height="{_TOGGLE:g}" rx="2" '
        f'fill="#f4f4f4" stroke="#888888"/><path d="{sign}" stroke="#333333" stroke-width="1.5"/>'
        "</g>"
    )


def _svg_legend_symbol(entry: str, x: float, y: float) -> str:
    """The symbol of a legend entry, 20 pixels wide, centred on ``(x, y)``."""
    plain = 'fill="white" stroke="#222222" stroke-width="1.5"'
    up = f"{x:.1f},{y - 8:.1f} {x - 9:.1f},{y + 8:.1f} {x + 9:.1f},{y + 8:.1f}"
    down = f"{x - 9:.1f},{y - 8:.1f} {x + 9:.1f},{y - 8:.1f} {x:.1f},{y + 8:.1f}"
    if entry == MAX:
        return f'<polygon points="{up}" {plain}/>'
    if entry == MIN:
        return f'<polygon points="{down}" {plain}/>'
    if entry == CHANCE:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" {plain}/>'
    if entry in (LEAF, PLAYER):
        rounded = ' rx="3"' if entry == PLAYER else ""
        return f'<rect x="{x - 8:.1f}" y="{y - 8:.1f}" width="16" height="16"{rounded} {plain}/>'
    if entry == "tie":
        return (
            f'<rect x="{x - 8:.1f}" y="{y - 8:.1f}" width="16" height="16" fill="white" '
            f'stroke="{TIE_COLOUR}" stroke-width="2.5" stroke-dasharray="5 3"/>'
        )
    if entry == "collapsed":
        return f'<polygon points="{up}" fill="#dddddd" stroke="#777777" stroke-width="1"/>'
    stroke = (
        f'stroke="{PV_COLOUR}" stroke-width="3.5"'
        if entry == "best"
        else f'stroke="{PRUNED_COLOUR}" stroke-width="1.2" stroke-dasharray="5 4"'
    )
    return (
        f'<line class="legend-line" x1="{x - 10:.1f}" y1="{y:.1f}" x2="{x + 10:.1f}" '
        f'y2="{y:.1f}" {stroke}/>'
    )


def _svg_legend(entries: list[str], top: float, room: float) -> tuple[list[str], float, float]:
    """The legend below the tree, its entries in rows no wider than ``room``; with its
    width and height (nothing for no entries)."""
    if not entries:
        return [], 0.0, 0.0
    row_height = 24.0
    out = ['<g class="legend">']
    x, row, widest = 0.0, 0, 0.0
    for entry in entries:
        text = LEGEND_TEXT[entry]
        width = 28 + _text_width(text, 11) + 18
        if x > 0 and x + width > room:
            x, row = 0.0, row + 1
        cx, cy = MARGIN + x + 10, top + row * row_height + 10
        out.append(
            f'<g class="legend-item" data-legend="{entry}">{_svg_legend_symbol(entry, cx, cy)}'
            f'<text x="{cx + 18:.1f}" y="{cy + 4:.1f}" font-size="11" fill="#333333">'
            f"{_content(text)}</text></g>"
        )
        x += width
        widest = max(widest, x)
    out.append("</g>")
    return out, widest, (row + 1) * row_height


def _half_width(kind: str, text_width: float) -> float:
    """Half the width of a node's shape, wide enough for its label."""
    if kind in (MAX, MIN):
        return max(NODE_SIZE * 1.2, text_width * 0.9)
    if kind == CHANCE:
        return max(NODE_SIZE, text_width / 2 + 5)
    return max(NODE_SIZE, text_width / 2 + 6)


def _shape(kind: str, x: float, y: float, half: float, paint: str) -> str:
    r = NODE_SIZE
    if kind == MAX:
        points = f"{x:.1f},{y - r:.1f} {x - half:.1f},{y + r:.1f} {x + half:.1f},{y + r:.1f}"
        return f'<polygon points="{points}" {paint}/>'
    if kind == MIN:
        points = f"{x - half:.1f},{y - r:.1f} {x + half:.1f},{y - r:.1f} {x:.1f},{y + r:.1f}"
        return f'<polygon points="{points}" {paint}/>'
    if kind == CHANCE:
        if half <= r:
            return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{half:.1f}" {paint}/>'
        # a wide label: an ellipse as high as the circle, so it stays in its row's band
        return (
            f'<path d="M {x - half:.1f},{y:.1f} a {half:.1f},{r} 0 1,0 {2 * half:.1f},0 '
            f'a {half:.1f},{r} 0 1,0 {-2 * half:.1f},0 Z" {paint}/>'
        )
    rounded = ' rx="7"' if kind == PLAYER else ""
    return (
        f'<rect x="{x - half:.1f}" y="{y - r:.1f}" width="{2 * half:.1f}" height="{2 * r:.1f}"'
        f"{rounded} {paint}/>"
    )
