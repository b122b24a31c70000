"""Hand-written JSON schemas for inputs validated outside marshmallow (game trees)
and for problem details."""

from __future__ import annotations

from typing import Any

from api.schemas.fields import NUMBER_RULE

_NUMBER_TEXT = r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$|^\s*[+-]?\d+\s*/\s*[+-]?\d+\s*$"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


PROBLEM: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem details.",
    "required": ["type", "title", "status", "detail", "errors"],
    "properties": {
        "type": {"type": "string", "description": "URI naming the kind of problem."},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string", "description": "What went wrong, in plain words."},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["pointer", "message"],
                "properties": {
                    "pointer": {
                        "type": "string",
                        "description": "RFC 6901 JSON pointer to the offending field.",
                    },
                    "message": {"type": "string"},
                },
            },
        },
    },
}

_UTILITY: dict[str, Any] = {
    "nullable": True,
    "oneOf": [
        _ref("ExactNumber"),
        {
            "type": "array",
            "minItems": 1,
            "items": _ref("ExactNumber"),
            "description": "One utility per player (max^n trees).",
        },
    ],
}

_NODE_FIELDS: dict[str, Any] = {
    "id": {"type": "string", "minLength": 1, "nullable": True},
    "kind": {
        "type": "string",
        "enum": ["max", "min", "chance", "player", "leaf"],
        "nullable": True,
    },
    "value": _UTILITY | {"description": "A leaf's utility."},
    "eval": _UTILITY
    | {"description": "Static evaluation of an internal node, used at a depth cutoff."},
    "move": {
        "type": "string",
        "nullable": True,
        "description": "Label of the edge into this node.",
    },
    "p": {
        "nullable": True,
        "allOf": [_ref("ExactNumber")],
        "description": "Probability of this outcome of a chance node (all outcomes of a "
        "chance node state p, or none does and they are equally likely).",
    },
    "player": {
        "type": "integer",
        "minimum": 0,
        "nullable": True,
        "description": "The player (0-based) to move at a max^n node.",
    },
}

COMPONENTS: dict[str, dict[str, Any]] = {
    "ExactCompanion": {"type": "string", "description": NUMBER_RULE},
    "ExactNumber": {
        "description": 'A finite number: a JSON number, a decimal string such as "0.1" '
        '(read exactly, as 1/10) or a fraction string such as "-7/2".',
        "oneOf": [
            {"type": "number"},
            {"type": "string", "pattern": _NUMBER_TEXT, "maxLength": 200},
        ],
    },
    "TreeNode": {
        "type": "object",
        "description": "A node of the nested form. Without children it is a leaf and needs a "
        "value; with children it is MAX or MIN (alternating from its parent when kind is "
        "omitted; a chance node passes its turn on), a chance node, or a max^n node (with "
        "player, or without kind in a tree whose utilities are lists). Nodes without id are "
        "named <parent id>.<position>, the root 'root'. A null field counts as absent.",
        "additionalProperties": False,
        "properties": _NODE_FIELDS
        | {
            "children": {
                "type": "array",
                "minItems": 1,
                "items": _ref("TreeChild"),
                "nullable": True,
            }
        },
    },
    "TreeChild": {
        "description": "A child: a node object, a shorthand array or a leaf number.",
        "oneOf": [_ref("TreeNode"), _ref("ShorthandTree"), _ref("ExactNumber")],
    },
    "ShorthandTree": {
        "type": "array",
        "description": "Nested arrays of numbers, alternating MAX and MIN from the root; "
        "e.g. [[3,12,8],[2,4,6],[14,5,2]]. Leaves may sit at different depths. At "
        "/v1/trees/maxn an array of numbers only is one leaf's utility list.",
        "minItems": 1,
        "items": {"oneOf": [_ref("ShorthandTree"), _ref("ExactNumber")]},
    },
    "FlatNode": {
        "type": "object",
        "required": ["id"],
        "additionalProperties": False,
        "properties": _NODE_FIELDS
        | {
            "id": {"type": "string", "minLength": 1},
            "children": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "string"},
                "nullable": True,
                "description": "Ids of the children, left to right.",
            },
        },
    },
    "FlatTree": {
        "type": "object",
        "description": "The flat form, for deep or generated trees: every node once, children "
        "by id. Each node but the root has exactly one parent; no cycles, no strays.",
        "required": ["root", "nodes"],
        "additionalProperties": False,
        "properties": {
            "root": {"type": "string", "description": "Id of the root."},
            "nodes": {"type": "array", "minItems": 1, "items": _ref("FlatNode")},
        },
    },
    "Tree": {
        "description": "A game tree in any of the three forms.",
        "oneOf": [_ref("TreeNode"), _ref("ShorthandTree"), _ref("FlatTree")],
    },
}
