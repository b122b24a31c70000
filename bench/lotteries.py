"""Benchmark: lottery endpoints through the real app (Flask test client, in process).

Reports request latency (median and p95 over repeated requests) for
(a) POST /v1/lotteries/evaluate on a 1,000-outcome lottery under the exponential
    family (R = 250,000) and (b) under the formula utility "log(x + 1) + sqrt(x)/10"
    (no structural inverse, so CE is found by root-finding), and
(c) POST /v1/lotteries/eu-consistency with 200 lotteries and 199 choices.
Target: evaluate under 50 ms at 1,000 outcomes.

Run: .venv/bin/python bench/lotteries.py [--repeats N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import create_app  # noqa: E402


def random_lottery(rng: random.Random, outcomes: int, prizes: list[int] | None = None) -> list[Any]:
    """``outcomes`` branches with exact probabilities "w/total" summing to 1."""
    weights = [rng.randint(1, 1000) for _ in range(outcomes)]
    total = sum(weights)
    if prizes is None:
        values = rng.sample(range(0, 1_000_000), outcomes)
    else:
        values = rng.sample(prizes, outcomes)
    return [{"p": str(Fraction(w, total)), "x": v} for w, v in zip(weights, values, strict=True)]


def latency(client: Any, path: str, body: bytes, repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        response = client.post(path, data=body, content_type="application/json")
        response.get_data()
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.get_data(as_text=True)[:400]
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return statistics.median(times) * 1000, p95 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    client = create_app({"TESTING": True}).test_client()
    lottery = random_lottery(rng, 1000)
    prizes = list(range(0, 100_001, 500))
    lotteries = {f"L{i}": random_lottery(rng, rng.randint(2, 6), prizes) for i in range(200)}
    choices = [
        [
            f"L{i}",
            rng.choice([">", "<", "~"]) if i % 50 == 0 else (">" if i % 2 else "<"),
            f"L{i + 1}",
        ]
        for i in range(199)
    ]
    cases = [
        (
            "evaluate, 1,000 outcomes, exponential R=250,000",
            "/v1/lotteries/evaluate",
            {
                "lottery": lottery,
                "utility": {"family": "exponential"},
                "parameters": {"R": 250_000},
            },
        ),
        (
            "evaluate, 1,000 outcomes, formula log(x+1) + sqrt(x)/10",
            "/v1/lotteries/evaluate",
            {"lottery": lottery, "utility": "log(x + 1) + sqrt(x)/10"},
        ),
        (
            "eu-consistency, 200 lotteries, 199 choices, increasing",
            "/v1/lotteries/eu-consistency",
            {"lotteries": lotteries, "choices": choices, "increasing": True},
        ),
    ]
    print(f"{'case':58} {'median ms':>10} {'p95 ms':>8}")
    for name, path, payload in cases:
        body = orjson.dumps(payload)
        latency(client, path, body, 3)  # warm-up
        median, p95 = latency(client, path, body, args.repeats)
        print(f"{name:58} {median:10.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
