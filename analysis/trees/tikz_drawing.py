"""A TikZ picture of a solved tree for LaTeX handouts, laid out as the SVG drawing
(see :mod:`analysis.trees.drawing`)."""

from __future__ import annotations

from typing import Final

from analysis.trees.drawing import (
    LEGEND_TEXT,
    MAX_TIKZ_NODES,
    PLAIN,
    PV_COLOUR,
    TIE_COLOUR,
    DrawingOptions,
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
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER

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
    r"  tie/.style={draw=arbiterorange, thick, dashed},",
    r"  pruned/.style={draw=black!35, text=black!45, dashed},",
    r"  collapsed/.style={draw, regular polygon, regular polygon sides=3, minimum size=6mm,"
    r" fill=black!10, font=\scriptsize, inner sep=0pt},",
    r"  legendtext/.style={font=\scriptsize, anchor=west},",
)

_TIKZ_KIND: Final = {MAX: "max", MIN: "min", CHANCE: "chance", LEAF: "leaf", PLAYER: "player"}


def tex_text(text: str) -> str:
    """``text`` safe inside a TikZ node: on one line without control characters
    (:func:`printable`; a blank line would end the node's paragraph, an error), and TeX's
    special characters escaped, never executed."""
    return "".join(_TEX_SPECIALS.get(character, character) for character in printable(text))


def render_tikz(solved: SolvedTree, options: DrawingOptions = PLAIN) -> str:
    r"""A TikZ picture of the solved tree for LaTeX handouts, laid out as the SVG drawing.

    The preamble needs ``\usepackage{tikz}`` and ``\usetikzlibrary{shapes.geometric}``
    (for the triangles); the picture defines its own colours. MAX nodes are triangles
    pointing up, MIN down, chance nodes circles, leaves squares, max^n nodes rounded boxes
    naming their player; the principal variation is red and thick, ties orange and
    dashed, pruned subtrees grey and dashed, a collapsed subtree a small grey triangle
    with the number of nodes it hides. Every text from the input (ids, moves, the title)
    is escaped.

    Raises
    ------
    LimitExceededError
        When more than :data:`MAX_TIKZ_NODES` nodes would be drawn.
    """
    tree = solved.tree
    drawn = drawn_tree(tree, options)
    check_size(len(drawn.shown), MAX_TIKZ_NODES, "a TikZ drawing")
    name = node_names(tree, options.node_labels)
    places = layout(tree, drawn.children)
    grey = greyed(solved)
    pv = solved.principal
    spend = current_deadline().spend
    widest = max((len(solved.labels[i] or "") for i in drawn.shown), default=1)
    step = max(1.0, min(3.0, 0.16 * widest + 0.5))
    lines = [
        r"% Drawn by Arbiter (format tikz). Preamble: \usepackage{tikz}"
        r" \usetikzlibrary{shapes.geometric}",
        r"\definecolor{arbiterred}{HTML}{" + PV_COLOUR.lstrip("#").upper() + "}",
        r"\definecolor{arbiterorange}{HTML}{" + TIE_COLOUR.lstrip("#").upper() + "}",
        rf"\begin{{tikzpicture}}[x={step:.2f}cm, y=-1.6cm,",
        *_TIKZ_STYLES,
        "]",
    ]
    if solved.title:
        centre = (places.slots - 1) / 2 if places.slots else 0.0
        title = tex_text(solved.title)
        lines.append(rf"  \node[font=\bfseries] at ({centre:g}, -0.8) {{{title}}};")
    for index in drawn.shown:
        kind = tree.kinds[index]
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
        elif index in solved.ties:
            styles.append("tie")
        identifier = tex_text(name(index))
        if identifier:
            styles.append(f"label={{[id]above right:{identifier}}}")
        x, y = places.x[index], places.y[index]
        lines.append(
            f"  \\node[{', '.join(styles)}] (n{index}) at ({x:g}, {y}) {{{tex_text(label)}}};"
        )
        hidden = drawn.folds.get(index)
        if hidden is not None:
            lines.append(
                f"  \\node[collapsed, anchor=north] (c{index}) "
                f"at ([yshift=-1mm]n{index}.south) {{{hidden}}};"
            )
    for child in drawn.shown[1:]:
        spend(4)
        parent = tree.parents[child]
        styles = ["edge"]
        if child in grey:
            styles.append("pruned")
        elif child in pv and parent in pv:
            styles.append("best")
        elif child in solved.ties:
            styles.append("tie")
        label = edge_label(tree, child)
        on_edge = f" node[edgelabel, midway] {{{tex_text(label)}}}" if label else ""
        lines.append(f"  \\draw[{', '.join(styles)}] (n{parent}) --{on_edge} (n{child});")
    if options.legend is not False:
        bottom = max((places.y[i] for i in drawn.shown), default=0) + 0.9
        lines += _tikz_legend(legend_entries(solved, drawn, grey), bottom, step)
    lines.append(r"\end{tikzpicture}")
    return "\n".join(lines) + "\n"


_TIKZ_LEGEND: Final = {
    MAX: r"\node[max, minimum size=5mm] (legend{k}) at ({x}, {y}) {{}};",
    MIN: r"\node[min, minimum size=5mm] (legend{k}) at ({x}, {y}) {{}};",
    CHANCE: r"\node[chance, minimum size=4mm] (legend{k}) at ({x}, {y}) {{}};",
    PLAYER: r"\node[player, minimum size=4mm] (legend{k}) at ({x}, {y}) {{}};",
    LEAF: r"\node[leaf, minimum size=4mm] (legend{k}) at ({x}, {y}) {{}};",
    "best": r"\draw[best] ({x}, {y}) ++(-0.25cm, 0) -- ++(0.5cm, 0) coordinate (legend{k});",
    "tie": r"\node[leaf, tie, minimum size=4mm] (legend{k}) at ({x}, {y}) {{}};",
    "pruned": r"\draw[pruned] ({x}, {y}) ++(-0.25cm, 0) -- ++(0.5cm, 0) coordinate (legend{k});",
    "collapsed": r"\node[collapsed, minimum size=4mm] (legend{k}) at ({x}, {y}) {{}};",
}


def _tikz_legend(entries: list[str], top: float, step: float) -> list[str]:
    """The legend below the tree: three entries a row, 4.5 cm apart."""
    lines = ["  % legend"]
    column = 4.5 / step  # in slot units
    for k, entry in enumerate(entries):
        x, y = (k % 3) * column, top + (k // 3) * 0.35
        lines.append("  " + _TIKZ_LEGEND[entry].format(k=k, x=f"{x:g}", y=f"{y:g}"))
        lines.append(
            rf"  \node[legendtext] at ([xshift=3.5mm]{x:g}, {y:g}) "
            rf"{{{tex_text(LEGEND_TEXT[entry])}}};"
        )
    return lines
