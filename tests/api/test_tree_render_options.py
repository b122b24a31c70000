"""The render endpoint's drawing options (node names, legend, collapsed subtrees, toggles)
and the same options of ``arbiter render``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from analysis.cli import main

SVG = "{http://www.w3.org/2000/svg}"
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def nodes(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.attrib["data-node-id"]: g for g in root.iter(f"{SVG}g") if "data-node-id" in g.attrib}


def test_letters_legend_and_a_collapsed_subtree(client: FlaskClient) -> None:
    body = {
        "tree": AIMA,
        "algorithm": "alphabeta",
        "node_labels": "letters",
        "collapsed": ["root.2"],
        "toggles": True,
    }
    response = client.post("/v1/trees/render", json=body)
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    drawn = nodes(svg)
    assert "root.2.0" not in drawn and drawn["root.2"].attrib["data-hidden"] == "3"
    names = {
        node: [t.text for t in g.iter(f"{SVG}text") if t.attrib.get("class") == "node-id"]
        for node, g in drawn.items()
    }
    assert names["root"] == ["A"] and names["root.1"] == ["C"] and names["root.2"] == ["D"]
    assert 'data-legend="pruned"' in svg and 'data-toggle="root.2"' in svg


def test_ties_reach_the_page(client: FlaskClient) -> None:
    svg = client.post(
        "/v1/trees/render", json={"tree": [[3, 5], [3, 4], [1, 9]], "algorithm": "minimax"}
    ).get_data(as_text=True)
    assert nodes(svg)["root.1"].attrib["data-state"] == "visited tie"


def test_a_big_tree_is_drawn_to_the_depth_that_fits(client: FlaskClient) -> None:
    # 1 + 50 + 2500 nodes: too many for SVG; the first two levels (51 nodes) fit in 2000
    tree = [[k] * 50 for k in range(50)]
    refused = client.post("/v1/trees/render", json={"tree": tree, "algorithm": "minimax"})
    assert refused.status_code == 413
    assert refused.get_json()["errors"][0]["pointer"] == "/tree"
    response = client.post(
        "/v1/trees/render", json={"tree": tree, "algorithm": "minimax", "max_nodes_drawn": 2000}
    )
    assert response.status_code == 200
    root = ET.fromstring(response.get_data(as_text=True))
    assert (root.attrib["data-nodes"], root.attrib["data-drawn"]) == ("2551", "51")
    assert root.attrib["data-depth-drawn"] == "1"
    # opening one collapsed node draws its 50 leaves
    response = client.post(
        "/v1/trees/render",
        json={"tree": tree, "max_depth_drawn": 1, "expanded": ["root.49"], "legend": False},
    )
    root = ET.fromstring(response.get_data(as_text=True))
    assert root.attrib["data-drawn"] == "101"


@pytest.mark.parametrize(
    ("field", "value", "pointer"),
    [
        ("node_labels", "roman", "/node_labels"),
        ("collapsed", ["root", "nowhere"], "/collapsed/1"),
        ("expanded", ["nowhere"], "/expanded/0"),
        ("max_depth_drawn", -1, "/max_depth_drawn"),
        ("max_nodes_drawn", 0, "/max_nodes_drawn"),
        ("legend", "yes", "/legend"),
    ],
)
def test_bad_drawing_options_are_problems_with_pointers(
    client: FlaskClient, field: str, value: object, pointer: str
) -> None:
    response = client.post("/v1/trees/render", json={"tree": AIMA, field: value})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.get_json()["errors"][0]["pointer"] == pointer


def test_the_command_line_draws_what_the_api_draws(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {
        "tree": AIMA,
        "algorithm": "alphabeta",
        "format": "tikz",
        "node_labels": "letters",
        "legend": False,
        "collapsed": ["root.1"],
        "max_depth_drawn": 2,
    }
    text = client.post("/v1/trees/render", json=body).get_data(as_text=True)
    assert r"label={[id]above right:B}" in text and "% legend" not in text
    source = tmp_path / "aima.json"
    source.write_text(json.dumps(AIMA))
    arguments = ["render", str(source), "--algorithm", "alphabeta", "--format", "tikz"]
    arguments += ["--node-labels", "letters", "--no-legend", "--collapse", "root.1"]
    assert main([*arguments, "--max-depth-drawn", "2"]) == 0
    assert capsys.readouterr().out == text
