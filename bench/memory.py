"""Memory a worker needs per request, as a multiple of the request body.

Each case runs in a fresh process: the app is created, warmed up with a tiny request,
then handles one request of the case; the growth of the peak resident set (VmHWM)
over the warmed-up process is divided by the body size. Prints one line per case and
the largest factor, which docs/limits.md states.

    python bench/memory.py [--mib 8]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys
sys.path.insert(0, {root!r})
from api import create_app

def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM")

path = sys.argv[1]
body = open(sys.argv[2], "rb").read()
client = create_app({{"TESTING": True, "MAX_CONTENT_LENGTH": 1 << 30}}).test_client()
client.post("/v1/trees/minimax", json={{"tree": [[1, 2], [3]]}})
before = peak()
response = client.post(path, data=body, content_type="application/json")
after = peak()
print(json.dumps({{"status": response.status_code, "growth": after - before}}))
"""


def _shorthand(target: int) -> dict[str, object]:
    rng = random.Random(1)
    leaves = max(1, target // 4)
    width = 8
    groups = [[rng.randint(-99, 99) for _ in range(width)] for _ in range(leaves // width)]
    while len(groups) > 8:
        groups = [groups[i : i + 8] for i in range(0, len(groups), 8)]  # type: ignore[misc]
    return {"tree": groups}


def _flat(target: int) -> dict[str, object]:
    rng = random.Random(2)
    count = max(3, target // 40)
    nodes: list[dict[str, object]] = []
    for index in range(count):
        children = [c for c in (2 * index + 1, 2 * index + 2) if c < count]
        if children:
            nodes.append({"id": f"n{index}", "children": [f"n{c}" for c in children]})
        else:
            nodes.append({"id": f"n{index}", "value": rng.randint(-99, 99)})
    return {"tree": {"root": "n0", "nodes": nodes}}


def _chance(target: int) -> dict[str, object]:
    rng = random.Random(3)

    def build(depth: int) -> object:
        if depth == 0:
            return {"value": f"{rng.randint(-99, 99)}/{rng.randint(1, 9)}"}
        if depth % 2:
            return {
                "kind": "chance",
                "children": [
                    {"p": "1/3", **build(depth - 1)},  # type: ignore[dict-item]
                    {"p": "2/3", **build(depth - 1)},  # type: ignore[dict-item]
                ],
            }
        return {"children": [build(depth - 1), build(depth - 1)]}

    depth = 1
    while 2 ** (depth + 1) * 30 < target:
        depth += 1
    return {"tree": build(depth)}


def _lottery(target: int) -> dict[str, object]:
    count = max(2, min(target // 40, 100_000))
    return {
        "lottery": [{"p": f"1/{count}", "x": i} for i in range(count)],
        "utility": "sqrt(x)",
    }


CASES = {
    "minimax shorthand": ("/v1/trees/minimax", _shorthand),
    "alphabeta flat": ("/v1/trees/alphabeta", _flat),
    "expectimax chance": ("/v1/trees/expectimax", _chance),
    "lottery evaluate": ("/v1/lotteries/evaluate", _lottery),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, nargs="*", default=[1, 8])
    args = parser.parse_args()
    worst = 0.0
    scratch = ROOT / ".venv" / "memory-bench-body.json"
    for mib in args.mib:
        for name, (path, make) in CASES.items():
            body = json.dumps(make(int(mib * (1 << 20)))).encode()
            scratch.write_bytes(body)
            result = subprocess.run(
                [sys.executable, "-c", CHILD.format(root=str(ROOT)), path, str(scratch)],
                capture_output=True,
                text=True,
                check=True,
            )
            measured = json.loads(result.stdout.strip().splitlines()[-1])
            factor = measured["growth"] / len(body)
            worst = max(worst, factor)
            print(
                f"{name:20} body {len(body) / (1 << 20):6.2f} MiB  status {measured['status']}  "
                f"growth {measured['growth'] / (1 << 20):7.1f} MiB  factor {factor:5.1f}x"
            )
    scratch.unlink(missing_ok=True)
    print(f"largest factor: {worst:.1f}x the body")


if __name__ == "__main__":
    main()
