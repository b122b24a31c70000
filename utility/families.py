"""Named utility families: linear, exponential (CARA), power (CRRA) and quadratic.

Each is a SymPy expression in :data:`utility.formula.X` built from exact parameters:

- ``linear``: ``U(x) = x`` (risk neutral).
- ``exponential`` / ``cara`` with risk tolerance ``R > 0``: ``U(x) = 1 - exp(-x/R)``;
  constant absolute risk aversion ``1/R``.
- ``power`` / ``crra`` with ``gamma``: ``U(x) = (x^(1-gamma) - 1)/(1 - gamma)``, and
  ``log(x)`` at ``gamma = 1`` (the limit); constant relative risk aversion ``gamma``.
- ``quadratic`` with ``b > 0``: ``U(x) = x - b*x^2``, increasing only for ``x < 1/(2b)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from games.errors import InvalidInputError, join_pointer
from games.numbers import Exact
from utility.formula import X, rational


@dataclass(frozen=True, slots=True)
class Family:
    """A named family: its parameter names and how to build its formula."""

    name: str
    parameters: tuple[str, ...]
    description: str


FAMILIES: dict[str, Family] = {
    "linear": Family("linear", (), "U(x) = x"),
    "exponential": Family("exponential", ("R",), "U(x) = 1 - exp(-x/R), R > 0"),
    "power": Family("power", ("gamma",), "U(x) = (x^(1-gamma) - 1)/(1-gamma); log(x) at gamma=1"),
    "quadratic": Family("quadratic", ("b",), "U(x) = x - b*x^2, b > 0"),
}
ALIASES = {"cara": "exponential", "crra": "power"}


def family_utility(
    name: str,
    parameters: Mapping[str, Exact],
    pointer: str,
    parameters_pointer: str = "/parameters",
) -> sp.Expr:
    """The formula of the family ``name`` with its parameters filled in.

    Raises
    ------
    InvalidInputError
        For an unknown family, a missing parameter or one outside its range.
    """
    family = FAMILIES.get(ALIASES.get(name, name))
    if family is None:
        known = ", ".join(sorted([*FAMILIES, *ALIASES]))
        raise InvalidInputError(f"unknown utility family {name!r}; known: {known}", pointer)
    for needed in family.parameters:
        if needed not in parameters:
            raise InvalidInputError(
                f"the {family.name} family needs the parameter {needed!r}",
                join_pointer(parameters_pointer, needed),
            )
    if family.name == "linear":
        return X
    if family.name == "exponential":
        tolerance = parameters["R"]
        if tolerance <= 0:
            raise InvalidInputError(
                "risk tolerance R must be positive", join_pointer(parameters_pointer, "R")
            )
        return 1 - sp.exp(-X / rational(tolerance))
    if family.name == "power":
        gamma = rational(parameters["gamma"])
        if gamma == 1:
            return sp.log(X)
        if abs(gamma) > 100:
            raise InvalidInputError(
                "gamma must lie within +/-100", join_pointer(parameters_pointer, "gamma")
            )
        return (X ** (1 - gamma) - 1) / (1 - gamma)
    b = parameters["b"]
    if b <= 0:
        raise InvalidInputError("b must be positive", join_pointer(parameters_pointer, "b"))
    return X - rational(b) * X**2
