"""Answers are written by explicit serializers, so a field added to a core result dataclass
cannot reach the API unnoticed: one endpoint per area answers the same with a result that
carries an extra field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from flask.testing import FlaskClient

import api.views.lotteries
import api.views.matrices
import api.views.preferences
import api.views.utility_functions
from analysis.trees.cs188_agents import graph_search
from analysis.trees.json_output import graph_test_json, maxn_json, minimax_json
from analysis.trees.max_n import maxn
from analysis.trees.minimax import minimax
from games.formats.cs188 import parse_graph_game
from games.trees.parser import parse_tree

LEAK = "an internal field that must never be served"


def with_extra_field(result: Any) -> Any:
    """A copy of ``result`` (a dataclass) as a subclass with one more field set to LEAK."""
    cls = type(result)
    params = cls.__dataclass_params__
    extended = dataclasses.make_dataclass(
        f"Extended{cls.__name__}",
        [("internal_note", str, dataclasses.field(default=LEAK))],
        bases=(cls,),
        frozen=params.frozen,
    )
    values = {f.name: getattr(result, f.name) for f in dataclasses.fields(result) if f.init}
    return extended(**values)


def test_the_helper_really_adds_a_field() -> None:
    result = minimax(parse_tree([[3, 12], [2]]))
    extended = with_extra_field(result)
    assert extended.internal_note == LEAK and isinstance(extended, type(result))


def test_tree_answers_name_their_fields() -> None:
    tree = parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    result = minimax(tree)
    assert minimax_json(with_extra_field(result)) == minimax_json(result)
    utilities = parse_tree({"player": 0, "children": [{"value": [1, 2]}, {"value": [2, 1]}]})
    tuples = maxn(utilities)
    assert maxn_json(with_extra_field(tuples)) == maxn_json(tuples)


def test_tree_format_answers_name_their_fields() -> None:
    text = (
        'class: "GraphGameTreeTest"\nalg: "MinimaxAgent"\ndepth: "1"\nnum_agents: "2"\n'
        'start_state: "A"\nwin_states: ""\nlose_states: ""\n'
        'successors: """\nA Left B\nA Right C\nB Left D\nB Right E\nC Left F\nC Right G\n"""\n'
        'evaluation: """\nD 3\nE 5\nF 2\nG 9\n"""\n'
    )
    game = parse_graph_game(text)
    result = graph_search(game, "minimax")
    answer = graph_test_json(with_extra_field(result), game)
    assert answer == graph_test_json(result, game)
    assert answer["action"] == "Left" and answer["value"] == 3  # min(3, 5) > min(2, 9)


@pytest.mark.parametrize(
    ("module", "core", "path", "body"),
    [
        (
            api.views.matrices,
            "analyze_matrix",
            "/v1/matrices/analyze",
            {"A": [[2, 0], [0, 1]], "B": [[1, 0], [0, 2]]},
        ),
        (
            api.views.lotteries,
            "evaluate_lottery",
            "/v1/lotteries/evaluate",
            {"lottery": [{"p": "1/3", "x": 9}, {"p": "2/3", "x": 0}], "utility": "sqrt(x)"},
        ),
        (
            api.views.lotteries,
            "eu_consistency",
            "/v1/lotteries/eu-consistency",
            {
                "lotteries": {"A": [[1, 10]], "B": [["1/3", 30], ["2/3", 0]]},
                "choices": [["A", ">", "B"]],
            },
        ),
        (
            api.views.utility_functions,
            "analyze",
            "/v1/utility/analyze",
            {"utility": "log(x)", "domain": [1, 10], "points": [2]},
        ),
        (
            api.views.utility_functions,
            "elicit",
            "/v1/utility/elicit",
            {"worst": 0, "best": 100, "standard_gambles": [{"prize": 50, "p": "0.6"}]},
        ),
        (
            api.views.preferences,
            "check_axioms",
            "/v1/preferences/check",
            {"prizes": ["A", "B"], "preferences": [["A", ">", "B"]]},
        ),
    ],
    ids=["matrices", "evaluate", "eu-consistency", "analyze", "elicit", "preferences"],
)
def test_answers_name_their_fields(
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    module: Any,
    core: str,
    path: str,
    body: dict[str, Any],
) -> None:
    plain = client.post(path, json=body)
    assert plain.status_code == 200
    compute = getattr(module, core)
    monkeypatch.setattr(module, core, lambda *a, **k: with_extra_field(compute(*a, **k)))
    extended = client.post(path, json=body)
    assert extended.get_json() == plain.get_json()
    assert LEAK not in extended.get_data(as_text=True)
