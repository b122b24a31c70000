"""Texts from the input (ids, moves, the title) holding control characters, line breaks,
quotes and backslashes, in every drawing format: the SVG stays XML, each DOT string stays
one string, each TikZ node one line."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from analysis.trees.dot_drawing import render_dot
from analysis.trees.drawing import DrawingOptions, SolvedTree, printable, solution_drawing
from analysis.trees.solve import solve_tree
from analysis.trees.svg_drawing import render_svg
from analysis.trees.tikz_drawing import render_tikz
from games.trees.parser import parse_tree

SVG_NS = "{http://www.w3.org/2000/svg}"

IDS = ["a\x00b", "a\x1bb", "a\x0cb", "a\x7fb", "a\ufffeb", "a\uffffb", "a\ud800b", "a\\"]
"""Ids XML cannot hold (NUL, ESC, form feed, U+FFFE, U+FFFF, a lone surrogate), DEL, and
a trailing backslash (which must not escape the quote closing a DOT string)."""

MOVES = [f'move {n}\r\n\n\\par "x"\x1b[31m\ty\\' for n in range(len(IDS))]
"""Moves with a blank line, ``\\par``, quotes, an escape sequence, a tab and a trailing
backslash."""

TITLE = "Title\x00 on\none line"


def drawing() -> SolvedTree:
    tree = parse_tree(
        {
            "id": "root\r\n",
            "children": [
                {"id": node_id, "move": move, "value": n}
                for n, (node_id, move) in enumerate(zip(IDS, MOVES, strict=True))
            ],
        }
    )
    return solution_drawing(solve_tree(tree, "minimax"), TITLE)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\x00b", "ab"),
        ("a\x1bb", "ab"),
        ("a\x0cb", "a b"),
        ("a\r\nb", "a b"),
        ("a\n\nb", "a  b"),
        ("a\tb\x7f\x85c", "a b c"),
        ("\ud800x\ufffey\uffff", "xy"),
        ("≤ 7/2 über", "≤ 7/2 über"),
    ],
)
def test_printable_keeps_a_text_on_one_line_without_control_characters(
    text: str, shown: str
) -> None:
    assert printable(text) == shown


@pytest.mark.parametrize("toggles", [False, True])
def test_svg_parses_as_xml_whatever_the_ids_and_moves_hold(toggles: bool) -> None:
    svg = render_svg(drawing(), DrawingOptions(toggles=toggles))
    root = ET.fromstring(svg)  # raises on any character XML cannot hold
    node_ids = [
        g.attrib["data-node-id"] for g in root.iter(f"{SVG_NS}g") if "data-node-id" in g.attrib
    ]
    assert node_ids == ["root ", "ab", "ab", "a b", "ab", "ab", "ab", "ab", "a\\"]
    moves = [t.text for t in root.iter(f"{SVG_NS}text") if t.attrib.get("class") == "edge-label"]
    assert moves == [f'move {n}  \\par "x"[31m y\\' for n in range(len(IDS))]
    assert "Title on one line" in [t.text for t in root.iter(f"{SVG_NS}text")]
    if toggles:
        labels = [
            g.attrib["aria-label"] for g in root.iter(f"{SVG_NS}g") if "data-toggle" in g.attrib
        ]
        assert labels == ["Collapse the subtree of root "]


# a quoted DOT string as Graphviz reads it: a backslash takes the next character with it
_DOT_STRING = r'"(?:[^"\\\n]|\\.)*"'
_DOT_TOKEN = re.compile(rf"\s*({_DOT_STRING}|->|[\[\]=,;{{}}]|[A-Za-z_][\w.]*|[-\d.]+|#\w+)")


def dot_tokens(line: str) -> list[str]:
    """The tokens of a line of DOT; fails if part of the line is no token."""
    tokens, at = [], 0
    while at < len(line.rstrip()):
        match = _DOT_TOKEN.match(line, at)
        assert match is not None, f"not DOT from {line[at:]!r}"
        tokens.append(match.group(1))
        at = match.end()
    return tokens


def dot_string(token: str) -> str:
    """What a quoted DOT label says: ``\\n`` a line break, any other escaped character itself."""
    assert token.startswith('"') and token.endswith('"')
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), token[1:-1])


def test_each_dot_text_stays_one_quoted_string() -> None:
    dot = render_dot(drawing())
    lines = dot.splitlines()
    # a header of four lines, one line per node and per edge, the closing brace
    assert len(lines) == 4 + 9 + 8 + 1
    # ids that differ only in characters a label drops still name different nodes
    names = [dot_tokens(line)[0] for line in lines[4:13]]
    assert len(set(names)) == 9
    assert names[:3] == ['"root\\u000d\\u000a"', '"a\\u0000b"', '"a\\u001bb"']
    assert names[-1] == '"a\\\\"'
    edges = [dot_tokens(line) for line in lines[13:-1]]
    for n, (parent, arrow, child, *attributes) in enumerate(edges):
        assert (parent, arrow, child) == (names[0], "->", names[n + 1])
        assert (attributes[:3], attributes[-2:]) == (["[", "label", "="], ["]", ";"])
        assert dot_string(attributes[3]) == printable(MOVES[n])
    xlabels = [
        dot_string(tokens[tokens.index("xlabel") + 2]) for tokens in map(dot_tokens, lines[4:13])
    ]
    assert xlabels == ["root ", "ab", "ab", "a b", "ab", "ab", "ab", "ab", "a\\"]
    assert 'label="Title on one line"' in lines[1]


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graphviz_reads_the_dot_and_draws_each_move_on_one_line() -> None:
    drawn = subprocess.run(
        ["dot", "-Tsvg"], input=render_dot(drawing()), capture_output=True, text=True, check=True
    )
    # (Graphviz keeps a run of spaces as no-break spaces)
    texts = [" ".join(t.text.split()) for t in ET.fromstring(drawn.stdout).iter(f"{SVG_NS}text")]
    for move in MOVES:
        assert " ".join(printable(move).split()) in texts


def test_tikz_nodes_stay_on_one_line_with_their_text_escaped() -> None:
    text = render_tikz(drawing(), DrawingOptions(legend=False))
    lines = text.splitlines()
    assert "" not in lines  # a blank line would end the paragraph inside a node
    assert all(character.isprintable() for line in lines for character in line)
    assert len([line for line in lines if line.lstrip().startswith(r"\node[")]) == 1 + 9
    edges = [line for line in lines if line.lstrip().startswith(r"\draw[")]
    assert edges[0].endswith(
        r"node[edgelabel, midway] {move 0  \textbackslash{}par "
        r'"x"[31m y\textbackslash{}} (n1);'
    )
    assert r"\par" not in text.replace(r"\textbackslash{}par", "")
    assert r"label={[id]above right:a\textbackslash{}}" in text
    assert r"{Title on one line}" in text
    assert text.count("{") == text.count("}")
