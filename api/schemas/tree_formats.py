"""Envelopes of the tree-format endpoints: import, export, render and CS188 graph tests."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from analysis.trees.drawing import (
    MAX_DOT_NODES,
    NODE_LABELS,
)
from api.schemas.fields import StrictBoolean, StrictInteger, exact_companion
from api.schemas.trees import (
    MAX_DEPTH_CUTOFF,
    bounds_field,
    max_sum_field,
    ref,
    tie_break_field,
)

IMPORT_FORMATS = ("efg", "cs188")
EXPORT_FORMATS = ("efg", "dot")
RENDER_FORMATS = ("svg", "dot", "tikz")
RENDER_ALGORITHMS = ("auto", "minimax", "alphabeta", "expectimax", "maxn", "none")
MAX_COLLAPSED = 10_000
GRAPH_ALGORITHMS = ("minimax", "alphabeta", "expectimax")
MAX_TEXT = 20_000_000

_TEXT = {"description": "The file's contents, as one string."}
_TREE_OUT = {
    "type": "object",
    "description": "The tree in Arbiter's JSON form (see the Tree schema): nested node "
    "objects, or the flat form {root, nodes} for trees deeper than 100 plies. Post it as "
    '"tree" to any tree endpoint.',
}


class ImportRequestSchema(Schema):
    format = fields.String(
        required=True,
        validate=validate.OneOf(IMPORT_FORMATS),
        metadata={"description": "efg: Gambit extensive form. cs188: a GraphGameTreeTest file."},
    )
    text = fields.String(
        required=True, validate=validate.Length(min=1, max=MAX_TEXT), metadata=_TEXT
    )
    mode = fields.String(
        load_default="maxn",
        validate=validate.OneOf(["maxn", "zero_sum"]),
        metadata={
            "description": "efg only. maxn: player nodes and a payoff list per leaf. "
            "zero_sum: a two-player game paying (u, -u) as a MAX (player 1) / MIN tree "
            "valued u."
        },
    )
    algorithm = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(GRAPH_ALGORITHMS),
        metadata={
            "description": "cs188 only: expectimax makes the other agents' turns uniform "
            "chance nodes, otherwise MIN nodes. Defaults to the file's alg."
        },
    )


class ImportResultSchema(Schema):
    format = fields.String(required=True, validate=validate.OneOf(IMPORT_FORMATS))
    tree = fields.Raw(required=True, metadata={"openapi": _TREE_OUT})
    nodes = fields.Integer(required=True, metadata={"description": "Nodes in the tree."})
    leaves = fields.Integer(required=True)
    depth = fields.Integer(required=True, metadata={"description": "Plies of the deepest leaf."})
    root_kind = fields.String(required=True)
    title = fields.String(metadata={"description": "efg: the game's title."})
    comment = fields.String(metadata={"description": "efg: the game's comment."})
    players = fields.List(fields.String(), metadata={"description": "efg: player names."})
    mode = fields.String(metadata={"description": "efg: maxn or zero_sum."})
    start_state = fields.String(metadata={"description": "cs188: the root's state."})
    num_agents = fields.Integer(metadata={"description": "cs188: agents per round."})
    rounds = fields.Integer(metadata={"description": "cs188: search depth in rounds."})
    algorithm = fields.String(metadata={"description": "cs188: the algorithm the tree is for."})


class TreeInputSchema(Schema):
    tree = fields.Raw(
        required=True,
        metadata={
            "description": "The game tree in any form the tree endpoints take.",
            "openapi": {"allOf": [ref("Tree")]},
        },
    )
    root = fields.String(
        load_default="max",
        validate=validate.OneOf(["max", "min"]),
        metadata={"description": "Kind of the root when the tree does not state it."},
    )
    title = fields.String(
        load_default="",
        validate=validate.Length(max=200),
        metadata={"description": "Title of the game (efg) or caption of the drawing."},
    )


def _node_ids(description: str) -> fields.List[str]:
    """A list of node ids (the drawing options that name nodes)."""
    return fields.List(
        fields.String(),
        load_default=(),
        validate=validate.Length(max=MAX_COLLAPSED),
        metadata={"description": description},
    )


class ExportRequestSchema(TreeInputSchema):
    format = fields.String(
        required=True,
        validate=validate.OneOf(EXPORT_FORMATS),
        metadata={"description": "efg: Gambit .efg text. dot: Graphviz DOT of the unsolved tree."},
    )


class RenderRequestSchema(TreeInputSchema):
    format = fields.String(
        load_default="svg",
        validate=validate.OneOf(RENDER_FORMATS),
        metadata={
            "description": "svg (drawn here, no Graphviz needed), dot (Graphviz), or tikz "
            "(a tikzpicture for LaTeX handouts)."
        },
    )
    algorithm = fields.String(
        load_default="auto",
        validate=validate.OneOf(RENDER_ALGORITHMS),
        metadata={
            "description": "How to solve the tree before drawing it. auto: maxn for utility "
            "lists, expectimax when there are chance nodes, minimax otherwise. none: draw the "
            "tree as posted."
        },
    )
    depth = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_DEPTH_CUTOFF),
        metadata={"description": "Depth cutoff in plies; null searches to the leaves."},
    )
    bare = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Draw the problem, not its answer (a handout): the tree is not "
            "solved, and only what a student is given shows: the kinds, moves, chance "
            "probabilities and leaf values (with depth, the eval of each node at the cutoff, "
            "and nothing below it). No backed-up values, bounds, best line, ties or pruned "
            "marks; the legend lists the shapes only. algorithm and the search options are "
            "then not used."
        },
    )
    prune_on_equality = StrictBoolean(
        load_default=True,
        metadata={
            "description": "alphabeta, and expectimax with bounds: cut on equality too "
            "(false: only on strict inequality, as CS188)."
        },
    )
    bounds = bounds_field(
        "expectimax: [lo, hi] bounds on every leaf value; given, chance nodes are pruned too "
        "(Star1) and the pruned subtrees drawn grey."
    )
    tie_break = tie_break_field("maxn: which of several children best for the mover is chosen.")
    max_sum = max_sum_field(
        "maxn: utilities are >= 0 and sum to at most this; enables shallow pruning (Korf), "
        "drawn grey."
    )
    node_labels = fields.String(
        load_default="ids",
        validate=validate.OneOf(NODE_LABELS),
        metadata={
            "description": "How nodes are named on the drawing: ids (the API ids), letters "
            "(A, B, C, ... in breadth-first order, AA after Z: the textbook style) or none."
        },
    )
    legend = StrictBoolean(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Draw a legend of the shapes and states below the tree. Default: "
            "yes for svg and tikz, no for dot."
        },
    )
    collapsed = _node_ids(
        "Ids of nodes whose subtrees are drawn collapsed: the node with a small triangle "
        "below it giving the number of nodes hidden."
    )
    expanded = _node_ids(
        "Ids of nodes drawn open although max_depth_drawn or max_nodes_drawn would collapse "
        "them (their children are collapsed in turn)."
    )
    max_depth_drawn = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_DEPTH_CUTOFF),
        metadata={"description": "Collapse every subtree whose root is this deep or deeper."},
    )
    max_nodes_drawn = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_DOT_NODES),
        metadata={
            "description": "Draw the tree to the deepest depth at which at most this many "
            "nodes are drawn, collapsing below it (nothing is collapsed when the whole tree "
            "fits). The SVG says what it did: data-nodes, data-drawn, data-depth-drawn."
        },
    )
    toggles = StrictBoolean(
        load_default=False,
        metadata={
            "description": "svg: draw beside each internal node a button (data-toggle = its "
            "id) that collapses or expands it, for the web workbench."
        },
    )


class GraphTestRequestSchema(Schema):
    text = fields.String(
        required=True, validate=validate.Length(min=1, max=MAX_TEXT), metadata=_TEXT
    )
    algorithm = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(GRAPH_ALGORITHMS),
        metadata={"description": "Which agent to run; defaults to the file's alg."},
    )


class ActionValueSchema(Schema):
    action = fields.String(required=True)
    value = fields.Float(required=True)
    value_exact = exact_companion("value")


class GraphTestResultSchema(Schema):
    algorithm = fields.String(required=True, validate=validate.OneOf(GRAPH_ALGORITHMS))
    action = fields.String(
        required=True, metadata={"description": "The action the agent returns (graded)."}
    )
    value = fields.Float(required=True, metadata={"description": "Value of the start state."})
    value_exact = exact_companion("value")
    generated = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Generated states, sorted as the grader sorts them (graded)."},
    )
    generated_text = fields.String(
        required=True,
        metadata={"description": "The same, space-separated: the solution file's generated line."},
    )
    generation_order = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Each generateSuccessor result in call order."},
    )
    evaluated = fields.List(
        fields.String(), required=True, metadata={"description": "States scored, in order."}
    )
    action_values = fields.List(
        fields.Nested(ActionValueSchema),
        required=True,
        metadata={"description": "Value returned by each root action (alpha-beta: maybe a bound)."},
    )
    start_state = fields.String(required=True)
    num_agents = fields.Integer(required=True)
    depth = fields.Integer(required=True, metadata={"description": "Depth in rounds."})
