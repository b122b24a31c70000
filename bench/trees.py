"""Benchmark: a seeded random ~1,000,000-node tree posted through the real app.

Prints, for the nested-object form and the shorthand-array form of the same tree, each with
the answer in the documented map layout and in the compact columns layout (`"layout":
"columns"`, asked for in the body):
(a) parsing the body with the fastest JSON parser installed (orjson),
(b) the whole POST /v1/trees/minimax request, (c) the whole POST /v1/trees/alphabeta
request, the ratios (b)/(a) and (c)/(a), and each request's peak memory (RSS, in a
fresh process). Then in-memory alpha-beta against a plain recursive textbook
(AIMA-style) implementation on the same tree.

Run: make bench   (or .venv/bin/python bench/trees.py [--nodes N] [--seed S])
"""

from __future__ import annotations

import argparse
import gc
import io
import math
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
from werkzeug.test import EnvironBuilder

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.trees.alpha_beta import alpha_beta  # noqa: E402
from api import create_app  # noqa: E402
from games.trees.model import Tree  # noqa: E402
from games.trees.parser import parse_tree  # noqa: E402


def random_tree(seed: int, depth: int = 8, low: int = 5, high: int = 6) -> list[Any]:
    """Nested arrays, branching ``low`` to ``high`` at random, leaves in [-100, 100].

    Depth 8 gives about 1,000,000 nodes (1,700,000 with branching 6 below a root of 5).
    """
    rng = random.Random(seed)

    def build(level: int) -> Any:
        if level == depth:
            return rng.randint(-100, 100)
        if level == 0 and low == high:
            return [build(1) for _ in range(low - 1)]
        return [build(level + 1) for _ in range(rng.randint(low, high))]

    return build(0)


def as_objects(shorthand: Any) -> Any:
    if isinstance(shorthand, list):
        return {"children": [as_objects(child) for child in shorthand]}
    return {"value": shorthand}


def count_nodes(tree: Any) -> int:
    if isinstance(tree, list):
        return 1 + sum(count_nodes(child) for child in tree)
    return 1


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


def post(client: Any, path: str, body: bytes) -> None:
    """POST ``body`` and read the whole answer, chunk by chunk as a server sends it (a large
    answer comes as several chunks: joining them would copy it once more, in the client)."""
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    sent = sum(map(len, response.iter_encoded()))
    assert sent == int(response.headers["Content-Length"])


# -- baselines: AIMA-style alpha-beta (game object, recursion), and a bare recursion ---------


class TreeGame:
    """AIMA's ``Game`` interface over the same parsed tree; states are node indices."""

    def __init__(self, tree: Tree):
        self.tree = tree

    def actions(self, state: int) -> list[int]:
        return list(self.tree.children[state])

    def result(self, state: int, move: int) -> int:
        return move

    def terminal_test(self, state: int) -> bool:
        return not self.tree.children[state]

    def utility(self, state: int, player: str) -> Any:
        value = self.tree.values[state]
        return value if player == "MAX" else -value  # type: ignore[operator]

    def to_move(self, state: int) -> str:
        return "MAX" if self.tree.kinds[state] == "max" else "MIN"


def aima_alpha_beta_search(state: int, game: TreeGame) -> int:
    """Alpha-beta as AIMA's games.py states it: recursive max_value/min_value."""
    player = game.to_move(state)

    def max_value(state: int, alpha: float, beta: float) -> float:
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state: int, alpha: float, beta: float) -> float:
        if game.terminal_test(state):
            return game.utility(state, player)
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_score = -math.inf
    best_action = -1
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, math.inf)
        if v > best_score:
            best_score, best_action = v, a
    return best_action


def bare_alpha_beta(tree: Any) -> float:
    """The leanest recursion: nested lists in, root value out, nothing recorded."""

    def max_value(node: Any, alpha: float, beta: float) -> float:
        if not isinstance(node, list):
            return node
        v = -math.inf
        for child in node:
            v = max(v, min_value(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(node: Any, alpha: float, beta: float) -> float:
        if not isinstance(node, list):
            return node
        v = math.inf
        for child in node:
            v = min(v, max_value(child, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return max_value(tree, -math.inf, math.inf)


def peak_memory(path: str, body_file: str) -> float:
    """Peak RSS in MB of a fresh process that handles one request: its own high-water mark
    (``VmHWM``; ``ru_maxrss`` would be this benchmark's, which Linux carries into a child
    forked from it)."""
    code = (
        "import sys; sys.path.insert(0, '.');"
        "from api import create_app; c = create_app().test_client();"
        f"body = open({body_file!r}, 'rb').read();"
        f"r = c.post({path!r}, data=body, content_type='application/json');"
        "assert sum(map(len, r.iter_encoded())) == int(r.headers['Content-Length']);"
        "print(next(int(line.split()[1]) for line in open('/proc/self/status')"
        " if line.startswith('VmHWM:')) / 1024)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return float(out.stdout.strip())


def measure_form(form: str, body: bytes, client: Any, repeats: int) -> str:
    """One table row: parse, minimax and alpha-beta times, ratios and peak memory."""
    parse = best_of(repeats, lambda: orjson.loads(body))
    mini = best_of(repeats, lambda: post(client, "/v1/trees/minimax", body))
    ab = best_of(repeats, lambda: post(client, "/v1/trees/alphabeta", body))
    with tempfile.NamedTemporaryFile(suffix=".json") as handle:
        handle.write(body)
        handle.flush()
        peaks = [peak_memory(p, handle.name) for p in ("/v1/trees/minimax", "/v1/trees/alphabeta")]
    return (
        f"{form:<18} {len(body) / 1e6:>8.1f} {parse:>9.3f}s {mini:>11.3f}s {ab:>13.3f}s "
        f"{mini / parse:>8.2f} {ab / parse:>8.2f} {peaks[0]:>5.0f}/{peaks[1]:<5.0f}"
    )


def bare_minimax(node: Any, is_max: bool = True) -> Any:
    """Textbook minimax on nested lists (root value only)."""
    if not isinstance(node, list):
        return node
    values = [bare_minimax(child, not is_max) for child in node]
    return max(values) if is_max else min(values)


def bodies(shorthand: Any) -> list[tuple[str, bytes]]:
    """The tree's request bodies: both forms, each in both answer layouts."""
    found = []
    for form, tree in (("objects", as_objects(shorthand)), ("shorthand", shorthand)):
        found.append((form, orjson.dumps({"tree": tree})))
        found.append((f"{form} columns", orjson.dumps({"tree": tree, "layout": "columns"})))
    return found


def wsgi_caller(app: Any, path: str, body: bytes) -> Any:
    """A POST of ``body`` to ``path`` handed straight to the app's WSGI callable, as a server
    hands it over once it has read the request: the environ is built once, outside the
    timing, so what is timed is the app's own work (the test client adds its own building of
    the environ and wrapping of the answer, about 75 us a request on this machine)."""
    template = EnvironBuilder(
        path=path, method="POST", data=body, content_type="application/json"
    ).get_environ()
    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
        statuses.append(status)

    def call() -> None:
        environ = dict(template)
        environ["wsgi.input"] = io.BytesIO(body)
        statuses.clear()
        answer = app(environ, start_response)
        try:
            for _ in answer:  # (the chunks as the server writes them, not joined)
                pass
        finally:
            if hasattr(answer, "close"):
                answer.close()
        assert statuses == ["200 OK"], statuses

    return call


def health(client: Any) -> None:
    response = client.get("/v1/health")
    assert response.status_code == 200
    response.get_data()


def sweep(client: Any, repeats: int) -> None:
    """Requests and in-memory searches from 1,000 to 1,700,000 nodes: ratios and cost per node.

    ``floor`` is the app's cheapest answer (``GET /v1/health``) through the same client, over
    the same parse: what any request costs before it reads a byte of its body. ``app`` is the
    same minimax / alpha-beta request handed straight to the app's WSGI callable (no test
    client), over the parse: the server's own share of the request."""
    print("\nsizes (request / bare parse, both forms; in-memory ours / plain recursion):")
    print(
        f"{'nodes':>10} {'form':<18} {'parse':>8} {'floor':>6} {'minimax':>9} {'ratio':>6} "
        f"{'alphabeta':>10} {'ratio':>6} {'app':>11} {'us/node':>8} | {'ab mem':>8} {'bare':>8} "
        f"{'ratio':>6} {'mm mem':>8} {'bare':>8} {'ratio':>6}"
    )
    from analysis.trees.minimax import minimax

    floor = best_of(repeats, repeated(2000, lambda: health(client))) / 2000
    print(f"floor: GET /v1/health through the test client, {floor * 1e3:.3f} ms")
    for depth, low, high in ((4, 5, 6), (5, 5, 6), (6, 5, 6), (7, 5, 6), (8, 5, 6), (8, 6, 6)):
        shorthand = random_tree(2026, depth, low, high)
        total = count_nodes(shorthand)
        # small trees are timed over many runs, so every size gets a stable best time
        runs = max(1, 200_000 // total)
        parsed = parse_tree(shorthand)
        memory = []
        for ours, bare in ((alpha_beta, bare_alpha_beta), (minimax, bare_minimax)):
            mine = best_of(repeats, repeated(runs, lambda: ours(parsed))) / runs  # noqa: B023
            plain = best_of(repeats, repeated(runs, lambda: bare(shorthand))) / runs  # noqa: B023
            memory.append(f"{mine * 1e3:>7.3f}m {plain * 1e3:>7.3f}m {mine / plain:>6.2f}")
        for form, body in bodies(shorthand):
            parse = best_of(repeats, repeated(runs, lambda: orjson.loads(body))) / runs  # noqa: B023
            times = [
                best_of(repeats, repeated(runs, lambda: post(client, path, body)))  # noqa: B023
                / runs
                for path in ("/v1/trees/minimax", "/v1/trees/alphabeta")
            ]
            app = [
                best_of(repeats, repeated(runs, wsgi_caller(client.application, path, body)))
                / runs
                / parse
                for path in ("/v1/trees/minimax", "/v1/trees/alphabeta")
            ]
            print(
                f"{total:>10,} {form:<18} {parse * 1e3:>7.2f}m {floor / parse:>6.2f} "
                f"{times[0] * 1e3:>8.2f}m {times[0] / parse:>6.2f} {times[1] * 1e3:>9.2f}m "
                f"{times[1] / parse:>6.2f} {app[0]:>5.2f}/{app[1]:<5.2f} "
                f"{times[0] / total * 1e6:>8.3f} | {memory[0]} {memory[1]}"
            )
            memory = ["", ""]  # the in-memory figures go on the first row only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8, help="8 gives about 1M nodes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sweep", action="store_true", help="also 1,000 to 1,700,000 nodes")
    args = parser.parse_args()

    shorthand = random_tree(args.seed, args.depth)
    total = count_nodes(shorthand)
    client = create_app().test_client()
    print(f"tree: {total:,} nodes, seed {args.seed}, depth {args.depth}, leaves in [-100, 100]")
    print(
        f"{'form':<18} {'body MB':>8} {'(a) parse':>10} {'(b) minimax':>12} "
        f"{'(c) alphabeta':>14} {'(b)/(a)':>8} {'(c)/(a)':>8} {'peak MB b/c':>12}"
    )
    for form, body in bodies(shorthand):
        print(measure_form(form, body, client, args.repeats))
    parsed = parse_tree(shorthand)
    result = alpha_beta(parsed)
    game = TreeGame(parsed)
    assert aima_alpha_beta_search(0, game) == result.best_move
    assert bare_alpha_beta(shorthand) == result.value
    ours = best_of(args.repeats, lambda: alpha_beta(parsed))
    listing = best_of(args.repeats, lambda: alpha_beta(parsed).pruned_leaves)
    aima = best_of(args.repeats, lambda: aima_alpha_beta_search(0, game))
    bare = best_of(args.repeats, lambda: bare_alpha_beta(shorthand))
    print(
        f"in-memory alpha-beta on the same tree ({result.stats.visited:,} nodes visited, "
        f"{result.stats.evaluated:,} leaves evaluated, {len(result.pruned_leaves):,} pruned):"
    )
    print(
        f"  ours (iterative; value and bound of every visited node, best moves, cutoffs, "
        f"pruned subtrees, evaluated leaves): {ours:.3f}s; listing all pruned leaves "
        f"too: {listing:.3f}s"
    )
    print(
        f"  AIMA-style recursive (game object; best move only): {aima:.3f}s   "
        f"ours/AIMA = {ours / aima:.2f}"
    )
    print(
        f"  bare recursion on nested lists (root value only): {bare:.3f}s   "
        f"ours/bare = {ours / bare:.2f}"
    )
    if args.sweep:
        sweep(client, args.repeats)


if __name__ == "__main__":
    main()
