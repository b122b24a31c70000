"""The one entry point of the game search engine: :func:`solve_game`, and :func:`best_move`.

Every surface (the REST API, the CLI, the workbench) calls these; none chooses an algorithm
itself. Options an algorithm would ignore are refused, naming the parameter.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from typing import Any, Final

from analysis.search.alpha_beta import alpha_beta_solution
from analysis.search.expectimax import expectimax_solution
from analysis.search.mcts import DEFAULT_EXPLORATION, mcts_solution
from analysis.search.minimax import minimax_solution
from analysis.search.results import (
    GameSolution,
    MctsSolution,
    MoveChoice,
    MoveValue,
    Outcome,
    SearchTotals,
)
from analysis.search.table import check_table_entries
from analysis.search.value_iteration import (
    DEFAULT_TOLERANCE,
    check_tolerance,
    value_iteration_solution,
)
from games.errors import InvalidInputError
from games.rules.game import CHANCE, Evaluation, Game, states_repeat

ALGORITHMS: Final = ("auto", "alphabeta", "minimax", "expectimax", "value_iteration", "mcts")
"""The searches :func:`solve_game` runs; ``auto`` picks one (:func:`chosen_algorithm`)."""

DEFAULT_MOVE_TIME_LIMIT: Final = 1.0
"""Seconds :func:`best_move` takes when no budget is given."""

MCTS_OPTIONS: Final = ("simulations", "exploration", "seed", "events")
"""The options only Monte Carlo tree search takes."""

QUIESCENCE_PLIES: Final = 8
"""How far past the cutoff quiescence follows noisy moves."""


def solve_game(
    game: Game[Any, Any],
    state: Any,
    *,
    algorithm: str = "auto",
    depth: int | None = None,
    time_limit: float | None = None,
    evaluation: str | None = None,
    table: bool = True,
    ordering: bool = True,
    quiescence: bool = False,
    tolerance: Fraction = DEFAULT_TOLERANCE,
    all_best_moves: bool = True,
    table_entries: int | None = None,
    simulations: int | None = None,
    exploration: float | None = None,
    seed: int | None = None,
    events: int | None = None,
    analyze: bool = False,
    singular_margin: Fraction | None = None,
) -> GameSolution | MctsSolution:
    """Value ``state`` for the player to move, with its best moves and the search's stats
    (for ``mcts``, an estimate: :class:`MctsSolution`).

    Parameters
    ----------
    algorithm
        ``auto`` (the default: :func:`chosen_algorithm` picks value iteration, expectimax or
        alpha-beta by the game; the answer names the one that ran), ``alphabeta``
        (iterative deepening, table, ordering), ``minimax`` (the full tree, no
        pruning, no table), ``expectimax`` (games with chance) or ``value_iteration`` (games
        whose states repeat, to ``tolerance``) or ``mcts`` (Monte Carlo tree search, UCT:
        an estimate from ``simulations`` random playouts, any game).
    depth
        The depth cutoff in plies (``None``: to the end of the game).
    time_limit
        Seconds for iterative deepening (alphabeta, expectimax): the deepest finished
        iteration answers.
    evaluation
        The name of one of the game's evaluations, used at the cutoff (default: its first).
    table, ordering, quiescence
        Alphabeta's transposition table, move ordering and quiescence search (expectimax
        takes ``table`` too).
    tolerance
        Value iteration's stopping tolerance.
    all_best_moves
        Alphabeta: find every best move of the root (``False``: the first found, for play;
        tic-tac-toe from the empty board takes 3,521 nodes instead of 5,544).
    table_entries
        Most entries of the transposition table (alphabeta, expectimax); ``None``: the
        engine's default, which keeps a search under about 256 MB (750,000 entries in
        Python, 12,582,912 of 16 bytes compiled). A full table drops its shallowest entries.
    simulations, exploration, seed, events
        MCTS only: the number of simulations (or ``time_limit``, or both: whichever ends
        first), UCB1's constant (default sqrt 2), the random stream's seed (default 0) and
        how many of the first simulations to record phase by phase
        (:func:`analysis.search.mcts.mcts_solution`).
    singular_margin
        Alphabeta to a cutoff, with the table: singular extensions, searching one ply deeper
        below a move that beats each sibling by at least this margin, in the evaluation's
        units (:mod:`analysis.search.alpha_beta`); ``None``: off.
    analyze
        Alphabeta and minimax solved to the end: value every legal move of the root too
        (``move_values``: each move's exact outcome and plies to the end).

    :raises InvalidInputError: an unknown algorithm or evaluation, a depth or time limit out
        of range, an option the algorithm does not take, or a game it cannot search.
    :raises LimitExceededError: the request's time or size limits were reached.
    """
    algorithm = chosen_algorithm(game, algorithm, depth, time_limit)
    check_options(game, algorithm, depth, time_limit, quiescence, table, ordering, tolerance)
    if singular_margin is not None:
        check_singular(game, algorithm, depth, time_limit, table, singular_margin)
    mcts_options = dict(zip(MCTS_OPTIONS, (simulations, exploration, seed, events), strict=True))
    for name, given in mcts_options.items():
        if given is not None and algorithm != "mcts":
            raise InvalidInputError(f"{name} applies to mcts only", parameter=name)
    if not all_best_moves and algorithm != "alphabeta":
        raise InvalidInputError(
            f"all_best_moves does not apply to {algorithm}", parameter="all_best_moves"
        )
    if table_entries is not None:
        check_table_entries(table_entries)
        if not table or algorithm not in ("alphabeta", "expectimax"):
            raise InvalidInputError(
                "table_entries applies to alphabeta and expectimax with the table on",
                parameter="table_entries",
            )
    if analyze:
        check_analyze(game, algorithm, depth, time_limit)
    function = chosen_evaluation(game, evaluation, depth, time_limit, algorithm)
    if algorithm == "mcts":
        return mcts_solution(
            game,
            state,
            simulations=simulations,
            time_limit=time_limit,
            exploration=DEFAULT_EXPLORATION if exploration is None else exploration,
            seed=0 if seed is None else seed,
            events=0 if events is None else events,
        )
    if game.is_terminal(state):
        solution = terminal_solution(game, state, algorithm)
        return replace(solution, move_values=()) if analyze else solution
    if algorithm == "alphabeta":
        solution = alpha_beta_solution(
            game,
            state,
            depth=depth,
            time_limit=time_limit,
            evaluation=function,
            table=table,
            ordering=ordering,
            quiescence_plies=QUIESCENCE_PLIES if quiescence else 0,
            singular_margin=singular_margin,
            all_best_moves=all_best_moves,
            table_entries=table_entries,
            analyze=analyze,
        )
        if analyze and solution.move_values is None:  # not connect four's score search
            options = {"table": table, "ordering": ordering, "table_entries": table_entries}
            children = {"algorithm": "alphabeta", "all_best_moves": False, **options}
            return analyzed(game, state, solution, children)
        return solution
    if algorithm == "minimax":
        solution = minimax_solution(game, state, depth=depth, evaluation=function)
        return analyzed(game, state, solution, {"algorithm": "minimax"}) if analyze else solution
    if algorithm == "expectimax":
        return expectimax_solution(
            game,
            state,
            depth=depth,
            time_limit=time_limit,
            evaluation=function,
            table=table,
            table_entries=table_entries,
        )
    return value_iteration_solution(game, state, tolerance=tolerance)


def best_move(
    game: Game[Any, Any],
    state: Any,
    time_limit: float = DEFAULT_MOVE_TIME_LIMIT,
    depth: int | None = None,
) -> MoveChoice:
    """The engine's move within ``time_limit`` seconds (and at most ``depth`` plies deep).

    Alpha-beta with iterative deepening, or expectimax for a game with chance; the move of
    the deepest finished iteration (for alpha-beta the first best move it found, for
    expectimax the first best in the game's order).

    :raises InvalidInputError: the position is over or chance moves next, or a parameter is
        out of range.
    """
    if game.is_terminal(state):
        raise InvalidInputError(
            "the game is over in this position: there is no move", parameter="position"
        )
    if game.to_move(state) == CHANCE:
        raise InvalidInputError(
            "chance moves next in this position, not a player", parameter="position"
        )
    algorithm = "expectimax" if game.has_chance else "alphabeta"
    solution = solve_game(
        game,
        state,
        algorithm=algorithm,
        depth=depth,
        time_limit=time_limit,
        all_best_moves=game.has_chance,  # alpha-beta needs only one; expectimax finds all anyway
    )
    assert isinstance(solution, GameSolution)
    return MoveChoice(
        move=solution.best_moves[0],
        value=solution.value,
        depth_completed=solution.depth_completed,
        complete=solution.complete,
        stats=solution.stats,
    )


def chosen_algorithm(
    game: Game[Any, Any], algorithm: str, depth: int | None, time_limit: float | None
) -> str:
    """``algorithm``, or for ``auto`` the search that suits the game: value iteration where
    states repeat (Pig, :func:`games.rules.game.states_repeat`) and the search goes to the
    end, expectimax for a game with chance (Pig to a depth or within a time too), alpha-beta
    otherwise."""
    if algorithm != "auto":
        return algorithm
    if states_repeat(game) and depth is None and time_limit is None:
        return "value_iteration"
    return "expectimax" if game.has_chance else "alphabeta"


def check_options(
    game: Game[Any, Any],
    algorithm: str,
    depth: int | None,
    time_limit: float | None,
    quiescence: bool,
    table: bool,
    ordering: bool,
    tolerance: Fraction,
) -> None:
    """Refuse what the chosen algorithm cannot do, naming the parameter."""
    if algorithm not in ALGORITHMS:
        raise InvalidInputError(
            f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}",
            parameter="algorithm",
        )
    if depth is not None and (isinstance(depth, bool) or depth < 1):
        raise InvalidInputError(
            f"depth must be a whole number of at least 1, not {depth!r}", parameter="depth"
        )
    if time_limit is not None and not time_limit > 0:
        raise InvalidInputError(
            f"time_limit must be positive, not {time_limit!r}", parameter="time_limit"
        )
    if game.has_chance and algorithm in ("alphabeta", "minimax"):
        raise InvalidInputError(
            f"{game.name} has chance moves: use expectimax or value_iteration, not {algorithm}",
            parameter="algorithm",
        )
    to_the_end = depth is None and time_limit is None
    other = f"does not apply to {algorithm}"
    refused = (
        ("quiescence", quiescence and algorithm != "alphabeta", other),
        ("quiescence", quiescence and to_the_end, "extends a cutoff: give depth or time_limit"),
        (
            "time_limit",
            time_limit is not None and algorithm in ("minimax", "value_iteration"),
            other,
        ),
        ("depth", depth is not None and algorithm in ("value_iteration", "mcts"), other),
        (
            "table",
            not table and algorithm in ("minimax", "value_iteration", "mcts"),
            "is always off here",
        ),
        ("ordering", not ordering and algorithm != "alphabeta", "applies to alphabeta only"),
    )
    for name, wrong, why in refused:
        if wrong:
            raise InvalidInputError(f"{name} {why}", parameter=name)
    if tolerance != DEFAULT_TOLERANCE and algorithm != "value_iteration":
        raise InvalidInputError("tolerance applies to value_iteration only", parameter="tolerance")
    check_tolerance(tolerance)


def check_singular(
    game: Game[Any, Any],
    algorithm: str,
    depth: int | None,
    time_limit: float | None,
    table: bool,
    margin: Fraction,
) -> None:
    """Refuse singular extensions where they cannot run, or a margin out of range, naming
    ``singular.margin`` or the option in the way."""
    if algorithm != "alphabeta":
        raise InvalidInputError(
            f"singular extensions apply to alphabeta only, not {algorithm}",
            parameter="singular",
        )
    if depth is None and time_limit is None:
        raise InvalidInputError(
            "singular extensions extend a cutoff: give depth or time_limit", parameter="singular"
        )
    if not table:
        raise InvalidInputError(
            "singular extensions test the transposition table's move: keep the table on",
            parameter="singular",
        )
    widest = game.win - game.loss
    if not 0 < margin <= widest:
        raise InvalidInputError(
            f"the singular margin must be more than 0 and at most {widest} (a win less a "
            f"loss), not {margin}",
            parameter="singular.margin",
        )


def chosen_evaluation(
    game: Game[Any, Any],
    name: str | None,
    depth: int | None,
    time_limit: float | None,
    algorithm: str,
) -> Evaluation | None:
    """The evaluation function named (or the game's default), when the search may need one."""
    if name is not None and name not in game.evaluations:
        known = ", ".join(game.evaluations) or "none"
        raise InvalidInputError(
            f"{game.name} has no evaluation {name!r} (it has: {known})", parameter="evaluation"
        )
    if name is not None and algorithm in ("value_iteration", "mcts"):
        raise InvalidInputError(f"evaluation does not apply to {algorithm}", parameter="evaluation")
    limited = depth is not None or time_limit is not None
    if name is not None and not limited:
        raise InvalidInputError(
            "an evaluation is read at a depth cutoff: give depth or time_limit",
            parameter="evaluation",
        )
    if not limited or algorithm in ("value_iteration", "mcts"):
        return None
    if name is None and not game.evaluations:
        raise InvalidInputError(
            f"{game.name} has no evaluation for a depth cutoff: search it to the end",
            parameter="depth" if depth is not None else "time_limit",
        )
    return game.evaluations[name if name is not None else next(iter(game.evaluations))].function


def terminal_solution(game: Game[Any, Any], state: Any, algorithm: str) -> GameSolution:
    """A finished game: its utility to the player whose turn it would be, no search."""
    player = max(game.to_move(state), 0)
    empty: tuple[Hashable, ...] = ()
    return GameSolution(
        algorithm=algorithm,
        value=Fraction(game.utility(state, player)),
        complete=True,
        best_moves=empty,
        principal_variation=empty,
        depth_completed=0,
        iterations=(),
        stats=SearchTotals(
            nodes=1, table_hits=0, cutoffs=0, seconds=0.0, terminals=1, evaluations=0
        ),
        plies_to_end=0 if abs(game.utility(state, player)) >= game.win else None,
    )


def check_analyze(
    game: Game[Any, Any], algorithm: str, depth: int | None, time_limit: float | None
) -> None:
    """Refuse ``analyze`` where a move's exact outcome is not what the search finds."""
    if algorithm not in ("alphabeta", "minimax"):
        raise InvalidInputError(
            f"analyze applies to alphabeta and minimax, not {algorithm}", parameter="analyze"
        )
    if depth is not None or time_limit is not None:
        raise InvalidInputError(
            "analyze values every move exactly: solve to the end (no depth or time_limit)",
            parameter="analyze",
        )
    if game.loss != -game.win:
        raise InvalidInputError(
            f"analyze needs a game whose loss is worth -win; {game.name}'s is not",
            parameter="analyze",
        )


def analyzed(
    game: Game[Any, Any], state: Any, solution: GameSolution, options: dict[str, Any]
) -> GameSolution:
    """``solution`` with every legal move of ``state`` valued: each child solved to the end by
    :func:`solve_game` with ``options`` and seen from the mover's side (its value negated
    when the other player moves next), one ply longer."""
    mover = game.to_move(state)
    values = []
    for move in game.actions(state):
        child = game.result(state, move)
        if game.is_terminal(child):
            utility = Fraction(game.utility(child, mover))
            plies = 1 if abs(utility) >= game.win else None
            values.append(MoveValue(move, Outcome(utility, plies)))
            continue
        found = solve_game(game, child, **options)
        assert isinstance(found, GameSolution)
        value = found.value if game.to_move(child) == mover else -found.value
        plies = None if found.plies_to_end is None else found.plies_to_end + 1
        values.append(MoveValue(move, Outcome(value, plies)))
    return replace(solution, move_values=tuple(values))
