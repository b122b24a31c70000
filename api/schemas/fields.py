"""Strict marshmallow fields: JSON booleans and integers only, no coercion from strings."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields


class StrictBoolean(fields.Boolean):
    """Accepts only JSON ``true``/``false`` (marshmallow's Boolean also takes ``"yes"``, ``1``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean: use true or false.")
        return value


class StrictInteger(fields.Integer):
    """A JSON integer (not a float, not a string, not a boolean)."""

    def __init__(self, **kwargs: Any):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        result: int = super()._deserialize(value, attr, data, **kwargs)
        return result


NUMBER_RULE = (
    "The exact value of the sibling number: present only when that JSON number is not the "
    'value itself, as "p/q", the digits of an integer past 64 bits, or a formula such as '
    '"5*sqrt(10)". Lists and maps of numbers get one companion of the same shape, with '
    "every entry as a string, when any entry is inexact (docs/numbers.md)."
)
"""The one number rule, as the ``ExactCompanion`` component states it."""

_COMPANION = {"openapi": {"allOf": [{"$ref": "#/components/schemas/ExactCompanion"}]}}


def exact_companion(of: str) -> fields.String:
    """The ``<of>_exact`` field of a number under the one rule (``docs/numbers.md``)."""
    return fields.String(
        metadata={"description": f"Exact `{of}`, when `{of}` is not exact.", **_COMPANION}
    )


def exact_list_companion(of: str, nesting: int = 1) -> fields.List:
    """The ``<of>_exact`` field of a list of numbers (``nesting`` levels deep)."""
    inner: fields.Field = fields.String(metadata=_COMPANION)
    for _ in range(nesting - 1):
        inner = fields.List(inner)
    return fields.List(
        inner,
        metadata={
            "description": f"Every entry of `{of}` exactly, when some entry is not exact "
            "(ExactCompanion)."
        },
    )


def exact_map_companion(of: str) -> fields.Dict:
    """The ``<of>_exact`` field of a map of numbers."""
    return fields.Dict(
        keys=fields.String(),
        values=fields.String(metadata=_COMPANION),
        metadata={
            "description": f"Every entry of `{of}` exactly, same keys, when some entry is not "
            "exact (ExactCompanion)."
        },
    )


class IntegersOrInteger(fields.List):
    """A list of strict integers, or one integer standing for ``repeat`` copies of itself
    (``"branching": 3`` is ``[3, 3]``, ``"denominators": 4`` is ``[4]``)."""

    def __init__(self, inner: fields.Field, repeat: int = 1, **kwargs: Any) -> None:
        super().__init__(inner, **kwargs)
        self.repeat = repeat

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value] * self.repeat
        return super()._deserialize(value, attr, data, **kwargs)
