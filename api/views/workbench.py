"""The web workbench: pages over the same API, served by the app (works offline).

Each area has its page (``/`` for trees, ``/practice``, ``/matrices``, ``/extensive``,
``/lotteries``, ``/games``, ``/mcts``); the pages load plain ES modules and style sheets from
``/workbench/<name>``.
Every file is read once at start-up, so the pages do not depend on the working folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from flask import Blueprint, Response
from werkzeug.exceptions import NotFound

from api.openapi.view_docs import operation

bp = Blueprint("workbench", __name__)

FOLDER: Final = Path(__file__).resolve().parent.parent / "workbench"
MEDIA_TYPES: Final = {".js": "text/javascript", ".css": "text/css"}
ASSETS: Final = {
    path.name: (path.read_bytes(), MEDIA_TYPES[path.suffix])
    for path in sorted(FOLDER.iterdir())
    if path.suffix in MEDIA_TYPES
}
"""The modules and style sheets the pages load; nothing else in the folder is served."""
PAGES: Final = {path.stem: path.read_bytes() for path in sorted(FOLDER.glob("*.html"))}


def _page(name: str) -> Response:
    return Response(PAGES[name], mimetype="text/html")


@bp.get("/")
@operation(
    summary="The web workbench: solve, draw and step through game trees in a browser",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def workbench() -> Response:
    return _page("trees")


@bp.get("/matrices")
@operation(
    summary="The matrix-game page: enter a game in a grid or as JSON, see its equilibria "
    "exactly, the dominance steps, the indifference equations and the best-response picture",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def matrices_page() -> Response:
    return _page("matrices")


@bp.get("/extensive")
@operation(
    summary="The page of games with information sets: paste .efg text or the JSON form, "
    "solve it and see the tree with its information sets, the behaviour probabilities on "
    "its edges, the value and its certificate",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def extensive_page() -> Response:
    return _page("extensive")


@bp.get("/workbench/<name>")
@operation(
    summary="Static files of the workbench pages (ES modules and style sheets)",
    tag="workbench",
    response={"type": "string", "format": "binary"},
    media_type="application/octet-stream",
    errors=(),
    extra_responses={"404": {"description": "No such asset"}},
)
def workbench_asset(name: str) -> Response:
    if name not in ASSETS:
        raise NotFound(f"no workbench file named {name!r}")
    content, media_type = ASSETS[name]
    return Response(content, mimetype=media_type)


@bp.get("/practice")
@operation(
    summary="The practice page: generate a tree problem, answer it and have it graded",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def practice_page() -> Response:
    return _page("practice")


@bp.get("/lotteries")
@operation(
    summary="The lottery page: EMV, EU, CE and risk premium with the utility curve; "
    "EU consistency of choices (Allais)",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def lotteries_page() -> Response:
    return _page("lotteries")


@bp.get("/games")
@operation(
    summary="The games page: play a game of the catalogue against the engine, solve a "
    "position and open its game tree in the tree view",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def games_page() -> Response:
    return _page("games")


@bp.get("/mcts")
@operation(
    summary="The MCTS page: run Monte Carlo tree search on a game of the catalogue and step "
    "through each simulation's selection, expansion, playout and back-propagation",
    tag="workbench",
    response={"type": "string"},
    media_type="text/html",
    errors=(),
)
def mcts_page() -> Response:
    return _page("mcts")
