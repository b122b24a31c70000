"""The catalogue of games defined by rules, and the one place a game is built from parameters.

:func:`make_game` checks every parameter against its :class:`Parameter` (type, range, unknown
names) before the game's constructor sees it, so every surface (API, CLI, web page) refuses the
same inputs with the same messages, each naming ``params.<name>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.errors import FieldError, InvalidInputError
from games.rules import connect_four, hexapawn, nim, pig, tic_tac_toe
from games.rules.game import Game, GameSpec, Parameter

CATALOGUE: dict[str, GameSpec[Any, Any]] = {
    spec.name: spec
    for spec in (tic_tac_toe.SPEC, connect_four.SPEC, hexapawn.SPEC, nim.SPEC, pig.SPEC)
}
"""Every game by its name, in the order the documentation lists them."""


def _kind_name(parameter: Parameter) -> str:
    if parameter.kind is list:
        return "a list of integers"
    return "true or false" if parameter.kind is bool else "an integer"


def _is_int(value: object) -> bool:
    # bool is a subclass of int, but true is not a board size.
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """``value`` for a message, short however large the input (a huge int or a long list)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # an int past Python's limit on digits, inside a list
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= 80 else f"{text[:60]}... ({type(value).__name__})"


def _range_text(parameter: Parameter) -> str:
    return f"{parameter.low} to {parameter.high}"


def _check(parameter: Parameter, value: object) -> tuple[str, int | bool | tuple[int, ...]]:
    """``("", the value)`` if ``value`` suits ``parameter``, else ``(the problem, default)``."""
    name = f"params.{parameter.name}"
    wrong_kind = f"{name} must be {_kind_name(parameter)}, not {_shown(value)}"
    if parameter.kind is bool:
        return ("", value) if isinstance(value, bool) else (wrong_kind, parameter.default)
    if parameter.kind is list:
        if not isinstance(value, list | tuple) or not all(_is_int(v) for v in value):
            return wrong_kind, parameter.default
        entries = tuple(int(v) for v in value)
        low_length, high_length = parameter.min_length or 0, parameter.max_length
        if len(entries) < low_length or (high_length is not None and len(entries) > high_length):
            return (
                f"{name} must have {low_length} to {high_length} entries, not {len(entries)}",
                parameter.default,
            )
        for entry in entries:
            if not _within(parameter, entry):
                return (
                    f"{name} entries must be {_range_text(parameter)}, not {_shown(entry)}",
                    parameter.default,
                )
        return "", entries
    if not _is_int(value):
        return wrong_kind, parameter.default
    assert isinstance(value, int)
    if not _within(parameter, value):
        problem = f"{name} must be {_range_text(parameter)}, not {_shown(value)}"
        return problem, parameter.default
    return "", value


def _within(parameter: Parameter, value: int) -> bool:
    return (parameter.low is None or value >= parameter.low) and (
        parameter.high is None or value <= parameter.high
    )


def make_game(name: str, params: Mapping[str, object]) -> Game[Any, Any]:
    """Build the catalogue's game ``name`` from ``params`` (omitted parameters take defaults).

    :raises InvalidInputError: an unknown game (``parameter="game"``), ``params`` not a mapping
        (``parameter="params"``), or a parameter that is unknown, of the wrong type or out of
        range (``parameter="params.<name>"``), every one reported at once.
    """
    spec = CATALOGUE.get(name) if isinstance(name, str) else None
    if spec is None:
        raise InvalidInputError(
            f"unknown game {_shown(name)}: the catalogue has {', '.join(CATALOGUE)}",
            parameter="game",
        )
    if not isinstance(params, Mapping):
        raise InvalidInputError(
            f"params must be an object of parameter names and values, not {_shown(params)}",
            parameter="params",
        )
    known = {parameter.name: parameter for parameter in spec.parameters}
    problems: list[FieldError] = [
        FieldError(
            "",
            f"{name} has no parameter {_shown(key)} (it has {', '.join(known)})",
            f"params.{key}",
        )
        for key in params
        if key not in known
    ]
    values: dict[str, int | bool | tuple[int, ...]] = {}
    for parameter in spec.parameters:
        value = params.get(parameter.name, parameter.default)
        problem, values[parameter.name] = _check(parameter, value)
        if problem:
            problems.append(FieldError("", problem, f"params.{parameter.name}"))
    if problems:
        raise InvalidInputError("; ".join(p.message for p in problems), errors=problems)
    return spec.build(**values)
