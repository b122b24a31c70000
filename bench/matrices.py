"""Benchmark: zero-sum values and all extreme equilibria of matrix games against QuantEcon.

One run prints, with ratios ours / QuantEcon measured side by side and the answers compared:

1. The value of seeded random zero-sum games from 2x2 to 200x200: ``zero_sum_solution`` in
   float mode against QuantEcon's ``quantecon.optimize.minmax`` (numba), and against scipy's
   ``linprog`` (HiGHS) called directly; the automatic mode's time and how many of the games it
   certifies exactly (rationals checked exactly).
2. All extreme equilibria of seeded random bimatrix games (6x6 to 12x12): ``extreme_equilibria``
   exact and float against QuantEcon's ``game_theory.vertex_enumeration`` (and nashpy's vertex
   enumeration at 6x6); the equilibrium sets must agree.
3. Degenerate 15x15 games (payoffs drawn from {0, 1, 2}, seeded, and the load benchmark's
   ``((i * j) % 3, (i + j) % 3)``): our exact, complete enumeration against QuantEcon, which
   misses equilibria of degenerate games (its vertices are found in general position): the
   count of equilibria each finds and whether QuantEcon's are all among ours.

Payoffs of random games are uniform numbers with four decimals, read exactly by Arbiter; the
game is built (and its float view made) before timing. Small games are timed over repeated
calls (the best of three loops, per call). QuantEcon's numba compilation is done before any
timing. Times are medians over the games.

The peers live in their own environment, never the product's: ``make bench-matrices`` creates
``.bench-venv`` from ``bench/requirements-peers.txt`` and runs this file with it. A peer that is
not installed prints nan.

Run: make bench-matrices   (or PYTHONPATH=. .bench-venv/bin/python bench/matrices.py [--games N])
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linprog

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.equilibria.vertex_enumeration import extreme_equilibria  # noqa: E402
from analysis.equilibria.zero_sum import zero_sum_solution  # noqa: E402
from games.matrices.model import bimatrix, zero_sum_game  # noqa: E402
from games.numbers import parse_exact  # noqa: E402


def optional(name: str) -> Any:
    try:
        return __import__(name, fromlist=["_"])
    except ImportError:
        return None


COMPILED = getattr(optional("analysis.equilibria.maxmin_simplex"), "COMPILED", False)
NASHPY = optional("nashpy")
QE_MINMAX = optional("quantecon.optimize.minmax")
QE_GAMES = optional("quantecon.game_theory")
NAN = float("nan")


def timed(run: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def per_call(run: Callable[[], Any], budget: float = 0.02) -> tuple[float, Any]:
    """Seconds per call (best of three loops sized to about ``budget`` seconds) and the answer."""
    first, result = timed(run)
    calls = max(1, min(10_000, int(budget / max(first, 1e-7))))
    best = first
    for _ in range(3 if calls > 1 else 0):
        start = time.perf_counter()
        for _ in range(calls):
            run()
        best = min(best, (time.perf_counter() - start) / calls)
    return best, result


def random_matrix(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    return np.round(rng.random((rows, cols)), 4)


def exact_rows(matrix: np.ndarray) -> list[list[Any]]:
    return [[parse_exact(float(v), "") for v in row] for row in matrix]


def direct_linprog(matrix: np.ndarray) -> float:
    """The textbook LP: max v s.t. x^T A >= v, sum x = 1, x >= 0 (HiGHS)."""
    rows, cols = matrix.shape
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((cols, 1))])
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(cols),
        A_eq=equality,
        b_eq=[1.0],
        bounds=[(0, None)] * rows + [(None, None)],
        method="highs",
    )
    return float(result.x[-1])


def median(values: list[float]) -> float:
    return statistics.median(values) if values else NAN


def spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}" if values else "nan"


def zero_sum_section(games: int, seed: int, sizes: list[int]) -> None:
    print("== Zero-sum value: seconds per game (median), ratio ours/QuantEcon ==")
    print(
        f"{'size':>8} {'ours float':>11} {'QuantEcon':>10} {'ratio':>6} {'(range)':>11} "
        f"{'HiGHS direct':>12} {'ours auto':>10} {'exact':>6}  {'max |v - HiGHS|':>15}"
    )
    if QE_MINMAX is not None:
        QE_MINMAX.minmax(np.eye(2))  # numba compilation, not timed
    rng = np.random.default_rng(seed)
    for size in sizes:
        times: dict[str, list[float]] = {k: [] for k in ("float", "auto", "direct", "qe")}
        ratios = []
        worst = 0.0
        certified = 0
        for _ in range(games):
            matrix = random_matrix(rng, size, size)
            game = zero_sum_game(exact_rows(matrix))
            game.float_payoffs(0)  # the float view is part of building the game
            t, reference = timed(lambda: direct_linprog(matrix))  # noqa: B023
            times["direct"].append(t)
            t, ours = per_call(lambda: zero_sum_solution(game, exact=False))  # noqa: B023
            times["float"].append(t)
            worst = max(worst, abs(float(ours.value) - reference))
            t, auto = timed(lambda: zero_sum_solution(game))  # noqa: B023
            times["auto"].append(t)
            certified += auto.exact
            worst = max(worst, abs(float(auto.value) - reference))
            if QE_MINMAX is not None:
                t, answer = per_call(lambda: QE_MINMAX.minmax(matrix))  # noqa: B023
                times["qe"].append(t)
                ratios.append(times["float"][-1] / t)
                worst = max(worst, abs(float(answer[0]) - reference))
        m = {k: median(v) for k, v in times.items()}
        print(
            f"{size:>4}x{size:<3} {m['float']:>11.2e} {m['qe']:>10.2e} "
            f"{m['float'] / m['qe']:>6.2f} {spread(ratios):>11} {m['direct']:>12.2e} "
            f"{m['auto']:>10.2e} {certified:>3}/{games:<2}  {worst:>15.1e}"
        )
    if QE_MINMAX is None:
        print("QuantEcon is not installed: its column is nan (make bench-matrices installs it).")


def as_key(row: Any, col: Any) -> tuple[tuple[float, ...], tuple[float, ...]]:
    return (tuple(round(float(p), 6) for p in row), tuple(round(float(q), 6) for q in col))


def qe_equilibria(first: np.ndarray, second: np.ndarray) -> Callable[[], Any]:
    game = QE_GAMES.NormalFormGame([QE_GAMES.Player(first), QE_GAMES.Player(second.T)])
    return lambda: QE_GAMES.vertex_enumeration(game)


def equilibria_section(games: int, seed: int, sizes: list[int]) -> None:
    print("\n== All extreme equilibria of random bimatrix games: seconds per game (median) ==")
    print(
        f"{'size':>6} {'ours exact':>11} {'ours float':>11} {'QuantEcon':>10} {'ratio':>6} "
        f"{'(range)':>11} {'nashpy':>9} {'equilibria':>10}  agree"
    )
    if QE_GAMES is not None:
        qe_equilibria(np.eye(2), np.eye(2))()  # numba compilation, not timed
    rng = np.random.default_rng(seed + 1)
    for size in sizes:
        times: dict[str, list[float]] = {k: [] for k in ("exact", "float", "nashpy", "qe")}
        ratios, counts = [], []
        agree = True
        for _ in range(games):
            first, second = random_matrix(rng, size, size), random_matrix(rng, size, size)
            game = bimatrix(exact_rows(first), exact_rows(second))
            game.float_payoffs(0), game.float_payoffs(1)
            t, exact = timed(lambda: extreme_equilibria(game))  # noqa: B023
            times["exact"].append(t)
            t, floats = per_call(lambda: extreme_equilibria(game, exact=False), 0.1)  # noqa: B023
            times["float"].append(t)
            ours = {as_key(e.row, e.col) for e in exact.equilibria}
            counts.append(len(ours))
            agree &= ours == {as_key(e.row, e.col) for e in floats.equilibria}
            if NASHPY is not None and size <= 6:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    nash = NASHPY.Game(first, second)
                    t, found = timed(lambda: list(nash.vertex_enumeration()))  # noqa: B023
                times["nashpy"].append(t)
                agree &= ours == {as_key(x, y) for x, y in found}
            if QE_GAMES is not None:
                t, found = per_call(qe_equilibria(first, second), 0.1)
                times["qe"].append(t)
                ratios.append(times["float"][-1] / t)
                agree &= ours == {as_key(x, y) for x, y in found}
        m = {k: median(v) for k, v in times.items()}
        print(
            f"{size:>3}x{size:<2} {m['exact']:>11.2e} {m['float']:>11.2e} {m['qe']:>10.2e} "
            f"{m['float'] / m['qe']:>6.2f} {spread(ratios):>11} {m['nashpy']:>9.2e} "
            f"{statistics.mean(counts):>10.1f}  {'yes' if agree else 'NO'}"
        )
    if QE_GAMES is None:
        print("QuantEcon is not installed: its column is nan (make bench-matrices installs it).")


def degenerate_games(seed: int, count: int) -> list[tuple[str, list[list[int]], list[list[int]]]]:
    found = []
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        first = rng.integers(0, 3, (15, 15)).tolist()
        second = rng.integers(0, 3, (15, 15)).tolist()
        found.append((f"{{0,1,2}} seed {seed + k}", first, second))
    modular = [[(i * j) % 3 for j in range(15)] for i in range(15)]
    summed = [[(i + j) % 3 for j in range(15)] for i in range(15)]
    found.append(("(ij%3, (i+j)%3)", modular, summed))
    return found


def degenerate_section(seed: int, count: int) -> None:
    print("\n== Degenerate 15x15 games: our exact complete enumeration against QuantEcon ==")
    print(
        f"{'game':>18} {'ours exact s':>12} {'equilibria':>10} {'QuantEcon s':>11} "
        f"{'QE found':>8}  QE's all among ours"
    )
    for name, first, second in degenerate_games(seed, count):
        game = bimatrix(first, second)
        t, ours = timed(lambda: extreme_equilibria(game))  # noqa: B023
        keys = {as_key(e.row, e.col) for e in ours.equilibria}
        qe_time, qe_count, inside = NAN, "nan", "n/a"
        if QE_GAMES is not None:
            qe_time, found = timed(qe_equilibria(np.array(first, float), np.array(second, float)))
            qe_keys = {as_key(x, y) for x, y in found}
            qe_count, inside = str(len(qe_keys)), "yes" if qe_keys <= keys else "NO"
        print(f"{name:>18} {t:>12.2f} {len(keys):>10} {qe_time:>11.4f} {qe_count:>8}  {inside}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="random games per size")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--zero-sum-sizes", default="2,3,5,10,20,50,100,200", help="square sizes, comma-separated"
    )
    parser.add_argument("--equilibria-sizes", default="6,10,12", help="square sizes")
    parser.add_argument("--degenerate", type=int, default=3, help="seeded degenerate games")
    options = parser.parse_args()
    print(f"compiled simplex: {'yes' if COMPILED else 'no (pure Python)'}")
    zero_sum_section(
        options.games, options.seed, [int(s) for s in options.zero_sum_sizes.split(",")]
    )
    equilibria_section(
        options.games, options.seed, [int(s) for s in options.equilibria_sizes.split(",")]
    )
    degenerate_section(options.seed, options.degenerate)


if __name__ == "__main__":
    main()
