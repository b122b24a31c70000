"""Benchmark: exact solvers of Kuhn poker and Leduc hold'em beside pygambit and OpenSpiel.

Solvers, each run once in a subprocess of its own, stopped after ``--cap`` seconds:

- ours: ``solve_zero_sum`` (the exact sequence-form LP) and ``solve_lemke`` (Lemke's
  algorithm on the sequence form, the general-sum solver), both in Fractions;
- pygambit: ``gbt.nash.lp_solve`` and ``gbt.nash.lcp_solve``, rational and float, on the
  game read from the .efg that our ``write_efg`` exports into a temporary folder;
- OpenSpiel: ``open_spiel.python.algorithms.sequence_form_lp.solve_zero_sum_game`` (floats,
  through cvxopt) on its built-in ``kuhn_poker`` and ``leduc_poker``.

The table gives each solver's value for player 1, whether it is exact, its seconds (the
solve only: reading the game is not counted) and the ratio to our sequence-form LP, and
checks each value against ours: equal for exact solvers, ``|diff|`` for float ones. A peer
that is not installed, fails, or does not finish within the cap is reported as such.

The peers live in ``.bench-venv`` (``bench/requirements-peers.txt``), never the product's.

Run: PYTHONPATH=. .bench-venv/bin/python bench/extensive_exact.py [--cap SECONDS]
[--games kuhn,leduc]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

# the repository before bench/ (whose games.py would hide the games package)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.extensive.efg import write_efg  # noqa: E402
from games.extensive.model import ExtensiveGame  # noqa: E402
from games.extensive.poker import kuhn_poker, leduc_poker  # noqa: E402

GAMES: dict[str, tuple[str, Callable[[], ExtensiveGame], str]] = {
    # key: (title, our game, OpenSpiel's name)
    "kuhn": ("Kuhn poker", kuhn_poker, "kuhn_poker"),
    "leduc": ("Leduc hold'em", leduc_poker, "leduc_poker"),
}
SOLVERS = (
    "ours sequence LP",
    "ours Lemke",
    "pygambit lp_solve rational",
    "pygambit lp_solve float",
    "pygambit lcp_solve rational",
    "pygambit lcp_solve float",
    "OpenSpiel sequence_form_lp",
)
REFERENCE = SOLVERS[0]


def solve(key: str, solver: str, efg: Path) -> dict[str, object]:
    """Run one solver on one game in this process: its value for player 1 (a "p/q" string
    when exact), whether exact, and the seconds of the solve."""
    if solver.startswith("ours"):
        from analysis.extensive.lemke import solve_lemke
        from analysis.extensive.sequence_lp import solve_zero_sum

        game = GAMES[key][1]()
        started = time.perf_counter()
        if solver == "ours Lemke":
            value = solve_lemke(game).payoffs[0]
        else:
            value = solve_zero_sum(game).value
        return {"value": str(value), "exact": True, "seconds": time.perf_counter() - started}
    if solver.startswith("pygambit"):
        import pygambit as gbt

        rational = solver.endswith("rational")
        loaded = gbt.read_efg(str(efg))
        method = gbt.nash.lp_solve if "lp_solve" in solver else gbt.nash.lcp_solve
        started = time.perf_counter()
        result = method(loaded, rational=rational, use_strategic=False)
        seconds = time.perf_counter() - started
        payoff = result.equilibria[0].payoff(next(iter(loaded.players)))
        value = str(Fraction(payoff)) if rational else repr(float(payoff))
        return {"value": value, "exact": rational, "seconds": seconds}
    import pyspiel
    from open_spiel.python.algorithms import sequence_form_lp

    spiel_game = pyspiel.load_game(GAMES[key][2])
    started = time.perf_counter()
    first, _, _, _ = sequence_form_lp.solve_zero_sum_game(spiel_game)
    return {"value": repr(float(first)), "exact": False, "seconds": time.perf_counter() - started}


def measure(key: str, solver: str, efg: Path, cap: float) -> dict[str, object]:
    """``solve`` in a subprocess, stopped after ``cap`` seconds."""
    command = [sys.executable, __file__, "--one", key, solver, str(efg)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return {"failed": f"did not finish in {cap:g} s"}
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no output"]
        return {"failed": lines[-1][:70]}
    answer: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def agreement(answer: dict[str, object], reference: Fraction) -> str:
    """How the value compares with ours: "exact" when equal as fractions, else |diff|."""
    value = Fraction(str(answer["value"]))
    if answer["exact"]:
        return "equal" if value == reference else f"DIFFERS by {float(value - reference):.3g}"
    return f"|diff| {abs(float(value) - float(reference)):.1e}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per solver run")
    parser.add_argument("--games", default="kuhn,leduc", help="comma-separated: kuhn, leduc")
    parser.add_argument("--one", nargs=3, metavar=("GAME", "SOLVER", "EFG"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.one:
        key, solver, efg = options.one
        print(json.dumps(solve(key, solver, Path(efg))))
        return
    print(
        "| game | solver | exact? | value (player 1) | agrees with ours | seconds | ratio to ours |"
    )
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for key in options.games.split(","):
            title, make, _ = GAMES[key]
            efg = Path(folder) / f"{key}.efg"
            efg.write_text(write_efg(make()))
            ours = measure(key, REFERENCE, efg, options.cap)
            if "failed" in ours:
                print(f"| {title} | {REFERENCE} | — | {ours['failed']} | | | |")
                continue
            reference = Fraction(str(ours["value"]))
            for solver in SOLVERS:
                answer = ours if solver == REFERENCE else measure(key, solver, efg, options.cap)
                if "failed" in answer:
                    print(f"| {title} | {solver} | | {answer['failed']} | | | |")
                    continue
                seconds = float(str(answer["seconds"]))
                value = str(answer["value"])
                if len(value) > 24:
                    value = f"{float(Fraction(value)):.12g} ({value[:12]}…)"
                ratio = seconds / float(str(ours["seconds"]))
                print(
                    f"| {title} | {solver} | {'yes' if answer['exact'] else 'no'} | {value} | "
                    f"{agreement(answer, reference)} | {seconds:.3g} | {ratio:.3g}x |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
