"""Draw a solved game tree: Graphviz DOT text, TikZ, and SVG laid out in pure Python.

The drawing takes a :class:`SolvedTree`, a neutral summary that any search
can produce (a label per node, the principal variation, the pruned subtrees,
the children as good as the chosen one), so it does not depend on which
algorithm solved the tree, and :class:`DrawingOptions` (how nodes are named,
the legend, which subtrees are collapsed).

Layout (for SVG and TikZ): the leaves take equally spaced slots left to right,
every parent sits centred over its first and last child, and each depth is one
row. Children are numbered after their parents, so one backwards pass over
the node indices places every node (no recursion). A collapsed subtree counts
as a leaf: its root is drawn with a small triangle below it naming how many
nodes it hides.

Shapes follow the textbook convention: MAX is a triangle pointing up, MIN a
triangle pointing down, chance a circle, a leaf a square, a max^n node a
rounded box naming its player. The principal variation is drawn in red and
thick; a child as good as the chosen one (a tie) has an orange dashed outline;
pruned subtrees are grey and dashed. Elements carry the classes ``node``,
``edge``, ``pv``, ``tie`` and ``pruned`` and a ``data-id`` attribute, so tools and
tests can find them.

Every text of the SVG sits in the band of its own row, between where the edges
into that row end and where the edges out of it start, and the slot width is
chosen so that neighbours in a row keep their texts apart: no label crosses an
edge or another label.

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
from analysis.trees.solve import TreeSearch, TreeSolution
from games.errors import InvalidInputError, LimitExceededError
from games.limits import current_deadline
from games.numbers import Exact, exact_text
from games.trees.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree, Utility

MAX_SVG_NODES: Final = 2_000
"""Largest drawing as SVG (nodes drawn): beyond it a drawing is unreadable on a slide."""

MAX_DOT_NODES: Final = 20_000
"""Largest tree written as DOT (nodes drawn)."""

PV_COLOUR: Final = "#d62728"
TIE_COLOUR: Final = "#e67e00"
PRUNED_COLOUR: Final = "#a0a0a0"
PRUNED_FILL: Final = "#eeeeee"
_LEVEL: Final = 90
_MARGIN: Final = 40
_SIZE: Final = 18

NODE_LABELS: Final = ("ids", "letters", "none")
"""How nodes are named on a drawing: the API ids, letters A, B, ... in breadth-first
order (the textbook style), or not at all."""


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
    ties
        Children of a node on the principal variation that are as good for the
        mover as the chosen child (the search proved their values equal).
    """

    tree: Tree
    labels: list[str | None]
    principal: frozenset[int]
    pruned: frozenset[int]
    title: str = ""
    solved: bool = True
    ties: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class DrawingOptions:
    """How a tree is drawn, whatever solved it.

    Attributes
    ----------
    node_labels
        One of :data:`NODE_LABELS`.
    legend
        Draw a legend of the shapes and states; ``None``: the format's default (SVG
        and TikZ yes, DOT no).
    collapsed
        Ids of nodes whose subtrees are drawn collapsed.
    expanded
        Ids of nodes drawn open although ``max_depth_drawn`` would collapse them.
    max_depth_drawn
        Collapse every subtree whose root lies at this depth (or deeper).
    max_nodes_drawn
        Collapse below the deepest depth at which at most this many nodes are drawn
        (nothing when the whole tree fits).
    toggles
        Draw beside each internal node a button (``data-toggle``) that collapses or
        expands it, for the web page.
    """

    node_labels: str = "ids"
    legend: bool | None = None
    collapsed: tuple[str, ...] = ()
    expanded: tuple[str, ...] = ()
    max_depth_drawn: int | None = None
    max_nodes_drawn: int | None = None
    toggles: bool = False


PLAIN: Final = DrawingOptions()
"""The default drawing: ids shown, the format's own legend default, nothing collapsed."""


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
    ties: Iterable[int] = (),
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
    ties
        Children as good as the chosen one at nodes of the principal variation.
    """
    spend = current_deadline().spend

    def label(index: int, value: Utility | None) -> str | None:
        spend(1 + tree.utility_size)
        if value is None:
            return value_label(tree.values[index])  # a leaf the search skipped keeps its value
        return value_label(value, None if bounds is None else bounds[index])

    labels = list(map(label, range(len(values)), values))
    return SolvedTree(
        tree,
        labels,
        frozenset([0, *principal_variation]),
        frozenset(pruned),
        title,
        ties=frozenset(ties),
    )


def solution_drawing(solution: TreeSolution, title: str = "") -> SolvedTree:
    """What a drawing shows of any solved tree: values (bounds after pruning), the
    principal variation, ties with it, and the subtrees a pruning search skipped."""
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
        ties=tied_children(solution),
    )


def tied_children(solution: TreeSolution) -> frozenset[int]:
    """Children that are as good for the mover as the chosen one, at each decision node of
    the principal variation: the root's other ``best_moves``, and below it every child
    whose value the search proved (exact, not a bound) and equal to its parent's (under
    max^n, equal in the mover's utility). Chance nodes have no ties: every child counts."""
    search = solution.search
    tree = solution.tree
    values: Sequence[Utility | None] = search.values
    line = [0, *search.principal_variation]
    tied = {tree.index_of(move) for move in solution.best_moves}
    unproven = _unproven(search)
    for node, chosen in zip(line, line[1:], strict=False):
        if tree.kinds[node] not in (MAX, MIN, PLAYER):
            continue
        own = values[node]
        mover = search.movers[node] if isinstance(search, MaxnResult) else None
        for child in tree.children[node]:
            other = values[child]
            if child == chosen or other is None or own is None or child in unproven:
                continue
            if mover is not None and isinstance(other, tuple) and isinstance(own, tuple):
                if other[mover] == own[mover]:
                    tied.add(child)
            elif other == own:
                tied.add(child)
    tied.difference_update(line)
    return frozenset(tied)


def _unproven(search: TreeSearch) -> set[int]:
    """Nodes whose value is not known exactly: bounds of alpha-beta and Star1, and nodes
    cut short by max^n's shallow pruning (minimax and expectimax know every value)."""
    if isinstance(search, AlphaBetaResult):
        return {node for node, bound in enumerate(search.bounds) if bound != "exact"}
    if isinstance(search, MaxnResult):
        return set(search.cut_nodes)
    return set()


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


def letter_name(index: int) -> str:
    """The textbook name of the node numbered ``index`` in breadth-first order: A, B, ...,
    Z, AA, AB, ... (as spreadsheet columns)."""
    name = ""
    index += 1
    while index:
        index, digit = divmod(index - 1, 26)
        name = chr(ord("A") + digit) + name
    return name


def node_names(tree: Tree, node_labels: str) -> Callable[[int], str]:
    """The name drawn beside each node under ``node_labels`` (empty for ``none``).

    :raises InvalidInputError: ``node_labels`` is not one of :data:`NODE_LABELS`.
    """
    if node_labels == "ids":
        return tree.ids.__getitem__
    if node_labels == "letters":
        # node indices are breadth-first (level order), so a letter is its index's
        return letter_name
    if node_labels == "none":
        return lambda index: ""
    raise InvalidInputError(
        f"node_labels must be one of {', '.join(NODE_LABELS)}, got {node_labels!r}",
        parameter="node_labels",
    )


# -- what is drawn: collapsed subtrees -------------------------------------------


@dataclass(frozen=True, slots=True)
class DrawnTree:
    """The part of a tree a drawing shows.

    Attributes
    ----------
    children
        Per node, the children drawn below it: none for a collapsed or hidden node.
    shown
        Indices of the drawn nodes, in level order.
    folds
        Each collapsed node and how many nodes its subtree hides.
    depth_drawn
        The depth below which ``max_depth_drawn``/``max_nodes_drawn`` collapse the
        tree, or ``None``.
    """

    children: list[Sequence[int]]
    shown: list[int]
    folds: dict[int, int]
    depth_drawn: int | None


def drawn_tree(tree: Tree, options: DrawingOptions = PLAIN) -> DrawnTree:
    """Which nodes ``options`` draw: everything not below a collapsed node. Only the drawn
    nodes (and their children) are visited, so a huge tree drawn to a shallow depth costs
    little.

    :raises InvalidInputError: an id of ``collapsed`` or ``expanded`` names no node.
    """
    folded = _indices(tree, options.collapsed, "collapsed")
    opened = _indices(tree, options.expanded, "expanded")
    limit = options.max_depth_drawn
    depths = tree.depths
    if options.max_nodes_drawn is not None and len(tree) > options.max_nodes_drawn:
        # depths ascend in level order: the first node that does not fit is at
        # index max_nodes_drawn, so everything above its depth fits
        deepest = depths[options.max_nodes_drawn] - 1
        limit = deepest if limit is None else min(limit, deepest)
    children: list[Sequence[int]] = [()] * len(tree)
    shown: list[int] = []
    folds: dict[int, int] = {}
    spend = current_deadline().spend
    row = [0]
    while row:
        spend(len(row))
        shown.extend(row)
        below: list[int] = []
        for node in row:
            kids = tree.children[node]
            if not kids:
                continue
            if node in folded or (
                limit is not None and depths[node] >= limit and node not in opened
            ):
                folds[node] = _size_below(tree, node)
                continue
            children[node] = kids
            below.extend(kids)
        row = below
    return DrawnTree(children, shown, folds, limit if folds else None)


def _indices(tree: Tree, ids: Sequence[str], name: str) -> set[int]:
    found: set[int] = set()
    for position, node_id in enumerate(ids):
        try:
            found.add(tree.index_of(node_id))
        except KeyError:
            raise InvalidInputError(
                f"{name} names {node_id!r}, which is not a node of the tree",
                f"/{name}/{position}",
                parameter=name,
            ) from None
    return found


def _size_below(tree: Tree, top: int) -> int:
    """Nodes strictly below ``top``: with ascending child ranges each level of a subtree
    is one block of indices, found from its first and last internal node."""
    children = tree.children
    low, high, count = top, top + 1, 0
    while True:
        first = next((children[i] for i in range(low, high) if children[i]), None)
        if first is None:
            return count
        last = next(children[i] for i in range(high - 1, low - 1, -1) if children[i])
        if first.step != 1 or last.step != 1:
            return len(tree.preorder(top)) - 1  # children reordered: walk the subtree
        low, high = first.start, last.stop
        count += high - low


def check_drawable(tree: Tree, drawing: str, options: DrawingOptions = PLAIN) -> None:
    """Refuse a tree too large for an ``"svg"``, ``"dot"`` or ``"tikz"`` drawing before
    solving it (counting the nodes drawn: collapsed subtrees count as one node).

    :raises LimitExceededError: more nodes would be drawn than that drawing is offered for.
    :raises InvalidInputError: ``options`` name a node the tree does not have.
    """
    node_names(tree, options.node_labels)
    drawn = len(tree)
    if options.collapsed or options.max_depth_drawn is not None or options.max_nodes_drawn:
        drawn = len(drawn_tree(tree, options).shown)
    else:
        _indices(tree, options.expanded, "expanded")
    if drawing == "dot":
        _check_size(drawn, MAX_DOT_NODES, "DOT output")
    elif drawing == "tikz":
        _check_size(drawn, MAX_TIKZ_NODES, "a TikZ drawing")
    else:
        _check_size(drawn, MAX_SVG_NODES, "an SVG drawing")


def _check_size(drawn: int, limit: int, what: str) -> None:
    if drawn > limit:
        raise LimitExceededError(
            f"{what} is offered for up to {limit} nodes drawn; this one would draw {drawn} "
            "(collapse subtrees, or set max_depth_drawn or max_nodes_drawn)",
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


def _legend_entries(solved: SolvedTree, drawn: DrawnTree, grey: set[int]) -> list[str]:
    """What a legend lists: the kinds drawn, then the states shown."""
    kinds = solved.tree.kinds
    present = {kinds[i] for i in drawn.shown}
    entries: list[str] = [kind for kind in (MAX, MIN, CHANCE, PLAYER, LEAF) if kind in present]
    if solved.solved:
        entries.append("best")
    if solved.ties:
        entries.append("tie")
    if grey:
        entries.append("pruned")
    if drawn.folds:
        entries.append("collapsed")
    return entries


LEGEND_TEXT: Final = {
    MAX: "MAX (maximises)",
    MIN: "MIN (minimises)",
    CHANCE: "chance (expected value)",
    PLAYER: "max^n player",
    LEAF: "leaf",
    "best": "best line",
    "tie": "tie: as good as the best",
    "pruned": "pruned: never searched",
    "collapsed": "collapsed subtree (nodes hidden)",
}
"""The words of every legend entry, in every format."""


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


def render_dot(solved: SolvedTree, options: DrawingOptions = PLAIN) -> str:
    """Graphviz DOT text of the tree (``dot -Tsvg`` draws it).

    Raises
    ------
    LimitExceededError
        When more than :data:`MAX_DOT_NODES` nodes would be drawn.
    """
    tree = solved.tree
    drawn = drawn_tree(tree, options)
    _check_size(len(drawn.shown), MAX_DOT_NODES, "DOT output")
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
        if kind == PLAYER:
            player = tree.players[index]
            label = (f"P{player + 1}" if player is not None else "player") + (
                f"\n{label}" if label else ""
            )
        hidden = drawn.folds.get(index)
        if hidden is not None:
            label += f"\n▾ {hidden} nodes"
        attributes = [f"shape={_DOT_SHAPES[kind]}", f"label={_dot_text(label)}"]
        if name(index):
            attributes.append(f"xlabel={_dot_text(name(index))}")
        if kind == PLAYER:
            attributes.append('style="filled,rounded"')
        if hidden is not None:
            attributes.append("peripheries=2")
        if index in grey:
            attributes += [
                f'color="{PRUNED_COLOUR}"',
                f'fontcolor="{PRUNED_COLOUR}"',
                f'fillcolor="{PRUNED_FILL}"',
                'style="filled,dashed"',
            ]
        elif index in pv:
            attributes += [f'color="{PV_COLOUR}"', "penwidth=2.5"]
        elif index in solved.ties:
            attributes += [f'color="{TIE_COLOUR}"', "penwidth=2", 'style="filled,dashed"']
        lines.append(f"  {_dot_text(ids[index])} [{', '.join(attributes)}];")
    for child in drawn.shown[1:]:
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
        elif child in solved.ties:
            attributes += [f'color="{TIE_COLOUR}"', "penwidth=1.5", "style=dashed"]
        suffix = f" [{', '.join(attributes)}]" if attributes else ""
        lines.append(f"  {_dot_text(ids[parent])} -> {_dot_text(ids[child])}{suffix};")
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
        for entry in _legend_entries(solved, drawn, grey)
    )
    return [
        f"  subgraph {_dot_text('cluster_' + name)} {{",
        '    label="Legend"; style=dashed; color="#999999";',
        f"    {_dot_text(name)} [shape=plaintext, style=solid, "
        f'label=<<table border="0" cellspacing="2">{rows}</table>>];',
        "  }",
        # an invisible edge from the deepest node drawn puts the legend below the tree
        f"  {_dot_text(solved.tree.ids[drawn.shown[-1]])} -> {_dot_text(name)} [style=invis];",
    ]


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
    r"  tie/.style={draw=arbiterorange, thick, dashed},",
    r"  pruned/.style={draw=black!35, text=black!45, dashed},",
    r"  collapsed/.style={draw, regular polygon, regular polygon sides=3, minimum size=6mm,"
    r" fill=black!10, font=\scriptsize, inner sep=0pt},",
    r"  legendtext/.style={font=\scriptsize, anchor=west},",
)

_TIKZ_KIND: Final = {MAX: "max", MIN: "min", CHANCE: "chance", LEAF: "leaf", PLAYER: "player"}


def tex_text(text: str) -> str:
    """``text`` safe inside a TikZ node: TeX's special characters escaped, never executed."""
    return "".join(_TEX_SPECIALS.get(character, character) for character in text)


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
    _check_size(len(drawn.shown), MAX_TIKZ_NODES, "a TikZ drawing")
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
        label = _edge_label(tree, child)
        on_edge = f" node[edgelabel, midway] {{{tex_text(label)}}}" if label else ""
        lines.append(f"  \\draw[{', '.join(styles)}] (n{parent}) --{on_edge} (n{child});")
    if options.legend is not False:
        bottom = max((places.y[i] for i in drawn.shown), default=0) + 0.9
        lines += _tikz_legend(_legend_entries(solved, drawn, grey), bottom, step)
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


# -- SVG ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """Node centres in slot units: ``x`` counts leaf slots, ``y`` is the depth."""

    x: list[float]
    y: list[int]
    slots: int


def layout(tree: Tree, children: Sequence[Sequence[int]] | None = None) -> Layout:
    """Leaves one slot apart left to right; each parent centred over its children.

    ``children`` replaces the tree's own (a drawing with collapsed subtrees passes the
    children it draws); nodes it never reaches keep ``x = 0``.
    """
    kids_of = tree.children if children is None else children
    x = [0.0] * len(tree)
    leaves = tree.leaves_below(0, kids_of)
    for slot, leaf in enumerate(leaves):
        x[leaf] = float(slot)
    for index in range(len(tree) - 1, -1, -1):
        kids = kids_of[index]
        if kids:
            x[index] = (x[kids[0]] + x[kids[-1]]) / 2
    return Layout(x, list(tree.depths), len(leaves))


_CHARACTER: Final = 0.62
"""Width of a character in ems, generous for Helvetica (digits are 0.556)."""
_GAP: Final = 6.0
"""Least space between two texts or shapes of neighbouring nodes, in pixels."""
_TOGGLE: Final = 12.0


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
        edge = _edge_label(tree, index)
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
    _check_size(len(drawn.shown), MAX_SVG_NODES, "an SVG drawing")
    name = node_names(tree, options.node_labels)
    places = layout(tree, drawn.children)
    grey = greyed(solved)
    pv, ties = solved.principal, solved.ties
    extents = _extents(solved, drawn, name, options.toggles)
    slot = _slot_width(drawn, places, extents)
    offset = _MARGIN + max(extents[i].left - places.x[i] * slot for i in drawn.shown)
    right = offset + max(places.x[i] * slot + extents[i].right for i in drawn.shown)
    top = _MARGIN + (24 if solved.title else 0)
    deepest = max(places.y[i] for i in drawn.shown)
    bottom = top + 2 * _SIZE + deepest * _LEVEL + 36
    entries = _legend_entries(solved, drawn, grey) if options.legend is not False else []
    legend, legend_width, legend_height = _svg_legend(
        entries, bottom + 12, max(right - _MARGIN, 420.0)
    )
    width = max(right + _MARGIN, legend_width + 2 * _MARGIN, 120.0)
    height = bottom + 12 + legend_height + _MARGIN / 2

    def centre(index: int) -> tuple[float, float]:
        return offset + places.x[index] * slot, top + _SIZE + places.y[index] * _LEVEL

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
            f'<text x="{width / 2:.1f}" y="{_MARGIN - 8}" text-anchor="middle" '
            f'font-size="15" font-weight="bold">{escape(solved.title)}</text>'
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
            f'<line class="{" ".join(classes)}" data-id={quoteattr(tree.ids[child])} '
            f'x1="{x1:.1f}" y1="{y1 + _SIZE:.1f}" x2="{x2:.1f}" y2="{y2 - _SIZE:.1f}" '
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
        stroke, fill, text_colour = PRUNED_COLOUR, PRUNED_FILL, PRUNED_COLOUR
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
    node_id = quoteattr(tree.ids[index])
    hidden = drawn.folds.get(index)
    folded = f' data-collapsed="true" data-hidden="{hidden}"' if hidden is not None else ""
    shown = name(index)
    title = tree.ids[index] if shown in ("", tree.ids[index]) else f"{shown} ({tree.ids[index]})"
    out = [
        f'<g class="{" ".join(classes)}" data-id={node_id} data-node-id={node_id} '
        f'data-state="{state if solved.solved else ""}"{folded}{focus}>',
        f"<title>{escape(title)}</title>",
        _shape(kind, x, y, extent.half, paint),
    ]
    label = solved.labels[index] or ""
    if kind == PLAYER:
        out.append(
            f'<text x="{x:.1f}" y="{y - 5:.1f}" text-anchor="middle" '
            f'font-size="9" fill="{text_colour}">{escape(_player_name(tree, index))}</text>'
        )
    if label:
        dy = {MAX: 12, MIN: 1, PLAYER: 11}.get(kind, 4)
        out.append(
            f'<text class="value" x="{x:.1f}" y="{y + dy:.1f}" text-anchor="middle" '
            f'font-size="12" font-weight="bold" fill="{text_colour}">{escape(label)}</text>'
        )
    edge = _edge_label(tree, index)
    if edge:
        # the move into this node, left of it, in the band where no edge runs
        right = x - extent.half - 4
        colour = PRUNED_COLOUR if index in grey else "#333333"
        out.append(
            f'<text class="edge-label" x="{right - 1:.1f}" y="{y - 8:.1f}" text-anchor="end" '
            f'font-size="10" fill="{colour}">{escape(edge)}</text>'
        )
    if shown:
        # leaves are named below; internal nodes to their right, clear of their edges
        ix, iy, anchor = (
            (x + extent.half + 4, y + 3, "start")
            if tree.children[index]
            else (x, y + _SIZE + 11, "middle")
        )
        out.append(
            f'<text class="node-id" x="{ix:.1f}" y="{iy:.1f}" text-anchor="{anchor}" '
            f'font-size="9" fill="#777777">{escape(shown)}</text>'
        )
    if hidden is not None:
        out.append(
            f'<g class="collapsed-subtree"><polygon points="{x:.1f},{y + 22:.1f} '
            f'{x - 10:.1f},{y + 38:.1f} {x + 10:.1f},{y + 38:.1f}" fill="#dddddd" '
            f'stroke="#777777" stroke-width="1"/><text x="{x:.1f}" y="{y + 50:.1f}" '
            f'text-anchor="middle" font-size="9" fill="#555555">{hidden}</text></g>'
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
        f'<g class="toggle" data-toggle={quoteattr(node_id)} role="button" tabindex="0" '
        f"aria-label={quoteattr(f'{action} the subtree of {node_id}')}>"
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
        cx, cy = _MARGIN + x + 10, top + row * row_height + 10
        out.append(
            f'<g class="legend-item" data-legend="{entry}">{_svg_legend_symbol(entry, cx, cy)}'
            f'<text x="{cx + 18:.1f}" y="{cy + 4:.1f}" font-size="11" fill="#333333">'
            f"{escape(text)}</text></g>"
        )
        x += width
        widest = max(widest, x)
    out.append("</g>")
    return out, widest, (row + 1) * row_height


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


RENDERERS: Final[dict[str, Callable[[SolvedTree, DrawingOptions], str]]] = {
    "svg": render_svg,
    "dot": render_dot,
    "tikz": render_tikz,
}
"""Each drawing format and the function that writes it (the API and ``arbiter render``)."""
