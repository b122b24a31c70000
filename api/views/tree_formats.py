"""Endpoints that read and write game trees in other formats and draw solved trees."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from analysis.trees.cs188_agents import graph_search
from analysis.trees.dot_drawing import (
    render_dot,
)
from analysis.trees.drawing import (
    DrawingOptions,
    check_drawable,
    drawn_to_cutoff,
    problem_drawing,
    solution_drawing,
    unsolved_tree,
)
from analysis.trees.json_output import graph_test_json
from analysis.trees.max_n import movers
from analysis.trees.renderers import (
    RENDERERS,
)
from api.body import load
from api.openapi.view_docs import operation
from api.responses import json_response
from api.schemas.tree_formats import (
    ExportRequestSchema,
    GraphTestRequestSchema,
    GraphTestResultSchema,
    ImportRequestSchema,
    ImportResultSchema,
    RenderRequestSchema,
)
from api.tree_requests import read_tree, solve_request
from games.formats.cs188 import graph_game_tree, parse_graph_game
from games.formats.efg import parse_efg, write_efg
from games.limits import active_limits
from games.trees.document import tree_document

bp = Blueprint("tree_formats", __name__, url_prefix="/v1/trees")

SVG = "image/svg+xml"
DOT = "text/vnd.graphviz"
TEX = "application/x-tex"
MEDIA_TYPES = {"svg": SVG, "dot": DOT, "tikz": TEX}
EFG = "text/plain"

_CS188_EXAMPLE = (
    'class: "GraphGameTreeTest"\nalg: "MinimaxAgent"\ndepth: "1"\nnum_agents: "2"\n'
    'start_state: "A"\nwin_states: ""\nlose_states: ""\n'
    'successors: """\nA Left B\nA Right C\nB Left D\nB Right E\nC Left F\nC Right G\n"""\n'
    'evaluation: """\nD 3\nE 5\nF 2\nG 9\n"""\n'
)
_EFG_EXAMPLE = (
    'EFG 2 R "Matching pennies, sequential" { "Player 1" "Player 2" } ""\n'
    'p "root" 1 1 "" { "H" "T" } 0\n'
    'p "after H" 2 1 "" { "h" "t" } 0\n'
    't "" 1 "win" { 1, -1 }\n'
    't "" 2 "lose" { -1, 1 }\n'
    'p "after T" 2 2 "" { "h" "t" } 0\n'
    't "" 2\n'
    't "" 1\n'
)


def _text_response(text: str, media_type: str) -> Response:
    return Response(text, mimetype=media_type)


def _formats(media_types: tuple[str, ...], description: str) -> dict[str, Any]:
    """A 200 response documented with several media types (the chosen ``format`` decides)."""
    schema = {"schema": {"type": "string"}}
    content = {media_type: schema for media_type in media_types}
    return {"200": {"description": description, "content": content}}


@bp.post("/import")
@operation(
    summary="Import a tree from Gambit .efg or a CS188 GraphGameTreeTest file",
    description="Reads the text into Arbiter's tree form, ready to post to any tree endpoint. "
    "efg: perfect-information games only (an information set shared by two personal nodes is "
    "refused); payoffs are the sum of the outcomes along each path. cs188: the game graph "
    "unfolded to the test's depth, nodes named after states. Syntax errors name the line.",
    tag="formats",
    request=ImportRequestSchema,
    response=ImportResultSchema,
    example={"format": "efg", "text": _EFG_EXAMPLE, "mode": "zero_sum"},
)
def import_view() -> Response:
    options = load(ImportRequestSchema)
    bounds = active_limits()
    out: dict[str, Any] = {"format": options["format"]}
    if options["format"] == "efg":
        game = parse_efg(options["text"], mode=options["mode"], limits=bounds)
        tree = game.tree
        out.update(title=game.title, comment=game.comment, players=list(game.players))
        out["mode"] = game.mode
    else:
        graph = parse_graph_game(options["text"])
        algorithm = options["algorithm"] or graph.algorithm or "minimax"
        tree = graph_game_tree(graph, algorithm=algorithm, limits=bounds)
        out.update(start_state=graph.start_state, num_agents=graph.num_agents)
        out.update(rounds=graph.depth, algorithm=algorithm)
    out.update(tree=tree_document(tree), nodes=len(tree), leaves=tree.leaf_count)
    out.update(depth=tree.max_depth(), root_kind=tree.root_kind)
    return json_response(out)


@bp.post("/export")
@operation(
    summary="Export a tree as Gambit .efg or Graphviz DOT",
    description="efg: MAX/MIN trees become two-player zero-sum games (MAX is player 1, "
    "leaves pay (v, -v)); max^n trees have one player per utility. Ids name the nodes, "
    "moves the actions. dot: the unsolved tree, leaf values on the leaves.",
    tag="formats",
    request=ExportRequestSchema,
    extra_responses=_formats((EFG, DOT), "The tree as text in the chosen format"),
    example={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "format": "efg"},
)
def export_view() -> Response:
    options = load(ExportRequestSchema)
    tree = read_tree(options)
    if options["format"] == "dot":
        check_drawable(tree, "dot")  # before labelling every node
    if options["format"] == "efg":
        turns = movers(tree) if tree.utility_size else None
        text = write_efg(tree, title=options["title"] or "Arbiter tree", movers=turns)
        return _text_response(text, EFG)
    return _text_response(render_dot(unsolved_tree(tree, options["title"])), DOT)


@bp.post("/render")
@operation(
    summary="Draw a solved tree, or the bare problem, as SVG (no Graphviz needed), DOT or TikZ",
    description="Solves the tree (minimax, alpha-beta, expectimax or Star1 with bounds, max^n "
    "with optional shallow pruning), then draws it: MAX triangles up, MIN triangles down, "
    "chance circles, leaf squares, max^n nodes as boxes naming their player; exact values on "
    "the nodes (bounds as >= / <=), the principal variation in red, pruned subtrees grey and "
    "dashed, children as good as the chosen one (ties) orange and dashed. Nodes are named by "
    "id, by letter (A, B, ... breadth-first) or not at all; a legend explains the shapes; "
    "subtrees can be collapsed by id, below a depth, or to fit a number of nodes. SVG and "
    "TikZ (a tikzpicture for LaTeX, same layout) are laid out here for up to 2,000 nodes "
    "drawn; DOT is written for up to 20,000. bare: true draws the problem without its "
    "answer, for a handout: leaf values only.",
    tag="formats",
    request=RenderRequestSchema,
    extra_responses=_formats(
        (SVG, DOT, TEX), "The drawing: SVG by default, DOT or TikZ as format says"
    ),
    example={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "algorithm": "alphabeta"},
)
def render_view() -> Response:
    options = load(RenderRequestSchema)
    tree = read_tree(options)
    drawing = drawing_options(options)
    if options["bare"]:
        drawing = drawn_to_cutoff(drawing, options["depth"])
    check_drawable(tree, options["format"], drawing)  # before spending time on solving it
    if options["bare"]:
        solved = problem_drawing(tree, options["title"], options["depth"])
    elif options["algorithm"] == "none":
        solved = unsolved_tree(tree, options["title"])
    else:
        solution = solve_request(tree, options["algorithm"], options)
        solved = solution_drawing(solution, options["title"])
    fmt = options["format"]
    return _text_response(RENDERERS[fmt](solved, drawing), MEDIA_TYPES[fmt])


def drawing_options(options: dict[str, Any]) -> DrawingOptions:
    """The render request's drawing options."""
    return DrawingOptions(
        node_labels=options["node_labels"],
        legend=options["legend"],
        collapsed=tuple(options["collapsed"]),
        expanded=tuple(options["expanded"]),
        max_depth_drawn=options["max_depth_drawn"],
        max_nodes_drawn=options["max_nodes_drawn"],
        toggles=options["toggles"],
    )


@bp.post("/cs188")
@operation(
    summary="Run a CS188 GraphGameTreeTest as the autograder's agents do",
    description="Parses the test file and searches it like the Berkeley multiagent "
    "project's MinimaxAgent, AlphaBetaAgent (strict-inequality pruning) or ExpectimaxAgent: "
    "depth in rounds, agent 0 maximising, the others minimising or uniform chance. Returns "
    "what the grader compares: the chosen action and the generated states.",
    tag="formats",
    request=GraphTestRequestSchema,
    response=GraphTestResultSchema,
    example={"text": _CS188_EXAMPLE},
)
def cs188_view() -> Response:
    options = load(GraphTestRequestSchema)
    graph = parse_graph_game(options["text"])
    result = graph_search(graph, options["algorithm"], limits=active_limits())
    return json_response(graph_test_json(result, graph))
