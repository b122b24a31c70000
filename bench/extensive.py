"""Benchmark: CFR+ on Kuhn poker and Leduc hold'em beside OpenSpiel's Python CFR+.

One run prints, for each game:

1. NashConv of the uniform profile, exact (Fractions) and in floats, and its time: the
   published values are 11/12 (Kuhn) and 1709/360 (Leduc).
2. ``solve_cfr(game, "cfr_plus")`` iterations per second with NashConv recorded only at the
   end, then iterations and seconds to exploitability 1e-3 with NashConv of the average after
   every iteration (the issue's figure for OpenSpiel: about 500 iterations, 65 s on Leduc).
3. OpenSpiel's ``open_spiel.python.algorithms.cfr.CFRPlusSolver`` (the same algorithm: regret
   matching+, alternating updates, linear averaging) for a few iterations: its seconds per
   iteration, the ratio to ours, and both exploitabilities after those iterations (the two
   must agree: the games and the algorithm are the same). Its time to 1e-3 is estimated as
   our iteration count times its time per iteration (running it takes minutes).

With ``--svg PATH`` it also writes the exploitability curves of CFR and CFR+ on Leduc.

The peer lives in its own environment, never the product's: ``make bench-games`` creates
``.bench-venv`` from ``bench/requirements-peers.txt``. Without OpenSpiel the peer's columns
print nan.

Run: PYTHONPATH=. .bench-venv/bin/python bench/extensive.py [--peer-iterations N] [--svg PATH]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

# the repository before bench/ (whose games.py would hide the games package)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.extensive.cfr import solve_cfr  # noqa: E402
from analysis.extensive.cfr_plot import convergence_svg  # noqa: E402
from analysis.extensive.policy import TreeArrays, uniform_profile  # noqa: E402
from games.extensive.model import ExtensiveGame  # noqa: E402
from games.extensive.poker import kuhn_poker, leduc_poker  # noqa: E402

GAMES: dict[str, tuple[Callable[[], ExtensiveGame], str, int]] = {
    # name: (our game, OpenSpiel's name, iterations timed for the rate)
    "Kuhn poker": (kuhn_poker, "kuhn_poker", 2000),
    "Leduc hold'em": (leduc_poker, "leduc_poker", 300),
}
TARGET = 1e-3
"""Exploitability to reach."""


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The fastest of ``runs`` timings of ``work``, in seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def open_spiel_cfr_plus(name: str, iterations: int) -> tuple[float, float]:
    """OpenSpiel's Python CFR+: seconds per iteration over ``iterations``, and the
    exploitability of its average after them (nan, nan without OpenSpiel)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import cfr, exploitability
    except ImportError:
        return math.nan, math.nan
    game = pyspiel.load_game(name)
    solver = cfr.CFRPlusSolver(game)
    started = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = (time.perf_counter() - started) / iterations
    return seconds, float(exploitability.exploitability(game, solver.average_policy()))


def section(
    title: str, make: Callable[[], ExtensiveGame], peer: str, rate_runs: int, peer_runs: int
) -> None:
    print(f"\n## {title}")
    started = time.perf_counter()
    game = make()
    built = time.perf_counter() - started
    arrays = TreeArrays(game)
    sets = len(game.infosets)
    print(f"{len(game.nodes):,} nodes, {sets:,} information sets, built in {built:.3f} s")
    uniform = uniform_profile(game)
    exact_time = best_of(3, lambda: arrays.nash_conv(arrays.flat(uniform)))
    exact = arrays.nash_conv(arrays.flat(uniform))
    floats = arrays.flat(uniform).astype(float)
    float_time = best_of(5, lambda: arrays.nash_conv(floats))
    print(
        f"uniform NashConv {exact} exactly in {exact_time * 1e3:.1f} ms; "
        f"floats {float_time * 1e3:.2f} ms"
    )

    rate = solve_cfr(game, "cfr_plus", rate_runs, record_every=rate_runs)
    ours_per_iteration = rate.seconds / rate.iterations
    print(
        f"CFR+ {rate.iterations} iterations in {rate.seconds:.2f} s: "
        f"{1 / ours_per_iteration:,.0f} iterations/s (NashConv at the end only)"
    )
    reached = solve_cfr(game, "cfr_plus", 100_000, record_every=1, target_nash_conv=2 * TARGET)
    print(
        f"CFR+ to exploitability {TARGET:g}: {reached.iterations} iterations, "
        f"{reached.seconds:.2f} s with NashConv every iteration ({reached.exploitability:.3g})"
    )
    theirs, their_exploitability = open_spiel_cfr_plus(peer, peer_runs)
    ours_then = solve_cfr(game, "cfr_plus", peer_runs, record_every=peer_runs).exploitability
    print(
        f"OpenSpiel CFRPlusSolver: {theirs * 1e3:.1f} ms/iteration over {peer_runs}, "
        f"ours {ours_per_iteration * 1e3:.2f} ms: {theirs / ours_per_iteration:.0f}x faster"
    )
    print(
        f"exploitability after {peer_runs} iterations: OpenSpiel {their_exploitability!r}, "
        f"ours {ours_then!r}"
    )
    print(
        f"OpenSpiel to {TARGET:g} (estimate: our {reached.iterations} iterations x its time): "
        f"{reached.iterations * theirs:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--peer-iterations", type=int, default=10, help="OpenSpiel iterations on Leduc (Kuhn: 10x)"
    )
    parser.add_argument("--svg", type=Path, help="write Leduc's CFR and CFR+ curves here")
    options = parser.parse_args()
    for title, (make, peer, rate_runs) in GAMES.items():
        peer_runs = options.peer_iterations * (10 if peer == "kuhn_poker" else 1)
        section(title, make, peer, rate_runs, peer_runs)
    if options.svg:
        game = leduc_poker()
        runs = [solve_cfr(game, method, 500, record_every=5) for method in ("cfr", "cfr_plus")]
        options.svg.write_text(convergence_svg(runs, "Leduc hold'em"))
        print(f"\nwrote {options.svg}")


if __name__ == "__main__":
    main()
