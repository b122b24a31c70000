"""Drawing options for handouts and big trees: ties, node letters, the legend, collapsed
subtrees, and labels that keep clear of edges and of each other.

Expected answers are worked out by hand from the trees below (AIMA figure 5.2 and small
trees whose ties are plain to see)."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from analysis.trees.dot_drawing import (
    render_dot,
)
from analysis.trees.drawing import (
    MAX_SVG_NODES,
    DrawingOptions,
    check_drawable,
    drawn_tree,
    letter_name,
    solution_drawing,
    tied_children,
    unsolved_tree,
)
from analysis.trees.solve import solve_tree
from analysis.trees.svg_drawing import (
    render_svg,
)
from analysis.trees.tikz_drawing import (
    render_tikz,
)
from games.errors import InvalidInputError, LimitExceededError
from games.trees.parser import parse_tree

SVG = "{http://www.w3.org/2000/svg}"
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

# MAX over three MIN nodes: root.0 = min(3, 5) = 3, root.1 = min(3, 4) = 3, root.2 = 1.
# root.0 and root.1 are both worth 3 to MAX: root.0 is chosen (leftmost), root.1 ties.
TIED = [[3, 5], [3, 4], [1, 9]]


def svg_of(raw: object, algorithm: str, options: DrawingOptions, **solve: object) -> str:
    solution = solve_tree(parse_tree(raw), algorithm, **solve)  # type: ignore[arg-type]
    return render_svg(solution_drawing(solution), options)


def states(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {
        g.attrib["data-node-id"]: g.attrib.get("data-state", "")
        for g in root.iter(f"{SVG}g")
        if "data-node-id" in g.attrib
    }


# -- ties ---------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["minimax", "expectimax"])
def test_a_child_as_good_as_the_chosen_one_is_a_tie(algorithm: str) -> None:
    solution = solve_tree(parse_tree(TIED), algorithm)
    assert solution.best_moves == ("root.0", "root.1")
    assert tied_children(solution) == {2}  # root.1 in level order
    found = states(render_svg(solution_drawing(solution)))
    assert found["root.0"] == "visited best" and found["root.1"] == "visited tie"
    assert found["root.2"] == "visited" and found["root.1.0"] == "visited"


def test_ties_below_the_root_are_found_along_the_best_line() -> None:
    # root.0 is MIN over leaves 2, 2, 7: root.0.0 chosen, root.0.1 ties; root.1 = 1
    solution = solve_tree(parse_tree([[2, 2, 7], [1, 8]]), "minimax")
    assert solution.best_moves == ("root.0",)
    found = states(render_svg(solution_drawing(solution)))
    assert found["root.0.0"] == "visited best" and found["root.0.1"] == "visited tie"
    assert found["root.0.2"] == "visited"


def test_alpha_beta_marks_only_the_ties_it_proves() -> None:
    tree = parse_tree(TIED)
    # AIMA's rule (prune on equality) cuts root.1 at its first leaf 3 <= alpha = 3: root.1
    # is only known to be <= 3, so it is not marked; CS188's strict rule evaluates it fully
    aima = solution_drawing(solve_tree(tree, "alphabeta"))
    assert aima.ties == frozenset()
    strict = solution_drawing(solve_tree(tree, "alphabeta", prune_on_equality=False))
    assert strict.ties == {2}


def test_max_n_ties_in_the_movers_utility() -> None:
    # player 0 moves: (2, 1) and (2, 5) are both worth 2 to player 0; (1, 9) is not
    raw = {"player": 0, "children": [{"value": [2, 1]}, {"value": [2, 5]}, {"value": [1, 9]}]}
    found = states(svg_of(raw, "maxn", DrawingOptions()))
    assert found["root.0"] == "visited best" and found["root.1"] == "visited tie"
    assert found["root.2"] == "visited"


def test_ties_are_drawn_in_dot_and_tikz_too() -> None:
    drawing = solution_drawing(solve_tree(parse_tree(TIED), "minimax"))
    dot = render_dot(drawing)
    assert '"root.1" [shape=invtriangle, label="3", xlabel="root.1", color="#e67e00"' in dot
    assert '"root" -> "root.1" [color="#e67e00", penwidth=1.5, style=dashed];' in dot
    tikz = render_tikz(drawing)
    assert r"\node[min, tie, label={[id]above right:root.1}] (n2)" in tikz
    assert r"\draw[edge, tie] (n0) -- (n2);" in tikz
    assert r"tie: as good as the best" in tikz  # the legend explains it


# -- node names ---------------------------------------------------------------


def test_letters_run_as_spreadsheet_columns() -> None:
    assert [letter_name(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA",
    ]  # fmt: skip


def node_names(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    names = {}
    for g in root.iter(f"{SVG}g"):
        if "data-node-id" in g.attrib:
            texts = [t.text for t in g.iter(f"{SVG}text") if t.attrib.get("class") == "node-id"]
            names[g.attrib["data-node-id"]] = (texts[0] if texts else "") or ""
    return names


def test_letters_name_aima_figure_5_2_as_the_book_does() -> None:
    # AIMA figure 5.2: MAX node A over the MIN nodes B, C, D, then the leaves in order
    names = node_names(svg_of(AIMA, "minimax", DrawingOptions(node_labels="letters")))
    assert names["root"] == "A"
    assert [names[f"root.{k}"] for k in range(3)] == ["B", "C", "D"]
    assert [names[f"root.{k}.{j}"] for k in range(3) for j in range(3)] == list("EFGHIJKLM")
    dot = render_dot(
        solution_drawing(solve_tree(parse_tree(AIMA), "minimax")),
        DrawingOptions(node_labels="letters"),
    )
    assert '"root.2" [shape=invtriangle, label="2", xlabel="D"' in dot
    tikz = render_tikz(
        solution_drawing(solve_tree(parse_tree(AIMA), "minimax")),
        DrawingOptions(node_labels="letters"),
    )
    assert r"\node[min, label={[id]above right:C}] (n2)" in tikz


def test_names_hidden_or_as_ids() -> None:
    hidden = node_names(svg_of(AIMA, "minimax", DrawingOptions(node_labels="none")))
    assert set(hidden.values()) == {""} and len(hidden) == 13
    ids = node_names(svg_of(AIMA, "minimax", DrawingOptions()))
    assert all(name == node for node, name in ids.items())
    dot = render_dot(
        solution_drawing(solve_tree(parse_tree(AIMA), "minimax")),
        DrawingOptions(node_labels="none"),
    )
    assert "xlabel" not in dot
    with pytest.raises(InvalidInputError):
        check_drawable(parse_tree(AIMA), "svg", DrawingOptions(node_labels="roman"))


# -- the legend ---------------------------------------------------------------


def legend_entries(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [g.attrib["data-legend"] for g in root.iter(f"{SVG}g") if "data-legend" in g.attrib]


def test_the_legend_lists_what_the_drawing_shows_below_the_tree() -> None:
    svg = svg_of(AIMA, "alphabeta", DrawingOptions())
    assert legend_entries(svg) == ["max", "min", "leaf", "best", "pruned"]
    tied = svg_of(TIED, "minimax", DrawingOptions())
    assert legend_entries(tied) == ["max", "min", "leaf", "best", "tie"]
    chance = {"kind": "chance", "children": [{"p": "1/2", "value": 1}, {"p": "1/2", "value": 3}]}
    assert legend_entries(svg_of(chance, "expectimax", DrawingOptions())) == [
        "chance",
        "leaf",
        "best",
    ]
    # the legend starts below the lowest text of the tree and inside the picture
    root = ET.fromstring(svg)
    height = float(root.attrib["height"])
    legend_top = min(y for y in _ys(root, legend=True))
    assert legend_top > max(_ys(root, legend=False)) and max(_ys(root, legend=True)) < height
    assert legend_entries(svg_of(AIMA, "alphabeta", DrawingOptions(legend=False))) == []


def _ys(root: ET.Element, legend: bool) -> Iterator[float]:
    """The y of every text, inside or outside the legend."""
    inside = {id(t) for g in root.iter(f"{SVG}g") if "legend" in g.attrib.get("class", "").split()
              for t in g.iter(f"{SVG}text")}  # fmt: skip
    for text in root.iter(f"{SVG}text"):
        if (id(text) in inside) == legend and text.text:
            yield float(text.attrib["y"])


def test_dot_has_a_legend_only_when_asked() -> None:
    drawing = solution_drawing(solve_tree(parse_tree(AIMA), "alphabeta"))
    assert "Legend" not in render_dot(drawing)
    dot = render_dot(drawing, DrawingOptions(legend=True))
    assert 'subgraph "cluster_legend"' in dot and "pruned: never searched" in dot
    assert '"root.2.2" -> "legend" [style=invis];' in dot


# -- collapsed subtrees ---------------------------------------------------------


def test_a_collapsed_subtree_is_a_triangle_with_its_node_count() -> None:
    svg = svg_of(AIMA, "minimax", DrawingOptions(collapsed=("root.1",)))
    root = ET.fromstring(svg)
    nodes = {
        g.attrib["data-node-id"]: g for g in root.iter(f"{SVG}g") if "data-node-id" in g.attrib
    }
    assert set(nodes) == {"root", "root.0", "root.1", "root.2"} | {
        f"root.{k}.{j}" for k in (0, 2) for j in range(3)
    }
    folded = nodes["root.1"]
    assert folded.attrib["data-collapsed"] == "true" and folded.attrib["data-hidden"] == "3"
    assert folded.attrib["data-state"] == "visited"  # root.1 keeps its state and value
    assert [t.text for t in folded.iter(f"{SVG}text") if t.attrib.get("class") == "value"] == ["2"]
    assert "3" in [t.text for g in folded.iter(f"{SVG}g") for t in g.iter(f"{SVG}text")]
    assert root.attrib["data-drawn"] == "10" and root.attrib["data-nodes"] == "13"
    assert "collapsed" in legend_entries(svg)


def test_max_depth_drawn_collapses_below_a_depth_and_expanded_opens_one() -> None:
    tree = parse_tree(AIMA)
    drawn = drawn_tree(tree, DrawingOptions(max_depth_drawn=1))
    assert drawn.shown == [0, 1, 2, 3] and drawn.folds == {1: 3, 2: 3, 3: 3}
    opened = drawn_tree(tree, DrawingOptions(max_depth_drawn=1, expanded=("root.2",)))
    assert opened.shown == [0, 1, 2, 3, 10, 11, 12] and set(opened.folds) == {1, 2}
    assert drawn_tree(tree, DrawingOptions(max_depth_drawn=0)).folds == {0: 12}


def test_max_nodes_drawn_picks_the_deepest_depth_that_fits() -> None:
    # 1 + 10 + 100 + 1000 nodes: 111 fit within 500, 1111 do not
    tree = parse_tree([[[0] * 10 for _ in range(10)] for _ in range(10)])
    drawn = drawn_tree(tree, DrawingOptions(max_nodes_drawn=500))
    assert drawn.depth_drawn == 2 and len(drawn.shown) == 111 and len(drawn.folds) == 100
    assert set(drawn.folds.values()) == {10}
    whole = drawn_tree(tree, DrawingOptions(max_nodes_drawn=1111))
    assert whole.folds == {} and whole.depth_drawn is None


def test_a_tree_too_big_to_draw_is_drawn_when_collapsed() -> None:
    tree = parse_tree([[k, k + 1] for k in range(MAX_SVG_NODES)])  # 1 + 2000 + 4000 nodes
    with pytest.raises(LimitExceededError):
        check_drawable(tree, "svg")
    options = DrawingOptions(max_nodes_drawn=MAX_SVG_NODES)
    check_drawable(tree, "svg", options)
    svg = render_svg(unsolved_tree(tree), options)
    root = ET.fromstring(svg)
    assert root.attrib["data-drawn"] == "1" and root.attrib["data-depth-drawn"] == "0"
    assert root.attrib["data-nodes"] == str(len(tree))


def test_an_unknown_id_to_collapse_is_refused_with_its_position() -> None:
    with pytest.raises(InvalidInputError) as caught:
        check_drawable(parse_tree(AIMA), "svg", DrawingOptions(collapsed=("root.1", "nope")))
    assert caught.value.errors[0].pointer == "/collapsed/1"
    assert "'nope'" in caught.value.message


def test_toggles_collapse_open_nodes_and_expand_collapsed_ones() -> None:
    svg = svg_of(AIMA, "minimax", DrawingOptions(collapsed=("root.1",), toggles=True))
    root = ET.fromstring(svg)
    toggles = {
        g.attrib["data-toggle"]: g.attrib["aria-label"].split()[0]
        for g in root.iter(f"{SVG}g")
        if "data-toggle" in g.attrib
    }
    assert toggles == {
        "root": "Collapse",
        "root.0": "Collapse",
        "root.1": "Expand",
        "root.2": "Collapse",
    }
    # the sign: a minus (one stroke) on open nodes, a plus (two) on the collapsed one
    signs = {
        g.attrib["data-toggle"]: next(g.iter(f"{SVG}path")).attrib["d"].count("M")
        for g in root.iter(f"{SVG}g")
        if "data-toggle" in g.attrib
    }
    assert signs == {"root": 1, "root.0": 1, "root.1": 2, "root.2": 1}
    assert "data-toggle" not in svg_of(AIMA, "minimax", DrawingOptions())


# -- labels clear of edges and of each other --------------------------------------

LONG = {
    "kind": "chance",
    "children": [
        {
            "p": "1/3",
            "move": "a rather long move name",
            "children": [
                {"move": "left all the way", "value": 3},
                {"move": "straight on", "value": "7/2"},
                {"move": "right", "value": -1},
            ],
        },
        {
            "p": "2/3",
            "move": "tails",
            "kind": "min",
            "children": [{"move": "x", "value": 1}, {"move": "a second long one", "value": 2}],
        },
        {"p": "0", "move": "never", "value": 100},
    ],
}
Box = tuple[float, float, float, float]


def _boxes(root: ET.Element) -> list[Box]:
    """Every text's box (width as the renderer's generous 0.62 em a character, the
    glyphs' height from the baseline up 0.8 em and down 0.25 em), and every label box."""
    boxes = []
    for text in root.iter(f"{SVG}text"):
        if not text.text:
            continue
        size = float(text.attrib["font-size"])
        width = len(text.text) * size * 0.62
        x, y = float(text.attrib["x"]), float(text.attrib["y"])
        anchor = text.attrib.get("text-anchor", "start")
        left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        boxes.append((left, y - 0.8 * size, left + width, y + 0.25 * size))
    return boxes


def _crosses(box: Box, line: tuple[float, float, float, float]) -> bool:
    """Whether the segment meets the box (sampled finely: a pixel apart)."""
    x1, y1, x2, y2 = line
    steps = int(max(abs(x2 - x1), abs(y2 - y1))) + 1
    left, top, right, bottom = box
    for k in range(steps + 1):
        x, y = x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps
        if left <= x <= right and top <= y <= bottom:
            return True
    return False


def _apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("node_labels", ["ids", "letters"])
def test_no_label_touches_an_edge_or_another_label(node_labels: str) -> None:
    svg = svg_of(LONG, "expectimax", DrawingOptions(node_labels=node_labels, toggles=True))
    root = ET.fromstring(svg)
    tree_texts = [
        t for g in root.iter(f"{SVG}g") if "data-node-id" in g.attrib for t in g.iter(f"{SVG}text")
    ]
    assert any(t.text == "a rather long move name p=1/3" for t in tree_texts)
    edges = [
        tuple(float(line.attrib[k]) for k in ("x1", "y1", "x2", "y2"))
        for line in root.iter(f"{SVG}line")
        if "edge" in line.attrib.get("class", "").split()
    ]
    assert len(edges) == 8
    boxes = _boxes(root)
    assert len(boxes) > 20
    for box in boxes:
        for edge in edges:
            assert not _crosses(box, edge), (box, edge)  # type: ignore[arg-type]
    # texts of different nodes never overlap (a node's value sits inside its own shape)
    owners = []
    for g in root.iter(f"{SVG}g"):
        if "data-node-id" in g.attrib:
            owners += [(g.attrib["data-node-id"], box) for box in _boxes(g)]
    for (one, a), (other, b) in itertools.combinations(owners, 2):
        if one != other:
            assert _apart(a, b), (one, a, other, b)


def test_the_count_under_a_collapsed_node_covers_uneven_and_reordered_subtrees() -> None:
    # root.0 is a leaf, root.1 has a leaf and a node with two leaves: 6 nodes below the root
    tree = parse_tree([1, [2, [3, 4]]])
    assert drawn_tree(tree, DrawingOptions(collapsed=("root",))).folds == {0: 6}
    assert drawn_tree(tree, DrawingOptions(collapsed=("root.1",))).folds == {2: 4}
    backwards = tree.reversed_children()  # children as descending ranges: walked instead
    assert drawn_tree(backwards, DrawingOptions(collapsed=("root",))).folds == {0: 6}
