"""Memory a worker needs per request, as a multiple of the request body.

Each case runs in a fresh process: the app is created, warmed up with a tiny request,
then handles one request of the case and writes its answer out; the growth of the peak
resident set (VmHWM) over the warmed-up process is divided by the body size. Prints one
line per case and the largest factor, which docs/limits.md states. ``bench/trees.py``
measures its requests with :func:`request_growth`.

    python bench/memory.py [--mib 8]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys
sys.path.insert(0, {root!r})
from api import create_app

def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM")

path, body_file, warm_path, warm_body = sys.argv[1:5]
body = open(body_file, "rb").read()
client = create_app({{"TESTING": True, "MAX_CONTENT_LENGTH": 1 << 30}}).test_client()
warm = client.post(warm_path, data=warm_body, content_type="application/json")
assert warm.status_code == 200, warm.get_data()
before = peak()
response = client.post(path, data=body, content_type="application/json")
for chunk in response.iter_encoded():  # the answer, chunk by chunk as a server writes it
    pass
print(response.status_code, peak() - before)
"""

WARM_UP = ("/v1/trees/minimax", '{"tree": [[1, 2], [3]]}')
"""The request that warms a fresh app up before the measured one: path and body."""


def request_growth(path: str, body: bytes, warm_up: tuple[str, str] = WARM_UP) -> tuple[int, int]:
    """Status and peak-memory growth in bytes of one POST of ``body`` to ``path`` in a fresh
    process, over the same process warmed up by ``warm_up``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as scratch:
        scratch.write(body)
        scratch.flush()
        result = subprocess.run(
            [sys.executable, "-c", CHILD.format(root=str(ROOT)), path, scratch.name, *warm_up],
            capture_output=True,
            text=True,
            check=True,
        )
    status, growth = result.stdout.split()[-2:]
    return int(status), int(growth)


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
    for mib in args.mib:
        for name, (path, make) in CASES.items():
            body = json.dumps(make(int(mib * (1 << 20)))).encode()
            status, growth = request_growth(path, body)
            factor = growth / len(body)
            worst = max(worst, factor)
            print(
                f"{name:20} body {len(body) / (1 << 20):6.2f} MiB  status {status}  "
                f"growth {growth / (1 << 20):7.1f} MiB  factor {factor:5.1f}x"
            )
    print(f"largest factor: {worst:.1f}x the body")


if __name__ == "__main__":
    main()
