"""``arbiter game``: the games of the catalogue without the server.

    arbiter game list
    arbiter game solve GAME [--param NAME=VALUE ...] [--position P] [--algorithm A]
                            [--depth N] [--time-limit S] [--evaluation E]
                            [--no-table] [--no-ordering] [--quiescence] [--singular M]
                            [--tolerance T]
                            [--one-best-move] [--simulations N] [--exploration C]
                            [--seed S] [--events N] [--analyze] [--quiet]
    arbiter game move GAME [--position P] [--time-limit S] [--param ...] [--depth N]
    arbiter game tree GAME --depth N [--position P] [--param ...] [--evaluation E]

Each prints the JSON of its endpoint (``GET /v1/games``, ``POST /v1/games/solve``,
``/move``, ``/tree``), written by :mod:`analysis.search.json_output`. For ``solve`` and
``move``, ``--time-limit`` is the engine's budget: it answers with the deepest iteration
finished in time (``move``: 1 s when not given). A search that overruns its budget is still
stopped, at the limit every command has (60 s) or at twice the budget if that is longer. The
position defaults to the initial one.

On a terminal, ``solve`` and ``move`` print each finished iteration on standard error while
they run (its depth, for connect four solved to the end the outcomes the value lies between,
nodes, nodes a second and the time so far); ``--quiet`` silences it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Final

from analysis.cli.documents import print_document
from analysis.cli.error_handler import EXIT_OK, CommandLineError
from analysis.cli.options import DEFAULT_LIMITS, ArgumentParser, command_parser, exact_option
from analysis.search.deepening import reporting
from analysis.search.json_output import (
    catalogue_json,
    game_solution_json,
    game_tree_json,
    move_choice_json,
)
from analysis.search.mcts import MAX_EVENTS
from analysis.search.results import IterationStats, Outcome
from analysis.search.solve import ALGORITHMS, DEFAULT_MOVE_TIME_LIMIT, best_move, solve_game
from analysis.search.unfold import unfold_game
from analysis.search.value_iteration import DEFAULT_TOLERANCE
from games.errors import ArbiterError
from games.limits import Limits, limited
from games.rules.catalogue import CATALOGUE, make_game
from games.rules.game import Game

ACTIONS: Final = ("list", "solve", "move", "tree")
BOOLEANS: Final = {"true": True, "false": False}


def parser(name: str, summary: str) -> ArgumentParser:
    """The parser of ``arbiter game``: an action, a game and the search's options."""
    command = command_parser(
        name,
        summary,
        "Solve a position of a catalogue game, ask the engine for a move, or unfold the "
        "game tree to a depth (for the tree commands); 'list' shows the catalogue.",
    )
    command.set_defaults(run=game_command)
    command.add_argument("action", choices=ACTIONS, help="what to do: list, solve, move or tree")
    command.add_argument(
        "game", nargs="?", default=None, metavar="GAME", help="the game's name (see 'list')"
    )
    # the limits' --time-limit is the engine's budget here (see the module's docstring)
    (budget,) = (a for a in command._actions if "--time-limit" in a.option_strings)
    budget.default = None
    budget.help = (
        "solve, move: the engine's budget in seconds (move: "
        f"{DEFAULT_MOVE_TIME_LIMIT:g} s when not given); tree: stop after this long "
        f"(default: {DEFAULT_LIMITS.time_limit:g} s for every action, 0: no limit)"
    )
    command.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game parameter, e.g. rows=4, misere=true, piles=3,4,5 (repeat for several)",
    )
    command.add_argument(
        "--position",
        default=None,
        metavar="P",
        help="the position in the game's notation (default: the initial position)",
    )
    command.add_argument(
        "--depth", type=int, default=None, metavar="N", help="search or unfolding depth in plies"
    )
    command.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default="auto",
        help="solve: the search (default auto: value_iteration for a game whose states "
        "repeat, pig; expectimax for chance to a depth; alphabeta otherwise)",
    )
    command.add_argument(
        "--evaluation", default=None, metavar="E", help="the evaluation at the cutoff, by name"
    )
    command.add_argument(
        "--no-table",
        dest="table",
        action="store_false",
        help="solve: search without the transposition table",
    )
    command.add_argument(
        "--no-ordering",
        dest="ordering",
        action="store_false",
        help="solve: search moves in the game's order (no move ordering)",
    )
    command.add_argument(
        "--one-best-move",
        dest="all_best_moves",
        action="store_false",
        help="solve with alphabeta: stop at the first best move instead of proving them all",
    )
    command.add_argument(
        "--tolerance",
        type=exact_option,
        default=None,
        metavar="T",
        help="solve with value_iteration: stop when no value changes by more than T "
        f"(default {DEFAULT_TOLERANCE})",
    )
    command.add_argument(
        "--quiescence",
        action="store_true",
        help="solve: search captures past the cutoff until the position is quiet",
    )
    command.add_argument(
        "--singular",
        type=exact_option,
        default=None,
        metavar="M",
        help="solve with alphabeta to a cutoff: singular extensions, searching a move one ply "
        "deeper when it beats every sibling by at least M (in the evaluation's units)",
    )
    command.add_argument(
        "--simulations",
        type=int,
        default=None,
        metavar="N",
        help="solve with mcts: the number of simulations (or --time-limit, or both)",
    )
    command.add_argument(
        "--exploration",
        type=float,
        default=None,
        metavar="C",
        help="solve with mcts: UCB1's constant C (default sqrt 2)",
    )
    command.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="solve with mcts: the random playouts' seed (default 0: same seed, same answer)",
    )
    command.add_argument(
        "--events",
        type=int,
        default=None,
        metavar="N",
        help="solve with mcts: list the four phases of the first N simulations (at most "
        f"{MAX_EVENTS})",
    )
    command.add_argument(
        "--analyze",
        action="store_true",
        help="solve to the end: also give every legal move's exact outcome (move_values)",
    )
    command.add_argument(
        "--quiet",
        action="store_true",
        help="solve, move: do not show the iterations on standard error as they finish",
    )
    return command


def game_command(args: argparse.Namespace) -> int:
    """Run the action of ``arbiter game`` under its limits and print its JSON."""
    if args.action == "list":
        print_document(catalogue_json())
        return EXIT_OK
    if args.game is None:
        raise CommandLineError("GAME", f"arbiter game {args.action} needs a game (see 'list')")
    if args.action == "tree" and args.depth is None:
        raise CommandLineError("--depth", "arbiter game tree needs a depth")
    with limited(Limits(max_nodes=args.max_nodes, time_limit=_stop(args))), options_named():
        game, state = read_position(args)
        with progress_shown(args):
            answer = ANSWERS[args.action](args, game, state)
        print_document(answer)
    return EXIT_OK


@contextmanager
def progress_shown(args: argparse.Namespace) -> Iterator[None]:
    """Print each finished iteration on standard error, where it is a terminal and
    ``--quiet`` was not given."""
    if args.quiet or args.action not in ("solve", "move") or not sys.stderr.isatty():
        yield
        return
    start = time.perf_counter()

    def show(iteration: IterationStats) -> None:
        print(iteration_line(iteration, time.perf_counter() - start), file=sys.stderr)

    with reporting(show):
        yield


def iteration_line(iteration: IterationStats, elapsed: float) -> str:
    """One finished iteration for a person watching: depth, bounds, nodes, speed, time."""
    speed = iteration.nodes / iteration.seconds if iteration.seconds > 0 else 0.0
    bounds = ""
    if iteration.bounds is not None:
        lower, upper = (outcome_words(outcome) for outcome in iteration.bounds)
        bounds = f"  value {lower}" if lower == upper else f"  between {lower} and {upper}"
    return (
        f"depth {iteration.depth:>3}{bounds}  {iteration.nodes:,} nodes  "
        f"{speed / 1e6:.2f}M nodes/s  {elapsed:.1f} s"
    )


def outcome_words(outcome: Outcome) -> str:
    """``a win in 41 plies``, ``a draw``, ``a loss in 12 plies`` (for the player to move)."""
    if outcome.plies_to_end is None:
        return "a draw"
    kind = "win" if outcome.value > 0 else "loss"
    plies = outcome.plies_to_end
    return f"a {kind} in {plies} {'ply' if plies == 1 else 'plies'}"


def solved(args: argparse.Namespace, game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """``POST /v1/games/solve``'s answer: the position valued by the search asked for."""
    solution = solve_game(
        game,
        state,
        algorithm=args.algorithm,
        depth=args.depth,
        time_limit=args.time_limit or None,
        evaluation=args.evaluation,
        table=args.table,
        ordering=args.ordering,
        quiescence=args.quiescence,
        singular_margin=None if args.singular is None else Fraction(args.singular),
        tolerance=DEFAULT_TOLERANCE if args.tolerance is None else Fraction(args.tolerance),
        all_best_moves=args.all_best_moves,
        simulations=args.simulations,
        exploration=args.exploration,
        seed=args.seed,
        events=args.events,
        analyze=args.analyze,
    )
    return game_solution_json(game, state, solution)


def moved(args: argparse.Namespace, game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """``POST /v1/games/move``'s answer: the engine's move within ``--time-limit`` (1 s by
    default)."""
    budget = args.time_limit or DEFAULT_MOVE_TIME_LIMIT
    choice = best_move(game, state, budget, depth=args.depth)
    return move_choice_json(game, state, choice)


def unfolded(args: argparse.Namespace, game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """``POST /v1/games/tree``'s answer: the game tree to ``--depth``."""
    return game_tree_json(game, state, unfold_game(game, state, args.depth, args.evaluation))


ANSWERS: Final[
    Mapping[str, Callable[[argparse.Namespace, Game[Any, Any], Any], dict[str, Any]]]
] = {
    "solve": solved,
    "move": moved,
    "tree": unfolded,
}
"""What each action prints."""


def _stop(args: argparse.Namespace) -> float | None:
    """Seconds after which the computation is stopped: 60 by default, none for 0; for
    ``tree`` the ``--time-limit`` given, for ``solve`` and ``move`` (where it is the
    engine's budget) twice the budget if that is longer than 60."""
    usual = DEFAULT_LIMITS.time_limit
    given: float | None = args.time_limit
    if given is None:
        return usual
    if given == 0:
        return None
    if args.action == "tree" or usual is None:
        return given
    return max(usual, 2 * given)


def read_position(args: argparse.Namespace) -> tuple[Game[Any, Any], Any]:
    """The game with its ``--param`` values, and ``--position`` (or the initial position)."""
    game = make_game(args.game, parameters(args.game, args.param))
    state = game.initial_state() if args.position is None else game.parse_position(args.position)
    return game, state


def parameters(game: str, given: list[str]) -> dict[str, object]:
    """``NAME=VALUE`` options as the values the catalogue takes: integers, ``true``/``false``,
    comma-separated lists. A value that does not read as its kind is passed on as text, so
    the catalogue refuses it with the message the API gives."""
    spec = CATALOGUE.get(game)
    kinds: Mapping[str, type] = {p.name: p.kind for p in spec.parameters} if spec else {}
    values: dict[str, object] = {}
    for option in given:
        name, equals, text = option.partition("=")
        if not equals or not name:
            raise CommandLineError("--param", f"write NAME=VALUE, got {option!r}")
        values[name] = _value(kinds.get(name), text)
    return values


def _value(kind: type | None, text: str) -> object:
    try:
        if kind is bool:
            return BOOLEANS.get(text.lower(), text)
        if kind is list:
            return [int(entry) for entry in text.split(",")] if text else []
        return int(text)
    except ValueError:
        return text


@contextmanager
def options_named() -> Iterator[None]:
    """Point the core's errors at the command line: ``params.rows`` is ``--param rows``."""
    try:
        yield
    except ArbiterError as error:
        error.located(_option)
        raise


def _option(parameter: str) -> str:
    if parameter == "game":
        return "GAME"
    if parameter.startswith("singular"):  # singular.margin: the margin given to --singular
        return "--singular"
    if parameter.startswith("params."):
        return "--param " + parameter.removeprefix("params.")
    return "--" + parameter.replace("_", "-")
