"""The bare problem drawn for a handout (``bare: true`` of ``/v1/trees/render``): the tree,
its kinds and its leaf values, none of the answer.

AIMA figure 5.2, ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``: the MIN nodes are worth 3, 2 and 2
and the MAX root 3; alpha-beta bounds the middle node by ``≤ 2`` and prunes root.1.1 and
root.1.2. None of these may show on the bare drawing, whatever ``algorithm`` says.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from analysis.cli import main
from tests.analysis.trees.test_drawing_text import IDS, MOVES, TITLE

SVG = "{http://www.w3.org/2000/svg}"
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
LEAVES = {
    "root.0.0": "3",
    "root.0.1": "12",
    "root.0.2": "8",
    "root.1.0": "2",
    "root.1.1": "4",
    "root.1.2": "6",
    "root.2.0": "14",
    "root.2.1": "5",
    "root.2.2": "2",
}
INTERNAL = ["root", "root.0", "root.1", "root.2"]


def render(client: FlaskClient, **body: object) -> str:
    response = client.post("/v1/trees/render", json={"tree": AIMA, **body})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def svg_values(svg: str) -> dict[str, list[str]]:
    """Each drawn node's value texts (its label inside the shape), by id."""
    return {
        g.attrib["data-node-id"]: [
            t.text or "" for t in g.iter(f"{SVG}text") if t.attrib.get("class") == "value"
        ]
        for g in ET.fromstring(svg).iter(f"{SVG}g")
        if "data-node-id" in g.attrib
    }


def tikz_values(tikz: str) -> dict[str, str]:
    """Each TikZ node's text, by the id in its label."""
    node = r"\\node\[[^\n]*above right:([^}\]]*)\}\] \(n\d+\) at [^{]*\{([^}]*)\};"
    return dict(re.findall(node, tikz))


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax", "none", "auto"])
def test_the_bare_svg_shows_the_leaf_values_and_nothing_of_the_answer(
    client: FlaskClient, algorithm: str
) -> None:
    solved = svg_values(render(client, algorithm="alphabeta"))
    assert [solved[node] for node in INTERNAL] == [["3"], ["3"], ["≤ 2"], ["2"]]
    svg = render(client, algorithm=algorithm, bare=True)
    values = svg_values(svg)
    assert {node: values[node] for node in LEAVES} == {n: [v] for n, v in LEAVES.items()}
    assert all(values[node] == [] for node in INTERNAL)
    root = ET.fromstring(svg)
    classes = {c for g in root.iter(f"{SVG}g") for c in g.attrib.get("class", "").split()}
    assert not classes & {"pv", "pruned", "tie"}
    states = {g.attrib["data-state"] for g in root.iter(f"{SVG}g") if "data-state" in g.attrib}
    assert states == {""}
    legend = {g.attrib["data-legend"] for g in root.iter(f"{SVG}g") if "data-legend" in g.attrib}
    assert legend == {"max", "min", "leaf"}


def test_the_bare_tikz_shows_the_leaf_values_and_nothing_of_the_answer(
    client: FlaskClient,
) -> None:
    solved = tikz_values(render(client, algorithm="alphabeta", format="tikz"))
    assert [solved[node] for node in INTERNAL] == ["3", "3", r"$\leq$ 2", "2"]
    tikz = render(client, algorithm="alphabeta", format="tikz", bare=True)
    values = tikz_values(tikz)
    assert {node: values[node] for node in LEAVES} == LEAVES
    assert [values[node] for node in INTERNAL] == ["", "", "", ""]
    drawn = [line for line in tikz.splitlines() if line.lstrip().startswith(("\\node", "\\draw"))]
    assert not [line for line in drawn if re.search(r"\b(best|pruned|tie)\b", line)]
    assert "best line" not in tikz and "pruned:" not in tikz
    assert tikz.endswith("\\end{tikzpicture}\n")


def test_the_bare_dot_is_the_unsolved_tree(client: FlaskClient) -> None:
    dot = render(client, algorithm="alphabeta", format="dot", bare=True)
    labels = dict(re.findall(r'"(root[.\d]*)" \[shape=\w+, label="([^"]*)"', dot))
    assert {node: labels[node] for node in LEAVES} == LEAVES
    assert [labels[node] for node in INTERNAL] == ["", "", "", ""]
    assert "#d62728" not in dot.lower()  # no best line


def test_a_bare_problem_with_a_cutoff_shows_the_evals_there_and_nothing_below(
    client: FlaskClient,
) -> None:
    # a depth-1 problem: the MIN nodes are the search's leaves, valued by their evals
    # (5 and 7); an eval above the cutoff (the root's 99) is no part of the problem
    tree = {
        "eval": 99,
        "children": [
            {"eval": 5, "children": [1, 2]},
            {"eval": 7, "children": [3, 4]},
        ],
    }
    response = client.post("/v1/trees/render", json={"tree": tree, "depth": 1, "bare": True})
    assert response.status_code == 200
    values = svg_values(response.get_data(as_text=True))
    assert values == {"root": [], "root.0": ["5"], "root.1": ["7"]}
    # without the cutoff, the same tree's bare problem is its leaves
    response = client.post("/v1/trees/render", json={"tree": tree, "bare": True})
    values = svg_values(response.get_data(as_text=True))
    assert values["root"] == values["root.0"] == [] and values["root.1.1"] == ["4"]


@pytest.mark.parametrize("form", ["svg", "tikz"])
def test_arbiter_render_bare_writes_what_the_api_draws(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    # the depth-1 problem of the test above: the cutoff drawn, its evals shown
    tree = {"children": [{"eval": 5, "children": [1, 2]}, {"eval": 7, "children": [3, 4]}]}
    source = tmp_path / "problem.json"
    source.write_text(json.dumps(tree))
    assert main(["render", str(source), "--bare", "--depth", "1", "--format", form]) == 0
    body = {"tree": tree, "bare": True, "depth": 1, "format": form}
    assert capsys.readouterr().out == render(client, **body)


def test_bare_must_be_a_boolean(client: FlaskClient) -> None:
    response = client.post("/v1/trees/render", json={"tree": AIMA, "bare": "yes"})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/bare"


def hostile_tree() -> dict[str, object]:
    # the drawing tests' hostile ids and moves (a lone surrogate cannot travel as JSON)
    children = [
        {"id": node_id, "move": move, "value": n}
        for n, (node_id, move) in enumerate(zip(IDS, MOVES, strict=True))
        if node_id.isascii() or node_id.encode("utf-8", "ignore").decode() == node_id
    ]
    return {"id": "root\r\n<script>", "children": children}


def test_the_bare_drawings_escape_every_text_from_the_input(client: FlaskClient) -> None:
    body = {"tree": hostile_tree(), "title": TITLE + " </svg> \\input{x}", "bare": True}
    svg = client.post("/v1/trees/render", json=body).get_data(as_text=True)
    root = ET.fromstring(svg)  # still XML: nothing closed it early
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "root <script>" in texts and "<script" not in svg
    assert not [g for g in root.iter() if g.tag in (f"{SVG}script", "script")]
    tikz = client.post("/v1/trees/render", json={**body, "format": "tikz"}).get_data(as_text=True)
    lines = tikz.splitlines()
    assert "" not in lines and all(c.isprintable() for line in lines for c in line)
    assert r"\input" not in tikz.replace(r"\textbackslash{}input", "")
    assert r"\par" not in tikz.replace(r"\textbackslash{}par", "")
    assert tikz.count("{") == tikz.count("}")
