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

Labels write numbers through :func:`games.numbers.exact_text`; every text from the input
(ids, moves, the title) is written through :func:`printable`, on one line and without
control characters, before a format escapes it; and every pass over the nodes spends on
the deadline of the computation in progress.

This module holds what every format shares (the summary, the options, names, ties,
collapsed subtrees, the legend's entries, the layout); each format has its writer:
``svg_drawing``, ``dot_drawing``, ``tikz_drawing``, gathered in ``renderers``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

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
MAX_TIKZ_NODES: Final = MAX_SVG_NODES
"""Largest tree written as TikZ (a handout figure: LaTeX itself slows down far sooner)."""

PV_COLOUR: Final = "#d62728"
TIE_COLOUR: Final = "#e67e00"
PRUNED_COLOUR: Final = "#a0a0a0"
PRUNED_FILL: Final = "#eeeeee"
PRUNED_TEXT: Final = "#666666"
"""Text of a pruned node: greyed, yet 4.5:1 against its fill and the page (WCAG AA)."""

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


_UNPRINTABLE: Final = {
    **dict.fromkeys([*range(0x20), *range(0x7F, 0xA0), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF]),
    # line breaks (those of str.splitlines) and tabs are spaces
    **dict.fromkeys(map(ord, "\t\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029"), " "),
}


def printable(text: str) -> str:
    """``text`` on one line and without control characters, as every drawing writes a text
    from the input (an id, a move, a title): each line break or tab a space, and the other
    control characters (C0, DEL, C1), U+FFFE, U+FFFF and lone surrogates dropped. XML
    cannot hold them, TeX reads a blank line as a new paragraph (an error inside a node),
    and none of them shows as anything."""
    if text.isprintable():  # every character changed here is one Python calls unprintable
        return text
    return text.replace("\r\n", "\n").translate(_UNPRINTABLE)


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


def problem_drawing(tree: Tree, title: str = "", depth: int | None = None) -> SolvedTree:
    """The bare problem, for a handout: the tree unsolved, with only the values a student is
    given. Leaves show their values and, under a ``depth`` cutoff, each internal node at the
    cutoff its ``eval`` (the value the search takes there); every other node is blank (an
    internal node's eval above the cutoff is not part of the problem), with no best line,
    ties or pruned marks. Draw it with ``max_depth_drawn`` at most ``depth`` to leave out
    what lies below the cutoff."""
    spend = current_deadline().spend
    depths = tree.depths

    def label(index: int) -> str | None:
        spend(1 + tree.utility_size)
        if not tree.children[index]:
            return value_label(tree.values[index])
        if depth is not None and depths[index] == depth:
            return value_label(tree.evals[index])
        return None

    labels = list(map(label, range(len(tree))))
    return SolvedTree(tree, labels, frozenset(), frozenset(), title, solved=False)


def drawn_to_cutoff(options: DrawingOptions, depth: int | None) -> DrawingOptions:
    """``options`` drawing a bare problem (:func:`problem_drawing`) no deeper than its
    ``depth`` cutoff: what lies below the cutoff is no part of the problem."""
    if depth is None:
        return options
    deepest = options.max_depth_drawn
    return replace(options, max_depth_drawn=depth if deepest is None else min(deepest, depth))


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
        check_size(drawn, MAX_DOT_NODES, "DOT output")
    elif drawing == "tikz":
        check_size(drawn, MAX_TIKZ_NODES, "a TikZ drawing")
    else:
        check_size(drawn, MAX_SVG_NODES, "an SVG drawing")


def check_size(drawn: int, limit: int, what: str) -> None:
    if drawn > limit:
        raise LimitExceededError(
            f"{what} is offered for up to {limit} nodes drawn; this one would draw {drawn} "
            "(collapse subtrees, or set max_depth_drawn or max_nodes_drawn)",
            "/tree",
        )


def edge_label(tree: Tree, child: int) -> str:
    parts: list[str] = []
    move = tree.moves[child]
    if move is not None:
        parts.append(move)
    parent = tree.parents[child]
    chance = tree.probabilities[child]
    if parent >= 0 and tree.kinds[parent] == CHANCE and chance is not None:
        parts.append(f"p={_exact(chance)}")
    return " ".join(parts)


def legend_entries(solved: SolvedTree, drawn: DrawnTree, grey: set[int]) -> list[str]:
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


# -- layout: shared by the SVG and TikZ drawings ----------------------------------


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
