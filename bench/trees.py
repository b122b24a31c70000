"""Benchmark: tree searches and tree requests, each as a ratio to a peer in the same run.

On seeded random trees (branching 3 to 5, leaves in [-100, 100]; ``--nodes``, 100,000 by
default), prints one table per target of issue 27:

(a) in memory: ``solve_tree(tree, "minimax")`` and ``"alphabeta"`` on a parsed tree over a
    plain recursive textbook version (AIMA's max_value / min_value; alpha-beta pruning as
    AIMA Fig 5.7) on the same tree's columns: at most 1.0;
(b) POST /v1/trees/minimax and /v1/trees/alphabeta through Flask's test client, the tree
    as shorthand arrays, as plain objects and as objects with "id" and "move" on every
    node, each answered in the map and the columns layout, over ``orjson.loads`` of the
    same body: at most 8x (map) and 5x (columns);
(c) the same requests on a 20-node shorthand tree over ``GET /v1/health``: at most 2x;
(d) the peak memory each request of (b) adds to a fresh, warmed-up process (as
    bench/memory.py measures it) over the body size: at most 30x.

Times are the best of ``--repeat`` samples after a warm-up run, the cyclic collector off
in each (the app pauses it during a request). ``ARBITER_PURE_PYTHON=1`` measures the
Python implementations instead of the compiled kernels.

Run: make bench   (or .venv/bin/python bench/trees.py [--nodes N] [--seed S] [--repeat R])
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import analysis  # noqa: E402
from analysis.trees.solve import solve_tree  # noqa: E402
from api import create_app  # noqa: E402
from bench.memory import request_growth  # noqa: E402
from games.trees.model import LEAF, MAX, Tree  # noqa: E402
from games.trees.parser import parse_tree  # noqa: E402

SEARCHES = {"minimax": "/v1/trees/minimax", "alphabeta": "/v1/trees/alphabeta"}
FORMS = ("shorthand", "objects", "named objects")
LAYOUTS = {"map": 8.0, "columns": 5.0}
"""Each answer layout and its target, request time over the parse of the body."""
IN_MEMORY_TARGET = 1.0
SMALL_TARGET = 2.0
SMALL_NODES = 20
MEMORY_TARGET = 30.0


# -- trees and bodies ---------------------------------------------------------------------


def random_tree(seed: int, nodes: int, low: int = 3, high: int = 5) -> list[Any]:
    """Nested arrays of exactly ``nodes`` nodes (at least 2), grown a level at a time:
    each node of a level gets ``low`` to ``high`` children at random while nodes are left;
    the nodes left childless are leaves, valued at random in [-100, 100]."""
    rng = random.Random(seed)
    root: list[Any] = []
    level, left = [root], nodes - 1
    while left:
        below: list[list[Any]] = []
        for node in level:
            for _ in range(min(rng.randint(low, high), left)):
                node.append([])
            left -= len(node)
            below.extend(node)
            if not left:
                break
        level = below
    stack = [root]
    while stack:
        node = stack.pop()
        for position, child in enumerate(node):
            if child:
                stack.append(child)
            else:
                node[position] = rng.randint(-100, 100)
    return root


def as_objects(shorthand: Any, named: bool, number: list[int] | None = None) -> Any:
    """The shorthand as node objects; ``named``: with an "id" and a "move" on every node."""
    number = number if number is not None else [0]
    node: dict[str, Any] = {}
    if named:
        node["id"] = f"n{number[0]}"
        number[0] += 1
    if isinstance(shorthand, list):
        node["children"] = [as_objects(child, named, number) for child in shorthand]
        if named:
            for position, child in enumerate(node["children"]):
                child["move"] = chr(ord("a") + position)
    else:
        node["value"] = shorthand
    return node


def bodies(shorthand: Any) -> dict[tuple[str, str], bytes]:
    """The request bodies of (b), by form and answer layout."""
    trees = {
        "shorthand": shorthand,
        "objects": as_objects(shorthand, named=False),
        "named objects": {"move": "start", **as_objects(shorthand, named=True)},
    }
    found = {}
    for form in FORMS:
        found[form, "map"] = orjson.dumps({"tree": trees[form]})
        found[form, "columns"] = orjson.dumps({"tree": trees[form], "layout": "columns"})
    return found


# -- timing -------------------------------------------------------------------------------


def best_of(repeats: int, action: Any) -> float:
    """Best wall time of ``repeats`` runs, each with the cyclic GC off (the server
    turns it off while handling a tree, so the parser baseline gets the same)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
        gc.enable()
    return min(times)


def repeated(runs: int, action: Any) -> Any:
    """``action`` run ``runs`` times, each run's result freed before the next (as a server
    frees each request's objects): keeping them all would make the later runs allocate fresh
    memory, which a parse of a small body pays far more than a request does."""

    def run() -> None:
        for _ in range(runs):
            action()

    return run


def timed(repeats: int, runs: int, action: Callable[[], object]) -> float:
    """Seconds one ``action`` takes: one warm-up run, then the best of ``repeats`` samples of
    ``runs`` runs each (many runs for a short action, so a sample outlasts the clock's noise)."""
    action()
    return best_of(repeats, repeated(runs, action)) / runs


def post(client: Any, path: str, body: bytes) -> None:
    """POST ``body`` and read the whole answer, chunk by chunk as a server sends it (a large
    answer comes as several chunks: joining them would copy it once more, in the client)."""
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    sent = sum(map(len, response.iter_encoded()))
    assert sent == int(response.headers["Content-Length"])


def health(client: Any) -> None:
    response = client.get("/v1/health")
    assert response.status_code == 200
    response.get_data()


# -- the peers: AIMA's recursions over the parsed tree's columns -----------------------------


def peer_minimax(tree: Tree) -> tuple[Any, int]:
    """Minimax as AIMA states it (Fig 5.3): the root's value and best child (leftmost among
    equals). MAX at the root, MAX and MIN alternating below, as in the benchmark's trees."""
    children, values, kinds = tree.children, tree.values, tree.kinds
    assert kinds[0] == MAX

    def max_value(node: int) -> Any:
        if kinds[node] == LEAF:
            return values[node]
        v = -math.inf
        for child in children[node]:
            v = max(v, min_value(child))
        return v

    def min_value(node: int) -> Any:
        if kinds[node] == LEAF:
            return values[node]
        v = math.inf
        for child in children[node]:
            v = min(v, max_value(child))
        return v

    best_value, best_child = -math.inf, -1
    for child in children[0]:
        v = min_value(child)
        if v > best_value:
            best_value, best_child = v, child
    return best_value, best_child


def peer_alpha_beta(tree: Tree) -> tuple[Any, int]:
    """Alpha-beta as AIMA states it (Fig 5.7, as aima-python's ``alpha_beta_search``): the
    root's value and best child, pruning when ``v >= beta`` (or ``v <= alpha``)."""
    children, values, kinds = tree.children, tree.values, tree.kinds
    assert kinds[0] == MAX

    def max_value(node: int, alpha: float, beta: float) -> Any:
        if kinds[node] == LEAF:
            return values[node]
        v = -math.inf
        for child in children[node]:
            v = max(v, min_value(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(node: int, alpha: float, beta: float) -> Any:
        if kinds[node] == LEAF:
            return values[node]
        v = math.inf
        for child in children[node]:
            v = min(v, max_value(child, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_value, best_child = -math.inf, -1
    for child in children[0]:
        v = min_value(child, best_value, math.inf)
        if v > best_value:
            best_value, best_child = v, child
    return best_value, best_child


PEERS = {"minimax": peer_minimax, "alphabeta": peer_alpha_beta}


# -- the tables ---------------------------------------------------------------------------


def verdict(ratio: float, target: float) -> str:
    return "PASS" if ratio <= target else "MISS"


def show(title: str, rows: list[tuple[str, ...]]) -> None:
    """``rows`` (the first the header) as a table: the first column left-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    print(f"\n{title}")
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        print("  ".join(cells).rstrip())


def in_memory(tree: Tree, repeats: int, runs: int) -> None:
    """(a) solve_tree over the AIMA peer on the same parsed tree."""
    rows = [("search", "ours ms", "peer ms", "ratio", "target", "")]
    for search, peer in PEERS.items():
        solution = solve_tree(tree, search)
        value, best = peer(tree)
        assert (solution.value, solution.best_move) == (value, tree.ids[best]), search
        ours = timed(repeats, runs, lambda: solve_tree(tree, search))  # noqa: B023
        plain = timed(repeats, runs, lambda: peer(tree))  # noqa: B023
        ratio = ours / plain
        target = f"<= {IN_MEMORY_TARGET:g}"
        rows.append(
            (
                search,
                f"{ours * 1e3:.2f}",
                f"{plain * 1e3:.2f}",
                f"{ratio:.2f}",
                target,
                verdict(ratio, IN_MEMORY_TARGET),
            )
        )
    show(f"(a) in memory, {len(tree.kinds):,} nodes: solve_tree / AIMA recursion", rows)


def requests(
    client: Any, found: dict[tuple[str, str], bytes], value: Any, repeats: int, runs: int
) -> None:
    """(b) each request over the bare parse of its body."""
    rows = [("request", "body MB", "parse ms", "request ms", "ratio", "target", "")]
    for (form, layout), body in found.items():
        parse = timed(repeats, runs, lambda: orjson.loads(body))  # noqa: B023
        for search, path in SEARCHES.items():
            answer = client.post(path, data=body, content_type="application/json")
            assert orjson.loads(answer.get_data())["value"] == value, (form, layout, search)
            took = timed(repeats, runs, lambda: post(client, path, body))  # noqa: B023
            ratio, target = took / parse, LAYOUTS[layout]
            rows.append(
                (
                    f"{search} {form} {layout}",
                    f"{len(body) / 1e6:.2f}",
                    f"{parse * 1e3:.2f}",
                    f"{took * 1e3:.2f}",
                    f"{ratio:.2f}",
                    f"<= {target:g}",
                    verdict(ratio, target),
                )
            )
    show("(b) requests / orjson.loads of the body", rows)


def small_requests(client: Any, seed: int, repeats: int) -> None:
    """(c) 20-node shorthand requests over GET /v1/health through the same client."""
    body = orjson.dumps({"tree": random_tree(seed, SMALL_NODES)})
    runs = 500
    floor = timed(repeats, runs, lambda: health(client))
    rows = [("request", "request us", "health us", "ratio", "target", "")]
    for search, path in SEARCHES.items():
        took = timed(repeats, runs, lambda: post(client, path, body))  # noqa: B023
        ratio = took / floor
        rows.append(
            (
                f"{search} shorthand",
                f"{took * 1e6:.0f}",
                f"{floor * 1e6:.0f}",
                f"{ratio:.2f}",
                f"<= {SMALL_TARGET:g}",
                verdict(ratio, SMALL_TARGET),
            )
        )
    show(f"(c) {SMALL_NODES}-node requests / GET /v1/health", rows)


def peak_memory(found: dict[tuple[str, str], bytes]) -> None:
    """(d) each request's peak-memory growth in a fresh process over its body."""
    rows = [("request", "body MB", "growth MB", "ratio", "target", "")]
    for (form, layout), body in found.items():
        for search, path in SEARCHES.items():
            warm_up = orjson.dumps({"tree": [[1, 2], [3]], "layout": layout}).decode()
            status, growth = request_growth(path, body, (path, warm_up))
            assert status == 200, (form, layout, search, status)
            ratio = growth / len(body)
            rows.append(
                (
                    f"{search} {form} {layout}",
                    f"{len(body) / 1e6:.2f}",
                    f"{growth / 1e6:.1f}",
                    f"{ratio:.1f}",
                    f"<= {MEMORY_TARGET:g}",
                    verdict(ratio, MEMORY_TARGET),
                )
            )
    show("(d) peak memory growth of a fresh process / body size", rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Targets (issue 27): (a) <= 1.0, (b) <= 8 map and <= 5 columns, (c) <= 2, "
        "(d) <= 30.",
    )
    parser.add_argument("--nodes", type=int, default=100_000, help="tree size (default 100000)")
    parser.add_argument("--seed", type=int, default=2026, help="random tree seed (default 2026)")
    parser.add_argument("--repeat", type=int, default=5, help="timed samples (default 5)")
    parser.add_argument("--parts", default="abcd", help="parts to run (default abcd)")
    args = parser.parse_args()

    shorthand = random_tree(args.seed, args.nodes)
    tree = parse_tree(shorthand)
    runs = max(1, 200_000 // args.nodes)  # a small tree is timed over many runs
    pure = os.environ.get("ARBITER_PURE_PYTHON") == "1"
    kernels = "Python (ARBITER_PURE_PYTHON=1)" if pure else "compiled where built"
    print(
        f"tree: {args.nodes:,} nodes, seed {args.seed}, {tree.kinds.count(LEAF):,} leaves, "
        f"depth {tree.depths[-1]}; best of {args.repeat}"
    )
    print(f"code: {Path(analysis.__file__).parent.parent}; kernels: {kernels}")
    if "a" in args.parts:
        in_memory(tree, args.repeat, runs)
    found = bodies(shorthand)
    client = create_app().test_client()
    if "b" in args.parts:
        requests(client, found, peer_minimax(tree)[0], args.repeat, runs)
    if "c" in args.parts:
        small_requests(client, args.seed, args.repeat)
    if "d" in args.parts:
        peak_memory(found)


if __name__ == "__main__":
    main()
