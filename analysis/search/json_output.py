"""The games' answers as JSON: the catalogue, a solved position, the engine's move, an
unfolded tree (what ``api.schemas.games`` documents; the API and ``arbiter game`` print it).

Moves and positions are written in each game's notation (``move_text``,
``position_text``), and every number by :mod:`games.numbers` under the one rule of
``docs/numbers.md``: a value is exact (``value_exact`` beside it when the JSON number is
not the value itself); times and branching factors are floats, written as they are.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction
from typing import Any

from analysis.search.results import (
    GameSolution,
    IterationStats,
    MctsSolution,
    MoveChoice,
    Outcome,
    SearchTotals,
    SimulationEvents,
)
from analysis.search.unfold import UnfoldedGame
from games.numbers import Number, put_number, put_numbers
from games.rules.catalogue import CATALOGUE, make_game
from games.rules.game import Game, GameSpec

KINDS = {int: "integer", bool: "boolean", list: "list"}
"""The JSON name of each parameter type."""


def catalogue_json() -> dict[str, Any]:
    """Every game of the catalogue with its parameters, notation and evaluations."""
    return {"games": [game_spec_json(spec) for spec in CATALOGUE.values()]}


def game_spec_json(spec: GameSpec[Any, Any]) -> dict[str, Any]:
    """One catalogue entry; the game built with its defaults tells its evaluations."""
    game = make_game(spec.name, {})
    parameters = []
    for parameter in spec.parameters:
        default = parameter.default
        entry: dict[str, Any] = {
            "name": parameter.name,
            "kind": KINDS[parameter.kind],
            "default": list(default) if isinstance(default, tuple) else default,
            "minimum": parameter.low,
            "maximum": parameter.high,
            "description": parameter.description,
        }
        if parameter.kind is list:
            entry["min_length"] = parameter.min_length
            entry["max_length"] = parameter.max_length
        parameters.append(entry)
    return {
        "name": spec.name,
        "title": spec.title,
        "description": spec.description,
        "players": game.players,
        "has_chance": game.has_chance,
        "parameters": parameters,
        "notation": spec.notation,
        "initial_position": game.position_text(game.initial_state()),
        "evaluations": [
            {"name": info.name, "description": info.description}
            for info in game.evaluations.values()
        ],
    }


def game_solution_json(
    game: Game[Any, Any], state: Any, solution: GameSolution | MctsSolution
) -> dict[str, Any]:
    """``POST /v1/games/solve``: the value for the player to move, its moves, the line, stats
    (for MCTS, :func:`mcts_solution_json`)."""
    if isinstance(solution, MctsSolution):
        return mcts_solution_json(game, state, solution)
    out = _position(game, state)
    out["algorithm"] = solution.algorithm
    _put_value(out, "value", solution.value)
    out["complete"] = solution.complete
    out["plies_to_end"] = solution.plies_to_end
    out["best_moves"] = [game.move_text(state, move) for move in solution.best_moves]
    out["principal_variation"] = line_text(game, state, solution.principal_variation)
    out["depth_completed"] = solution.depth_completed
    out["stats"] = stats_json(solution.stats)
    out["iterations"] = [iteration_json(iteration) for iteration in solution.iterations]
    if solution.move_values is not None:
        out["move_values"] = [
            {"move": game.move_text(state, value.move), **outcome_json(value.outcome)}
            for value in solution.move_values
        ]
    if solution.algorithm == "value_iteration":
        _put_value(out, "tolerance", solution.tolerance)
        out["sweeps"] = solution.sweeps
        put_number(out, "residual", solution.residual)
    return out


def mcts_solution_json(game: Game[Any, Any], state: Any, solution: MctsSolution) -> dict[str, Any]:
    """``POST /v1/games/solve`` with ``mcts``: the chosen move, the estimate, each root move's
    visits and mean reward, and the recorded simulations phase by phase."""
    out = _position(game, state)
    out["algorithm"] = solution.algorithm
    out["complete"] = False
    out["player"] = solution.player
    out["move"] = None if solution.move is None else game.move_text(state, solution.move)
    _put_value(out, "reward", solution.reward)
    _put_value(out, "value", solution.value)
    root_moves = []
    for child in solution.root_moves:
        entry: dict[str, Any] = {"move": game.move_text(state, child.move), "visits": child.visits}
        _put_value(entry, "total", child.total)
        _put_value(entry, "mean", child.mean)
        root_moves.append(entry)
    out["root_moves"] = root_moves
    out["simulations"] = solution.simulations
    out["stopped_by"] = solution.stopped_by
    put_number(out, "exploration", float(solution.exploration))
    out["seed"] = solution.seed
    out["tree_nodes"] = solution.tree_nodes
    out["tree_full"] = solution.tree_full
    out["plies"] = solution.plies
    put_number(out, "seconds", float(solution.seconds))
    states = {0: state}  # each node's state, by id, as the events create the nodes
    out["events"] = [_simulation_json(game, states, events) for events in solution.events]
    return out


def _simulation_json(
    game: Game[Any, Any], states: dict[int, Any], events: SimulationEvents
) -> dict[str, Any]:
    """One simulation's four phases, moves in the game's notation (``states`` grows)."""
    at = 0
    selection = []
    for step in events.selection:
        entry: dict[str, Any] = {"node": step.node, "move": game.move_text(states[at], step.move)}
        entry["visits"] = step.visits
        _put_value(entry, "mean", step.total / step.visits)
        put_number(entry, "ucb", step.ucb)
        _put_value(entry, "probability", step.probability)
        selection.append(entry)
        states.setdefault(step.node, game.result(states[at], step.move))
        at = step.node
    expansion: dict[str, Any] | None = None
    if events.expansion is not None:
        grown = events.expansion
        parent = states[grown.parent]
        states[grown.node] = game.result(parent, grown.move)
        expansion = {
            "node": grown.node,
            "parent": grown.parent,
            "move": game.move_text(parent, grown.move),
            "player": grown.player,
            "position": game.position_text(states[grown.node]),
            "to_move": game.to_move(states[grown.node]),
            "terminal": game.is_terminal(states[grown.node]),
        }
        _put_value(expansion, "probability", grown.probability)
        at = grown.node
    end = states[at]
    for move in events.playout.moves:
        end = game.result(end, move)
    playout: dict[str, Any] = {
        "moves": line_text(game, states[at], events.playout.moves),
        "position": game.position_text(end),
    }
    rewards = [r.numerator if r.denominator == 1 else r for r in events.playout.rewards]
    put_numbers(playout, "rewards", rewards)
    backpropagation = []
    for backup in events.backpropagation:
        update: dict[str, Any] = {"node": backup.node, "player": backup.player}
        _put_value(update, "reward", backup.reward)
        update["visits"] = backup.visits
        _put_value(update, "total", backup.total)
        _put_value(update, "mean", backup.total / backup.visits)
        backpropagation.append(update)
    return {
        "simulation": events.simulation,
        "selection": selection,
        "expansion": expansion,
        "playout": playout,
        "backpropagation": backpropagation,
    }


def move_choice_json(game: Game[Any, Any], state: Any, choice: MoveChoice) -> dict[str, Any]:
    """``POST /v1/games/move``: the engine's move, its value and the position it leads to."""
    out = _position(game, state)
    out["move"] = game.move_text(state, choice.move)
    out["position_after"] = game.position_text(game.result(state, choice.move))
    _put_value(out, "value", choice.value)
    out["complete"] = choice.complete
    out["depth_completed"] = choice.depth_completed
    out["stats"] = stats_json(choice.stats)
    return out


def game_tree_json(game: Game[Any, Any], state: Any, unfolded: UnfoldedGame) -> dict[str, Any]:
    """``POST /v1/games/tree``: the tree document (post it to any tree endpoint) and its counts."""
    out = _position(game, state)
    out["depth"] = unfolded.depth
    out["evaluation"] = unfolded.evaluation
    out["nodes"] = unfolded.nodes
    out["leaves"] = unfolded.leaves
    out["cutoff_leaves"] = unfolded.cutoff_leaves
    out["tree"] = unfolded.document
    return out


def line_text(game: Game[Any, Any], state: Any, moves: Iterable[Hashable]) -> list[str]:
    """A line of play in the game's notation, each move written in the position it is made."""
    texts = []
    for move in moves:
        texts.append(game.move_text(state, move))
        state = game.result(state, move)
    return texts


def stats_json(stats: SearchTotals | IterationStats) -> dict[str, Any]:
    """A search's work: nodes, transposition-table hits, cutoffs and seconds (and, for the
    whole search, the terminal states reached and the static evaluations made)."""
    out: dict[str, Any] = {
        "nodes": stats.nodes,
        "table_hits": stats.table_hits,
        "cutoffs": stats.cutoffs,
    }
    put_number(out, "seconds", float(stats.seconds))
    if isinstance(stats, SearchTotals):
        out["terminals"] = stats.terminals
        out["evaluations"] = stats.evaluations
        if stats.extensions is not None:
            out["extensions"] = stats.extensions
    return out


def iteration_json(iteration: IterationStats) -> dict[str, Any]:
    """One iteration of iterative deepening: its depth, work, time and effective branching."""
    out: dict[str, Any] = {"depth": iteration.depth, **stats_json(iteration)}
    branching = iteration.effective_branching
    put_number(out, "effective_branching", None if branching is None else float(branching))
    if iteration.bounds is not None:
        lower, upper = iteration.bounds
        out["bounds"] = {"lower": outcome_json(lower), "upper": outcome_json(upper)}
    return out


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """An exact outcome: its value and, for a win or a loss, the plies until it comes."""
    out: dict[str, Any] = {}
    _put_value(out, "value", outcome.value)
    out["plies_to_end"] = outcome.plies_to_end
    return out


def _position(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """What every answer starts with: the game, the position and the player to move."""
    return {
        "game": game.name,
        "position": game.position_text(state),
        "to_move": game.to_move(state),
    }


def _put_value(target: dict[str, Any], name: str, value: Fraction | int | float | None) -> None:
    """An exact value as an ``int`` when integral (``1``, not ``1.0`` with ``"1"``)."""
    number: Number | None = value
    if isinstance(value, Fraction) and value.denominator == 1:
        number = value.numerator
    put_number(target, name, number)
