"""Envelopes of the tree endpoints.

The tree itself is validated by one iterative pass in ``games.trees.parser``,
not by recursive marshmallow schemas (slow, and bounded by Python's recursion
limit); here it is a raw field documented by the ``Tree`` component.
"""

from __future__ import annotations

from typing import Any, TypeVar

from marshmallow import Schema, fields, validate

from api.schemas.fields import (
    StrictBoolean,
    StrictInteger,
    exact_companion,
    exact_list_companion,
)

BOUND = validate.OneOf(["exact", "lower", "upper"])


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


MAX_DEPTH_CUTOFF = 2**63 - 1
"""Largest depth cutoff taken: answers echo it, and JSON integers stop at 64 bits (a
cutoff past the deepest node searches the whole tree anyway)."""


class TreeInputSchema(Schema):
    tree = fields.Raw(
        required=True,
        metadata={
            "description": "The game tree: a node object, nested arrays (shorthand) or "
            "the flat form. See the Tree schema.",
            "openapi": {"allOf": [ref("Tree")]},
        },
    )
    depth = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_DEPTH_CUTOFF),
        metadata={
            "description": "Depth cutoff in plies (H-minimax): nodes at this depth are "
            "scored by their eval. null searches to the leaves."
        },
    )


class TreeRequestSchema(TreeInputSchema):
    root = fields.String(
        load_default="max",
        validate=validate.OneOf(["max", "min"]),
        metadata={
            "description": "Kind of the root when the tree does not state it; "
            "levels without a kind alternate from it."
        },
    )


def layout_field() -> fields.String:
    return fields.String(
        load_default="map",
        validate=validate.OneOf(["map", "columns"]),
        metadata={
            "description": "map: nodes named by id, `nodes` as {id: entry}. columns: the compact "
            "answer for large trees: nodes named by their breadth-first index (the root 0, then "
            "each level left to right) in every field; `columns` instead of `nodes` (the nodes "
            "with a value as runs of indices, and a list per field with an entry per such node); "
            "pruned, pruned_leaves and evaluated_leaves as runs of indices (docs/trees.md, "
            "Layouts). The trace is given in the map layout only."
        },
    )


class MinimaxRequestSchema(TreeRequestSchema):
    layout = layout_field()
    trace = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Return the step-by-step trace: each node entered, each leaf "
            "evaluated, each child's value folded into its parent's and each value returned."
        },
    )


class AlphaBetaRequestSchema(TreeRequestSchema):
    layout = layout_field()
    prune_on_equality = StrictBoolean(
        load_default=True,
        metadata={
            "description": "true: cut when v >= beta at MAX and v <= alpha at MIN "
            "(AIMA, lecture slides). false: cut only on strict inequality (CS188)."
        },
    )
    trace = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Return the step-by-step trace of (node, alpha, beta, value) events."
        },
    )
    move_ordering = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Compare the leaves evaluated with the given child order to "
            "best-first and worst-first order, with the Knuth-Moore minimal tree bound."
        },
    )


class NodeResultSchema(Schema):
    value = fields.Float(required=True, metadata={"description": "Value the node returned."})
    value_exact = exact_companion("value")
    bound = fields.String(
        required=True,
        validate=BOUND,
        metadata={"description": "exact, or lower/upper bound on the true value (alpha-beta)."},
    )


class StatsSchema(Schema):
    nodes = fields.Integer(required=True, metadata={"description": "Nodes in the tree."})
    leaves = fields.Integer(
        required=True,
        metadata={"description": "Static nodes within the depth cutoff (leaves and frontier)."},
    )
    visited = fields.Integer(required=True, metadata={"description": "Nodes entered."})
    evaluated = fields.Integer(required=True, metadata={"description": "Static evaluations."})
    cutoffs = fields.Integer(required=True, metadata={"description": "Early stops."})


_WINDOW = {"oneOf": [{"type": "number"}, {"type": "string", "enum": ["-inf", "inf"]}]}


class CutoffWindowSchema(Schema):
    """A cutoff's window and value, alike in both layouts; a subclass names the nodes."""

    alpha = fields.Raw(required=True, metadata={"openapi": _WINDOW})
    beta = fields.Raw(required=True, metadata={"openapi": _WINDOW})
    alpha_exact = exact_companion("alpha")
    beta_exact = exact_companion("beta")
    value = fields.Float(required=True, metadata={"description": "v at the cut."})
    value_exact = exact_companion("value")


class CutoffSchema(CutoffWindowSchema):
    """A cutoff in the map layout: nodes named by id."""

    node = fields.String(required=True)
    after = fields.String(
        required=True, metadata={"description": "Child whose value caused the cut."}
    )
    cut = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Children never searched, left to right."},
    )


class MinimaxTraceEventSchema(Schema):
    """A step of minimax, which keeps no window; alpha-beta's and expectimax's steps add to it."""

    event = fields.String(
        required=True, validate=validate.OneOf(["enter", "evaluate", "update", "cutoff", "return"])
    )
    node = fields.String(required=True)
    value = fields.Float(allow_none=True)
    value_exact = exact_companion("value")
    child = fields.String()
    explanation = fields.String(
        required=True,
        metadata={
            "description": 'What this step does and why, in one sentence ("MIN at root.1: '
            "v = 2 <= alpha = 3, so root.1's remaining children are pruned (root.1.1, "
            'root.1.2).")'
        },
    )


class TraceEventSchema(MinimaxTraceEventSchema):
    alpha = fields.Raw(required=True, metadata={"openapi": _WINDOW})
    beta = fields.Raw(required=True, metadata={"openapi": _WINDOW})
    alpha_exact = exact_companion("alpha")
    beta_exact = exact_companion("beta")
    bound = fields.String(validate=BOUND)
    cut = fields.List(fields.String())
    rest = fields.Float(
        metadata={
            "description": "update at a chance node: the probability of its outcomes not yet "
            "seen (Star1 and expectimax)."
        }
    )
    rest_exact = exact_companion("rest")


class ChanceTraceEventSchema(TraceEventSchema):
    """A step of expectimax: with bounds (Star1) it has alpha-beta's window, without none."""

    alpha = fields.Raw(metadata={"openapi": _WINDOW, "description": "Star1 only (with bounds)."})
    beta = fields.Raw(metadata={"openapi": _WINDOW, "description": "Star1 only (with bounds)."})


class MaxnTraceEventSchema(Schema):
    event = fields.String(
        required=True, validate=validate.OneOf(["enter", "evaluate", "update", "cutoff", "return"])
    )
    node = fields.String(required=True)
    value = fields.List(
        fields.Float(),
        metadata={
            "description": "evaluate: the leaf's utilities; update: the node's best tuple so far "
            "(at a chance node the expected tuple so far); cutoff, return: the node's tuple."
        },
    )
    value_exact = exact_list_companion("value")
    player = fields.Integer(metadata={"description": "The mover at the node (not at chance)."})
    child = fields.String()
    held = fields.List(
        fields.Float(),
        metadata={"description": "cutoff: the tuple the node's parent already holds."},
    )
    held_exact = exact_list_companion("held")
    cut = fields.List(fields.String(), metadata={"description": "cutoff: the children skipped."})
    explanation = fields.String(
        required=True,
        metadata={
            "description": 'What this step does and why, in one sentence ("player 1 already '
            "has 7 at root.1; with max_sum 10 player 0 can get at most 3 there, <= the 4 it "
            "already holds at root, so root.1's remaining children are pruned (root.1.1, "
            'root.1.2).")'
        },
    )


class MoveOrderingSchema(Schema):
    given = fields.Integer(required=True, metadata={"description": "Leaves evaluated as posted."})
    best_first = fields.Integer(required=True)
    worst_first = fields.Integer(required=True)
    leaves = fields.Integer(required=True, metadata={"description": "Static nodes in the search."})
    uniform = fields.Boolean(
        required=True,
        metadata={
            "description": "Every internal node "
            "has the same branching and every leaf the same depth."
        },
    )
    branching = fields.Integer(allow_none=True, required=True)
    depth = fields.Integer(allow_none=True, required=True)
    minimal_tree = fields.Integer(
        allow_none=True,
        required=True,
        metadata={
            "description": "Knuth-Moore bound b^ceil(d/2) + b^floor(d/2) - 1 on a "
            "uniform tree; null otherwise."
        },
    )


class TreeResultSchema(Schema):
    """What a tree search answers in either layout; a subclass names the nodes."""

    value = fields.Float(required=True, metadata={"description": "Value of the root."})
    value_exact = exact_companion("value")
    root_kind = fields.String(
        required=True, validate=validate.OneOf(["max", "min", "chance", "player", "leaf"])
    )
    best_move_label = fields.String(
        allow_none=True, metadata={"description": "The move label of `best_move`, if given."}
    )
    depth = fields.Integer(allow_none=True, required=True)
    stats = fields.Nested(StatsSchema, required=True)


class MapResultSchema(TreeResultSchema):
    """An answer in the map layout: nodes named by id."""

    best_move = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "Id of the root's optimal child (leftmost among ties); null "
            "when the root is scored statically."
        },
    )
    principal_variation = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Ids from the root's best child to where the search stops."},
    )
    nodes = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(NodeResultSchema),
        required=True,
        metadata={"description": "Value of every node searched, by id."},
    )


NodeName = TypeVar("NodeName")
"""How an answer names a node: by id (str, the map layout) or by breadth-first index (int,
the columns layout)."""


def best_moves_field(name: fields.Field[NodeName]) -> fields.List[NodeName]:
    return fields.List(
        name,
        required=True,
        metadata={"description": "Every optimal child of the root (ties), left to right."},
    )


class MinimaxResultSchema(MapResultSchema):
    best_moves = best_moves_field(fields.String())
    trace = fields.List(
        fields.Nested(MinimaxTraceEventSchema),
        metadata={"description": "Present when trace was requested."},
    )


class AlphaBetaResultSchema(MapResultSchema):
    prune_on_equality = fields.Boolean(required=True)
    pruned = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Topmost pruned subtrees, left to right."},
    )
    pruned_leaves = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Leaves never evaluated, left to right."},
    )
    evaluated_leaves = fields.List(
        fields.String(), required=True, metadata={"description": "Leaves in evaluation order."}
    )
    cutoffs = fields.List(fields.Nested(CutoffSchema), required=True)
    trace = fields.List(
        fields.Nested(TraceEventSchema),
        metadata={"description": "Present when trace was requested."},
    )
    move_ordering = fields.Nested(
        MoveOrderingSchema, metadata={"description": "Present when requested."}
    )


RUNS_DESCRIPTION = (
    "Runs of node indices: [start, stop] pairs, each a stretch of consecutive indices "
    "(stop one past the last), in the order of the list they stand for."
)


def runs_field(description: str) -> fields.List[list[int | None]]:
    return fields.List(
        fields.List(fields.Integer(), validate=validate.Length(equal=2)),
        required=True,
        metadata={"description": f"{description} {RUNS_DESCRIPTION}"},
    )


class ColumnsSchema(Schema):
    node = runs_field("The nodes with a value, in index order.")
    value = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "The value of each node of `node`, in that order."},
    )
    value_exact = exact_list_companion("value")
    bound = fields.List(
        fields.String(validate=BOUND),
        metadata={
            "description": "alpha-beta: exact, or lower/upper bound, for each node of `node`."
        },
    )


class ColumnsCutoffSchema(CutoffWindowSchema):
    """A cutoff in the columns layout: nodes named by breadth-first index."""

    node = fields.Integer(required=True)
    after = fields.Integer(
        required=True, metadata={"description": "Child whose value caused the cut."}
    )
    cut = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Children never searched, left to right."},
    )


class ColumnsResultSchema(TreeResultSchema):
    """An answer in the columns layout: nodes named by breadth-first index."""

    best_move = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Index of the root's optimal child (leftmost among ties)."},
    )
    principal_variation = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Indices from the root's best child to where the search stops."},
    )
    columns = fields.Nested(
        ColumnsSchema,
        required=True,
        metadata={"description": "Per-node results as columns over the nodes with a value."},
    )


class MinimaxColumnsResultSchema(ColumnsResultSchema):
    best_moves = best_moves_field(fields.Integer())


class AlphaBetaColumnsResultSchema(ColumnsResultSchema):
    prune_on_equality = fields.Boolean(required=True)
    pruned = runs_field("Topmost pruned subtrees, left to right.")
    pruned_leaves = runs_field("Leaves never evaluated, left to right.")
    evaluated_leaves = runs_field("Leaves in evaluation order.")
    cutoffs = fields.List(fields.Nested(ColumnsCutoffSchema), required=True)
    move_ordering = fields.Nested(
        MoveOrderingSchema, metadata={"description": "Present when requested."}
    )


_EXACT = {"openapi": {"allOf": [ref("ExactNumber")]}}


def bounds_field(description: str) -> fields.List[Any]:
    """``[lo, hi]`` bounds on leaf values, as exact numbers."""
    return fields.List(
        fields.Raw(metadata=_EXACT),
        load_default=None,
        allow_none=True,
        validate=validate.Length(equal=2),
        metadata={"description": description},
    )


def tie_break_field(description: str) -> fields.String:
    return fields.String(
        load_default="leftmost",
        validate=validate.OneOf(["leftmost", "rightmost"]),
        metadata={"description": description},
    )


def max_sum_field(description: str) -> fields.Raw:
    return fields.Raw(
        load_default=None, allow_none=True, metadata={"description": description, **_EXACT}
    )


class ExpectimaxRequestSchema(TreeRequestSchema):
    bounds = bounds_field(
        "[lo, hi]: every leaf value lies in this range. Given, the search prunes chance nodes "
        "too (Star1) and reports what it pruned; the value is the same."
    )
    prune_on_equality = StrictBoolean(
        load_default=True,
        metadata={"description": "With bounds: cut on equality (default) or only strictly."},
    )
    trace = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Return the step-by-step trace: each node's value as it is computed, "
            "and with bounds Star1's windows and the cuts at chance nodes."
        },
    )


class OutcomeSchema(Schema):
    child = fields.String(required=True)
    p = fields.Float(required=True)
    p_exact = exact_companion("p")
    value = fields.Float(allow_none=True, required=True)
    value_exact = exact_companion("value")
    bound = fields.String(validate=BOUND)


class ChanceOutcomesSchema(Schema):
    node = fields.String(required=True)
    outcomes = fields.List(fields.Nested(OutcomeSchema), required=True)


class ExpectimaxResultSchema(MapResultSchema):
    best_moves = fields.List(
        fields.String(),
        metadata={"description": "Every optimal root move (without bounds)."},
    )
    decisions = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "The child chosen at every MAX and MIN node searched."},
    )
    principal_variation_outcomes = fields.List(
        fields.Nested(ChanceOutcomesSchema),
        required=True,
        metadata={
            "description": "Every outcome of each chance node on the principal "
            "variation (which follows the most likely outcome)."
        },
    )
    bounds = fields.List(fields.Float(), metadata={"description": "The bounds used (Star1)."})
    bounds_exact = exact_list_companion("bounds")
    prune_on_equality = fields.Boolean()
    pruned = fields.List(fields.String())
    pruned_leaves = fields.List(fields.String())
    evaluated_leaves = fields.List(fields.String())
    cutoffs = fields.List(fields.Nested(CutoffSchema))
    trace = fields.List(
        fields.Nested(ChanceTraceEventSchema),
        metadata={"description": "Present when trace was requested."},
    )


class MaxnRequestSchema(TreeInputSchema):
    tie_break = tie_break_field("Which of several children best for the mover is chosen.")
    max_sum = max_sum_field(
        "Utilities are >= 0 and sum to at most this: enables Korf's shallow pruning."
    )
    paranoid = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={
            "description": "Also solve the paranoid reduction for this player (it "
            "maximises, all others minimise its utility) by alpha-beta."
        },
    )
    trace = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Return the step-by-step trace, with the reason for each shallow cut."
        },
    )


class MaxnResultSchema(Schema):
    value = fields.List(fields.Float(), required=True, metadata={"description": "Root tuple."})
    value_exact = exact_list_companion("value")
    root_kind = fields.String(required=True)
    best_move = fields.String(required=True, allow_none=True)
    best_move_label = fields.String(allow_none=True, required=True)
    principal_variation = fields.List(fields.String(), required=True)
    nodes = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.List(fields.Raw())),
        required=True,
        metadata={
            "description": "id -> {value: [...], value_exact?: [...]} for nodes searched "
            "(value_exact as ExactCompanion states)."
        },
    )
    players = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "The player to move at each decision node."},
    )
    decisions = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    ties = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Nodes where a tie between different tuples was broken by tie_break."
        },
    )
    tie_break = fields.String(required=True)
    max_sum = fields.Float(allow_none=True, required=True)
    max_sum_exact = exact_companion("max_sum")
    pruned = fields.List(fields.String(), required=True)
    pruned_leaves = fields.List(fields.String(), required=True)
    depth = fields.Integer(allow_none=True, required=True)
    stats = fields.Nested(StatsSchema, required=True)
    trace = fields.List(
        fields.Nested(MaxnTraceEventSchema),
        metadata={"description": "Present when trace was requested."},
    )
    paranoid = fields.Dict(
        metadata={
            "description": "The paranoid reduction's alpha-beta (or "
            "expectiminimax) result, as /v1/trees/alphabeta returns it, "
            "plus player."
        }
    )
