"""DOT and SVG drawings of solved trees, from hand-made solutions."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from analysis.trees.dot_drawing import (
    render_dot,
)
from analysis.trees.drawing import (
    MAX_SVG_NODES,
    MAX_TIKZ_NODES,
    DrawingOptions,
    check_drawable,
    layout,
    solution_drawing,
    solved_tree,
    unsolved_tree,
    value_label,
)
from analysis.trees.renderers import RENDERERS
from analysis.trees.solve import solve_tree
from analysis.trees.svg_drawing import (
    render_svg,
)
from analysis.trees.tikz_drawing import (
    render_tikz,
)
from games.errors import LimitExceededError
from games.trees.parser import parse_tree

SVG_NS = "{http://www.w3.org/2000/svg}"


# AIMA Figure 5.5, solved by hand with alpha-beta: MIN values 3, <= 2 (pruned after
# its first leaf 2), 2; root 3 along root -> root.0 -> root.0.0.
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


AIMA_VALUES = [3, 3, 2, 2, 3, 12, 8, 2, None, None, 14, 5, 2]


AIMA_BOUNDS = ["exact", "exact", "upper", "exact"] + ["exact"] * 4 + [None, None] + ["exact"] * 3


def aima_solution() -> object:
    tree = parse_tree(AIMA)
    return solved_tree(
        tree,
        AIMA_VALUES,
        [1, 4],
        pruned=[8, 9],
        bounds=AIMA_BOUNDS,
        title="AIMA Figure 5.5",
    )


def nodes_by_class(svg: str, name: str) -> set[str]:
    root = ET.fromstring(svg)
    return {
        element.attrib["data-id"]
        for element in root.iter(f"{SVG_NS}g")
        if name in element.attrib.get("class", "").split()
    }


def test_svg_is_well_formed_with_values_pv_and_pruned_nodes() -> None:
    svg = render_svg(aima_solution())  # type: ignore[arg-type]
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    values = [t.text for t in root.iter(f"{SVG_NS}text") if t.attrib.get("class") == "value"]
    assert values == ["3", "3", "≤ 2", "2", "3", "12", "8", "2", "4", "6", "14", "5", "2"]
    assert nodes_by_class(svg, "pv") == {"root", "root.0", "root.0.0"}
    assert nodes_by_class(svg, "pruned") == {"root.1.1", "root.1.2"}
    assert nodes_by_class(svg, "max") == {"root"}
    assert nodes_by_class(svg, "min") == {"root.0", "root.1", "root.2"}
    pv_edges = {
        line.attrib["data-id"]
        for line in root.iter(f"{SVG_NS}line")
        if "pv" in line.attrib["class"].split()
    }
    assert pv_edges == {"root.0", "root.0.0"}
    assert "AIMA Figure 5.5" in svg


def test_dot_mentions_every_node_and_marks_pv_and_pruned() -> None:
    solution = aima_solution()
    dot = render_dot(solution)  # type: ignore[arg-type]
    assert dot.startswith("digraph tree {") and dot.rstrip().endswith("}")
    for node_id in parse_tree(AIMA).ids:
        assert f'"{node_id}" [' in dot
    assert '"root" [shape=triangle, label="3"' in dot
    assert '"root.1" [shape=invtriangle, label="≤ 2"' in dot
    assert '"root" -> "root.0" [color="#d62728", penwidth=2.5];' in dot
    assert '"root.1" -> "root.1.1" [color="#a0a0a0"' in dot
    assert dot.count("->") == 12


def test_chance_max_n_labels_and_escaping() -> None:
    tree = parse_tree(
        {
            "id": 'a "quoted" <root> & co',
            "kind": "chance",
            "children": [
                {
                    "p": "1/3",
                    "move": "heads",
                    "player": 1,
                    "children": [{"value": [1, "7/2"]}, {"value": [0, 0]}],
                },
                {"p": "2/3", "value": [2, 1]},
            ],
        }
    )
    values = [
        (Fraction(4, 3), Fraction(5, 3)),
        (1, Fraction(7, 2)),
        (2, 1),
        (1, Fraction(7, 2)),
        (0, 0),
    ]
    solution = solved_tree(tree, values, [1, 3])
    svg = render_svg(solution)
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG_NS}text")]
    assert "(4/3, 5/3)" in texts and "(1, 7/2)" in texts
    assert "heads p=1/3" in texts
    assert "P2" in texts  # player 1, 0-based, is the second player
    assert nodes_by_class(svg, "chance") == {'a "quoted" <root> & co'}
    dot = render_dot(solution)
    assert '"a \\"quoted\\" <root> & co" [shape=circle' in dot
    assert 'label="heads p=1/3"' in dot
    assert 'label="P2\\n(1, 7/2)"' in dot


def test_layout_spaces_leaves_and_centres_parents() -> None:
    # leaves root.0.0, root.0.1, root.1.0, root.1.1, root.1.2 take slots 0..4
    places = layout(parse_tree([[1, 2], [3, 4, 5]]))
    assert places.x == [1.75, 0.5, 3.0, 0.0, 1.0, 2.0, 3.0, 4.0]
    assert places.y == [0, 1, 1, 2, 2, 2, 2, 2]
    assert places.slots == 5


def test_uneven_tree_keeps_leaf_order() -> None:
    # root -> [leaf 1, [2, 3]]: leaves in order root.0, root.1.0, root.1.1
    places = layout(parse_tree([1, [2, 3]]))
    assert places.x == [0.75, 0.0, 1.5, 1.0, 2.0]


def test_unsolved_tree_shows_leaf_values_and_evals() -> None:
    tree = parse_tree({"children": [{"eval": "1/2", "children": [4]}, 5]})
    labels = unsolved_tree(tree).labels
    assert labels == [None, "1/2", "5", "4"]
    assert ET.fromstring(render_svg(unsolved_tree(tree))) is not None


def test_value_labels() -> None:
    assert value_label(Fraction(7, 2)) == "7/2"
    assert value_label(-3, "lower") == "≥ -3"
    assert value_label((1, Fraction(-1, 3))) == "(1, -1/3)"
    assert value_label(None) is None


def test_size_limit() -> None:
    tree = parse_tree([list(range(MAX_SVG_NODES))])
    with pytest.raises(LimitExceededError) as caught:
        render_svg(unsolved_tree(tree))
    assert "2000 nodes" in caught.value.message
    assert caught.value.errors[0].pointer == "/tree"
    assert render_dot(unsolved_tree(tree)).count("->") == MAX_SVG_NODES + 1


# -- TikZ ---------------------------------------------------------------------


def _tikz(raw: object, algorithm: str = "alphabeta", title: str = "") -> str:
    drawing = solution_drawing(solve_tree(parse_tree(raw), algorithm), title)
    return render_tikz(drawing, DrawingOptions(legend=False))


def test_tikz_draws_the_aima_tree_as_the_svg_lays_it_out() -> None:
    text = _tikz([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    lines = text.splitlines()
    assert lines[3].startswith(r"\begin{tikzpicture}") and lines[-1] == r"\end{tikzpicture}"
    nodes = [line for line in lines if line.lstrip().startswith(r"\node[")]
    edges = [line for line in lines if line.lstrip().startswith(r"\draw[")]
    assert len(nodes) == 13 and len(edges) == 12
    # the root sits over the middle leaf slot (4 of 0..8), MIN nodes at slots 1, 4, 7
    assert (
        r"\node[max, best, label={[id]above right:root}] (n0) at (4, 0) {3};"
        in lines[lines.index(nodes[0])]
    )
    assert r"(n2) at (4, 1) {$\leq$ 2};" in nodes[2] and nodes[2].lstrip().startswith(r"\node[min,")
    # the principal variation root -> root.0 -> root.0.0 is red; root.1.1 and root.1.2 are grey
    assert r"\draw[edge, best] (n0) -- (n1);" in text
    assert r"\draw[edge, best] (n1) -- (n4);" in text
    assert sum("pruned" in line for line in nodes) == 2
    assert sum("pruned" in line for line in edges) == 2
    # every brace opened is closed
    assert text.count("{") == text.count("}")


def test_tikz_escapes_every_text_from_the_input() -> None:
    tree = {
        "id": "a_b",
        "children": [
            {"id": "50%", "move": "x&y", "value": 1},
            {"id": r"\input{/etc/passwd}", "move": "$#^~", "value": 2},
        ],
    }
    text = _tikz(tree, "minimax", title="{Game} #1")
    assert r"a\_b" in text and r"50\%" in text and r"x\&y" in text
    assert r"\textbackslash{}input\{/etc/passwd\}" in text
    assert r"\$\#\textasciicircum{}\textasciitilde{}" in text
    assert r"\{Game\} \#1" in text
    assert r"\input{" not in text


def test_tikz_shapes_chance_and_player_nodes() -> None:
    chance = _tikz(
        {"kind": "chance", "children": [{"p": "1/3", "value": 3}, {"p": "2/3", "value": 0}]},
        "expectimax",
    )
    assert r"\node[chance, best" in chance and "{1};" in chance
    assert r"node[edgelabel, midway] {p=1/3}" in chance
    players = _tikz({"player": 0, "children": [{"value": [1, 2]}, {"value": [3, 0]}]}, "maxn")
    assert (
        r"\node[player, best, label={[id]above right:root}] (n0) at (0.5, 0) {P1: (3, 0)};"
        in players
    )


def test_tikz_is_refused_past_its_size_limit() -> None:
    with pytest.raises(LimitExceededError):
        check_drawable(parse_tree(list(range(MAX_TIKZ_NODES))), "tikz")


def test_every_format_draws_aima_5_2_with_its_values_and_ids() -> None:
    """Each writer the API and ``arbiter render`` offer draws the whole tree: the leaf
    values, the MIN values 3 and 2 (root.1 and root.2 are worth 2) and every node's id."""
    solved = solution_drawing(solve_tree(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])))
    assert set(RENDERERS) == {"svg", "dot", "tikz"}
    for fmt, render in RENDERERS.items():
        text = render(solved, DrawingOptions())
        for value in ("3", "12", "8", "2", "4", "6", "14", "5"):
            assert value in text, (fmt, value)
        for node_id in ("root.0", "root.1.2", "root.2.0"):
            assert node_id in text, (fmt, node_id)
