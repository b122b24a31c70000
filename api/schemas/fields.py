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
