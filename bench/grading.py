"""Benchmark: batch-grade 1,000 answers to a ~200-node alpha-beta problem, end to end.

The problem comes from the generator (seeded); the answers are the key itself, the
key under strict pruning, and random corruptions of values and pruned leaves, so
that most answers are wrong and go through the diagnosis. Times the whole
POST /v1/grade/batch (body parsing, grading, diagnosis, summary, JSON out) and the
CSV variant; the target is under 2 s.

Run: .venv/bin/python bench/grading.py [--answers N] [--seed S] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.grading.problem_generator import ProblemSettings, generate_problem  # noqa: E402
from analysis.trees.alpha_beta import alpha_beta  # noqa: E402
from analysis.trees.json_output import alpha_beta_json  # noqa: E402
from api import create_app  # noqa: E402
from bench.trees import best_of  # noqa: E402
from games.trees.parser import parse_tree  # noqa: E402


def answer_from(key: dict[str, Any]) -> dict[str, Any]:
    return {
        "value": key["value"],
        "best_move": key["best_move"],
        "nodes": {
            name: entry["value"] for name, entry in key["nodes"].items() if name.count(".") < 4
        },
        "pruned_leaves": list(key["pruned_leaves"]),
    }


def answers(problem: dict[str, Any], key: dict[str, Any], count: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    tree = parse_tree(problem["tree"])
    strict = alpha_beta_json(alpha_beta(tree, prune_on_equality=False), None)
    leaves = [tree.ids[i] for i in tree.leaves()]
    out: dict[str, Any] = {}
    for student in range(count):
        answer = answer_from(strict if student % 4 == 1 else key)
        if student % 4 >= 2:
            for name in rng.sample(sorted(answer["nodes"]), 5):
                answer["nodes"][name] = rng.randint(0, 20)
            answer["pruned_leaves"] = rng.sample(leaves, len(answer["pruned_leaves"]))
            answer["value"] = rng.randint(0, 20)
        out[f"s{student:04d}"] = answer
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    settings = ProblemSettings(depth=4, branching=(3, 4), seed=args.seed, min_pruned_leaves=20)
    generated = generate_problem(settings)
    nodes = generated.answer["stats"]["nodes"]
    batch = {
        "problem": generated.problem,
        "answers": answers(generated.problem, generated.answer, args.answers, args.seed),
    }
    body = orjson.dumps(batch)
    client = create_app().test_client()

    def run(accept: str) -> None:
        response = client.post(
            "/v1/grade/batch",
            data=body,
            content_type="application/json",
            headers={"Accept": accept},
        )
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        response.get_data()

    json_time = best_of(args.repeats, lambda: run("application/json"))
    csv_time = best_of(args.repeats, lambda: run("text/csv"))
    summary = client.post("/v1/grade/batch", json=batch).json["summary"]
    print(f"grading: {args.answers} answers to a {nodes}-node alpha-beta problem")
    print(f"  POST /v1/grade/batch (JSON) {json_time:.3f} s   (target < 2 s)")
    print(f"  POST /v1/grade/batch (CSV)  {csv_time:.3f} s")
    print(
        f"  mean {summary['mean']:.2f} / {summary['max_score']:g}; mistakes: "
        + ", ".join(f"{m['code']} x{m['count']}" for m in summary["common_mistakes"][:4])
    )


if __name__ == "__main__":
    main()
