"""Benchmark: connect four 7x6 solved exactly, by difficulty class, beside Pons's solver.

Pascal Pons's benchmark (connect4.gamesolver.org, "Part 3: benchmark") sorts positions by how
many stones are down (end: more than 28, middle: 15 to 28, begin: 14 or fewer) and how many
plies remain with best play (easy: fewer than 14, medium: 14 to 27, hard: 28 or more), and
publishes his strong solver's mean nodes and time per position in each class. This file
draws its own positions of each class (seeded random games whose moves never hand the
opponent a win at once, so that they last into the end game; ``--generate`` rewrites
``connect_four_positions.txt`` with their exact scores, solved by Arbiter), then solves each
with Arbiter's compiled score search, a fresh table per position, and prints the mean nodes
beside his published figures and, with ``--peer PATH`` (his ``c4solver``, built with ``make``
from github.com/PascalPons/connect4 outside this repository), the mean time beside his
solver's on the same positions in the same run. His solver is fed each class in one process
(it keeps its table between positions); ours pays for a fresh table each time.

``--empty`` solves the empty board instead, as the CLI does, beside his solver with ``--peer``.

Run: .venv/bin/python bench/connect_four.py [--peer PATH] [--classes end-easy,...] [--empty]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.search.budget import SearchBudget  # noqa: E402
from analysis.search.score_search import new_score_search, plies_of  # noqa: E402
from analysis.search.solve import solve_game  # noqa: E402
from games.errors import TimeLimitError  # noqa: E402
from games.limits import Limits, limited  # noqa: E402
from games.rules.catalogue import make_game  # noqa: E402

POSITIONS = Path(__file__).with_name("connect_four_positions.txt")

PUBLISHED = {  # Pons's strong solver, mean per position: (seconds, nodes)
    "end-easy": (4.6e-6, 51),
    "middle-easy": (37e-6, 450),
    "middle-medium": (3.2e-3, 39_900),
    "begin-easy": (255e-6, 3_298),
    "begin-medium": (97e-3, 1_200_000),
    "begin-hard": (5.5, 65_900_000),
}

WANTED = {  # positions drawn per class
    "end-easy": 50,
    "middle-easy": 50,
    "middle-medium": 30,
    "begin-easy": 20,
    "begin-medium": 10,
    "begin-hard": 2,
}

GAME = make_game("connect_four", {})


def class_of(stones: int, remaining: int) -> str:
    level = "end" if stones > 28 else "middle" if stones > 14 else "begin"
    rank = "easy" if remaining < 14 else "medium" if remaining < 28 else "hard"
    return f"{level}-{rank}"


def solve(text: str) -> tuple[int, int, float]:
    """Our exact score of a position (Pons's scale), the nodes and the seconds, fresh table."""
    state = GAME.parse_position(text)
    mine, mask = GAME.grid.position(state)
    search = new_score_search(GAME, SearchBudget(None), None, compiled=True)
    assert search is not None
    start = time.perf_counter()
    score = search.solve(mine, mask)
    return score, search.nodes, time.perf_counter() - start


def generate(seed: int) -> None:
    """Draw random positions until each class has its count, adding them with their scores
    to the positions already in the file (so an interrupted run resumes)."""
    stream = random.Random(seed)
    found = read_positions() if POSITIONS.exists() else {name: [] for name in WANTED}
    levels = {"end": (29, 41), "middle": (15, 28), "begin": (2, 14)}
    while any(len(found[name]) < count for name, count in WANTED.items()):
        open_classes = [name for name, count in WANTED.items() if len(found[name]) < count]
        low, high = levels[stream.choice(open_classes).split("-")[0]]
        state = GAME.initial_state()
        text = ""
        for _ in range(stream.randint(low, high)):
            if GAME.is_terminal(state):
                break
            move = stream.choice(safe_moves(state))
            text += GAME.move_text(state, move)
            state = GAME.result(state, move)
        if GAME.is_terminal(state) or wins_at_once(state):
            continue  # one node for anyone: not a test
        try:  # a hard opening takes seconds to minutes: only worth it while one is wanted
            with limited(Limits(time_limit=None if hard_wanted(found) else 2.0)):
                score, _, _ = solve(text)
        except TimeLimitError:
            continue
        empty = 42 - len(text)
        name = class_of(len(text), plies_of(score, empty) if score else empty)
        if name in found and len(found[name]) < WANTED[name]:
            found[name].append((text, score))
            print(f"  {name}: {len(found[name])}/{WANTED[name]}", file=sys.stderr)
            lines = [f"{text} {score} {name}" for name in WANTED for text, score in found[name]]
            POSITIONS.write_text("\n".join(lines) + "\n")


def safe_moves(state: Any) -> list[Any]:
    """The moves that do not let the opponent win at once (all of them if none is safe), so
    that random games last into the end game."""
    safe = [move for move in GAME.actions(state) if not wins_at_once(GAME.result(state, move))]
    return safe or list(GAME.actions(state))


def hard_wanted(found: dict[str, list[tuple[str, int]]]) -> bool:
    return len(found["begin-hard"]) < WANTED["begin-hard"]


def wins_at_once(state: Any) -> bool:
    """Whether the player to move has a winning move (the game ends, not in a draw)."""
    mover = GAME.to_move(state)
    for move in GAME.actions(state):
        after = GAME.result(state, move)
        if GAME.is_terminal(after) and GAME.utility(after, mover) > 0:
            return True
    return False


def read_positions() -> dict[str, list[tuple[str, int]]]:
    classes: dict[str, list[tuple[str, int]]] = {name: [] for name in WANTED}
    for line in POSITIONS.read_text().splitlines():
        text, score, name = line.split()
        classes[name].append((text, int(score)))
    return classes


def run_peer(peer: str, text: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([peer], input=text, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def peer_seconds(peer: str, texts: list[str]) -> tuple[float | None, list[int]]:
    """His solver's seconds for all of ``texts`` in one process, less its start-up (timed on an
    empty input), and its scores. Start-up (his 64 MB table) varies by milliseconds, more than
    a class of easy positions takes: both are the least of up to 7 runs, and the seconds are
    ``None`` when the difference is within the start-ups' spread."""
    empty: list[float] = []
    full: list[float] = []
    for _ in range(7):
        empty.append(run_peer(peer, "")[0])
        seconds, output = run_peer(peer, "\n".join(texts) + "\n")
        full.append(seconds)
        if seconds > 2:  # a hard class: start-up is noise beside it
            break
    spent = min(full) - min(empty)
    spread = max(empty) - min(empty)
    return (spent if spent > spread else None), [
        int(line.split()[1]) for line in output.splitlines()
    ]


def bench(peer: str | None, names: list[str]) -> None:
    classes = read_positions()
    print("connect four 7x6 solved exactly (strong), mean per position, fresh table each")
    print(
        f"  {'class':14} {'n':>3} {'our nodes':>12} {'Pons published':>15} {'ratio':>6}"
        f" {'our time':>10} {'Pons here':>10} {'ratio':>6}"
    )
    for name in names:
        positions = classes[name]
        nodes = seconds = 0.0
        for text, expected in positions:
            score, count, spent = solve(text)
            assert score == expected, (text, score, expected)
            nodes += count
            seconds += spent
        mean_nodes, mean_seconds = nodes / len(positions), seconds / len(positions)
        peer_text = ratio_text = "-"
        if peer is not None:
            theirs, scores = peer_seconds(peer, [text for text, _ in positions])
            assert scores == [score for _, score in positions], name
            if theirs is None:
                peer_text = "start-up"  # too fast to tell from his solver's start-up
            else:
                peer_text = f"{theirs / len(positions) * 1e3:.3f} ms"
                ratio_text = f"{seconds / theirs:.2f}"
        published = PUBLISHED[name][1]
        print(
            f"  {name:14} {len(positions):3} {mean_nodes:12,.0f} {published:15,} "
            f"{mean_nodes / published:6.2f} {mean_seconds * 1e3:8.3f} ms {peer_text:>10}"
            f" {ratio_text:>6}"
        )


def empty_board(peer: str | None) -> None:
    """The empty board solved as the CLI solves it (``arbiter game solve connect_four
    --time-limit 0 --one-best-move``), beside his solver on the same input when given (it
    takes about 16 minutes here)."""
    state = GAME.initial_state()
    start = time.perf_counter()
    solution = solve_game(GAME, state, all_best_moves=False)
    ours = time.perf_counter() - start
    best = [GAME.move_text(state, move) for move in solution.best_moves]
    assert (solution.value, solution.plies_to_end, best) == (1, 41, ["4"]), solution
    print(
        f"empty 7x6 board: a first-player win in 41 plies by column 4, "
        f"{solution.stats.nodes:,} nodes, {ours:.0f} s"
    )
    if peer is not None:
        seconds, output = run_peer(peer, "\n")
        assert output.split()[0] == "1", output  # a win in 41 plies: (42 - 41) // 2 + 1
        print(f"  Pons's solver (no opening book): {seconds:.0f} s, ours {ours / seconds:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", help="Pons's c4solver, built from its source")
    parser.add_argument("--classes", default=",".join(WANTED), help="classes to run")
    parser.add_argument("--generate", type=int, metavar="SEED", help="redraw the positions")
    parser.add_argument(
        "--empty", action="store_true", help="solve the empty board instead (minutes)"
    )
    args = parser.parse_args()
    with limited(Limits(time_limit=None)):
        if args.empty:
            empty_board(args.peer)
            return
        if args.generate is not None:
            generate(args.generate)
        bench(args.peer, args.classes.split(","))


if __name__ == "__main__":
    main()
