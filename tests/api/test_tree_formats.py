"""The format endpoints: import, export, render and CS188 graph tests."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from analysis.cli import main
from tests.games.formats.test_cs188 import CYCLE, SMALL, STRICT
from tests.games.formats.test_efg import DICE_BET


def problem(response: Any, status: int) -> list[str]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    return [error["pointer"] for error in response.get_json()["errors"]]


def test_import_efg_then_solve_the_returned_tree(client: FlaskClient) -> None:
    response = client.post(
        "/v1/trees/import", json={"format": "efg", "text": DICE_BET, "mode": "zero_sum"}
    )
    assert response.status_code == 200
    body = response.get_json()
    assert body["players"] == ["Alice", "Bob"]
    assert body["title"] == "Dice bet"
    assert (body["nodes"], body["leaves"], body["depth"], body["root_kind"]) == (8, 5, 3, "max")
    roll = body["tree"]["children"][0]
    assert roll["kind"] == "chance" and roll["children"][1] == {
        "id": "mid",
        "move": "mid",
        "p": "1/2",
        "value": 2,
    }
    # the derivation in tests/games/formats/test_efg.py: root value 7/6
    solved = client.post("/v1/trees/render", json={"tree": body["tree"], "format": "dot"})
    assert solved.status_code == 200
    assert '"root" [shape=triangle, label="7/6"' in solved.get_data(as_text=True)


def test_import_cs188_tree(client: FlaskClient) -> None:
    response = client.post("/v1/trees/import", json={"format": "cs188", "text": SMALL})
    body = response.get_json()
    assert response.status_code == 200
    assert body["tree"]["id"] == "A" and body["tree"]["children"][0]["move"] == "Left"
    assert (body["start_state"], body["num_agents"], body["rounds"]) == ("A", 2, 1)
    assert body["algorithm"] == "minimax"


def test_cs188_endpoint_reports_what_the_grader_compares(client: FlaskClient) -> None:
    # derivation beside STRICT in tests/games/formats/test_cs188.py
    response = client.post("/v1/trees/cs188", json={"text": STRICT})
    body = response.get_json()
    assert response.status_code == 200
    assert body["algorithm"] == "alphabeta"
    assert body["action"] == "Left" and body["value"] == 3
    assert body["generated_text"] == "A B C D E F G"
    minimax = client.post("/v1/trees/cs188", json={"text": STRICT, "algorithm": "minimax"})
    assert minimax.get_json()["generated_text"] == "A B C D E F G H"


def test_export_efg_and_dot(client: FlaskClient) -> None:
    tree = {"id": "top", "children": [{"id": "x", "move": "go", "value": "5/2"}]}
    response = client.post("/v1/trees/export", json={"tree": tree, "format": "efg"})
    assert response.status_code == 200 and response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert 'p "top" 1 1 "" { "go" } 0' in text
    assert 't "x" 1 "x" { 5/2, -5/2 }' in text
    back = client.post("/v1/trees/import", json={"format": "efg", "text": text, "mode": "zero_sum"})
    assert back.get_json()["tree"]["children"][0]["value"] == "5/2"
    dot = client.post("/v1/trees/export", json={"tree": tree, "format": "dot"})
    assert dot.mimetype == "text/vnd.graphviz"
    assert '"top" -> "x" [label="go"];' in dot.get_data(as_text=True)


def test_render_svg_with_alpha_beta(client: FlaskClient) -> None:
    response = client.post(
        "/v1/trees/render",
        json={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "algorithm": "alphabeta"},
    )
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    root = ET.fromstring(svg)
    pv = {
        g.attrib["data-id"]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "pv" in g.attrib.get("class", "").split()
    }
    assert pv == {"root", "root.0", "root.0.0"}
    assert 'class="node leaf pruned" data-id="root.1.1"' in svg


def test_render_keeps_control_characters_of_ids_and_moves_out(client: FlaskClient) -> None:
    tree = {
        "id": "r\u0000",
        "children": [{"id": "a\u001bb", "move": "m\n\nx\u000c", "value": 1}, 2],
    }
    svg = client.post("/v1/trees/render", json={"tree": tree}).get_data(as_text=True)
    moves = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "m  x " in moves
    dot = client.post("/v1/trees/render", json={"tree": tree, "format": "dot"})
    assert '"r\\u0000" -> "a\\u001bb" [label="m  x "' in dot.get_data(as_text=True)
    tikz = client.post("/v1/trees/render", json={"tree": tree, "format": "tikz"})
    assert "node[edgelabel, midway] {m  x } (n1);" in tikz.get_data(as_text=True)


def test_render_tikz_is_what_the_command_line_writes(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "algorithm": "alphabeta", "format": "tikz"}
    response = client.post("/v1/trees/render", json=body)
    assert response.status_code == 200 and response.mimetype == "application/x-tex"
    text = response.get_data(as_text=True)
    assert r"\draw[edge, best] (n0) -- (n1);" in text and text.endswith("\\end{tikzpicture}\n")
    source = tmp_path / "aima.json"
    source.write_text(json.dumps(body["tree"]))
    assert main(["render", str(source), "--algorithm", "alphabeta", "--format", "tikz"]) == 0
    assert capsys.readouterr().out == text


def test_render_expectimax_shows_exact_fractions(client: FlaskClient) -> None:
    # MAX over uniform chance nodes with leaves 3,12,8 / 2,4,6 / 14,5,2:
    # (3+12+8)/3 = 23/3, (2+4+6)/3 = 4, (14+5+2)/3 = 7; root 23/3.
    tree = {
        "kind": "max",
        "children": [
            {"kind": "chance", "children": leaves} for leaves in ([3, 12, 8], [2, 4, 6], [14, 5, 2])
        ],
    }
    response = client.post("/v1/trees/render", json={"tree": tree})
    texts = [
        t.text for t in ET.fromstring(response.get_data()).iter("{http://www.w3.org/2000/svg}text")
    ]
    assert texts.count("23/3") == 2 and "4" in texts and "7" in texts


@pytest.mark.parametrize(
    ("path", "body", "status", "pointer"),
    [
        ("/v1/trees/import", {"format": "xml", "text": "x"}, 422, "/format"),
        ("/v1/trees/import", {"format": "efg"}, 422, "/text"),
        ("/v1/trees/import", {"format": "efg", "text": "EFG 2 R"}, 422, "/text"),
        ("/v1/trees/import", {"format": "efg", "text": DICE_BET, "mode": "x"}, 422, "/mode"),
        ("/v1/trees/import", {"format": "cs188", "text": "a: b"}, 422, "/text"),
        ("/v1/trees/cs188", {"text": SMALL, "algorithm": "greedy"}, 422, "/algorithm"),
        ("/v1/trees/cs188", {"text": SMALL.replace("B Left D", "B")}, 422, "/text"),
        ("/v1/trees/export", {"tree": [1, 2], "format": "png"}, 422, "/format"),
        (
            "/v1/trees/export",
            {"tree": {"kind": "max", "children": [{"value": [1, 2]}]}, "format": "efg"},
            422,
            "/tree/kind",
        ),
        ("/v1/trees/export", {"tree": [[1, {"x": 1}]], "format": "efg"}, 422, "/tree/0/1/x"),
        ("/v1/trees/render", {"tree": [list(range(2500))]}, 413, "/tree"),
        ("/v1/trees/render", {"tree": [1, 2], "algorithm": "best"}, 422, "/algorithm"),
        ("/v1/trees/render", {"tree": [1, 2], "depth": -1}, 422, "/depth"),
    ],
)
def test_bad_input_is_a_problem_with_a_pointer(
    client: FlaskClient, path: str, body: dict[str, Any], status: int, pointer: str
) -> None:
    assert pointer in problem(client.post(path, json=body), status)


def test_efg_syntax_error_names_the_line(client: FlaskClient) -> None:
    text = DICE_BET.replace('t "mid" 4 "win" { 3, -3 }', 't "mid" 4 "win" { 3, -3')
    response = client.post("/v1/trees/import", json={"format": "efg", "text": text})
    problem(response, 422)
    detail = response.get_json()["detail"]
    assert detail.startswith("line 9: the { opened here is not closed"), detail
    assert "on line 10" in detail


def svg_classes(response: Any, name: str) -> set[str]:
    assert response.status_code == 200, response.get_data(as_text=True)
    root = ET.fromstring(response.get_data())
    return {
        g.attrib["data-id"]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if name in g.attrib.get("class", "").split()
    }


def test_render_maxn(client: FlaskClient) -> None:
    # a (player 1) compares component 1: (1,2,3) has 2 > 1 of (4,1,0): a = (1,2,3).
    # b (player 1): (0,3,1) has 3 > 0 of (2,0,5): b = (0,3,1).
    # root (player 0) compares component 0: 1 > 0: a. PV root -> a -> a.0.
    tree = {
        "id": "root",
        "player": 0,
        "children": [
            {
                "id": "a",
                "player": 1,
                "children": [{"id": "a.0", "value": [1, 2, 3]}, {"id": "a.1", "value": [4, 1, 0]}],
            },
            {
                "id": "b",
                "player": 1,
                "children": [{"id": "b.0", "value": [2, 0, 5]}, {"id": "b.1", "value": [0, 3, 1]}],
            },
        ],
    }
    response = client.post("/v1/trees/render", json={"tree": tree})
    assert svg_classes(response, "pv") == {"root", "a", "a.0"}
    assert "(1, 2, 3)" in response.get_data(as_text=True)


def test_render_star1_greys_the_pruned_outcome(client: FlaskClient) -> None:
    # Leaves in [0, 10]. The first chance node is worth 9, so alpha = 9 at the root.
    # At the second, after its first outcome (0, p = 1/2) the node is worth at most
    # 0/2 + 10/2 = 5 < 9 (Star1's A_1 = (9 - 10 * 1/2) / (1/2) = 8 >= 0): the second
    # outcome is pruned.
    tree = {
        "kind": "max",
        "children": [
            {"kind": "chance", "children": [9, 9]},
            {"kind": "chance", "children": [0, 10]},
        ],
    }
    response = client.post(
        "/v1/trees/render", json={"tree": tree, "algorithm": "expectimax", "bounds": [0, 10]}
    )
    assert svg_classes(response, "pruned") == {"root.1.1"}
    assert svg_classes(response, "pv") == {"root", "root.0", "root.0.0"}


def test_export_maxn_fills_in_default_players(client: FlaskClient) -> None:
    # players default to the next one after the parent's: root 0, its children 1, then 2
    tree = {
        "kind": "player",
        "children": [
            {"kind": "player", "children": [{"kind": "player", "children": [{"value": [1, 2, 3]}]}]}
        ],
    }
    response = client.post("/v1/trees/export", json={"tree": tree, "format": "efg"})
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0] == 'EFG 2 R "Arbiter tree" { "Player 1" "Player 2" "Player 3" }'
    assert [line.split()[2] for line in lines if line.startswith("p ")] == ["1", "2", "3"]
    assert 't "root.0.0.0" 1 "root.0.0.0" { 1, 2, 3 }' in lines


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/v1/trees/import", {"format": "cs188", "text": CYCLE}),
        ("/v1/trees/cs188", {"text": CYCLE}),
        ("/v1/trees/cs188", {"text": CYCLE, "algorithm": "expectimax"}),
    ],
)
def test_a_cyclic_graph_is_refused_at_once(
    client: FlaskClient, url: str, body: dict[str, Any]
) -> None:
    # issue 25: these grew a worker by 530 MB to 2.7 GB before the node limit stopped them
    response = client.post(url, json=body)
    assert problem(response, 413) == ["/text"]
    assert response.get_json()["type"].endswith("/limit-exceeded")
    assert "counted before any is built" in response.get_json()["detail"]
