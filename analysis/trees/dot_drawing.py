"""Graphviz DOT text of a solved tree (see :mod:`analysis.trees.drawing`)."""

from __future__ import annotations

from typing import Final
from xml.sax.saxutils import escape

from analysis.trees.drawing import (
    LEGEND_TEXT,
    MAX_DOT_NODES,
    PLAIN,
    PRUNED_COLOUR,
    PRUNED_FILL,
    PRUNED_TEXT,
    PV_COLOUR,
    TIE_COLOUR,
    DrawingOptions,
    DrawnTree,
    SolvedTree,
    check_size,
    drawn_tree,
    edge_label,
    greyed,
    legend_entries,
    node_names,
    printable,
)
from games.limits import current_deadline
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER

_DOT_SHAPES: Final = {
    MAX: "triangle",
    MIN: "invtriangle",
    CHANCE: "circle",
    LEAF: "box",
    PLAYER: "box",
}


def _escaped(text: str) -> str:
    """``text`` inside a quoted DOT string: its backslashes and quotes escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _dot_text(*lines: str) -> str:
    """The lines as one quoted DOT string, Graphviz's ``\\n`` between them; each line
    :func:`printable` and escaped, so that no text can end the string early or break
    it over lines."""
    return '"' + "\\n".join(_escaped(printable(line)) for line in lines) + '"'


def _dot_id(node_id: str) -> str:
    """A node's id as the quoted DOT string that names the node: escaped, and each
    character :func:`printable` would change written as ``\\u`` and its code, so that
    ids differing only in such characters stay different nodes (the id's own
    backslashes are doubled: no id spells such a code)."""
    text = _escaped(node_id)
    if not text.isprintable():
        text = "".join(c if printable(c) == c else f"\\u{ord(c):04x}" for c in text)
    return '"' + text + '"'


def render_dot(solved: SolvedTree, options: DrawingOptions = PLAIN) -> str:
    """Graphviz DOT text of the tree (``dot -Tsvg`` draws it).

    Raises
    ------
    LimitExceededError
        When more than :data:`MAX_DOT_NODES` nodes would be drawn.
    """
    tree = solved.tree
    drawn = drawn_tree(tree, options)
    check_size(len(drawn.shown), MAX_DOT_NODES, "DOT output")
    name = node_names(tree, options.node_labels)
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
    for index in drawn.shown:
        kind = tree.kinds[index]
        label = solved.labels[index] or ""
        spend(4 + len(label) // 64)
        shown = [label]
        if kind == PLAYER:
            player = tree.players[index]
            mover = f"P{player + 1}" if player is not None else "player"
            shown = [mover, label] if label else [mover]
        hidden = drawn.folds.get(index)
        if hidden is not None:
            shown.append(f"▾ {hidden} nodes")
        attributes = [f"shape={_DOT_SHAPES[kind]}", f"label={_dot_text(*shown)}"]
        if name(index):
            attributes.append(f"xlabel={_dot_text(name(index))}")
        if kind == PLAYER:
            attributes.append('style="filled,rounded"')
        if hidden is not None:
            attributes.append("peripheries=2")
        if index in grey:
            attributes += [
                f'color="{PRUNED_COLOUR}"',
                f'fontcolor="{PRUNED_TEXT}"',
                f'fillcolor="{PRUNED_FILL}"',
                'style="filled,dashed"',
            ]
        elif index in pv:
            attributes += [f'color="{PV_COLOUR}"', "penwidth=2.5"]
        elif index in solved.ties:
            attributes += [f'color="{TIE_COLOUR}"', "penwidth=2", 'style="filled,dashed"']
        lines.append(f"  {_dot_id(ids[index])} [{', '.join(attributes)}];")
    for child in drawn.shown[1:]:
        spend(4)
        parent = tree.parents[child]
        attributes = []
        label = edge_label(tree, child)
        if label:
            attributes.append(f"label={_dot_text(label)}")
        if child in grey:
            attributes += [
                f'color="{PRUNED_COLOUR}"',
                f'fontcolor="{PRUNED_TEXT}"',
                "style=dashed",
            ]
        elif child in pv and parent in pv:
            attributes += [f'color="{PV_COLOUR}"', "penwidth=2.5"]
        elif child in solved.ties:
            attributes += [f'color="{TIE_COLOUR}"', "penwidth=1.5", "style=dashed"]
        suffix = f" [{', '.join(attributes)}]" if attributes else ""
        lines.append(f"  {_dot_id(ids[parent])} -> {_dot_id(ids[child])}{suffix};")
    if options.legend:
        lines += _dot_legend(solved, drawn, grey)
    lines.append("}")
    return "\n".join(lines) + "\n"


_DOT_LEGEND: Final = {
    MAX: "△",
    MIN: "▽",
    CHANCE: "○",
    PLAYER: "▢",
    LEAF: "□",
    "best": f'<font color="{PV_COLOUR}">━━</font>',
    "tie": f'<font color="{TIE_COLOUR}">┅┅</font>',
    "pruned": f'<font color="{PRUNED_COLOUR}">┄┄</font>',
    "collapsed": "▾",
}


def _dot_legend(solved: SolvedTree, drawn: DrawnTree, grey: set[int]) -> list[str]:
    """A plain-text node holding a table of symbols and their meanings, in a cluster of
    its own below the tree, named so that it clashes with no node id."""
    name = "legend"
    while name in set(solved.tree.ids):
        name += "_"
    rows = "".join(
        f'<tr><td align="center">{_DOT_LEGEND[entry]}</td>'
        f'<td align="left">{escape(LEGEND_TEXT[entry])}</td></tr>'
        for entry in legend_entries(solved, drawn, grey)
    )
    return [
        f"  subgraph {_dot_id('cluster_' + name)} {{",
        '    label="Legend"; style=dashed; color="#999999";',
        f"    {_dot_id(name)} [shape=plaintext, style=solid, "
        f'label=<<table border="0" cellspacing="2">{rows}</table>>];',
        "  }",
        # an invisible edge from the deepest node drawn puts the legend below the tree
        f"  {_dot_id(solved.tree.ids[drawn.shown[-1]])} -> {_dot_id(name)} [style=invis];",
    ]
