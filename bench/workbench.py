"""Benchmark: the tree workbench in headless Chromium (Debian's), over the real app.

For seeded random trees of about 100, 500 and 2,000 nodes, clicks Solve (alpha-beta,
the page's default, which fetches the trace and then the drawing) and times it until
the drawing is in the page and painted (the frame after the SVG is inserted): the median
of several runs, split into the two API requests (solve with trace, render) and the rest
(the browser parsing, laying out and painting the SVG, and the page's own work). Then
times the step-through's replay over the trace of the largest tree (a click until the
next frame): Next step from the start, Previous step from the last step (the first of
them turns the whole solved drawing back into the replay), and the jumps to the last step
and back to the start (every node repainted). Targets (issues 13 and 28): under 1 s for
2,000 nodes, under 50 ms a step.

Run: .venv/bin/python bench/workbench.py [--runs N] [--sizes 100 500 2000] [--steps N]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import shutil
import statistics
import sys
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import create_app  # noqa: E402

# Clicks Solve and resolves, once the drawing is inserted and the next frame painted, with
# the time taken and the two API requests' durations (from the Resource Timing entries).
SOLVE = """
async () => {
  const drawing = document.getElementById("drawing");
  drawing.replaceChildren();
  performance.clearResourceTimings();
  const drawn = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!drawing.querySelector("svg")) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(resolve, 0));
    });
    observer.observe(drawing, { childList: true });
  });
  const start = performance.now();
  document.getElementById("solve").click();
  await drawn;
  const total = performance.now() - start;
  const api = (name) => performance.getEntriesByType("resource")
    .filter((entry) => entry.name.endsWith(name))
    .reduce((sum, entry) => sum + entry.duration, 0);
  return { total, solve: api("/v1/trees/alphabeta"), render: api("/v1/trees/render"),
           nodes: drawing.querySelectorAll("[data-node-id]").length };
}
"""

# One click on a step button, until the step count has changed and the next frame is painted.
STEP = """
async (button) => {
  const count = document.getElementById("step-count");
  const before = count.textContent;
  const start = performance.now();
  document.getElementById(button).click();
  if (count.textContent === before) throw new Error("the step changed nothing");
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return performance.now() - start;
}
"""


def random_tree(nodes: int, seed: int) -> tuple[Any, int]:
    """A tree of exactly ``nodes`` nodes (nested arrays, leaves in [-50, 50]): level by
    level, each node gets 2 to 4 children until the count is reached."""
    rng = random.Random(seed)
    children: list[list[int]] = [[]]
    frontier, count = [0], 1
    while count < nodes:
        below = []
        for node in frontier:
            for _ in range(min(rng.randint(2, 4), nodes - count)):
                children.append([])
                children[node].append(count)
                below.append(count)
                count += 1
        frontier = below
    built: list[Any] = [rng.randint(-50, 50) for _ in range(count)]
    for node in range(count - 1, -1, -1):  # children are numbered after their parents
        if children[node]:
            built[node] = [built[child] for child in children[node]]
    return built[0], count


def solve_times(page: Page, tree: Any, runs: int) -> dict[str, float]:
    page.get_by_test_id("tree-input").fill(json.dumps(tree))
    page.get_by_test_id("algorithm").select_option("alphabeta")
    page.evaluate(SOLVE)  # a warm-up run
    results = [page.evaluate(SOLVE) for _ in range(runs)]
    median = {key: statistics.median(r[key] for r in results) for key in results[0]}
    median["browser"] = median["total"] - median["solve"] - median["render"]
    return median


def step_times(page: Page, steps: int) -> tuple[dict[str, float], int]:
    """The replay's times in ms: Next from the start and Previous from the end (median and
    slowest), the jumps to the last step and to the start (median of 5 each)."""
    total = int(page.get_by_test_id("step-count").inner_text().split()[-1])
    times = {}
    forward = [page.evaluate(STEP, "step-next") for _ in range(min(steps, total - 1))]
    times["next"], times["next max"] = statistics.median(forward), max(forward)
    page.evaluate(STEP, "step-last")
    back = [page.evaluate(STEP, "step-prev") for _ in range(min(steps, total - 1))]
    times["previous"], times["previous max"] = statistics.median(back), max(back)
    jumps: dict[str, list[float]] = {"step-last": [], "step-first": []}
    for _ in range(5):
        for button, found in jumps.items():
            found.append(page.evaluate(STEP, button))
    times["end"], times["start"] = (statistics.median(found) for found in jumps.values())
    return times, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per size (median)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 2000])
    parser.add_argument("--steps", type=int, default=30, help="steps timed (median)")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("workbench benchmark: Debian's chromium is needed (apt-get install chromium)")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{server.server_port}/")
            print(f"Solve (alpha-beta with trace) to the painted drawing, median of {args.runs}:")
            print("  nodes   total ms   solve+trace ms   render ms   browser ms   drawn")
            for size in args.sizes:
                tree, count = random_tree(size, args.seed)
                times = solve_times(page, tree, args.runs)
                print(
                    f"  {count:5d}   {times['total']:8.0f}   {times['solve']:14.0f}   "
                    f"{times['render']:9.0f}   {times['browser']:10.0f}   {times['nodes']:5.0f}"
                )
            times, total = step_times(page, args.steps)
            print(f"The step-through's replay ({total} steps, {count} nodes), ms:")
            print("  next (max)     previous (max)     to the end   to the start")
            print(
                f"  {times['next']:4.1f} ({times['next max']:5.1f})   "
                f"{times['previous']:4.1f} ({times['previous max']:5.1f})       "
                f"{times['end']:10.1f}   {times['start']:12.1f}"
            )
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
