"""Benchmark: a seeded ~1,000,000-node expectiminimax tree with exact decimal probabilities.

Levels go MAX, chance, MIN, chance, ... (depth 8, branching 5 or 6); every chance outcome
states its probability as a decimal string (multiples of 0.05 summing to exactly 1). Prints
(a) parsing the body with orjson, (b) the whole POST /v1/trees/expectimax request,
(c) the same with Star1 bounds, and the ratios (b)/(a), (c)/(a); then the two searches
alone on the parsed tree, (d) expectimax and (e) Star1, and (e)/(d). The requests differ
by more than the searches: Star1's answer also lists bounds, cutoffs and pruned nodes.

Run: .venv/bin/python bench/chance.py [--seed S] [--depth D] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.trees.expectimax import expectimax  # noqa: E402
from analysis.trees.star1 import star1  # noqa: E402
from api import create_app  # noqa: E402
from bench.trees import best_of, post  # noqa: E402
from games.trees.parser import parse_tree  # noqa: E402


def chance_tree(seed: int, depth: int) -> tuple[Any, int]:
    """The tree as node objects, and its node count."""
    rng = random.Random(seed)
    count = 0

    def probabilities(outcomes: int) -> list[str]:
        # split 20 twentieths among the outcomes, each getting at least one
        cuts = sorted(rng.sample(range(1, 20), outcomes - 1))
        shares = [b - a for a, b in zip([0, *cuts], [*cuts, 20], strict=True)]
        return [f"{share * 5 / 100:.2f}" for share in shares]

    def build(level: int) -> Any:
        nonlocal count
        count += 1
        if level == depth:
            return {"value": rng.randint(-100, 100)}
        kids = [build(level + 1) for _ in range(rng.randint(5, 6))]
        if level % 2 == 0:
            return {"children": kids}  # MAX or MIN by alternation
        for kid, share in zip(kids, probabilities(len(kids)), strict=True):
            kid["p"] = share
        return {"kind": "chance", "children": kids}

    return build(0), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    tree, count = chance_tree(args.seed, args.depth)
    body = orjson.dumps({"tree": tree})
    bounded = orjson.dumps({"tree": tree, "bounds": [-100, 100]})
    del tree
    client = create_app().test_client()
    parse = best_of(args.repeats, lambda: orjson.loads(body))
    full = best_of(args.repeats, lambda: post(client, "/v1/trees/expectimax", body))
    star = best_of(args.repeats, lambda: post(client, "/v1/trees/expectimax", bounded))
    parsed = parse_tree(orjson.loads(body)["tree"])
    search = best_of(args.repeats, lambda: expectimax(parsed))
    pruning = best_of(args.repeats, lambda: star1(parsed, (-100, 100)))
    print(
        f"tree: {count:,} nodes (MAX/chance/MIN/chance levels), seed {args.seed}, "
        f"body {len(body) / 1e6:.1f} MB"
    )
    print(
        f"(a) orjson parse {parse:.3f}s  (b) expectimax {full:.3f}s  (c) Star1 {star:.3f}s  "
        f"(b)/(a) = {full / parse:.2f}  (c)/(a) = {star / parse:.2f}"
    )
    print(
        f"searches alone: (d) expectimax {search:.3f}s  (e) Star1 {pruning:.3f}s  "
        f"(e)/(d) = {pruning / search:.2f}"
    )


if __name__ == "__main__":
    main()
