"""Benchmark: the game engine against its peers, OpenSpiel and easyAI, in one run.

Prints tic-tac-toe solved from the empty board by (a) ``solve_game`` (every best move of the
root), (b) ``solve_game(..., all_best_moves=False)``, (a') and (b') the same on the pure-Python
engine (the fallback where the compiled search is not built), (c) OpenSpiel's Python alpha-beta
(``open_spiel.python.algorithms.minimax.alpha_beta_search``) and (d) easyAI's Negamax with a
transposition table: the median of 5 runs each, the nodes each entered (OpenSpiel's counted in
an extra, untimed run), and the ratios ours / peer. Then connect four 5x4 solved (and by the
Python engine), 6x4 solved within a time cap, the cost of each iteration of iterative deepening
on 7x6 against the b - 1 rule (b = 7), and a 7x6 move within a 1 s budget. Last, Monte Carlo
tree search: its results against a random player and against the perfect engine over seeded
games of tic-tac-toe and connect four 5x4, and its simulations per second beside OpenSpiel's
Python MCTS (``open_spiel.python.algorithms.mcts.MCTSBot`` with ``RandomRolloutEvaluator``).
And Pig by value iteration: Pig's array path to 30 beside the generic sweep over the rules, and
to 100 (0.530592725), where the rules took about 70 s.

The peers live in their own environment, never the product's: ``make bench-games`` creates
``.bench-venv`` from ``bench/requirements-peers.txt`` and runs this file with it. A peer that
is not installed prints nan.

Last, connect four 7x6 positions of each of Pons's difficulty classes solved exactly, beside his
published node counts and, with ``--peer PATH``, his solver's time (``bench/connect_four.py``).

Run: make bench-games   (or .bench-venv/bin/python bench/games.py [--runs N] [--cap S]
[--peer PATH])
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.search.alpha_beta import alpha_beta_solution  # noqa: E402
from analysis.search.grid import COMPILED  # noqa: E402
from analysis.search.mcts import mcts_solution  # noqa: E402
from analysis.search.solve import best_move, solve_game  # noqa: E402
from analysis.search.value_iteration import value_iteration_solution  # noqa: E402
from bench import connect_four as connect_four_classes  # noqa: E402
from games.errors import TimeLimitError  # noqa: E402
from games.limits import Limits, limited  # noqa: E402
from games.rules.catalogue import make_game  # noqa: E402

INSTALL_HINT = "not installed: make bench-games installs it into .bench-venv"

TIC_TAC_TOE_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)  # fmt: skip


def timed(run: Callable[[], int | None], runs: int) -> tuple[float, int | None]:
    """The median seconds of ``runs`` calls and the nodes the last one reported."""
    seconds = []
    nodes = None
    for _ in range(runs):
        start = time.perf_counter()
        nodes = run()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), nodes


def ours(all_best_moves: bool, compiled: bool = True) -> Callable[[], int]:
    def run() -> int:
        game = make_game("tic_tac_toe", {})  # a fresh game: no cache carried between runs
        solution = solved_from_start(game, all_best_moves, compiled)
        assert solution.value == 0, solution.value
        return solution.stats.nodes

    return run


def solved_from_start(game: Any, all_best_moves: bool, compiled: bool) -> Any:
    """``solve_game`` from the initial state, on the compiled search or the Python engine."""
    if compiled:
        return solve_game(game, game.initial_state(), all_best_moves=all_best_moves)
    return alpha_beta_solution(
        game,
        game.initial_state(),
        depth=None,
        time_limit=None,
        evaluation=None,
        table=True,
        ordering=True,
        quiescence_plies=0,
        all_best_moves=all_best_moves,
        compiled=False,
    )


def open_spiel_run() -> Callable[[], int | None] | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms.minimax import alpha_beta_search
    except ImportError:
        return None

    def run() -> None:
        value, _ = alpha_beta_search(pyspiel.load_game("tic_tac_toe"))
        assert value == 0, value

    return run


def open_spiel_nodes() -> int:
    """States OpenSpiel's alpha-beta enters, counted in a run of its own (not timed).

    ``alpha_beta_search`` recurses through the module's ``_alpha_beta``: a counting wrapper
    put in its place sees every call.
    """
    import pyspiel
    from open_spiel.python.algorithms import minimax

    calls = 0
    search = minimax._alpha_beta

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return search(*args, **kwargs)

    minimax._alpha_beta = counted
    try:
        minimax.alpha_beta_search(pyspiel.load_game("tic_tac_toe"))
    finally:
        minimax._alpha_beta = search
    return calls


def easy_ai_run() -> Callable[[], int | None] | None:
    try:
        from easyAI import Negamax, TranspositionTable, TwoPlayerGame
    except ImportError:
        return None

    class TicTacToe(TwoPlayerGame):  # type: ignore[misc]
        """easyAI's documented game API; nodes counts the moves made (states entered)."""

        def __init__(self) -> None:
            self.players = [None, None]
            self.board = [0] * 9
            self.current_player = 1
            self.nodes = 1

        def possible_moves(self) -> list[int]:
            return [i for i, mark in enumerate(self.board) if mark == 0]

        def make_move(self, move: int) -> None:
            self.board[move] = self.current_player
            self.nodes += 1

        def unmake_move(self, move: int) -> None:
            self.board[move] = 0

        def lose(self) -> bool:
            mark = self.opponent_index
            return any(all(self.board[i] == mark for i in line) for line in TIC_TAC_TOE_LINES)

        def is_over(self) -> bool:
            return self.lose() or 0 not in self.board

        def scoring(self) -> int:
            return -100 if self.lose() else 0

        def ttentry(self) -> tuple[int, ...]:
            return (*self.board, self.current_player)

    def run() -> int:
        game = TicTacToe()
        ai = Negamax(9, tt=TranspositionTable())
        ai(game)
        assert ai.alpha == 0, ai.alpha
        return int(game.nodes)

    return run


def tic_tac_toe(runs: int) -> None:
    print(f"tic-tac-toe from the empty board (value 0), median of {runs} runs")
    engine = "compiled" if COMPILED else "NOT BUILT: the Python engine"
    print(f"  our search: {engine}")
    rows = [
        ("(a) solve_game", ours(True)),
        ("(b) solve_game all_best_moves=False", ours(False)),
        ("(a') (a) on the Python engine", ours(True, compiled=False)),
        ("(b') (b) on the Python engine", ours(False, compiled=False)),
        ("(c) OpenSpiel alpha_beta_search", open_spiel_run()),
        ("(d) easyAI Negamax + table", easy_ai_run()),
    ]
    seconds: dict[str, float] = {}
    for label, run in rows:
        if run is None:
            seconds[label] = math.nan
            print(f"  {label:40} nan  ({INSTALL_HINT})")
            continue
        seconds[label], nodes = timed(run, runs)
        if nodes is None and label.startswith("(c)"):
            nodes = open_spiel_nodes()
        shown = "not reported" if nodes is None else f"{nodes:,}"
        print(f"  {label:40} {seconds[label] * 1000:9.1f} ms  nodes {shown}")
    for mine in ("(a)", "(b)", "(a')", "(b')"):
        for peer in ("(c)", "(d)"):
            a = next(v for k, v in seconds.items() if k.startswith(mine))
            b = next(v for k, v in seconds.items() if k.startswith(peer))
            print(f"  ratio {mine}/{peer} {a / b:.3f}  ({b / a:.1f}x faster)")


def connect_four(columns: int, rows: int, cap: float, compiled: bool = True) -> None:
    game = make_game("connect_four", {"columns": columns, "rows": rows})
    label = f"connect four {columns}x{rows}{'' if compiled else ' (Python engine)'}"
    start = time.perf_counter()
    try:
        with limited(Limits(time_limit=cap)):
            solution = solved_from_start(game, True, compiled)
    except TimeLimitError:
        print(f"{label}: not solved in {cap:g} s")
        return
    seconds = time.perf_counter() - start
    print(
        f"{label}: value {solution.value} "
        f"({'a draw' if solution.plies_to_end is None else f'{solution.plies_to_end} plies'})"
        f" in {seconds:.2f} s, {solution.stats.nodes:,} nodes, "
        f"{solution.stats.table_hits:,} table hits, "
        f"{solution.stats.nodes / seconds:,.0f} nodes/s"
    )


def deepening(limit: float) -> None:
    game = make_game("connect_four", {})
    solution = solve_game(game, game.initial_state(), time_limit=limit)
    print(f"connect four 7x6, iterative deepening for {limit:g} s (b - 1 rule: ratio near 6)")
    print("  depth       nodes   ratio   seconds")
    for iteration in solution.iterations:
        ratio = iteration.effective_branching
        shown = "" if ratio is None else f"{ratio:.2f}"
        print(f"  {iteration.depth:5} {iteration.nodes:11,} {shown:>7} {iteration.seconds:9.3f}")
    start = time.perf_counter()
    choice = best_move(game, game.initial_state(), 1.0)
    seconds = time.perf_counter() - start
    print(
        f"connect four 7x6 move within 1 s: column {choice.move} at depth "
        f"{choice.depth_completed} ({seconds:.2f} s, {choice.stats.nodes:,} nodes)"
    )


# -- Monte Carlo tree search ------------------------------------------------------------------

Player = Callable[[Any, Any, random.Random], Any]
"""A player: ``(game, state, its random stream) -> move``."""


def mcts_player(simulations: int) -> Player:
    def move(game: Any, state: Any, stream: random.Random) -> Any:
        seed = stream.randrange(2**32)
        return mcts_solution(game, state, simulations=simulations, time_limit=None, seed=seed).move

    return move


def random_player(game: Any, state: Any, stream: random.Random) -> Any:
    return stream.choice(game.actions(state))


def perfect_player(game: Any, state: Any, stream: random.Random) -> Any:
    """The exact engine: one of the best moves (the fastest wins), drawn at random."""
    return stream.choice(solve_game(game, state).best_moves)


def match(game: Any, first: Player, second: Player, stream: random.Random) -> Fraction:
    """One game from the start: the first player's utility at the end."""
    state = game.initial_state()
    players = (first, second)
    while not game.is_terminal(state):
        state = game.result(state, players[game.to_move(state)](game, state, stream))
    return Fraction(game.utility(state, 0))


def win_rates(game: Any, simulations: int, opponent: Player, games: int) -> tuple[int, int, int]:
    """MCTS's wins, draws and losses over ``games`` seeded games, first in half of them."""
    tally = [0, 0, 0]
    ours = mcts_player(simulations)
    for number in range(games):
        stream = random.Random(number)
        if number % 2 == 0:
            result = match(game, ours, opponent, stream)
        else:
            result = -match(game, opponent, ours, stream)
        tally[0 if result > 0 else 1 if result == 0 else 2] += 1
    return tally[0], tally[1], tally[2]


def open_spiel_mcts(name: str, simulations: int, runs: int) -> float:
    """OpenSpiel's Python MCTS (UCT, c = sqrt 2, one random rollout, no solving): the median
    seconds of ``runs`` searches of ``simulations`` from the start; nan when not installed."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return math.nan
    game = pyspiel.load_game(name)
    seconds = []
    for run in range(runs):
        stream = np.random.RandomState(run)
        bot = mcts.MCTSBot(
            game,
            uct_c=math.sqrt(2),
            max_simulations=simulations,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=stream),
            solve=False,
            random_state=stream,
        )
        start = time.perf_counter()
        bot.mcts_search(game.new_initial_state())
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def monte_carlo(simulations: int, games: int, runs: int) -> None:
    print(f"MCTS, {simulations:,} simulations a move, {games} seeded games each (W-D-L for MCTS)")
    for label, game in (
        ("tic-tac-toe", make_game("tic_tac_toe", {})),
        ("connect four 5x4", make_game("connect_four", {"columns": 5, "rows": 4})),
    ):
        for against, opponent in (("random", random_player), ("perfect", perfect_player)):
            start = time.perf_counter()
            won, drawn, lost = win_rates(game, simulations, opponent, games)
            seconds = time.perf_counter() - start
            print(
                f"  {label:17} against {against:8} {won:3}-{drawn}-{lost}  "
                f"({(won + drawn / 2) / games:.0%} score, {seconds:.1f} s)"
            )
    print(f"MCTS simulations per second from the start, {simulations:,} a search, median of {runs}")
    for label, game, peer in (
        ("tic-tac-toe", make_game("tic_tac_toe", {}), "tic_tac_toe"),
        ("connect four 7x6", make_game("connect_four", {}), "connect_four"),
    ):
        seconds, _ = timed(
            lambda game=game: (
                mcts_solution(
                    game, game.initial_state(), simulations=simulations, time_limit=None
                ).simulations
            ),
            runs,
        )
        theirs = open_spiel_mcts(peer, simulations, runs)
        note = f"{INSTALL_HINT}" if math.isnan(theirs) else f"ours {theirs / seconds:.1f}x theirs"
        print(
            f"  {label:17} ours {simulations / seconds:9,.0f}/s   OpenSpiel MCTSBot "
            f"{simulations / theirs:9,.0f}/s   ({note})"
        )


def pig(runs: int) -> None:
    """Pig by value iteration: the generic sweep over the rules beside Pig's array path."""
    print(f"Pig by value iteration, six-sided die, median of {runs} runs (1 for the rules)")
    tolerance = Fraction(1, 10**9)
    for goal in (30, 100):
        game = make_game("pig", {"goal": goal})
        state = game.initial_state()

        def fast() -> int:
            solution = value_iteration_solution(game, state, tolerance=tolerance)  # noqa: B023
            return solution.stats.nodes

        seconds, _ = timed(fast, runs)
        value = value_iteration_solution(game, state, tolerance=tolerance).value
        if goal == 30:  # the rules-based path lists about 48,000 states here
            generic = value_iteration_solution(game, state, tolerance=tolerance, compact=False)
            reference = generic.stats.seconds
            note = f"rules {reference:.2f} s, {reference / seconds:.0f}x slower"
        else:  # measured before (docs/games.md): 38.5 s listing, 30.9 s of sweeps
            note = "rules: about 70 s, refused at the 60 s limit"
        print(f"  to {goal:3}: arrays {seconds:.3f} s, value {float(value):.9f}   ({note})")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="tic-tac-toe runs per solver")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds for connect four 6x4")
    parser.add_argument("--deepen", type=float, default=10.0, help="seconds of deepening on 7x6")
    parser.add_argument("--simulations", type=int, default=1000, help="MCTS simulations a move")
    parser.add_argument("--games", type=int, default=20, help="MCTS games per opponent")
    parser.add_argument(
        "--peer", help="Pons's c4solver for the 7x6 classes (bench/connect_four.py)"
    )
    args = parser.parse_args()
    tic_tac_toe(args.runs)
    connect_four(5, 4, args.cap)
    connect_four(5, 4, args.cap, compiled=False)
    connect_four(6, 4, args.cap)
    deepening(args.deepen)
    monte_carlo(args.simulations, args.games, args.runs)
    pig(args.runs)
    with limited(Limits(time_limit=None)):
        connect_four_classes.bench(args.peer, list(connect_four_classes.WANTED))


if __name__ == "__main__":
    main()
